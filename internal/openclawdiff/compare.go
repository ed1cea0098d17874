package openclawdiff

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/compile"
	"github.com/occkit/occkit/resolver"
	"github.com/occkit/occkit/resolver/selection"
)

// RefOut is a parsed model ref, or Valid false.
type RefOut struct {
	Valid                 bool
	Provider, ID, Profile string
}

func (r RefOut) String() string {
	if !r.Valid {
		return "invalid"
	}
	return fmt.Sprintf("%q/%q@%q", r.Provider, r.ID, r.Profile)
}

type clawRef struct {
	Provider string `json:"provider"`
	ID       string `json:"id"`
	Profile  string `json:"profile"`
}

func (c *clawRef) out() RefOut {
	if c == nil {
		return RefOut{}
	}
	return RefOut{Valid: true, Provider: c.Provider, ID: c.ID, Profile: c.Profile}
}

// RefAnswer is OpenClaw's answer for one ref input.
type RefAnswer struct {
	Strict, Lenient RefOut
	// OccNorm is OpenClaw's model-ID normalization of occkit's lenient
	// answer (used to recognise the normalization class).
	OccNorm RefOut
}

func occRef(r resolver.Ref, ok bool) RefOut {
	if !ok {
		return RefOut{}
	}
	return RefOut{Valid: true, Provider: r.Provider, ID: r.ID, Profile: r.Profile}
}

// RefItem builds the oracle item for in, with occkit's lenient answer.
func RefItem(in RefInput) (item map[string]any, strict, lenient RefOut) {
	strict = occRef(resolver.ParseRef(in.Raw))
	lenient = occRef(resolver.ParseRefLenient(in.Raw, in.DefaultProvider))
	item = map[string]any{"op": "ref", "raw": in.Raw, "defaultProvider": in.DefaultProvider}
	if lenient.Valid {
		item["occ"] = map[string]any{"provider": lenient.Provider, "id": lenient.ID, "profile": lenient.Profile}
	}
	return item, strict, lenient
}

// DecodeRef decodes the oracle's answer to a ref item.
func DecodeRef(raw json.RawMessage) (RefAnswer, error) {
	var a struct {
		Strict, Lenient, OccNorm *clawRef
		Fatal                    string `json:"fatal"`
	}
	if err := json.Unmarshal(raw, &a); err != nil {
		return RefAnswer{}, err
	}
	if a.Fatal != "" {
		return RefAnswer{}, fmt.Errorf("oracle: %s", a.Fatal)
	}
	return RefAnswer{Strict: a.Strict.out(), Lenient: a.Lenient.out(), OccNorm: a.OccNorm.out()}, nil
}

// PolicyOut is a runtime policy: the normalized runtime and its source.
type PolicyOut struct {
	Runtime string
	Source  string
	Err     bool
}

func (p PolicyOut) String() string {
	if p.Err {
		return "error"
	}
	return p.Runtime + "/" + p.Source
}

// PolicyAnswer is OpenClaw's answer for the authored key order and two
// permutations of every object's keys.
type PolicyAnswer struct {
	R, Asc, Desc PolicyOut
}

// OrderDependent reports whether OpenClaw's answer changed with key order.
func (a PolicyAnswer) OrderDependent() bool { return a.R != a.Asc || a.R != a.Desc }

// Any reports whether one of OpenClaw's answers under some key order is p.
func (a PolicyAnswer) Any(p PolicyOut) bool { return p == a.R || p == a.Asc || p == a.Desc }

func clawPolicy(id *string, source *string) PolicyOut {
	if id == nil {
		return PolicyOut{Runtime: resolver.RuntimeAuto, Source: string(selection.SourceImplicit)}
	}
	s := ""
	if source != nil {
		s = *source
	}
	return PolicyOut{Runtime: resolver.NormalizeRuntime(*id), Source: s}
}

// PolicyItem builds the oracle item and occkit's answer for in.
func PolicyItem(in PolicyInput) (map[string]any, PolicyOut, error) {
	raw, err := json.Marshal(in.Config)
	if err != nil {
		return nil, PolicyOut{}, err
	}
	doc, err := occkit.ParseDocument(raw)
	if err != nil {
		return nil, PolicyOut{}, err
	}
	item := map[string]any{"op": "policy", "config": in.Config, "provider": in.Provider, "modelId": in.ModelID, "agentId": in.AgentID}
	p, err := selection.LookupPolicy(doc, selection.Request{Provider: in.Provider, Model: in.ModelID, AgentID: in.AgentID})
	if err != nil {
		return item, PolicyOut{Err: true}, nil
	}
	return item, PolicyOut{Runtime: p.Runtime, Source: string(p.Source)}, nil
}

