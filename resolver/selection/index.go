package selection

import (
	"slices"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/internal/docjson"
	"github.com/occkit/occkit/resolver"
)

// Index is a document prepared for [Select]. [Prepare] reads, in one
// linear pass, everything a decision can consult and stores it already
// decided: per agent, the whole-agent keys it ignores (SEL-2) and the
// params that are overrides (SEL-6a); per model-map key, its provider
// part, its normalized runtime policy and the reason naming it; per
// provider config and catalog row, its policy, its sanitized base URL and
// API, whether that is the official OpenAI route (SEL-4) and its request
// overrides (SEL-6). A decision is then a handful of map lookups keyed by
// the request's own strings: no walk from the document root, no URL
// parsing, and the same cost at 40 or 10,000 catalog models. It allocates
// nothing unless a plugin is asked, the session and the plugins add more
// than two reasons, it refuses, or the request spells in upper case a
// provider (or session runtime) that the document does not name.
//
// An Index is immutable and safe for concurrent use. It holds views of
// the document's bytes, so it lives as long as the document.
type Index struct {
	none     agent             // no agent entry: agents.defaults alone
	agents   map[string]*agent // normalized agent ID → its scopes
	implicit string            // the agent a request naming none reads ("" none)
	provs    map[string]*provider
	// names holds every normalized provider ID the document names, so a
	// request spelling one in upper case costs no allocation.
	names map[string]string
}

// agent is what a decision reads for one agent: agents.defaults and, when
// the agent has an entry, the entry.
type agent struct {
	sel2   []resolver.Reason // ignored whole-agent keys, defaults then entry
	params []occkit.Path     // SEL-6a overrides of the scopes' params, sorted
	maps   []*modelMap       // the entry's model map, then the defaults'
}

// modelMap is a prepared model map (`agents.defaults.models`, an entry's
// `models`).
type modelMap struct {
	at occkit.Path
	// byModel holds the first key, in author order, that can name a
	// model ID: under the trimmed key (whole) and under the trimmed part
	// after the key's first slash. Most model IDs have one key; where
	// more keys name one (keyRef.more), dups holds them all in author
	// order. A decision reads a small value in place.
	byModel map[string]keyRef
	dups    map[string][]keyRef
	// wild holds the `<provider>/*` keys with a policy, in author order.
	wild []*modelKey
	// keys holds every key as written (the first of duplicates).
	keys map[string]*modelKey
}

type keyRef struct {
	k     *modelKey
	whole bool // indexed under the whole key, not the part after the slash
	more  bool // in byModel: other keys name the model too (see dups)
}

// modelKey is one member of a model map.
type modelKey struct {
	key       string // as written
	provider  string // normalized part before the first slash
	qualified bool   // the key has a slash
	policy    bool   // a non-blank agentRuntime.id
	runtime   string // its normalized runtime (REF-6)
	policyAt  occkit.Path
	hasParams bool // params present and not null
	// params is the key's params value (hasParams) and overrides whether
	// it holds a SEL-6a override; the override paths are listed only
	// when a decision names them (paramPaths), so preparing a catalog
	// builds no path per key.
	params    gjson.Result
	overrides bool
}

// paramPaths are the SEL-6a overrides of k's params, sorted; k is a
// member of the model map at at.
func (k *modelKey) paramPaths(at occkit.Path) []occkit.Path {
	if !k.overrides {
		return nil
	}
	var scan overrideScan
	scan.params(k.params, extend(at, k.key, "params"))
	return sortPaths(scan.paths)
}

// provider is the chosen `models.providers.<p>` config of one normalized
// provider ID.
type provider struct {
	route
	at    occkit.Path
	bare  map[string]*row  // trimmed row ID → its first row (the group merged: mergeRows)
	qual  map[qualKey]*row // "<p>/<id>" rows by folded <p> and trimmed <id>: the first
	other []*row           // "<p>/<id>" rows whose <p> is not ASCII
}

