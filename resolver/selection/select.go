package selection

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/resolver"
)

// Request names the provider/model turn to choose a runtime for.
type Request struct {
	// Provider is the provider ID; "" when only a bare model ID is known
	// (then Model may also be a full "provider/id" ref).
	Provider string
	// Model is the model ID (after the provider's slash). With a Provider
	// it may be "": then only the provider's wildcard keys and its own
	// agentRuntime apply (SEL-1 steps 3 and 4).
	Model string
	// AgentID selects the agent entry (`agents.entries.<id>`, or the
	// `agents.list` item with that id) whose model map is consulted first.
	AgentID string
	// Session holds the session's runtime facts; the zero value is a
	// fresh session.
	Session Session
}

// Session is what a session already says about its runtime (SEL-8).
type Session struct {
	// LockedOwner is the runtime owning a locked native transcript.
	LockedOwner string
	// Override is an explicit session runtime override.
	Override string
	// ACPBackend is the ACP backend of an ACP session.
	ACPBackend string
	// HistoricalHarnessID records which runtime produced the transcript;
	// it never pins the next turn.
	HistoricalHarnessID string
}

// Source says where the deciding runtime policy came from.
type Source string

// The closed set of sources.
const (
	// SourceModel: model-scoped policy (model map key, catalog row or
	// provider wildcard key).
	SourceModel Source = "model"
	// SourceProvider: `models.providers.<p>.agentRuntime`.
	SourceProvider Source = "provider"
	// SourceImplicit: no policy; automatic selection.
	SourceImplicit Source = "implicit"
	// SourceSession: the session (locked owner, override or ACP backend).
	SourceSession Source = "session"
)

// AllSources lists every [Source].
func AllSources() []Source {
	return []Source{SourceModel, SourceProvider, SourceImplicit, SourceSession}
}

// Result is the outcome of [Select].
type Result struct {
	// Runtime is the chosen runtime: "openclaw", a registered plugin ID,
	// or the ACP backend of an ACP session.
	Runtime string
	// Source is where the deciding policy came from.
	Source Source
	// CLIBackend is the CLI backend the built-in harness hands the turn
	// to (SEL-7), or "".
	CLIBackend string
	// ACP reports an ACP session that keeps its ACP backend (SEL-8).
	ACP bool
	// Fallback reports that Runtime is openclaw because the requested
	// plugin declared the exact-request OpenClaw fallback (SEL-5).
	Fallback bool
	// Requested is the normalized runtime the policy asked for
	// ([resolver.RuntimeAuto] when none).
	Requested string
	// Provider and Model are the effective route.
	Provider, Model string
	// Reasons is the ordered reason chain (SEL-9).
	Reasons []resolver.Reason
}

// Explain writes the reason chain, one line per [resolver.Reason], followed by the
// outcome.
func (s Result) Explain(w io.Writer) error {
	for i, r := range s.Reasons {
		line := fmt.Sprintf("%d. %s", i+1, r.Rule)
		if !r.Path.IsRoot() {
			line += " " + r.Path.String()
		}
		if r.Value != "" {
			line += " = " + r.Value
		}
		if r.Note != "" {
			line += ": " + r.Note
		}
		if _, err := fmt.Fprintln(w, occkit.Sanitize(line)); err != nil {
			return err
		}
	}
	out := fmt.Sprintf("runtime %s (source %s)", s.Runtime, s.Source)
	if s.CLIBackend != "" {
		out += " via CLI backend " + s.CLIBackend
	}
	_, err := fmt.Fprintln(w, occkit.Sanitize(out))
	return err
}

// cliBackends maps each CLI backend alias to the one provider it serves
// (SEL-7).
var cliBackends = map[string]string{
	"claude-cli":        "anthropic",
	"google-gemini-cli": "google",
}

// Select chooses the runtime for one provider/model turn with OpenClaw
// semantics (SEL-1..SEL-9). doc is the OpenClaw configuration; reg holds
// the registered plugins (nil = none). The environment is never read
// (SEL-2). Every refusal is 400 INVALID_REQUEST naming the runtime and the
// provider/model.
//
// Select is Prepare(doc).Select(req, reg); a caller deciding more
// than once on one document prepares it once.
func Select(doc occkit.Document, req Request, reg *Registry) (Result, error) {
	return Prepare(doc).Select(req, reg)
}