// DecodePolicy decodes the oracle's answer to a policy item.
func DecodePolicy(raw json.RawMessage) (PolicyAnswer, error) {
	type one struct {
		ID     *string `json:"id"`
		Source *string `json:"source"`
	}
	var a struct {
		R, Asc, Desc one
		Fatal        string `json:"fatal"`
	}
	if err := json.Unmarshal(raw, &a); err != nil {
		return PolicyAnswer{}, err
	}
	if a.Fatal != "" {
		return PolicyAnswer{}, fmt.Errorf("oracle: %s", a.Fatal)
	}
	return PolicyAnswer{R: clawPolicy(a.R.ID, a.R.Source), Asc: clawPolicy(a.Asc.ID, a.Asc.Source), Desc: clawPolicy(a.Desc.ID, a.Desc.Source)}, nil
}

// SpecPlugin is occkit's side of a [HarnessSpec].
type SpecPlugin struct{ S HarnessSpec }

// ID implements selection.HarnessPlugin.
func (p SpecPlugin) ID() string { return p.S.ID }

// AutoProviders implements selection.HarnessPlugin: no list means every
// provider ("*").
func (p SpecPlugin) AutoProviders() []string {
	if p.S.AutoProviders == nil {
		return []string{"*"}
	}
	return p.S.AutoProviders
}

// Priority implements selection.HarnessPlugin.
func (p SpecPlugin) Priority() int { return p.S.Priority }

// Supports implements selection.HarnessPlugin with the rules of oracle.mjs.
func (p SpecPlugin) Supports(f selection.RouteFacts) selection.Support {
	names := slices.Contains(p.S.SupportsProviders, "*") || slices.Contains(p.S.SupportsProviders, f.Provider)
	refused := false
	for _, pre := range p.S.RefusePrefixes {
		refused = refused || strings.HasPrefix(f.Model, pre)
	}
	if names && !refused {
		return selection.Supported()
	}
	if p.S.Fallback {
		return selection.FallbackToOpenClaw("declares openclaw fallback")
	}
	return selection.Unsupported("route not supported")
}

// SelectOut is a selection outcome: the runtime, or an error.
type SelectOut struct {
	Runtime string
	Err     bool
	// OverrideIgnored: occkit ignored an incompatible session override.
	OverrideIgnored bool
}

func (s SelectOut) String() string {
	if s.Err {
		return "error"
	}
	return s.Runtime
}

// SelectAnswer is OpenClaw's answer for the authored key order and two
// permutations.
type SelectAnswer struct {
	R, Asc, Desc SelectOut
	Reason       string
	Msg          string
}

// OrderDependent reports whether OpenClaw's answer changed with key order.
func (a SelectAnswer) OrderDependent() bool { return a.R != a.Asc || a.R != a.Desc }

// SelectItem builds the oracle item and occkit's answer for in.
func SelectItem(in SelectInput) (map[string]any, SelectOut, error) {
	raw, err := json.Marshal(in.Config)
	if err != nil {
		return nil, SelectOut{}, err
	}
	doc, err := occkit.ParseDocument(raw)
	if err != nil {
		return nil, SelectOut{}, err
	}
	plugins := make([]selection.HarnessPlugin, 0, len(in.Harnesses))
	for _, h := range in.Harnesses {
		plugins = append(plugins, SpecPlugin{S: h})
	}
	reg, err := selection.NewRegistry(plugins...)
	if err != nil {
		return nil, SelectOut{}, err
	}
	item := map[string]any{"op": "select", "config": in.Config, "provider": in.Provider, "modelId": in.ModelID,
		"agentId": in.AgentID, "harnesses": in.Harnesses, "lockedOwner": in.LockedOwner, "override": in.Override}
	sel, err := selection.Select(doc, selection.Request{Provider: in.Provider, Model: in.ModelID, AgentID: in.AgentID,
		Session: selection.Session{LockedOwner: in.LockedOwner, Override: in.Override}}, reg)
	if err != nil {
		return item, SelectOut{Err: true}, nil
	}
	out := SelectOut{Runtime: sel.Runtime}
	for _, r := range sel.Reasons() {
		if r.Rule == "SEL-8" && strings.HasPrefix(r.Note, "incompatible session override ignored") {
			out.OverrideIgnored = true
		}
	}
	return item, out, nil
}