type qualKey struct{ provider, id string }

// row is one catalog row with a string ID.
type row struct {
	route
	idx int
	id  string // as written
}

// route is what a provider config or a catalog row contributes to a
// decision: its policy and its facts.
type route struct {
	policy    bool
	runtime   string
	policyAt  occkit.Path
	overrides []occkit.Path // SEL-6, sorted
	baseURL   string        // sanitized
	stripped  bool
	hasBase   bool
	api       string
	hasAPI    bool
	// official is OfficialOpenAIRoute of the effective base URL and API
	// (a row's, else its provider's).
	official bool
}

// Prepare prepares doc for any number of [Index.Select] decisions.
func Prepare(doc occkit.Document) *Index { return prepare(doc, nil) }

// focus narrows a preparation to what one request can consult (the
// package function [Select]): the agent it names and the implicit one,
// the model-map keys and catalog rows that can name its model, the
// wildcard keys, and the provider configs of its provider and of the
// kept keys. Every lookup a decision and its [Result.Reasons] make on
// such an index finds what it finds on the whole one; what is left out
// is what no lookup of that request reaches.
type focus struct {
	provider, model string // the request's target (REF-1, REF-2)
	reqModel        string // see decision.reqModel
	agent           string // the normalized agent ID the request names, or ""
	provs           map[string]bool
}

// focusOf is the focus of req, false when the request is refused before
// any lookup (the whole preparation then refuses it alike).
func focusOf(req Request) (*focus, bool) {
	provider, model, err := target(req.Provider, req.Model)
	if err != nil {
		return nil, false
	}
	f := &focus{provider: provider, model: model, reqModel: model, provs: map[string]bool{provider: true}}
	if provider != "" {
		f.reqModel = strings.TrimSpace(req.Model)
	}
	if strings.TrimSpace(req.AgentID) != "" {
		id, ok := normalizeAgentID(req.AgentID)
		if !ok {
			return nil, false
		}
		f.agent = id
	}
	return f, true
}

// key reports whether a lookup of the request can reach the model-map
// key written key (trimmed t; pre and rest around its first slash):
// SEL-1's exact and wildcard lookups and the params key (paramsKey).
func (f *focus) key(key, t, rest string, qualified bool) bool {
	if f == nil || t == f.model || key == f.reqModel {
		return true
	}
	if qualified {
		if r := strings.TrimSpace(rest); r == f.model || r == "*" {
			return true
		}
	}
	return f.provider != "" && len(key) == len(f.provider)+1+len(f.reqModel) &&
		strings.HasPrefix(key, f.provider) && key[len(f.provider)] == '/' && strings.HasSuffix(key, f.reqModel)
}

// row reports whether a lookup of the request can reach a catalog row
// whose trimmed ID is t ([provider.row], [provider.routeRow]).
func (f *focus) row(t string) bool {
	if f == nil || t == f.model {
		return true
	}
	pre, rest, ok := strings.Cut(t, "/")
	return ok && (strings.TrimSpace(rest) == f.model || !isASCII(pre))
}

func prepare(doc occkit.Document, f *focus) *Index {
	var top [2]gjson.Result
	members(docjson.Root(doc), rootKeys, top[:])
	agents := readAgents(top[0])
	x := &Index{agents: map[string]*agent{}, provs: map[string]*provider{}, names: map[string]string{}}
	def := newScope(defaultsPath, agents.defaults, x.names, f)
	x.none = agent{sel2: def.sel2, params: def.params, maps: []*modelMap{def.models}}

	r := readRoster(agents)
	x.implicit = r.implicitAgent(agents.ownership, def.systemAgent.Get("agentId"))
	for id, m := range r.byID {
		if f == nil || id == f.agent || id == x.implicit {
			x.agents[id] = def.with(newScope(m.at, m.v, x.names, f))
		}
	}

	for id, g := range providerGroups(top[1].Get("providers")) {
		x.names[id] = id
		if f == nil || f.provs[id] {
			x.provs[id] = newProvider(g.key, g.merged(), id == "openai", f)
		}
	}
	return x
}