// Select decides one turn on the prepared document; see the package
// function [Select].
func (x *Index) Select(req Request, reg *Registry) (Result, error) {
	st := &state{x: x, reg: reg}
	provider, model, err := target(req.Provider, req.Model)
	if err != nil {
		return Result{}, err
	}
	st.provider, st.model = provider, model
	st.entry, st.entryV, st.entryKeys = x.entry(strings.ToLower(strings.TrimSpace(req.AgentID)))
	st.ignoreWholeAgentKeys()

	ses := req.Session
	if b := strings.ToLower(strings.TrimSpace(ses.ACPBackend)); b != "" {
		st.reason("SEL-8", occkit.Root(), b, "ACP session keeps its ACP backend")
		return st.done(Result{Runtime: b, Source: SourceSession, ACP: true, Requested: b}), nil
	}
	if h := strings.TrimSpace(ses.HistoricalHarnessID); h != "" {
		st.reason("SEL-8", occkit.Root(), resolver.NormalizeRuntime(h), "historical harness ID does not pin the next turn")
	}

	pol := st.lookupPolicy()
	if pol.provider != "" && st.provider == "" {
		st.provider = pol.provider
	}
	st.facts = st.routeFacts()

	if o := strings.TrimSpace(ses.LockedOwner); o != "" {
		if rt := resolver.NormalizeRuntime(o); rt != resolver.RuntimeAuto {
			st.reason("SEL-8", occkit.Root(), rt, "locked native transcript keeps its owner")
			sel, err := st.locked(rt)
			return st.done(sel), err
		}
	}
	if o := strings.TrimSpace(ses.Override); o != "" {
		if sel, ok := st.sessionOverride(resolver.NormalizeRuntime(o)); ok {
			return st.done(sel), nil
		}
	}

	if !pol.found {
		pol.runtime, pol.source = resolver.RuntimeAuto, SourceImplicit
	}
	var sel Result
	if pol.runtime == resolver.RuntimeAuto {
		sel = st.auto(pol.source, pol.ambiguous)
	} else {
		sel, err = st.explicit(pol.runtime, pol.source, pol.path, ruleFor(pol.runtime))
	}
	return st.done(sel), err
}

func ruleFor(runtime string) string {
	if _, cli := cliBackends[runtime]; cli {
		return "SEL-7"
	}
	return "SEL-5"
}

type state struct {
	x               *Index
	reg             *Registry
	provider, model string
	entry           occkit.Path // agent entry, root when none
	entryV          object      // its members
	entryKeys       *keyIndex   // its model map
	facts           RouteFacts
	reasons         []resolver.Reason
	scopeList       []scope // made once per decision
	maps            []mapAt
}

// Paths every decision names; a Path is immutable and shared.
var (
	defaultsPath       = occkit.NewPath("agents", "defaults")
	defaultsModelsPath = defaultsPath.Key("models")
)

// mapAt is a model map: where it is and its keys.
type mapAt struct {
	at   occkit.Path
	keys *keyIndex
}

func (st *state) reason(rule string, p occkit.Path, value, note string) {
	st.reasons = append(st.reasons, resolver.Reason{Rule: rule, Path: p, Value: value, Note: note})
}

func (st *state) done(s Result) Result {
	s.Provider, s.Model = st.provider, st.model
	if s.Requested == "" {
		s.Requested = resolver.RuntimeAuto
	}
	s.Reasons = st.reasons
	return s
}

func (st *state) ref() string {
	switch {
	case st.provider == "":
		return st.model
	case st.model == "":
		return st.provider
	}
	return st.provider + "/" + st.model
}

// target normalizes the request's provider and model (REF-1, REF-2).
func target(provider, model string) (string, string, error) {
	p := strings.ToLower(strings.TrimSpace(provider))
	m := strings.TrimSpace(model)
	if strings.Contains(p, "/") {
		return "", "", occkit.Invalid("SEL-1", occkit.Root(), "provider must not contain a slash")
	}
	if p == "" {
		if r, ok := resolver.ParseRef(m); ok {
			p, m = r.Provider, r.ID
		}
	} else if pre, rest, ok := strings.Cut(m, "/"); ok && strings.EqualFold(strings.TrimSpace(pre), p) && strings.TrimSpace(rest) != "" {
		m = strings.TrimSpace(rest)
	}
	// A provider without a model ID still has provider-scoped policy (its
	// wildcard keys and agentRuntime), as in OpenClaw; without either there
	// is nothing to select for.
	if m == "" && p == "" {
		return "", "", occkit.Invalid("SEL-1", occkit.Root(), "a provider or a model ID is required")
	}
	return p, m, nil
}

