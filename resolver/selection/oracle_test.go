package selection

// The oracle: the decision as it was before prepared decisions, kept as
// the reference the prepared Index is tested against (it scans the
// document per decision, or uses its own per-entry indexes).

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/internal/docjson"
	"github.com/occkit/occkit/resolver"
)

// Select is the reference decision: a Result and its eager reason chain.
func (x *oIndex) Select(req Request, reg *Registry) (oResult, error) {
	st := &oState{x: x, reg: reg}
	provider, model, err := target(req.Provider, req.Model)
	if err != nil {
		return oResult{}, err
	}
	st.provider, st.model, st.reqModel = provider, model, model
	if provider != "" {
		st.reqModel = strings.TrimSpace(req.Model)
	}
	if strings.TrimSpace(req.AgentID) == "" {
		st.entry, st.entryV, st.entryKeys = x.entry(x.implicit)
		st.pEntry = occkit.Root() // only agents.defaults' params count
	} else {
		id, ok := normalizeAgentID(req.AgentID)
		if !ok {
			return oResult{}, occkit.Invalid("SEL-1", occkit.Root(), "agent ID %q names no agent", req.AgentID)
		}
		st.entry, st.entryV, st.entryKeys = x.entry(id)
		st.pEntry, st.pEntryV, st.pEntryKeys = st.entry, st.entryV, st.entryKeys
	}
	st.ignoreWholeAgentKeys()

	ses := req.Session
	if b := strings.ToLower(strings.TrimSpace(ses.ACPBackend)); b != "" {
		st.reason("SEL-8", occkit.Root(), b, "ACP session keeps its ACP backend")
		return st.done(verdict{runtime: b, source: SourceSession, acp: true, requested: b}), nil
	}
	if h := strings.TrimSpace(ses.HistoricalHarnessID); h != "" {
		st.reason("SEL-8", occkit.Root(), resolver.NormalizeRuntime(h), "historical harness ID does not pin the next turn")
	}

	pol := st.lookupPolicy()
	if pol.provider != "" && st.provider == "" {
		st.provider = pol.provider
	}
	st.facts = st.routeFacts()

	lockedAuto := false
	if o := strings.TrimSpace(ses.LockedOwner); o != "" {
		rt := resolver.NormalizeRuntime(o)
		if rt != resolver.RuntimeAuto {
			st.reason("SEL-8", occkit.Root(), rt, "locked native transcript keeps its owner")
			sel, err := st.locked(rt)
			return st.done(sel), err
		}
		st.reason("SEL-8", occkit.Root(), rt, "locked owner is automatic: configured policy applies, the session override is not consulted")
		lockedAuto = true
	}
	if o := strings.TrimSpace(ses.Override); o != "" && !lockedAuto {
		if sel, ok := st.sessionOverride(resolver.NormalizeRuntime(o)); ok {
			return st.done(sel), nil
		}
	}

	if !pol.found {
		pol.runtime, pol.source = resolver.RuntimeAuto, SourceImplicit
	}
	var sel verdict
	if pol.runtime == resolver.RuntimeAuto {
		sel = st.auto(SourceImplicit, pol.ambiguous)
	} else {
		sel, err = st.explicit(pol.runtime, pol.source, pol.path, ruleFor(pol.runtime))
	}
	return st.done(sel), err
}

type oState struct {
	x               *oIndex
	reg             *Registry
	provider, model string
	reqModel        string                 // the request's model ID as written, trimmed
	rowOf           map[string]occkit.Path // the row each member of the merged catalog row comes from
	entry           occkit.Path            // agent entry, root when none
	entryV          oObject                // its members
	entryKeys       *oKeyIndex             // its model map
	pEntry          occkit.Path            // the agent entry whose params count, root when none
	pEntryV         oObject
	pEntryKeys      *oKeyIndex
	facts           RouteFacts
	reasons         []resolver.Reason
	scopeList       []oScope // made once per decision
	maps            []oMapAt
}

// mapAt is a model map: where it is and its keys.
type oMapAt struct {
	at   occkit.Path
	keys *oKeyIndex
}