// rootKeys are the document's members selection reads.
var rootKeys = []string{"agents", "models"}

// scope is one prepared agent scope.
type scope struct {
	sel2   []resolver.Reason
	params []occkit.Path
	models *modelMap
	// systemAgent is the scope's systemAgent member (read from
	// agents.defaults only: [roster.implicitAgent]).
	systemAgent gjson.Result
}

func newScope(at occkit.Path, v gjson.Result, names map[string]string, f *focus) scope {
	var s scope
	var runtime, embedded, params, models gjson.Result
	if v.IsObject() {
		v.ForEach(func(k, val gjson.Result) bool {
			switch k.String() {
			case "agentRuntime":
				firstOf(&runtime, val)
			case "embeddedHarness":
				firstOf(&embedded, val)
			case "params":
				firstOf(&params, val)
			case "models":
				firstOf(&models, val)
			case "systemAgent":
				firstOf(&s.systemAgent, val)
			}
			return true
		})
	}
	for _, m := range []struct {
		key string
		v   gjson.Result
	}{{"agentRuntime", runtime}, {"embeddedHarness", embedded}} {
		if m.v.Exists() {
			s.sel2 = append(s.sel2, resolver.Reason{Rule: "SEL-2", Path: at.Key(m.key), Value: runtimeValue(m.v), Note: "whole-agent runtime key is ignored"})
		}
	}
	if present(params) {
		var scan overrideScan
		scan.params(params, at.Key("params"))
		s.params = scan.paths
	}
	s.models = newModelMap(at.Key("models"), models, names, f)
	return s
}

func firstOf(dst *gjson.Result, v gjson.Result) {
	if !dst.Exists() {
		*dst = v
	}
}

// with is the agent made of the defaults scope s and the entry scope e.
func (s scope) with(e scope) *agent {
	a := &agent{maps: []*modelMap{e.models, s.models}}
	a.sel2 = append(append(a.sel2, s.sel2...), e.sel2...)
	a.params = sortPaths(append(append([]occkit.Path(nil), s.params...), e.params...))
	return a
}

func sortPaths(ps []occkit.Path) []occkit.Path {
	slices.SortStableFunc(ps, occkit.Path.Compare)
	return ps
}

// extend is p with the object keys appended, built in one allocation.
func extend(p occkit.Path, keys ...string) occkit.Path {
	var b occkit.PathBuilder
	b.Grow(p.Len() + len(keys))
	for i := 0; i < p.Len(); i++ {
		if k, idx, isIdx := p.Elem(i); isIdx {
			b.Index(idx)
		} else {
			b.Key(k)
		}
	}
	for _, k := range keys {
		b.Key(k)
	}
	return b.Path()
}

// keyMembers are the members of a model-map key that selection reads.
var keyMembers = []string{"agentRuntime", "params"}