// DecodeSelect decodes the oracle's answer to a select item.
func DecodeSelect(raw json.RawMessage) (SelectAnswer, error) {
	type one struct {
		Selected string `json:"selected"`
		Reason   string `json:"reason"`
		Error    string `json:"error"`
	}
	var a struct {
		R, Asc, Desc one
		Fatal        string `json:"fatal"`
	}
	if err := json.Unmarshal(raw, &a); err != nil {
		return SelectAnswer{}, err
	}
	if a.Fatal != "" {
		return SelectAnswer{}, fmt.Errorf("oracle: %s", a.Fatal)
	}
	conv := func(o one) SelectOut {
		if o.Error != "" {
			return SelectOut{Err: true}
		}
		return SelectOut{Runtime: o.Selected}
	}
	return SelectAnswer{R: conv(a.R), Asc: conv(a.Asc), Desc: conv(a.Desc), Reason: a.R.Reason, Msg: a.R.Error}, nil
}

// DoctorOut is the runtime-relevant projection of a repaired
// configuration (see [ProjectDoctor]), or Err.
type DoctorOut struct {
	Proj string
	Err  bool
}

// ProjectDoctor keeps what runtime repair decides: per agent scope the
// model selections, the models map keys with their agentRuntime.id, and
// whether the whole-agent keys remain; per provider its agentRuntime.id
// and its rows' ids and agentRuntime.id. Everything else doctor touches
// (channels, tools, metadata) is outside occkit's repair.
func ProjectDoctor(cfg map[string]any) string {
	out := map[string]any{}
	scope := func(name string, v any) {
		s, ok := v.(map[string]any)
		if !ok {
			return
		}
		p := map[string]any{"model": s["model"], "agentRuntime": s["agentRuntime"] != nil, "embeddedHarness": s["embeddedHarness"] != nil}
		if sub, ok := s["subagents"].(map[string]any); ok {
			p["subagents.model"] = sub["model"]
		}
		if models, ok := s["models"].(map[string]any); ok {
			keys := map[string]any{}
			for k, v := range models {
				keys[k] = runtimeID(v)
			}
			p["models"] = keys
		}
		out[name] = p
	}
	agents, _ := cfg["agents"].(map[string]any)
	scope("defaults", agents["defaults"])
	if entries, ok := agents["entries"].(map[string]any); ok {
		for id, e := range entries {
			scope("entry:"+id, e)
		}
	}
	if models, ok := cfg["models"].(map[string]any); ok {
		if providers, ok := models["providers"].(map[string]any); ok {
			for id, pv := range providers {
				pc, _ := pv.(map[string]any)
				p := map[string]any{"agentRuntime": runtimeID(pc)}
				if rows, ok := pc["models"].([]any); ok {
					var rs []any
					for _, r := range rows {
						rm, _ := r.(map[string]any)
						rs = append(rs, []any{rm["id"], runtimeID(rm)})
					}
					p["rows"] = rs
				}
				out["provider:"+id] = p
			}
		}
	}
	b, _ := json.Marshal(out) // map keys sorted: a canonical form
	return string(b)
}

func runtimeID(v any) any {
	m, _ := v.(map[string]any)
	ar, _ := m["agentRuntime"].(map[string]any)
	if ar == nil {
		return nil
	}
	return ar["id"]
}

// DoctorItem builds the oracle item and occkit's answer for in.
func DoctorItem(in DoctorInput) (map[string]any, DoctorOut, error) {
	raw, err := json.Marshal(in.Config)
	if err != nil {
		return nil, DoctorOut{}, err
	}
	doc, err := occkit.ParseDocument(raw)
	if err != nil {
		return nil, DoctorOut{}, err
	}
	item := map[string]any{"op": "doctor", "config": in.Config}
	fixed, _, err := compile.Repair(doc)
	if err != nil {
		return item, DoctorOut{Err: true}, nil
	}
	var m map[string]any
	if err := json.Unmarshal(fixed.Bytes(), &m); err != nil {
		return nil, DoctorOut{}, err
	}
	return item, DoctorOut{Proj: ProjectDoctor(m)}, nil
}

// DoctorAnswer is OpenClaw's repaired projection.
type DoctorAnswer struct {
	DoctorOut
	Changes []string
	// Explained lists the smallest set of reasons under which OpenClaw's
	// doctor gives occkit's answer: "key-order" (a permuted key order),
	// "catalog" and "implicitPrimary" (doctor without that migration).
	// Nil when no variant was asked for or none matches.
	Explained []string
}

