package openclawdiff

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/compile"
	"github.com/occkit/occkit/compile/envpolicy"
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

// PolicyOut is a runtime policy: the runtime and its source.
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

// PolicyAnswer is OpenClaw's answer for the authored input and for the
// variants a divergence row asked for (see [PolicyVariants]).
type PolicyAnswer struct {
	R PolicyOut
	// ID is the policy id as OpenClaw returned it, before its own
	// normalization.
	ID       string
	Variants map[string]PolicyOut
}

// clawPolicy reads one answer of the oracle. The runtime is OpenClaw's own
// reading of the id (normalizeOptionalAgentRuntimeId, then
// isDefaultAgentRuntimeId for "automatic"); no policy at all is automatic
// with the implicit source, as OpenClaw's harness policy reads it.
func clawPolicy(runtime, source *string) PolicyOut {
	if runtime == nil {
		return PolicyOut{Runtime: resolver.RuntimeAuto, Source: string(selection.SourceImplicit)}
	}
	s := ""
	if source != nil {
		s = *source
	}
	return PolicyOut{Runtime: *runtime, Source: s}
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
	item := map[string]any{"op": "policy", "config": json.RawMessage(raw), "provider": in.Provider, "modelId": in.ModelID, "agentId": in.AgentID}
	p, err := selection.LookupPolicy(doc, selection.Request{Provider: in.Provider, Model: in.ModelID, AgentID: in.AgentID})
	if err != nil {
		return item, PolicyOut{Err: true}, nil
	}
	return item, PolicyOut{Runtime: p.Runtime, Source: string(p.Source)}, nil
}

type clawPolicyJSON struct {
	ID      *string `json:"id"`
	Runtime *string `json:"runtime"`
	Source  *string `json:"source"`
}

// DecodePolicy decodes the oracle's answer to a policy item.
func DecodePolicy(raw json.RawMessage) (PolicyAnswer, error) {
	var a struct {
		R        clawPolicyJSON
		Variants map[string]clawPolicyJSON
		Fatal    string `json:"fatal"`
	}
	if err := json.Unmarshal(raw, &a); err != nil {
		return PolicyAnswer{}, err
	}
	if a.Fatal != "" {
		return PolicyAnswer{}, fmt.Errorf("oracle: %s", a.Fatal)
	}
	out := PolicyAnswer{R: clawPolicy(a.R.Runtime, a.R.Source)}
	if a.R.ID != nil {
		out.ID = *a.R.ID
	}
	if a.Variants != nil {
		out.Variants = map[string]PolicyOut{}
		for k, v := range a.Variants {
			out.Variants[k] = clawPolicy(v.Runtime, v.Source)
		}
	}
	return out, nil
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

// SelectOut is a selection outcome: the runtime and the source of the
// policy that decided, or an error.
type SelectOut struct {
	Runtime string
	Source  string
	Err     bool
	// OverrideIgnored: occkit ignored an incompatible session override.
	OverrideIgnored bool
}

// Same reports whether two outcomes agree (runtime, source, error).
func (s SelectOut) Same(o SelectOut) bool {
	return s.Err == o.Err && (s.Err || s.Runtime == o.Runtime && s.Source == o.Source)
}

func (s SelectOut) String() string {
	if s.Err {
		return "error"
	}
	return s.Runtime + "/" + s.Source
}

// SelectAnswer is OpenClaw's answer for the authored input and for the
// variants a divergence row asked for (see [SelectVariants]).
type SelectAnswer struct {
	R        SelectOut
	Reason   string
	Msg      string
	Variants map[string]SelectOut
	// VariantReasons are OpenClaw's selectedReason per variant.
	VariantReasons map[string]string
}

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
	item := map[string]any{"op": "select", "config": json.RawMessage(raw), "provider": in.Provider, "modelId": in.ModelID,
		"agentId": in.AgentID, "harnesses": in.Harnesses, "lockedOwner": in.LockedOwner, "override": in.Override}
	sel, err := selection.Select(doc, selection.Request{Provider: in.Provider, Model: in.ModelID, AgentID: in.AgentID,
		Session: selection.Session{LockedOwner: in.LockedOwner, Override: in.Override}}, reg)
	if err != nil {
		return item, SelectOut{Err: true}, nil
	}
	out := SelectOut{Runtime: sel.Runtime, Source: string(sel.Source)}
	for _, r := range sel.Reasons() {
		if r.Rule == "SEL-8" && strings.HasPrefix(r.Note, "incompatible session override ignored") {
			out.OverrideIgnored = true
		}
	}
	return item, out, nil
}