func newModelMap(at occkit.Path, m gjson.Result, names map[string]string, f *focus) *modelMap {
	mm := &modelMap{at: at}
	if !m.IsObject() {
		return mm
	}
	// The keys are read first, so the maps are made at their size (no
	// growing); they are allocated in chunks, never copied.
	var ks []*modelKey
	var chunk chunks[modelKey]
	m.ForEach(func(key, v gjson.Result) bool {
		t := strings.TrimSpace(key.String())
		pre, rest, qualified := strings.Cut(t, "/")
		if !f.key(key.String(), t, rest, qualified) {
			return true
		}
		k := chunk.next()
		k.key, k.qualified = key.String(), qualified
		if qualified {
			k.provider = fold(pre)
		}
		var vs [2]gjson.Result
		members(v, keyMembers, vs[:])
		if raw, ok := runtimeIDOf(vs[0]); ok {
			k.policy, k.runtime = true, resolver.NormalizeRuntime(raw)
			k.policyAt = extend(at, k.key, "agentRuntime", "id")
		}
		if p := vs[1]; present(p) {
			k.params, k.hasParams, k.overrides = p, true, hasParamOverride(p)
		}
		ks = append(ks, k)
		return true
	})
	mm.byModel, mm.keys = make(map[string]keyRef, 2*len(ks)), make(map[string]*modelKey, len(ks))
	for _, k := range ks {
		if _, dup := mm.keys[k.key]; !dup {
			mm.keys[k.key] = k
		}
		if k.provider != "" {
			if _, ok := names[k.provider]; !ok {
				names[k.provider] = k.provider
			}
			if f != nil {
				f.provs[k.provider] = true
			}
		}
		t := strings.TrimSpace(k.key)
		mm.addRef(t, keyRef{k: k, whole: true})
		if _, rest, qualified := strings.Cut(t, "/"); qualified {
			r := strings.TrimSpace(rest)
			mm.addRef(r, keyRef{k: k})
			if r == "*" && k.provider != "" && k.policy {
				mm.wild = append(mm.wild, k)
			}
		}
	}
	return mm
}

// chunks hands out zero values of T from slices of a growing size, so
// many values cost few allocations and none is copied when more come.
type chunks[T any] struct{ buf []T }

func (c *chunks[T]) next() *T {
	if len(c.buf) == cap(c.buf) {
		c.buf = make([]T, 0, min(max(8, 2*cap(c.buf)), 512))
	}
	c.buf = c.buf[:len(c.buf)+1]
	return &c.buf[len(c.buf)-1]
}

func (m *modelMap) addRef(model string, r keyRef) {
	first, ok := m.byModel[model]
	switch {
	case !ok:
		m.byModel[model] = r
	case !first.more:
		first.more = true
		m.byModel[model] = first
		if m.dups == nil {
			m.dups = map[string][]keyRef{}
		}
		m.dups[model] = []keyRef{first, r}
	default:
		m.dups[model] = append(m.dups[model], r)
	}
}

// newProvider prepares the config v at models.providers.<key>; openai
// marks the provider whose routes SEL-4 tests.
func newProvider(key string, v gjson.Result, openai bool, f *focus) *provider {
	p := &provider{at: occkit.NewPath("models", "providers", key)}
	o := objectOf(v)
	if raw, ok := runtimeIDOf(o.get("agentRuntime")); ok {
		p.policy, p.runtime = true, resolver.NormalizeRuntime(raw)
		p.policyAt = extend(p.at, "agentRuntime", "id")
	}
	var scan overrideScan
	scan.provider(o, p.at)
	p.overrides = sortPaths(scan.paths)
	p.facts(o.get("baseUrl"), o.get("api"))
	if openai {
		p.official = OfficialOpenAIRoute(RouteFacts{BaseURL: p.baseURL, BaseURLStripped: p.stripped, API: p.api})
	}

	rows := o.get("models")
	if !rows.IsArray() {
		return p
	}
	// The rows are read into one slice first (no allocation per row),
	// then indexed in maps made at their size.
	var rs []*row
	var chunk chunks[row]
	var vals []gjson.Result // by array index, for mergeRows
	rowsAt := p.at.Key("models")
	i := 0
	rows.ForEach(func(_, v gjson.Result) bool {
		defer func() { i++ }()
		var m [len(rowKeys)]gjson.Result
		members(v, rowKeys[:], m[:])
		id := m[0]
		if !v.IsObject() || id.Type != gjson.String || !f.row(strings.TrimSpace(id.String())) {
			return true
		}
		for len(vals) < i {
			vals = append(vals, gjson.Result{})
		}
		vals = append(vals, v)
		r := chunk.next()
		r.idx, r.id = i, id.String()
		var at occkit.Path // built only for a row with a policy or a field that can hold an override
		if m[1].Exists() || m[4].Exists() || m[5].Exists() || m[6].Exists() {
			at = rowsAt.Index(i)
		}
		if raw, ok := runtimeIDOf(m[1]); ok {
			r.policy, r.runtime = true, resolver.NormalizeRuntime(raw)
			r.policyAt = extend(at, "agentRuntime", "id")
		}
		var scan overrideScan
		for j, name := range rowFields {
			scan.rowField(name, m[4+j], at)
		}
		r.overrides = sortPaths(scan.paths)
		r.rowFacts(m[2], m[3], p, openai)
		rs = append(rs, r)
		return true
	})
	p.bare, p.qual = make(map[string]*row, len(rs)), map[qualKey]*row{}
	var dups map[string][]*row // trimmed IDs of more than one row
	for _, r := range rs {
		t := strings.TrimSpace(r.id)
		if first, ok := p.bare[t]; !ok {
			p.bare[t] = r
		} else {
			if dups == nil {
				dups = map[string][]*row{}
			}
			if len(dups[t]) == 0 {
				dups[t] = []*row{first}
			}
			dups[t] = append(dups[t], r)
		}
		if pre, rest, ok := strings.Cut(t, "/"); ok {
			if isASCII(pre) {
				q := qualKey{fold(pre), strings.TrimSpace(rest)}
				if _, ok := p.qual[q]; !ok {
					p.qual[q] = r
				}
			} else {
				p.other = append(p.other, r)
			}
		}
	}
	for _, group := range dups {
		p.mergeRows(group, vals, openai)
	}
	return p
}