// DoctorItemVariants asks again for a doctor item, with variants: stage
// 0 the authored key order without the skippable migrations, stage 1 also
// the permuted key orders.
func DoctorItemVariants(item any, stage int) any {
	m := item.(map[string]any)
	c := make(map[string]any, len(m)+1)
	for k, v := range m {
		c[k] = v
	}
	skips := [][]string{{}, {"catalog"}, {"implicitPrimary"}, {"catalog", "implicitPrimary"}}
	var vs []any
	for _, order := range []string{"authored", "asc", "desc"} {
		if stage == 0 && order != "authored" {
			break
		}
		for _, s := range skips {
			if order == "authored" && (len(s) == 0 || stage == 1) {
				continue
			}
			vs = append(vs, map[string]any{"order": order, "skip": s})
		}
	}
	c["variants"] = vs
	return c
}

// DecodeDoctor decodes the oracle's answer to a doctor item; occ is
// occkit's answer, used to find which variant explains a difference.
func DecodeDoctor(raw json.RawMessage, occ DoctorOut) (DoctorAnswer, error) {
	var a struct {
		OK       bool           `json:"ok"`
		Config   map[string]any `json:"config"`
		Changes  []string       `json:"changes"`
		Error    string         `json:"error"`
		Fatal    string         `json:"fatal"`
		Variants []struct {
			Order  string         `json:"order"`
			Skip   []string       `json:"skip"`
			OK     bool           `json:"ok"`
			Config map[string]any `json:"config"`
		} `json:"variants"`
	}
	if err := json.Unmarshal(raw, &a); err != nil {
		return DoctorAnswer{}, err
	}
	if a.Fatal != "" {
		return DoctorAnswer{}, fmt.Errorf("oracle: %s", a.Fatal)
	}
	if !a.OK {
		return DoctorAnswer{DoctorOut: DoctorOut{Err: true}, Changes: []string{a.Error}}, nil
	}
	ans := DoctorAnswer{DoctorOut: DoctorOut{Proj: ProjectDoctor(a.Config)}, Changes: a.Changes}
	for _, v := range a.Variants {
		if !v.OK || occ.Err || ProjectDoctor(v.Config) != occ.Proj {
			continue
		}
		why := append([]string(nil), v.Skip...)
		if v.Order != "authored" {
			why = append(why, "key-order")
		}
		if ans.Explained == nil || len(why) < len(ans.Explained) {
			ans.Explained = why
		}
	}
	return ans, nil
}

// DoctorExplainedBy reports whether the answer is explained by reasons
// that all have rows in table, reason among them.
func DoctorExplainedBy(a DoctorAnswer, reason string) bool {
	return a.Explained != nil && slices.Contains(a.Explained, reason)
}

// LoadOut is a loaded configuration (canonical JSON) or an error.
type LoadOut struct {
	JSON string
	Err  bool
	// MissingVar: occkit refused a ${VAR} whose variable is not set.
	MissingVar bool
}

func (l LoadOut) String() string {
	if l.Err {
		return "error"
	}
	return l.JSON
}

// LoadItem loads in with occkit and builds the oracle item.
func LoadItem(in LoadInput) (map[string]any, LoadOut) {
	item := map[string]any{"op": "load", "path": in.Main, "env": in.Env}
	doc, err := compile.LoadFile(in.Main, compile.LoadOptions{Lookup: func(name string) (string, bool) {
		v, ok := in.Env[name]
		return v, ok
	}})
	if err != nil {
		var oe *occkit.Error
		missing := errors.As(err, &oe) && oe.Rule == "DOC-4" && strings.Contains(oe.Message(), "is not set")
		return item, LoadOut{Err: true, MissingVar: missing}
	}
	return item, LoadOut{JSON: canonJSON(doc.Bytes())}
}

func canonJSON(b []byte) string {
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return "!" + err.Error()
	}
	out, _ := json.Marshal(v) // sorted keys
	return string(out)
}

// LoadAnswer is OpenClaw's loaded configuration.
type LoadAnswer struct {
	LoadOut
	Missing []string
	Msg     string
}

// DecodeLoad decodes the oracle's answer to a load item.
func DecodeLoad(raw json.RawMessage) (LoadAnswer, error) {
	var a struct {
		OK      bool            `json:"ok"`
		Value   json.RawMessage `json:"value"`
		Missing []string        `json:"missing"`
		Error   string          `json:"error"`
		Fatal   string          `json:"fatal"`
	}
	if err := json.Unmarshal(raw, &a); err != nil {
		return LoadAnswer{}, err
	}
	if a.Fatal != "" {
		return LoadAnswer{}, fmt.Errorf("oracle: %s", a.Fatal)
	}
	if !a.OK {
		return LoadAnswer{LoadOut: LoadOut{Err: true}, Msg: a.Error}, nil
	}
	return LoadAnswer{LoadOut: LoadOut{JSON: canonJSON(a.Value)}, Missing: a.Missing}, nil
}