// ignoreWholeAgentKeys records the whole-agent runtime keys selection
// ignores (SEL-2).
func (st *state) ignoreWholeAgentKeys() {
	for _, s := range st.scopes() {
		for _, k := range []string{"agentRuntime", "embeddedHarness"} {
			if v := s.v.get(k); v.Exists() {
				st.reason("SEL-2", s.at.Key(k), runtimeValue(v), "whole-agent runtime key is ignored")
			}
		}
	}
}

func runtimeValue(v gjson.Result) string {
	if v.IsObject() {
		v = v.Get("id")
	}
	if v.Type == gjson.String {
		return resolver.NormalizeRuntime(v.String())
	}
	return ""
}

type policyHit struct {
	found     bool
	ambiguous bool
	runtime   string
	source    Source
	path      occkit.Path
	provider  string // provider of the matched key, for bare model IDs
}

// runtimeIDOf reads a non-blank `agentRuntime.id` under v.
func runtimeIDOf(ar gjson.Result) (string, bool) {
	if !ar.IsObject() {
		return "", false
	}
	id := ar.Get("id")
	if id.Type != gjson.String || strings.TrimSpace(id.String()) == "" {
		return "", false
	}
	return id.String(), true
}

// scope is an agent scope (`agents.defaults`, the agent entry).
type scope struct {
	at occkit.Path
	v  object
}

func (st *state) scopes() []scope {
	if st.scopeList == nil {
		st.scopeList = []scope{{defaultsPath, st.x.defaults}}
		if !st.entry.IsRoot() {
			st.scopeList = append(st.scopeList, scope{st.entry, st.entryV})
		}
	}
	return st.scopeList
}

func (st *state) modelMaps() []mapAt {
	if st.maps == nil {
		if !st.entry.IsRoot() {
			st.maps = append(st.maps, mapAt{st.entry.Key("models"), st.entryKeys})
		}
		st.maps = append(st.maps, mapAt{defaultsModelsPath, st.x.defMap})
	}
	return st.maps
}

// lookupPolicy applies the SEL-1 lookup order.
func (st *state) lookupPolicy() policyHit {
	// 1. exact model keys, entry scope then defaults.
	for _, m := range st.modelMaps() {
		pol, stop := st.scanKeys(m, false)
		if pol.ambiguous {
			st.reason("SEL-1", m.at, st.model, "bare model ID matches keys of different providers: no policy")
			return pol
		}
		if stop {
			return pol
		}
	}
	// 2. the provider catalog row (a bare model ID names no provider).
	if row, rv, ok := st.catalogRow(); ok {
		if id, ok := runtimeIDOf(rv.Get("agentRuntime")); ok {
			return st.hit(row.Key("agentRuntime").Key("id"), id, SourceModel, "catalog row policy", "")
		}
	}
	// 3. provider wildcard keys; for a bare model ID, any provider's,
	// unless keys of different providers match (as in OpenClaw).
	for _, m := range st.modelMaps() {
		if pol, stop := st.scanKeys(m, true); stop {
			if pol.ambiguous {
				st.reason("SEL-1", m.at, st.model, "bare model ID matches wildcard keys of different providers: no policy")
			}
			return pol
		}
	}
	if st.provider == "" {
		st.reason("SEL-1", occkit.Root(), st.model, "model ID has no provider: provider policy does not apply")
		return policyHit{}
	}
	// 4. provider-level policy.
	if pc, pv, ok := st.providerConfig(); ok {
		if id, ok := runtimeIDOf(pv.get("agentRuntime")); ok {
			return st.hit(pc.Key("agentRuntime").Key("id"), id, SourceProvider, "provider policy", "")
		}
	}
	return policyHit{}
}

func (st *state) hit(p occkit.Path, raw string, src Source, note, provider string) policyHit {
	rt := resolver.NormalizeRuntime(raw)
	st.reason("SEL-1", p, rt, note)
	return policyHit{found: true, runtime: rt, source: src, path: p, provider: provider}
}