// rowKeys are the members of a catalog row that selection reads: its ID,
// policy, route facts, then rowFields.
var rowKeys = [...]string{"id", "agentRuntime", "baseUrl", "api", "headers", "params", "compat"}

// mergeRows gives the rows of one trimmed ID the route OpenClaw reads for
// them: one row, each member taken from the first row that has it, for
// the request overrides (SEL-6) and the base URL and API (SEL-4). The
// policy stays the first row's (SEL-1). The SPEC is silent on duplicate
// rows; this is how OpenClaw merges them.
func (p *provider) mergeRows(group []*row, vals []gjson.Result, openai bool) {
	var scan overrideScan
	var base, api gjson.Result
	seen := map[string]bool{}
	for _, r := range group {
		at := p.at.Key("models").Index(r.idx)
		vals[r.idx].ForEach(func(k, v gjson.Result) bool {
			name := k.String()
			if seen[name] {
				return true
			}
			seen[name] = true
			switch name {
			case "baseUrl":
				base = v
			case "api":
				api = v
			default:
				scan.rowField(name, v, at)
			}
			return true
		})
	}
	var m route
	m.rowFacts(base, api, p, openai)
	m.overrides = sortPaths(scan.paths)
	for _, r := range group {
		m.policy, m.runtime, m.policyAt = r.policy, r.runtime, r.policyAt
		r.route = m
	}
}

// rowFacts reads a catalog row's baseUrl and api, else its provider p's,
// and for openai whether that is the official route (SEL-4).
func (r *route) rowFacts(base, api gjson.Result, p *provider, openai bool) {
	r.facts(base, api)
	if !r.hasBase {
		r.baseURL, r.stripped, r.hasBase = p.baseURL, p.stripped, p.hasBase
	}
	if !r.hasAPI {
		r.api, r.hasAPI = p.api, p.hasAPI
	}
	if openai {
		r.official = OfficialOpenAIRoute(RouteFacts{BaseURL: r.baseURL, BaseURLStripped: r.stripped, API: r.api})
	}
}

// facts reads a route's own baseUrl and api (non-blank strings).
func (r *route) facts(base, api gjson.Result) {
	if base.Type == gjson.String && strings.TrimSpace(base.String()) != "" {
		r.baseURL, r.stripped = sanitizeURL(base.String())
		r.hasBase = true
	}
	if api.Type == gjson.String && strings.TrimSpace(api.String()) != "" {
		r.api, r.hasAPI = strings.TrimSpace(api.String()), true
	}
}