func (st *oState) reason(rule string, p occkit.Path, value, note string) {
	st.reasons = append(st.reasons, resolver.Reason{Rule: rule, Path: p, Value: value, Note: note})
}

var (
	defaultsPath    = occkit.NewPath("agents", "defaults")
	oDefaultsModels = defaultsPath.Key("models")
)

// oOutcome renders a reference decision like outcome renders a Result.
func oOutcome(o oResult, err error) string {
	if err != nil {
		return outcome(Result{}, err)
	}
	var b strings.Builder
	s := o.Result
	fmt.Fprintf(&b, "%s %s %s fb=%v acp=%v req=%s %s/%s\n", s.Runtime, s.Source, s.CLIBackend, s.Fallback, s.ACP, s.Requested, s.Provider, s.Model)
	_ = explain(&b, o.Reasons, s)
	return b.String()
}

// oResult is the reference outcome: the decision and its reasons.
type oResult struct {
	Result
	Reasons []resolver.Reason
}

func (st *oState) done(v verdict) oResult {
	d := decision{provider: st.provider, model: st.model} // no trail: the reasons are the reference's
	var r Result
	d.done(&r, v)
	return oResult{Result: r, Reasons: st.reasons}
}

// ignoreWholeAgentKeys records the whole-agent runtime keys selection
// ignores (SEL-2).
func (st *oState) ignoreWholeAgentKeys() {
	for _, s := range st.scopes() {
		for _, k := range []string{"agentRuntime", "embeddedHarness"} {
			if v := s.v.get(k); v.Exists() {
				st.reason("SEL-2", s.at.Key(k), runtimeValue(v), "whole-agent runtime key is ignored")
			}
		}
	}
}

type oPolicyHit struct {
	found     bool
	ambiguous bool
	runtime   string
	source    Source
	path      occkit.Path
	provider  string // provider of the matched key, for bare model IDs
}

// scope is an agent scope (`agents.defaults`, the agent entry).
type oScope struct {
	at occkit.Path
	v  oObject
}

func (st *oState) scopes() []oScope {
	if st.scopeList == nil {
		st.scopeList = []oScope{{defaultsPath, st.x.defaults}}
		if !st.entry.IsRoot() {
			st.scopeList = append(st.scopeList, oScope{st.entry, st.entryV})
		}
	}
	return st.scopeList
}

// pScopes are the scopes whose params count as request overrides.
func (st *oState) pScopes() []oScope {
	out := []oScope{{defaultsPath, st.x.defaults}}
	if !st.pEntry.IsRoot() {
		out = append(out, oScope{st.pEntry, st.pEntryV})
	}
	return out
}

// pModelMaps are the model maps whose keys' params count.
func (st *oState) pModelMaps() []oMapAt {
	var out []oMapAt
	if !st.pEntry.IsRoot() {
		out = append(out, oMapAt{st.pEntry.Key("models"), st.pEntryKeys})
	}
	return append(out, oMapAt{oDefaultsModels, st.x.defMap})
}

func (st *oState) modelMaps() []oMapAt {
	if st.maps == nil {
		if !st.entry.IsRoot() {
			st.maps = append(st.maps, oMapAt{st.entry.Key("models"), st.entryKeys})
		}
		st.maps = append(st.maps, oMapAt{oDefaultsModels, st.x.defMap})
	}
	return st.maps
}

// lookupPolicy applies the SEL-1 lookup order.
func (st *oState) lookupPolicy() oPolicyHit {
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
		return oPolicyHit{}
	}
	// 4. provider-level policy.
	if pc, pv, ok := st.providerConfig(); ok {
		if id, ok := runtimeIDOf(pv.get("agentRuntime")); ok {
			return st.hit(pc.Key("agentRuntime").Key("id"), id, SourceProvider, "provider policy", "")
		}
	}
	return oPolicyHit{}
}

func (st *oState) hit(p occkit.Path, raw string, src Source, note, provider string) oPolicyHit {
	rt := resolver.NormalizeRuntime(raw)
	st.reason("SEL-1", p, rt, note)
	return oPolicyHit{found: true, runtime: rt, source: src, path: p, provider: provider}
}