// scanKeys looks for policy keys of the model map at m: exact keys, or
// `<provider>/*` keys when wildcard is set. stop reports a decision.
func (st *state) scanKeys(m mapAt, wildcard bool) (policyHit, bool) {
	type match struct {
		key, provider, raw string
	}
	var matches []match
	m.keys.each(st.model, wildcard, func(key string, v gjson.Result) {
		raw, ok := runtimeIDOf(v.Get("agentRuntime"))
		if !ok {
			return
		}
		if prov, ok := st.keyMatches(key, wildcard); ok {
			matches = append(matches, match{key: key, provider: prov, raw: raw})
		}
	})
	if len(matches) == 0 {
		return policyHit{}, false
	}
	// Several keys can name one model ("vllm/q", "VLLM/q", bare "q",
	// "moonshotai/kimi" and "nvidia/moonshotai/kimi" for provider nvidia).
	// As in OpenClaw, a key naming the caller's provider wins; then, where
	// OpenClaw takes the first key in author order, occkit takes the
	// provider-qualified key, then the smallest key, so author key order
	// never changes a selection.
	sort.SliceStable(matches, func(i, j int) bool {
		if st.provider != "" {
			ci, cj := matches[i].provider == st.provider, matches[j].provider == st.provider
			if ci != cj {
				return ci
			}
		}
		qi, qj := matches[i].provider != "", matches[j].provider != ""
		if qi != qj {
			return qi
		}
		return matches[i].key < matches[j].key
	})
	first := matches[0]
	if st.provider == "" {
		for _, x := range matches[1:] {
			if x.provider != first.provider {
				return policyHit{ambiguous: true}, true
			}
		}
	}
	note := "model policy"
	if wildcard {
		note = "provider wildcard policy"
	}
	return st.hit(m.at.Key(first.key).Key("agentRuntime").Key("id"), first.raw, SourceModel, note, first.provider), true
}

// keyMatches reports whether a model-map key names the target (exactly, or
// as `<provider>/*` when wildcard is set) and the key's provider.
func (st *state) keyMatches(key string, wildcard bool) (string, bool) {
	k := strings.TrimSpace(key)
	pre, rest, qualified := strings.Cut(k, "/")
	kp := strings.ToLower(strings.TrimSpace(pre))
	rest = strings.TrimSpace(rest)
	if wildcard {
		return kp, qualified && kp != "" && rest == "*" && (st.provider == "" || kp == st.provider)
	}
	if st.model == "" {
		return "", false // only wildcard keys name a provider-only target
	}
	if k == st.model {
		if qualified {
			return kp, true
		}
		return "", true
	}
	if !qualified || kp == "" || rest != st.model {
		return "", false
	}
	return kp, st.provider == "" || kp == st.provider
}

// providerConfig finds `models.providers.<p>` (the key compared
// case-insensitively).
func (st *state) providerConfig() (occkit.Path, object, bool) {
	pc, _, ok := st.x.providerConfig(st.provider)
	if !ok {
		return occkit.Root(), object{}, false
	}
	return occkit.NewPath("models", "providers", pc.key), pc.obj, true
}

// catalogRow finds the provider catalog row of the target (REF-4): the
// first row, in array order, whose ID is the model ID or the full ref (as
// OpenClaw's resolveModelConfig does).
func (st *state) catalogRow() (occkit.Path, gjson.Result, bool) {
	pc, rows, ok := st.x.providerConfig(st.provider)
	if !ok {
		return occkit.Root(), gjson.Result{}, false
	}
	r, ok := rows.row(resolver.Ref{Provider: st.provider, ID: st.model})
	if !ok {
		return occkit.Root(), gjson.Result{}, false
	}
	return occkit.NewPath("models", "providers", pc.key, "models").Index(r.idx), r.v, true
}