// object is an object whose direct members are looked up by key, each
// the first of its name (as gjson's Get), located in one pass.
type object struct {
	v gjson.Result
	m map[string]gjson.Result
}

func objectOf(v gjson.Result) object {
	o := object{v: v}
	if v.IsObject() {
		o.m = map[string]gjson.Result{}
		v.ForEach(func(k, val gjson.Result) bool {
			if _, dup := o.m[k.String()]; !dup {
				o.m[k.String()] = val
			}
			return true
		})
	}
	return o
}

// get is the member k (a plain key, no path syntax).
func (o object) get(k string) gjson.Result {
	if o.m != nil {
		return o.m[k]
	}
	return o.v.Get(k)
}

func fold(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// agent is the prepared agent named id (normalized; "" for none).
func (x *Index) agent(id string) *agent {
	if id != "" {
		if a := x.agents[id]; a != nil {
			return a
		}
	}
	return &x.none
}

// agentsFor returns the agent whose model maps a request's lookup reads
// and the agent whose params count as request overrides. A request
// naming no agent looks up the implicit owner agent's maps but, as in
// OpenClaw, counts only agents.defaults' params; an agent ID that
// normalizes to nothing is refused.
func (x *Index) agentsFor(agentID string) (lookup, params *agent, err error) {
	if trim(agentID) == "" {
		return x.agent(x.implicit), &x.none, nil
	}
	id, ok := normalizeAgentID(agentID)
	if !ok {
		return nil, nil, occkit.Invalid("SEL-1", occkit.Root(), "agent ID %q names no agent", agentID)
	}
	a := x.agent(id)
	return a, a, nil
}

// lower is strings.ToLower(strings.TrimSpace(s)), without allocating for
// a provider ID the document names.
func (x *Index) lower(s string) string {
	s = trim(s)
	var buf [64]byte
	if len(s) > len(buf) {
		return strings.ToLower(s)
	}
	upper := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x80 {
			return strings.ToLower(s)
		}
		if 'A' <= c && c <= 'Z' {
			upper, c = true, c+'a'-'A'
		}
		buf[i] = c
	}
	if !upper {
		return s
	}
	if id, ok := x.names[string(buf[:len(s)])]; ok {
		return id
	}
	return strings.ToLower(s)
}

// provider is the chosen config of the normalized provider, or nil.
func (x *Index) provider(id string) *provider {
	if id == "" {
		return nil
	}
	return x.provs[id]
}

// routeRow is the catalog row of model's route (SEL-4 facts, SEL-6
// overrides): the rows whose trimmed ID is model, merged ([mergeRows]).
// A row that names the model with a provider prefix (`openai/m`) gives
// the model its policy ([provider.row]) but not its route: OpenClaw
// 2026.9.6 reads a route's base URL, API and request overrides from the
// exact-ID rows only (measured against its selection; the SPEC is silent).
func (p *provider) routeRow(model string) *row {
	if p == nil || model == "" || p.bare == nil {
		return nil
	}
	return p.bare[model]
}

// row finds the first catalog row, in array order, that names
// provider/model (REF-4, [resolver.MatchRow]); bare is p.routeRow(model).
func (p *provider) row(bare *row, provider, model string) *row {
	if p == nil || model == "" || p.bare == nil {
		return nil
	}
	best := bare
	if len(p.qual) > 0 {
		if q := p.qual[qualKey{provider, model}]; q != nil && (best == nil || q.idx < best.idx) {
			best = q
		}
	}
	for _, r := range p.other {
		if best != nil && r.idx >= best.idx {
			break
		}
		if resolver.MatchRow(resolver.Ref{Provider: provider, ID: model}, r.id) {
			best = r
			break
		}
	}
	return best
}