type clawSelectJSON struct {
	Selected string `json:"selected"`
	Reason   string `json:"reason"`
	Source   string `json:"source"`
	Error    string `json:"error"`
}

func (o clawSelectJSON) out() SelectOut {
	if o.Error != "" {
		return SelectOut{Err: true}
	}
	return SelectOut{Runtime: o.Selected, Source: o.Source}
}

// DecodeSelect decodes the oracle's answer to a select item.
func DecodeSelect(raw json.RawMessage) (SelectAnswer, error) {
	var a struct {
		R        clawSelectJSON
		Variants map[string]clawSelectJSON
		Fatal    string `json:"fatal"`
	}
	if err := json.Unmarshal(raw, &a); err != nil {
		return SelectAnswer{}, err
	}
	if a.Fatal != "" {
		return SelectAnswer{}, fmt.Errorf("oracle: %s", a.Fatal)
	}
	out := SelectAnswer{R: a.R.out(), Reason: a.R.Reason, Msg: a.R.Error}
	if a.Variants != nil {
		out.Variants = map[string]SelectOut{}
		out.VariantReasons = map[string]string{}
		for k, v := range a.Variants {
			out.Variants[k] = v.out()
			out.VariantReasons[k] = v.Reason
		}
	}
	return out, nil
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
		// A scope holding nothing runtime repair decides (doctor creates
		// an empty agents.defaults) projects like a missing one.
		if p["model"] == nil && p["models"] == nil && p["subagents.model"] == nil && s["agentRuntime"] == nil && s["embeddedHarness"] == nil {
			return
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
	item := map[string]any{"op": "doctor", "config": json.RawMessage(raw)}
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
	// Variants are doctor's answers for the variants asked for
	// ([DoctorItemVariants]), by name.
	Variants map[string]DoctorOut
	// Explained lists the smallest set of reasons under which occkit's
	// answer becomes OpenClaw's: "catalog" (compared with doctor's answer
	// without its catalog knowledge), "key-order" (compared with its
	// answer on the canonical-first configuration) and "implicitPrimary"
	// (OpenClaw's primary written where occkit's answer has none). Nil
	// when none does.
	Explained []string
}

// withClawPrimary writes OpenClaw's agents.defaults.model into occkit's
// projection when occkit's has none.
func withClawPrimary(occ, claw string) (string, bool) {
	var o, c map[string]any
	if json.Unmarshal([]byte(occ), &o) != nil || json.Unmarshal([]byte(claw), &c) != nil {
		return "", false
	}
	od, _ := o["defaults"].(map[string]any)
	cd, _ := c["defaults"].(map[string]any)
	if cd == nil || cd["model"] == nil || od != nil && od["model"] != nil {
		return "", false
	}
	if od == nil {
		// occkit's defaults held nothing runtime repair decides
		od = map[string]any{"agentRuntime": false, "embeddedHarness": false}
		o["defaults"] = od
	}
	od["model"] = cd["model"]
	b, err := json.Marshal(o)
	return string(b), err == nil
}

// DoctorItemVariants adds to a doctor item the variants the doctor rows
// need: [VarCanonicalFirst], [VarSyntaxOnly] and both.
func DoctorItemVariants(item map[string]any, in DoctorInput) map[string]any {
	first := CanonicalFirst(in.Config)
	return withField(item, "variants", []any{
		map[string]any{"name": VarCanonicalFirst, "config": first},
		map[string]any{"name": VarSyntaxOnly, "syntaxOnly": true},
		map[string]any{"name": VarCanonicalFirstSyntax, "config": first, "syntaxOnly": true},
	})
}

// withField is a copy of the oracle item with k set to v.
func withField(item map[string]any, k string, v any) map[string]any {
	c := make(map[string]any, len(item)+1)
	for key, val := range item {
		c[key] = val
	}
	c[k] = v
	return c
}

// The reasons a doctor difference may have (see [DoctorAnswer.Explained]).
const (
	DoctorCatalog        = "catalog"
	DoctorImplicitPrim   = "implicitPrimary"
	DoctorKeyOrder       = "key-order"
	DoctorProfiledPolicy = "profiled-policy"
)

// doctorReasons are the sets of reasons tried, smallest first.
var doctorReasons = func() [][]string {
	all := []string{DoctorCatalog, DoctorImplicitPrim, DoctorKeyOrder, DoctorProfiledPolicy}
	var sets [][]string
	for mask := 1; mask < 1<<len(all); mask++ {
		var set []string
		for i, r := range all {
			if mask&(1<<i) != 0 {
				set = append(set, r)
			}
		}
		sets = append(sets, set)
	}
	slices.SortStableFunc(sets, func(a, b []string) int { return len(a) - len(b) })
	return sets
}()

// foldProfiledPolicy is a doctor projection with the policy doctor wrote
// under a ref's key with its auth profile (`openai/m@work`) moved to the
// model's key (`openai/m`), as occkit writes it. A legacy ref's policy
// takes the place of no policy, a blank or `auto` and yields to a
// concrete pin (CMP-3). A scope's whole-agent CLI pin becomes policy
// before the legacy keys merge, so there its policy also wins over what
// they merged, unless in authored a key of the scope spelled as the model
// already carried a concrete pin; that holds only for a ref of the scope's
// own model selection, written canonical ([selects]). Only keys doctor keyed by a profile and
// pinned to a legacy runtime's target (codex, claude-cli,
// google-gemini-cli) move; changed is false when none does.
func foldProfiledPolicy(proj string, authored Obj) (string, bool) {
	var p map[string]any
	if json.Unmarshal([]byte(proj), &p) != nil {
		return "", false
	}
	changed := false
	for name, sv := range p {
		scope, _ := sv.(map[string]any)
		models, _ := scope["models"].(map[string]any)
		in := authoredScope(authored, name)
		pin, _ := in.Obj("agentRuntime").Get("id")
		pinID, _ := pin.(string)
		keys := make([]string, 0, len(models))
		for k := range models {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			rt, _ := models[k].(string)
			ref, ok := resolver.ParseRef(k)
			if !ok || ref.Profile == "" || !slices.Contains([]string{"codex", "claude-cli", "google-gemini-cli"}, rt) {
				continue
			}
			delete(models, k)
			cur, _ := models[ref.Key()].(string)
			c := strings.ToLower(strings.TrimSpace(cur))
			pinned := rt != "codex" && fold(pinID) == rt && selects(in, ref) && !authoredPin(in, ref.Key())
			if c == "" || c == "auto" || pinned {
				models[ref.Key()] = rt
			}
			changed = true
		}
	}
	if !changed {
		return "", false
	}
	b, err := json.Marshal(p)
	return string(b), err == nil
}

// authoredScope is the agent scope of a projection name ("defaults",
// "entry:<id>") in the authored configuration.
func authoredScope(cfg Obj, name string) Obj {
	agents := cfg.Obj("agents")
	if id, ok := strings.CutPrefix(name, "entry:"); ok {
		return agents.Obj("entries").Obj(id)
	}
	if name == "defaults" {
		return agents.Obj("defaults")
	}
	return nil
}

// selects reports whether the authored scope's own model selection (its
// `model` string, or that object's `primary` and `fallbacks`) names ref,
// written canonical: only those refs does a whole-agent CLI pin turn into
// policy (a ref of `modelPolicy.allow` or `subagents.model` brings only
// its own legacy runtime).
func selects(scope Obj, ref resolver.Ref) bool {
	var refs []any
	model, _ := scope.Get("model")
	switch m := model.(type) {
	case string:
		refs = append(refs, m)
	case Obj:
		p, _ := m.Get("primary")
		f, _ := m.Get("fallbacks")
		fs, _ := f.([]any)
		refs = append(append(refs, p), fs...)
	}
	for _, v := range refs {
		s, _ := v.(string)
		if r, ok := resolver.ParseRef(s); ok && r.Provider == ref.Provider && r.ID == ref.ID && r.Profile == ref.Profile {
			return true
		}
	}
	return false
}

// authoredPin reports whether the authored scope has a key that is not a
// legacy ref, spelled as key once trimmed, with a concrete pin.
func authoredPin(scope Obj, key string) bool {
	for _, m := range scope.Obj("models") {
		if mergeRank(m) != 0 || resolver.TrimRef(m.K) != key {
			continue
		}
		e, _ := m.V.(Obj)
		v, _ := e.Obj("agentRuntime").Get("id")
		if id, ok := v.(string); ok && fold(id) != "" && fold(id) != "auto" {
			return true
		}
	}
	return false
}

// DecodeDoctor decodes the oracle's answer to a doctor item for in; occ
// is occkit's answer, used to find the reasons that explain a difference.
func DecodeDoctor(raw json.RawMessage, in DoctorInput, occ DoctorOut) (DoctorAnswer, error) {
	type one struct {
		OK     bool           `json:"ok"`
		Config map[string]any `json:"config"`
	}
	var a struct {
		OK       bool           `json:"ok"`
		Config   map[string]any `json:"config"`
		Changes  []string       `json:"changes"`
		Error    string         `json:"error"`
		Fatal    string         `json:"fatal"`
		Variants map[string]one `json:"variants"`
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
	if a.Variants != nil {
		ans.Variants = map[string]DoctorOut{}
		for k, v := range a.Variants {
			if v.OK {
				ans.Variants[k] = DoctorOut{Proj: ProjectDoctor(v.Config)}
			} else {
				ans.Variants[k] = DoctorOut{Err: true}
			}
		}
	}
	if occ.Err || ans.Err || occ.Proj == ans.Proj || ans.Variants == nil {
		return ans, nil
	}
	for _, why := range doctorReasons {
		target := ans.DoctorOut
		switch catalog, order := slices.Contains(why, DoctorCatalog), slices.Contains(why, DoctorKeyOrder); {
		case catalog && order:
			target = ans.Variants[VarCanonicalFirstSyntax]
		case catalog:
			target = ans.Variants[VarSyntaxOnly]
		case order:
			target = ans.Variants[VarCanonicalFirst]
		}
		if target.Err || target.Proj == "" {
			continue
		}
		want, ok := target.Proj, true
		if slices.Contains(why, DoctorProfiledPolicy) {
			want, ok = foldProfiledPolicy(want, in.Config)
		}
		got := occ.Proj
		if ok && slices.Contains(why, DoctorImplicitPrim) {
			got, ok = withClawPrimary(got, want)
		}
		if ok && got == want {
			ans.Explained = why
			break
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
	// MissingVar names the variable of occkit's DOC-4 "is not set"
	// refusal ("" for any other outcome).
	MissingVar string
	// Duplicate: occkit refused a duplicate object key (DOC-2).
	Duplicate bool
}

func (l LoadOut) String() string {
	if l.Err {
		return "error"
	}
	return l.JSON
}

var missingVar = regexp.MustCompile(`^variable (\S+) is not set$`)

// LoadItem loads in with occkit and builds the oracle item.
func LoadItem(in LoadInput) (map[string]any, LoadOut) {
	item := map[string]any{"op": "load", "path": in.Main, "env": in.Env}
	doc, err := compile.LoadFile(in.Main, compile.LoadOptions{Lookup: func(name string) (string, bool) {
		v, ok := in.Env[name]
		return v, ok
	}})
	if err != nil {
		out := LoadOut{Err: true}
		var oe *occkit.Error
		if errors.As(err, &oe) {
			if m := missingVar.FindStringSubmatch(oe.Message()); oe.Rule == "DOC-4" && m != nil {
				out.MissingVar = m[1]
			}
			out.Duplicate = oe.Rule == "DOC-2" && strings.Contains(oe.Message(), "duplicate object key")
		}
		return item, out
	}
	return item, LoadOut{JSON: canonJSON(doc.Bytes())}
}

// unsetMark stands for a variable neither the lookup nor OpenClaw knows
// when occkit's load is recomputed ([LoadExplained]).
const unsetMark = "\x00occkit-unset\x00"

// pairMissing stands for a name of the ZAI_API_KEY pair OpenClaw reported
// missing: a value the loader reads as blank (JavaScript white space), so
// that, as in OpenClaw, it fills neither name of the pair, and that the
// recomputation then writes back as the literal ${NAME} OpenClaw keeps.
var pairMissing = map[string]string{
	"ZAI_API_KEY":  "\u2028\u00a0\u2029",
	"Z_AI_API_KEY": "\u2029\u00a0\u2028",
}

// Load reasons ([LoadExplained]).
const (
	LoadMissingVar = "missing-variable"
	LoadProto      = "proto"
)

// LoadExplained recomputes occkit's load of the case's tree as OpenClaw
// reads it and returns the reasons that then make it OpenClaw's answer,
// or nil: LoadMissingVar when a variable the lookup does not know (DOC-4:
// an error) must be kept as the literal `${NAME}` OpenClaw keeps, which
// holds only for the variables OpenClaw reported missing; LoadProto when
// the `__proto__` members occkit keeps (DOC-3) must be removed. A
// variable OpenClaw did not report missing may only occur inside a
// removed `__proto__` member (OpenClaw drops it before substituting).
func LoadExplained(c Case) []string {
	in, _ := c.Input.(LoadInput)
	o, a := c.Occ.(LoadOut), c.Claw.(LoadAnswer)
	if a.Err || o.Err && o.MissingVar == "" || in.Main == "" {
		return nil
	}
	// The names the tree's env sections define fill what the lookup
	// lacks or holds blank: they are left to the loader.
	raw, err := compile.LoadFile(in.Main, compile.LoadOptions{})
	if err != nil {
		return nil
	}
	defined := compile.DefinedEnv(raw, compile.SecretPolicy{Env: envpolicy.Pinned()})
	return loadAs(in, a, defined)
}

// loadAs is the recomputation of [LoadExplained].
func loadAs(in LoadInput, a LoadAnswer, defined []string) []string {
	var why []string
	doc, err := compile.LoadFile(in.Main, compile.LoadOptions{Lookup: func(name string) (string, bool) {
		v, ok := in.Env[name]
		mark, pair := pairMissing[name]
		switch {
		case slices.Contains(defined, name):
			return v, ok // the loader fills it, or keeps a non-blank value
		case v != "":
			return v, true // an empty value is missing, on both sides
		case pair && !slices.Contains(a.Missing, name):
			// The pair's normalization reads it as unset, as OpenClaw
			// does; a reference that needs it then fails the load.
			return v, ok
		}
		if !slices.Contains(why, LoadMissingVar) {
			why = append(why, LoadMissingVar)
		}
		if pair {
			return mark, true
		}
		if slices.Contains(a.Missing, name) {
			return "${" + name + "}", true
		}
		return unsetMark, true
	}})
	if err != nil {
		return nil
	}
	got := canonJSON(doc.Bytes())
	for name, mark := range pairMissing {
		got = strings.ReplaceAll(got, strings.Trim(canonJSON([]byte(strconv.Quote(mark))), `"`), "${"+name+"}")
	}
	if strings.Contains(got, `"__proto__"`) {
		why = append(why, LoadProto)
		got = withoutProto(got)
	}
	if len(why) == 0 || got != a.JSON || strings.Contains(got, "occkit-unset") {
		return nil
	}
	return why
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

func jsonUnmarshal(s string, v any) error { return json.Unmarshal([]byte(s), v) }

// canonValue is v as JSON with sorted keys.
func canonValue(v any) string {
	out, _ := json.Marshal(v)
	return string(out)
}