// routeFacts gathers the secret-free facts of the route (SEL-4, SEL-6).
func (st *state) routeFacts() RouteFacts {
	f := RouteFacts{Provider: st.provider, Model: st.model}
	var scan overrideScan
	pc, pv, hasPC := st.providerConfig()
	row, rv, hasRow := st.catalogRow()
	if hasPC {
		scan.provider(pv, pc)
	}
	if hasRow {
		scan.row(rv, row)
	}
	for _, v := range []object{{v: rv}, pv} {
		if u := v.get("baseUrl"); u.Type == gjson.String && strings.TrimSpace(u.String()) != "" {
			f.BaseURL, f.BaseURLStripped = sanitizeURL(u.String())
			break
		}
	}
	for _, v := range []object{{v: rv}, pv} {
		if a := v.get("api"); a.Type == gjson.String && strings.TrimSpace(a.String()) != "" {
			f.API = strings.TrimSpace(a.String())
			break
		}
	}
	// SEL-6a: params at the agent scopes, and of the exact model keys.
	for _, s := range st.scopes() {
		if p := s.v.get("params"); present(p) {
			scan.params(p, s.at.Key("params"))
		}
	}
	if st.provider != "" {
		for _, m := range st.modelMaps() {
			m.keys.each(st.model, false, func(k string, v gjson.Result) {
				if _, ok := st.keyMatches(k, false); ok {
					if p := v.Get("params"); present(p) {
						scan.params(p, m.at.Key(k).Key("params"))
					}
				}
			})
		}
	}
	sort.SliceStable(scan.paths, func(i, j int) bool { return scan.paths[i].Compare(scan.paths[j]) < 0 })
	f.Overrides = scan.paths
	for _, p := range f.Overrides {
		st.reason("SEL-6", p, "", "authored request override")
	}
	return f
}

// auto applies SEL-3 and SEL-4 for an unset or `auto` runtime.
func (st *state) auto(src Source, ambiguous bool) Result {
	openclaw := Result{Runtime: string(occkit.HarnessOpenClaw), Source: src, Requested: resolver.RuntimeAuto}
	if st.provider == "" || ambiguous {
		st.reason("SEL-3", occkit.Root(), string(occkit.HarnessOpenClaw), "provider unknown: no plugin is asked")
		return openclaw
	}
	if st.provider == "openai" {
		if OfficialOpenAIRoute(st.facts) && !st.facts.HasOverrides() {
			p, ok := st.reg.Lookup(string(occkit.HarnessCodex))
			if !ok {
				st.reason("SEL-4", occkit.Root(), string(occkit.HarnessOpenClaw), "official OpenAI route, but no codex harness is registered")
				return openclaw
			}
			sup := ask(p, st.facts, string(occkit.HarnessCodex))
			if sup.Kind == SupportSupported {
				st.reason("SEL-4", occkit.Root(), string(occkit.HarnessCodex), "official OpenAI Responses route without request overrides")
				return Result{Runtime: string(occkit.HarnessCodex), Source: src, Requested: resolver.RuntimeAuto}
			}
			st.reason("SEL-4", occkit.Root(), string(occkit.HarnessOpenClaw), "codex harness declines the official route: "+sup.Reason)
			return openclaw
		}
		// As in OpenClaw, the route decides alone: no plugin is asked.
		st.reason("SEL-4", occkit.Root(), st.facts.BaseURL, "custom route, adapter or request overrides keep openai on openclaw")
		return openclaw
	}
	type cand struct {
		id  string
		pri int
	}
	var claims []cand
	for _, id := range st.reg.IDs() {
		p, _ := st.reg.Lookup(id)
		if !autoFor(p, st.provider) {
			continue
		}
		sup := ask(p, st.facts, resolver.RuntimeAuto)
		if sup.Kind == SupportSupported {
			claims = append(claims, cand{id: id, pri: p.Priority()})
			st.reason("SEL-3", occkit.Root(), id, fmt.Sprintf("claims the route (priority %d)", p.Priority()))
		} else {
			st.reason("SEL-3", occkit.Root(), id, "does not claim the route: "+sup.Reason)
		}
	}
	if len(claims) == 0 {
		st.reason("SEL-3", occkit.Root(), string(occkit.HarnessOpenClaw), "no plugin claims the route")
		return openclaw
	}
	sort.Slice(claims, func(i, j int) bool {
		if claims[i].pri != claims[j].pri {
			return claims[i].pri > claims[j].pri
		}
		return claims[i].id < claims[j].id
	})
	st.reason("SEL-3", occkit.Root(), claims[0].id, "highest priority claim wins")
	return Result{Runtime: claims[0].id, Source: src, Requested: resolver.RuntimeAuto}
}

