package openclawdiff

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/resolver"
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
		return PolicyOut{Runtime: resolver.RuntimeAuto, Source: string(resolver.SourceImplicit)}
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
	p, err := resolver.LookupPolicy(doc, resolver.SelectRequest{Provider: in.Provider, Model: in.ModelID, AgentID: in.AgentID})
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

// ID implements resolver.HarnessPlugin.
func (p SpecPlugin) ID() string { return p.S.ID }

// AutoProviders implements resolver.HarnessPlugin: no list means every
// provider ("*").
func (p SpecPlugin) AutoProviders() []string {
	if p.S.AutoProviders == nil {
		return []string{"*"}
	}
	return p.S.AutoProviders
}

// Priority implements resolver.HarnessPlugin.
func (p SpecPlugin) Priority() int { return p.S.Priority }

// Supports implements resolver.HarnessPlugin with the rules of oracle.mjs.
func (p SpecPlugin) Supports(f resolver.RouteFacts) resolver.Support {
	names := slices.Contains(p.S.SupportsProviders, "*") || slices.Contains(p.S.SupportsProviders, f.Provider)
	refused := false
	for _, pre := range p.S.RefusePrefixes {
		refused = refused || strings.HasPrefix(f.Model, pre)
	}
	if names && !refused {
		return resolver.Supported()
	}
	if p.S.Fallback {
		return resolver.FallbackToOpenClaw("declares openclaw fallback")
	}
	return resolver.Unsupported("route not supported")
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
	plugins := make([]resolver.HarnessPlugin, 0, len(in.Harnesses))
	for _, h := range in.Harnesses {
		plugins = append(plugins, SpecPlugin{S: h})
	}
	reg, err := resolver.NewRegistry(plugins...)
	if err != nil {
		return nil, SelectOut{}, err
	}
	item := map[string]any{"op": "select", "config": in.Config, "provider": in.Provider, "modelId": in.ModelID,
		"agentId": in.AgentID, "harnesses": in.Harnesses, "lockedOwner": in.LockedOwner, "override": in.Override}
	sel, err := resolver.Select(doc, resolver.SelectRequest{Provider: in.Provider, Model: in.ModelID, AgentID: in.AgentID,
		Session: resolver.Session{LockedOwner: in.LockedOwner, Override: in.Override}}, reg)
	if err != nil {
		return item, SelectOut{Err: true}, nil
	}
	out := SelectOut{Runtime: sel.Runtime}
	for _, r := range sel.Reasons {
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