// scanKeys looks for policy keys of the model map at m: exact keys, or
// `<provider>/*` keys when wildcard is set. stop reports a decision.
func (st *oState) scanKeys(m oMapAt, wildcard bool) (oPolicyHit, bool) {
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
		return oPolicyHit{}, false
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
				return oPolicyHit{ambiguous: true}, true
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
func (st *oState) keyMatches(key string, wildcard bool) (string, bool) {
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
func (st *oState) providerConfig() (occkit.Path, oObject, bool) {
	pc, _, ok := st.x.providerConfig(st.provider)
	if !ok {
		return occkit.Root(), oObject{}, false
	}
	return occkit.NewPath("models", "providers", pc.key), pc.obj, true
}

// catalogRow finds the provider catalog row of the target (REF-4): the
// first row, in array order, whose ID is the model ID or the full ref (as
// OpenClaw's resolveModelConfig does).
func (st *oState) catalogRow() (occkit.Path, gjson.Result, bool) {
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

// routeRow finds the first catalog row whose trimmed ID is the model
// ID: only those rows give the route (a provider-prefixed row gives
// policy only, as OpenClaw 2026.9.6 reads them).
func (st *oState) routeRow() (gjson.Result, bool) {
	_, pv, ok := st.providerConfig()
	if !ok || st.model == "" {
		return gjson.Result{}, false
	}
	var found gjson.Result
	pv.get("models").ForEach(func(_, r gjson.Result) bool {
		if id := r.Get("id"); r.IsObject() && id.Type == gjson.String && strings.TrimSpace(id.String()) == st.model {
			found = r
			return false
		}
		return true
	})
	return found, found.Exists()
}

// routeFacts gathers the secret-free facts of the route (SEL-4, SEL-6).
func (st *oState) routeFacts() RouteFacts {
	f := RouteFacts{Provider: st.provider, Model: st.model}
	var scan overrideScan
	pc, pv, hasPC := st.providerConfig()
	rv, hasRow := st.routeRow()
	if hasPC {
		scan.provider(&object{v: pv.v, m: pv.m}, pc)
	}
	if hasRow {
		// Rows of one trimmed ID read as one: each member from the
		// first row that has it (policy aside).
		rv = st.mergedRow(pc, pv, rv)
		for _, f := range rowFields {
			if at, ok := st.rowOf[f]; ok {
				scan.rowField(f, rv.Get(f), at)
			}
		}
	}
	for _, v := range []oObject{{v: rv}, pv} {
		if u := v.get("baseUrl"); u.Type == gjson.String && strings.TrimSpace(u.String()) != "" {
			f.BaseURL, f.BaseURLStripped = sanitizeURL(u.String())
			break
		}
	}
	for _, v := range []oObject{{v: rv}, pv} {
		if a := v.get("api"); a.Type == gjson.String && strings.TrimSpace(a.String()) != "" {
			f.API = strings.TrimSpace(a.String())
			break
		}
	}
	// SEL-6a: params at the agent scopes, and of the exact model keys.
	for _, s := range st.pScopes() {
		if p := s.v.get("params"); present(p) {
			scan.params(p, s.at.Key("params"))
		}
	}
	// The params of one key per map: the model's own spelling, exact.
	if st.provider != "" && st.reqModel != "" {
		keys := []string{st.provider + "/" + st.reqModel}
		if n := len(st.provider) + 1; len(st.reqModel) > n && strings.EqualFold(st.reqModel[:n], st.provider+"/") {
			keys = []string{st.reqModel, keys[0]}
		}
		for _, m := range st.pModelMaps() {
			for _, k := range keys {
				if p := oMemberNamed(m.keys.v, k).Get("params"); present(p) {
					scan.params(p, m.at.Key(k).Key("params"))
					break
				}
			}
		}
	}
	sort.SliceStable(scan.paths, func(i, j int) bool { return scan.paths[i].Compare(scan.paths[j]) < 0 })
	f.Overrides = scan.paths
	for _, p := range f.Overrides {
		st.reason("SEL-6", p, "", "authored request override")
	}
	return f
}

// tail is the decision's own SEL-3..SEL-8 code (the session and the
// plugins), run on the reference's facts: a synthetic provider holding
// them, so the tail reads no prepared index. Its reasons join the
// reference's.
func (st *oState) tail() *decision {
	f := st.facts
	p := &provider{route: route{baseURL: f.BaseURL, stripped: f.BaseURLStripped, api: f.API, overrides: f.Overrides,
		official: OfficialOpenAIRoute(f)}}
	return &decision{trail: trail{x: &Index{}, agent: &agent{}, params: &agent{}}, reg: st.reg, provider: st.provider, model: st.model, prov: p,
		routeKnown: true, routeOf: st.provider}
}

// record appends the reasons d kept, policyAt being the path of the
// policy it decided by.
func (st *oState) record(d *decision, policyAt occkit.Path) {
	st.reasons = d.kept(st.reasons, policyAt)
}

func (st *oState) locked(rt string) (verdict, error) {
	d := st.tail()
	defer st.record(d, occkit.Root())
	return d.locked(rt)
}

func (st *oState) sessionOverride(rt string) (verdict, bool) {
	d := st.tail()
	defer st.record(d, occkit.Root())
	return d.sessionOverride(rt)
}

func (st *oState) auto(src Source, ambiguous bool) verdict {
	d := st.tail()
	defer st.record(d, occkit.Root())
	return d.auto(src, ambiguous)
}

func (st *oState) explicit(rt string, src Source, p occkit.Path, rule string) (verdict, error) {
	d := st.tail()
	defer st.record(d, p)
	return d.explicit(rt, src, policyAt{path: p}, rule)
}

// Index is a document prepared for [Select]: the scopes selection
// reads, located once, and indexes of the agent entries, provider configs,
// catalog rows and model-map keys. Preparation is one linear pass over
// those parts of the document; a decision then reads only the entries that
// can name its target, so its cost does not grow with the catalog.
//
// A Index is immutable and safe for concurrent use. It holds views
// of the document's bytes, so it lives as long as the document.
type oIndex struct {
	defaults oObject      // agents.defaults
	entries  gjson.Result // agents.entries
	list     gjson.Result // agents.list
	provs    gjson.Result // models.providers
	defMap   *oKeyIndex   // agents.defaults.models

	indexed  bool
	roster   roster                   // the agents, as OpenClaw reads them (roster.go)
	byID     table[int32]             // the member each normalized agent ID selects
	implicit string                   // the agent a request naming none reads
	groups   map[string]providerGroup // merged provider configs (roster.go)
	rows     map[string]*oCatalog     // normalized provider → its catalog index
}

// member is one object member (or array item, key "") with its position.
type oMember struct {
	key string
	idx int
	v   gjson.Result
	obj oObject // v's members, for provider configs
}

// object is an object whose direct members are looked up by key. The
// members of a prepared one are located once, so a lookup never skips a
// large sibling (a model map, a catalog).
type oObject struct {
	v gjson.Result
	m map[string]gjson.Result
}

func oObjectOf(v gjson.Result, indexed bool) oObject {
	o := oObject{v: v}
	if indexed && v.IsObject() {
		o.m = map[string]gjson.Result{}
		v.ForEach(func(k, val gjson.Result) bool {
			if _, dup := o.m[k.String()]; !dup { // the first, as gjson's Get
				o.m[k.String()] = val
			}
			return true
		})
	}
	return o
}

// get is the member k (a plain key, no path syntax).
func (o oObject) get(k string) gjson.Result {
	if o.m != nil {
		return o.m[k]
	}
	return o.v.Get(k)
}

// catalogIndex indexes a catalog (`models.providers.<p>.models`) by the two
// spellings a row ID can match (MatchRow): the bare ID and a
// provider-qualified ID. Rows whose provider part is not ASCII are always
// candidates (case folding is then not a plain lower-casing).
type oCatalog struct {
	v     gjson.Result
	bare  map[string][]oMember
	qual  map[string][]oMember
	other []oMember
}

// keyIndex indexes a model map: its members by trimmed key and by the
// trimmed part after a key's first slash.
type oKeyIndex struct {
	v      gjson.Result
	exact  map[string][]oMember
	byRest map[string][]oMember
}

// prepare locates the scopes; with indexed unset it builds no indexes
// and every decision scans (the reference the indexes are tested against).
func oPrepare(doc occkit.Document, indexed bool) *oIndex {
	root := docjson.Root(doc)
	agents := root.Get("agents")
	x := &oIndex{
		defaults: oObjectOf(agents.Get("defaults"), indexed),
		entries:  agents.Get("entries"),
		list:     agents.Get("list"),
		provs:    root.Get("models").Get("providers"),
		indexed:  indexed,
	}
	x.defMap = x.keysOf(x.defaults.get("models"))
	x.roster, x.byID = readRoster(readAgents(agents), nil)
	x.implicit = x.roster.implicitAgent(&x.byID, agents.Get("ownership"), agents.Get("defaults.systemAgent.agentId"))
	x.groups = map[string]providerGroup{}
	eachProviderGroup(gjsonMembers(x.provs), func(id string, g providerGroup) { x.groups[id] = g })
	if !indexed {
		return x
	}
	x.rows = map[string]*oCatalog{}
	for id, g := range x.groups {
		x.rows[id] = oIndexRows(g.merged().Get("models"))
	}
	return x
}

func oIndexRows(rows gjson.Result) *oCatalog {
	r := &oCatalog{v: rows, bare: map[string][]oMember{}, qual: map[string][]oMember{}}
	if !rows.IsArray() {
		return r
	}
	i := 0
	rows.ForEach(func(_, v gjson.Result) bool {
		id := v.Get("id")
		if v.IsObject() && id.Type == gjson.String {
			kv := oMember{idx: i, v: v}
			row := strings.TrimSpace(id.String())
			r.bare[row] = append(r.bare[row], kv)
			if p, rest, ok := strings.Cut(row, "/"); ok {
				if isASCII(p) {
					q := fold(p) + "/" + strings.TrimSpace(rest)
					r.qual[q] = append(r.qual[q], kv)
				} else {
					r.other = append(r.other, kv)
				}
			}
		}
		i++
		return true
	})
	return r
}

// keysOf indexes a model map (nil when not indexing).
func (x *oIndex) keysOf(m gjson.Result) *oKeyIndex {
	k := &oKeyIndex{v: m}
	if !x.indexed || !m.IsObject() {
		return k
	}
	k.exact, k.byRest = map[string][]oMember{}, map[string][]oMember{}
	i := 0
	m.ForEach(func(key, v gjson.Result) bool {
		kv := oMember{key: key.String(), idx: i, v: v}
		t := strings.TrimSpace(kv.key)
		k.exact[t] = append(k.exact[t], kv)
		if _, rest, ok := strings.Cut(t, "/"); ok {
			r := strings.TrimSpace(rest)
			k.byRest[r] = append(k.byRest[r], kv)
		}
		i++
		return true
	})
	return k
}

// each calls fn, in author order, for every member of the map that can
// match model (or, with wildcard, a `<provider>/*` key): a superset of the
// matches, which the caller filters with keyMatches.
func (k *oKeyIndex) each(model string, wildcard bool, fn func(key string, v gjson.Result)) {
	if k.exact == nil {
		k.v.ForEach(func(key, v gjson.Result) bool { fn(key.String(), v); return true })
		return
	}
	var a, b []oMember
	if wildcard {
		a = k.byRest["*"]
	} else if model != "" {
		a, b = k.exact[model], k.byRest[model]
	}
	oMerge(a, b, nil, fn)
}

// mergeByPosition visits three position-ordered lists in position order.
func oMerge(a, b, c []oMember, fn func(key string, v gjson.Result)) {
	for len(a)+len(b)+len(c) > 0 {
		best := -1
		pick := func(l []oMember, n int) {
			if len(l) > 0 && (best < 0 || l[0].idx < oHead(a, b, c, best)) {
				best = n
			}
		}
		pick(a, 0)
		pick(b, 1)
		pick(c, 2)
		var kv oMember
		switch best {
		case 0:
			kv, a = a[0], a[1:]
		case 1:
			kv, b = b[0], b[1:]
		default:
			kv, c = c[0], c[1:]
		}
		fn(kv.key, kv.v)
	}
}

func oHead(a, b, c []oMember, n int) int {
	switch n {
	case 0:
		return a[0].idx
	case 1:
		return b[0].idx
	}
	return c[0].idx
}

// entry locates the agent entry named id (normalized): its path, value and
// model map.
func (x *oIndex) entry(id string) (occkit.Path, oObject, *oKeyIndex) {
	i, ok := x.byID.get(id)
	if id == "" || !ok {
		return occkit.Root(), oObject{}, nil
	}
	m := x.roster.members[i]
	o := oObjectOf(gjson.Parse(m.raw), x.indexed)
	return m.at.path(), o, x.keysOf(o.get("models"))
}

// providerConfig finds the merged `models.providers.<p>` config.
func (x *oIndex) providerConfig(provider string) (oMember, *oCatalog, bool) {
	g, ok := x.groups[provider]
	if provider == "" || !ok {
		return oMember{}, nil, false
	}
	v := g.merged()
	c := oMember{key: g.key, v: v, obj: oObjectOf(v, x.indexed)}
	if x.indexed {
		return c, x.rows[provider], true
	}
	return c, &oCatalog{v: c.obj.get("models")}, true
}

// row finds the first catalog row, in array order, matching ref (REF-4).
func (r *oCatalog) row(ref resolver.Ref) (oMember, bool) {
	var found oMember
	ok := false
	visit := func(idx int, v gjson.Result) bool {
		id := v.Get("id")
		if v.IsObject() && id.Type == gjson.String && resolver.MatchRow(ref, id.String()) {
			found, ok = oMember{idx: idx, v: v}, true
			return false
		}
		return true
	}
	if r.bare == nil {
		if r.v.IsArray() {
			i := -1
			r.v.ForEach(func(_, v gjson.Result) bool { i++; return visit(i, v) })
		}
		return found, ok
	}
	if ref.ID == "" {
		return found, false
	}
	for _, l := range [][]oMember{r.bare[ref.ID], r.qual[ref.Provider+"/"+ref.ID], r.other} {
		for _, c := range l {
			if (!ok || c.idx < found.idx) && !visit(c.idx, c.v) {
				break
			}
		}
	}
	return found, ok
}

// oMemberNamed is the first member of the object m whose key is exactly
// key (a zero Result when there is none).
func oMemberNamed(m gjson.Result, key string) gjson.Result {
	var out gjson.Result
	m.ForEach(func(k, v gjson.Result) bool {
		if k.String() == key {
			out = v
			return false
		}
		return true
	})
	return out
}

// mergedRow is the catalog row rv of the provider config pv (at pc) merged
// with the other rows of its trimmed ID, in array order: each member from
// the first row that has it; st.rowOf records where each came from.
func (st *oState) mergedRow(pc occkit.Path, pv oObject, rv gjson.Result) gjson.Result {
	id := strings.TrimSpace(rv.Get("id").String())
	merged := map[string]any{}
	st.rowOf = map[string]occkit.Path{}
	i := -1
	pv.get("models").ForEach(func(_, r gjson.Result) bool {
		i++
		if rid := r.Get("id"); !r.IsObject() || rid.Type != gjson.String || strings.TrimSpace(rid.String()) != id {
			return true
		}
		r.ForEach(func(k, v gjson.Result) bool {
			if _, seen := st.rowOf[k.String()]; !seen {
				st.rowOf[k.String()] = pc.Key("models").Index(i)
				merged[k.String()] = json.RawMessage(v.Raw)
			}
			return true
		})
		return true
	})
	b, _ := json.Marshal(merged)
	return gjson.ParseBytes(b)
}