// explicit applies SEL-5 and SEL-7 to an explicit runtime; p is where it
// was configured and rule the rule reported on refusal.
func (st *state) explicit(rt string, src Source, p occkit.Path, rule string) (Result, error) {
	if rt == string(occkit.HarnessOpenClaw) {
		return Result{Runtime: rt, Source: src, Requested: rt}, nil
	}
	if want, cli := cliBackends[rt]; cli {
		if st.provider != want {
			return Result{}, occkit.Invalid("SEL-7", p, "runtime %q is a CLI backend for provider %s, not for %s", rt, want, st.ref())
		}
		st.reason("SEL-7", p, rt, "CLI backend runs through the built-in openclaw harness")
		return Result{Runtime: string(occkit.HarnessOpenClaw), Source: src, CLIBackend: rt, Requested: rt}, nil
	}
	plug, ok := st.reg.Lookup(rt)
	if !ok {
		return Result{}, occkit.Invalid(rule, p, "runtime %q is not a registered harness for %s", rt, st.ref())
	}
	sup := ask(plug, st.facts, rt)
	switch sup.Kind {
	case SupportSupported:
		st.reason("SEL-5", p, rt, "explicit runtime supports the route")
		return Result{Runtime: rt, Source: src, Requested: rt}, nil
	case SupportFallback:
		st.reason("SEL-5", p, string(occkit.HarnessOpenClaw), fmt.Sprintf("runtime %s declares the exact-request OpenClaw fallback: %s", rt, sup.Reason))
		return Result{Runtime: string(occkit.HarnessOpenClaw), Source: src, Requested: rt, Fallback: true}, nil
	}
	detail := ""
	if sup.Reason != "" {
		detail = " (" + sup.Reason + ")"
	}
	return Result{}, occkit.Invalid(rule, p, "runtime %q does not support %s%s", rt, st.ref(), detail)
}

// locked keeps a locked transcript's owner (SEL-8). As in OpenClaw the
// owner is not asked again whether it supports the route: the transcript
// is native to it. An owner that is no registered harness (nor openclaw,
// nor the provider's CLI backend) is refused like an explicit runtime.
func (st *state) locked(rt string) (Result, error) {
	if rt == string(occkit.HarnessOpenClaw) {
		return Result{Runtime: rt, Source: SourceSession, Requested: rt}, nil
	}
	if _, ok := st.reg.Lookup(rt); ok {
		return Result{Runtime: rt, Source: SourceSession, Requested: rt}, nil
	}
	return st.explicit(rt, SourceSession, occkit.Root(), "SEL-8")
}

// sessionOverride applies a session runtime override when it is
// compatible (SEL-8); an incompatible one is recorded and ignored.
func (st *state) sessionOverride(rt string) (Result, bool) {
	if rt == resolver.RuntimeAuto {
		st.reason("SEL-8", occkit.Root(), rt, "session override is automatic: configured policy applies")
		return Result{}, false
	}
	ignore := func(why string) (Result, bool) {
		st.reason("SEL-8", occkit.Root(), rt, "incompatible session override ignored: "+why)
		return Result{}, false
	}
	if rt == string(occkit.HarnessOpenClaw) {
		st.reason("SEL-8", occkit.Root(), rt, "session override wins over configured policy")
		return Result{Runtime: rt, Source: SourceSession, Requested: rt}, true
	}
	if want, cli := cliBackends[rt]; cli {
		if st.provider != want {
			return ignore("CLI backend serves provider " + want)
		}
		st.reason("SEL-8", occkit.Root(), rt, "session override selects the CLI backend")
		return Result{Runtime: string(occkit.HarnessOpenClaw), Source: SourceSession, CLIBackend: rt, Requested: rt}, true
	}
	plug, ok := st.reg.Lookup(rt)
	if !ok {
		return ignore("no such harness is registered")
	}
	switch sup := ask(plug, st.facts, rt); sup.Kind {
	case SupportFallback:
		// The harness declares that OpenClaw reproduces the exact request
		// (SEL-5): the override is honoured through that fallback, as in
		// OpenClaw, rather than ignored for the configured policy.
		st.reason("SEL-8", occkit.Root(), string(occkit.HarnessOpenClaw), fmt.Sprintf("session override %s declares the exact-request OpenClaw fallback: %s", rt, sup.Reason))
		return Result{Runtime: string(occkit.HarnessOpenClaw), Source: SourceSession, Requested: rt, Fallback: true}, true
	case SupportUnsupported:
		return ignore("harness does not support the route: " + sup.Reason)
	}
	st.reason("SEL-8", occkit.Root(), rt, "session override wins over configured policy")
	return Result{Runtime: rt, Source: SourceSession, Requested: rt}, true
}
