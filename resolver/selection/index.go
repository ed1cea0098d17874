package selection

import (
	"slices"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/internal/jsonwalk"
	"github.com/occkit/occkit/resolver"
)

// Index is a document prepared for [Select]. [Prepare] reads, in one
// linear pass, everything a decision can consult and stores it already
// decided: per agent, the whole-agent keys it ignores (SEL-2) and the
// params that are overrides (SEL-6a); per model-map key, its provider
// part, its normalized runtime policy and the reason naming it; per
// provider config and catalog row, its policy, its sanitized base URL and
// API, whether that is the official OpenAI route (SEL-4) and its request
// overrides (SEL-6). A decision is then a handful of lookups keyed by
// the request's own strings (in a map, or among the few names held in
// place: [table]): no walk from the document root, no URL
// parsing, and the same cost at 40 or 10,000 catalog models. It allocates
// nothing unless a plugin is asked, the session and the plugins add more
// than two reasons, it refuses, or the request spells in upper case a
// provider (or session runtime) that the document does not name.
//
// An Index is immutable and safe for concurrent use. It holds views of
// the document's bytes, so it lives as long as the document.
type Index struct {
	none     agent         // no agent entry: agents.defaults alone
	agents   table[*agent] // normalized agent ID → its scopes
	implicit string        // the agent a request naming none reads ("" none)
	// implicitAgent is x.agent(implicit), found once.
	implicitAgent *agent
	// provs holds every normalized provider ID the document names, so a
	// request spelling one in upper case costs no allocation, each with
	// its chosen config.
	provs table[provEntry]
	// noRoute is the route without a provider config: the provider's
	// default URL and API, which for openai is the official route.
	noRoute route
}

// table maps the few names a document gives agents, providers, the
// model IDs of a model map or the rows of a catalog to what is prepared
// for each. Up to len(few) are held in place and found by comparing
// names, so most documents make no map for them; past that, or when
// room is reserved for more, a map holds them all.
type table[V any] struct {
	n   int
	few [4]tableEntry[V]
	m   map[string]V
}

type tableEntry[V any] struct {
	name string
	v    V
}

// get is the value of name.
func (t *table[V]) get(name string) (V, bool) {
	if t.m != nil {
		v, ok := t.m[name]
		return v, ok
	}
	for i := range t.few[:t.n] {
		if t.few[i].name == name {
			return t.few[i].v, true
		}
	}
	var zero V
	return zero, false
}

// getBytes is get of the name b spells, without allocating.
func (t *table[V]) getBytes(b []byte) (V, bool) {
	if t.m != nil {
		v, ok := t.m[string(b)]
		return v, ok
	}
	for i := range t.few[:t.n] {
		if t.few[i].name == string(b) {
			return t.few[i].v, true
		}
	}
	var zero V
	return zero, false
}

// len is the number of entries.
func (t *table[V]) len() int {
	if t.m != nil {
		return len(t.m)
	}
	return t.n
}

// reserve makes room for n entries in an empty table: a map at once when
// they are more than its few.
func (t *table[V]) reserve(n int) {
	if t.m == nil && t.n == 0 && n > len(t.few) {
		t.m = make(map[string]V, n)
	}
}

// clear removes every entry, keeping the room made.
func (t *table[V]) clear() {
	if t.m != nil {
		clear(t.m)
		return
	}
	t.few, t.n = [len(t.few)]tableEntry[V]{}, 0
}

// set sets the value of name, adding it when it is not there.
func (t *table[V]) set(name string, v V) {
	if t.m != nil {
		t.m[name] = v
		return
	}
	for i := range t.few[:t.n] {
		if t.few[i].name == name {
			t.few[i].v = v
			return
		}
	}
	if t.n < len(t.few) {
		t.few[t.n] = tableEntry[V]{name, v}
		t.n++
		return
	}
	t.m = make(map[string]V, 2*len(t.few))
	for _, e := range t.few {
		t.m[e.name] = e.v
	}
	t.few, t.n = [len(t.few)]tableEntry[V]{}, 0
	t.m[name] = v
}

// each calls fn with each entry, in no order.
func (t *table[V]) each(fn func(name string, v V)) {
	for _, e := range t.few[:t.n] {
		fn(e.name, e.v)
	}
	for name, v := range t.m {
		fn(name, v)
	}
}

// provEntry is a provider ID the document names, as the provider table
// holds it: the ID (so that a request spelling it in upper case is
// given the document's string) and its chosen config (nil: no config, or
// one a focus leaves out).
type provEntry struct {
	id string
	p  *provider
}

// addProvider adds the provider ID id to t, with no config, unless it
// is there.
func addProvider(t *table[provEntry], id string) {
	if _, ok := t.get(id); !ok {
		t.set(id, provEntry{id: id})
	}
}

// agent is what a decision reads for one agent: agents.defaults and, when
// the agent has an entry, the entry.
type agent struct {
	sel2   []resolver.Reason // ignored whole-agent keys, defaults then entry
	params []occkit.Path     // SEL-6a overrides of the scopes' params, sorted
	maps   []*modelMap       // the entry's model map, then the defaults'
	// two holds maps, in the agent's own allocation: an entry's agent's
	// two (scope.with), the defaults' alone for Index.none.
	two [2]*modelMap
}

// noModels is the model map of a scope without one: it has no key, so
// nothing asks its path, and one map serves every such scope (an agent
// entry most often has none). A model map is never changed once read.
var noModels = &modelMap{}

// modelMap is a prepared model map (`agents.defaults.models`, an entry's
// `models`).
type modelMap struct {
	at occkit.Path
	// byModel holds the first key, in author order, that can name a
	// model ID: under the trimmed key (whole) and under the trimmed part
	// after the key's first slash. Most model IDs have one key; where
	// more keys name one (keyRef.more), dups holds them all in author
	// order. A decision reads a small value in place. A key as written
	// is found under its trimmed spelling too ([modelMap.key]).
	byModel table[keyRef]
	dups    map[string][]keyRef
	// wild holds the `<provider>/*` keys with a policy, in author order.
	wild []*modelKey
	// own holds the map's first keys (most maps have a key or two), in
	// the map's own allocation; the others are in chunks.
	own [2]modelKey
}

type keyRef struct {
	k     *modelKey
	whole bool // indexed under the whole key, not the part after the slash
	more  bool // in byModel: other keys name the model too (see dups)
}

// modelKey is one member of a model map.
type modelKey struct {
	key      string // as written
	provider string // normalized part before the first slash
	runtime  string // its normalized runtime (REF-6)
	// params is the text of the key's params value (hasParams) and
	// overrides whether it holds a SEL-6a override; the override paths
	// are listed only when a decision names them (paramPaths), so
	// preparing a catalog builds no path per key.
	params string
	// in is the map holding the key: the policy's path is built from it
	// only when a reason or a refusal names it (policyAt).
	in        *modelMap
	qualified bool // the key has a slash
	policy    bool // a non-blank agentRuntime.id
	hasParams bool // params present and not null
	overrides bool
}

// paramPaths are the SEL-6a overrides of k's params, sorted; k is a
// member of the model map at at.
func (k *modelKey) paramPaths(at occkit.Path) []occkit.Path {
	if !k.overrides {
		return nil
	}
	var scan overrideScan
	scan.params(gjson.Parse(k.params), extend(at, k.key, "params"))
	return sortPaths(scan.paths)
}

// provider is the chosen `models.providers.<p>` config of one normalized
// provider ID.
type provider struct {
	route
	key   string           // the config's key: its path is models.providers.<key> ([provider.path])
	bare  table[*row]      // trimmed row ID → its first row (the group merged: mergeRows)
	qual  map[qualKey]*row // "<p>/<id>" rows by folded <p> and trimmed <id>: the first; nil without one
	other []*row           // "<p>/<id>" rows whose <p> is not ASCII
}

// path is the path of the provider's member keys, in one allocation.
func (p *provider) path(keys ...string) occkit.Path {
	var b occkit.PathBuilder
	b.Grow(3 + len(keys))
	b.Key("models")
	b.Key("providers")
	b.Key(p.key)
	for _, k := range keys {
		b.Key(k)
	}
	return b.Path()
}

// rowPath is the path of the member keys of the provider's catalog row
// at idx, in one allocation.
func (p *provider) rowPath(idx int, keys ...string) occkit.Path {
	var b occkit.PathBuilder
	b.Grow(5 + len(keys))
	b.Key("models")
	b.Key("providers")
	b.Key(p.key)
	b.Key("models")
	b.Index(idx)
	for _, k := range keys {
		b.Key(k)
	}
	return b.Path()
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
	runtime   string
	overrides []occkit.Path // SEL-6, sorted
	baseURL   string        // sanitized
	api       string
	// owner is the provider whose config (policyRow -1) or catalog row
	// at policyRow holds the policy, whose path ([route.policyPath]) is
	// built only when a reason or a refusal names it; nil without a
	// policy.
	owner     *provider
	policyRow int
	policy    bool
	stripped  bool
	hasBase   bool
	hasAPI    bool
	// official is OfficialOpenAIRoute of the effective base URL and API
	// (a row's, else its provider's).
	official bool
}

// policyPath is the path of the route's policy, its agentRuntime.id.
func (r *route) policyPath() occkit.Path {
	if r.policyRow < 0 {
		return r.owner.path("agentRuntime", "id")
	}
	return r.owner.rowPath(r.policyRow, "agentRuntime", "id")
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

// skipsRow reports, for the catalog row at i of s (an object), whether
// its first member is its ID and names a row no lookup of the request
// reaches (row) or is not a string: the row is then skipped unread.
func (f *focus) skipsRow(s string, i int) bool {
	if f == nil {
		return false
	}
	skips := false
	jsonwalk.Members(s, i, func(lit string, escaped bool, at int) int {
		if text(lit, escaped) == "id" {
			if at < len(s) && s[at] == '"' {
				end, escaped := jsonwalk.StringEnd(s, at)
				skips = !f.row(strings.TrimSpace(text(s[at:end], escaped)))
			} else {
				skips = true
			}
		}
		return -1 // the first member alone
	})
	return skips
}

func prepare(doc occkit.Document, f *focus) *Index {
	s := doc.String()
	x := &Index{noRoute: route{official: true}}
	var agents agentsSection
	var def scope
	var few [4]member // most documents have few provider configs
	provs := few[:0]
	var seenAgents, seenModels bool
	eachMember(s, 0, func(key string, i int) int {
		switch {
		case key == "agents" && !seenAgents:
			seenAgents = true
			return x.readAgents(s, i, &agents, &def, f)
		case key == "models" && !seenModels:
			seenModels = true
			var end int
			provs, end = readProviders(s, i, provs, f)
			return end
		}
		return skip(s, i)
	})
	if def.models == nil { // no agents.defaults
		def, _ = readScope("", 0, scopeAt{}, &x.provs, f)
	}
	x.none = agent{sel2: def.sel2, params: def.params, two: [2]*modelMap{def.models}}
	x.none.maps = x.none.two[:1]

	var members [4]rosterMember // most rosters have few agents
	r, byID := readRoster(agents, members[:])
	x.implicit = r.implicitAgent(&byID, agents.ownership, def.systemAgent.Get("agentId"))
	// The agents prepared are allocated together.
	keep := func(id string) bool { return f == nil || id == f.agent || id == x.implicit }
	n := 0
	byID.each(func(id string, _ int32) {
		if keep(id) {
			n++
		}
	})
	if n > 0 {
		as := make([]agent, n)
		byID.each(func(id string, i int32) {
			if keep(id) {
				m := &r.members[i]
				e, _ := readScope(m.raw, 0, m.at, &x.provs, f)
				x.agents.set(id, def.with(e, &as[len(as)-n]))
				n--
			}
		})
	}
	x.implicitAgent = x.agent(x.implicit)

	eachProviderGroup(provs, func(id string, g providerGroup) {
		switch {
		case f != nil && !f.provs[id]:
			addProvider(&x.provs, id)
		case g.prepared != nil:
			x.provs.set(id, provEntry{id, g.prepared})
		default:
			p, _ := newProvider(g.key, g.merged().Raw, 0, id == "openai", f)
			x.provs.set(id, provEntry{id, p})
		}
	})
	return x
}

// readAgents reads the agents section at i of s into a, the defaults
// scope prepared as it is read into def, and returns the offset after it.
func (x *Index) readAgents(s string, i int, a *agentsSection, def *scope, f *focus) int {
	end := eachMember(s, i, func(key string, i int) int {
		var v *gjson.Result
		switch key {
		case "defaults":
			if def.models != nil {
				return skip(s, i)
			}
			var end int
			*def, end = readScope(s, i, scopeAt{}, &x.provs, f)
			return end
		case "entries":
			v = &a.entries
		case "list":
			v = &a.list
		case "ownership":
			v = &a.ownership
		}
		return first(v, s, i)
	})
	a.v = gjson.Parse(s[i:end])
	return end
}

// readProviders appends the members of models.providers, the models
// section being at i of s, to provs and returns them and the offset
// after the section (returned, not appended through a pointer, so a
// caller's array in place holds them). Each config is
// prepared as it is read, in case it is the only one of its provider ID
// (providerGroups): a focus does not know yet which providers it keeps,
// and preparing a config costs little more than skipping it.
func readProviders(s string, i int, provs []member, f *focus) ([]member, int) {
	seen := false
	end := eachMember(s, i, func(key string, i int) int {
		if key != "providers" || seen {
			return skip(s, i)
		}
		seen = true
		return eachMember(s, i, func(key string, i int) int {
			var m member
			end := 0
			if opens(s, i) {
				m.prepared, end = newProvider(key, s, i, fold(key) == "openai", f)
				m.v = gjson.Parse(s[i:end])
			} else {
				m.v, end = value(s, i)
			}
			m.key = key
			provs = append(provs, m)
			return end
		})
	})
	return provs, end
}

// first sets *v, unless v is nil or already set, to the value at i of s
// (the first member of a name wins, as gjson reads it) and returns the
// offset after the value.
func first(v *gjson.Result, s string, i int) int {
	if v == nil || v.Exists() {
		return skip(s, i)
	}
	var end int
	*v, end = value(s, i)
	return end
}

// scope is one prepared agent scope.
type scope struct {
	sel2   []resolver.Reason
	params []occkit.Path
	models *modelMap
	// systemAgent is the scope's systemAgent member (read from
	// agents.defaults only: [roster.implicitAgent]).
	systemAgent gjson.Result
}

// readScope prepares the agent scope at i of s (the scope at at) and
// returns the offset after it; its model map is prepared as it is read.
func readScope(s string, i int, at scopeAt, names *table[provEntry], f *focus) (scope, int) {
	var sc scope
	var runtime, embedded, params gjson.Result
	end := eachMember(s, i, func(key string, i int) int {
		var v *gjson.Result
		switch key {
		case "agentRuntime":
			v = &runtime
		case "embeddedHarness":
			v = &embedded
		case "params":
			v = &params
		case "systemAgent":
			v = &sc.systemAgent
		case "models":
			if sc.models == nil {
				var end int
				sc.models, end = readModelMap(s, i, at.modelsPath(), names, f)
				return end
			}
		}
		return first(v, s, i)
	})
	sc.read(at, runtime, embedded, params)
	if sc.models == nil {
		sc.models = noModels
	}
	return sc, end
}

// read records the scope's whole-agent keys (SEL-2) and params
// overrides (SEL-6a): its members agentRuntime, embeddedHarness and
// params; the scope is at at.
func (sc *scope) read(at scopeAt, runtime, embedded, params gjson.Result) {
	for _, m := range []struct {
		key string
		v   gjson.Result
	}{{"agentRuntime", runtime}, {"embeddedHarness", embedded}} {
		if m.v.Exists() {
			sc.sel2 = append(sc.sel2, resolver.Reason{Rule: "SEL-2", Path: at.path(m.key), Value: runtimeValue(m.v), Note: "whole-agent runtime key is ignored"})
		}
	}
	if present(params) {
		var scan overrideScan
		scan.params(params, at.path("params"))
		sc.params = scan.paths
	}
}

// with sets a to the agent made of the defaults scope s and the entry
// scope e, and returns it.
func (s scope) with(e scope, a *agent) *agent {
	*a = agent{two: [2]*modelMap{e.models, s.models}}
	a.maps = a.two[:]
	if e.models == noModels { // an entry without a model map: nothing to look up in it
		a.maps = a.two[1:]
	}
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
	var ps paths
	return ps.extend(p, keys...)
}

// paths builds paths one after the other in slabs that double up to room
// for max elements (a slab a path when max is 0), so the paths of many
// keys cost few allocations and those of a few keys no more memory than
// they take.
type paths struct {
	b               occkit.PathBuilder
	max, next, room int
}

// extend is p with the object keys appended.
func (ps *paths) extend(p occkit.Path, keys ...string) occkit.Path {
	n := p.Len() + len(keys)
	ps.b.Reset()
	if ps.room < n {
		ps.room = max(n, ps.next)
		ps.next = min(2*ps.room, ps.max)
		ps.b.Grow(ps.room)
	}
	ps.room -= n
	for i := 0; i < p.Len(); i++ {
		if k, idx, isIdx := p.Elem(i); isIdx {
			ps.b.Index(idx)
		} else {
			ps.b.Key(k)
		}
	}
	for _, k := range keys {
		ps.b.Key(k)
	}
	return ps.b.Path()
}

// readModelMap prepares the model map at i of s (the map at at) and
// returns the offset after it. Each key's value is read in one pass
// ([modelKey.read]); a key the focus f cannot reach is skipped unread.
func readModelMap(s string, i int, at occkit.Path, names *table[provEntry], f *focus) (*modelMap, int) {
	mm := &modelMap{at: at}
	if !opens(s, i) {
		return mm, skip(s, i)
	}
	// The keys are read first, so the maps are made at their size (no
	// growing); they are allocated in chunks, never copied, and listed
	// in place up to len(few).
	var few [32]*modelKey
	ks := few[:0]
	chunk := chunks[modelKey]{buf: mm.own[:0]}
	start := i
	end := eachMember(s, i, func(key string, i int) int {
		t := strings.TrimSpace(key)
		pre, rest, qualified := strings.Cut(t, "/")
		if !f.key(key, t, rest, qualified) {
			return skip(s, i)
		}
		k := chunk.next(left(s, start, i, len(ks)))
		k.key, k.qualified, k.in = key, qualified, mm
		if qualified {
			k.provider = fold(pre)
		}
		end := k.read(s, i)
		ks = append(ks, k)
		return end
	})
	mm.index(ks, names, f)
	return mm, end
}

// index indexes the keys ks of m, in author order; it adds the
// providers they name to names and to the focus f.
func (m *modelMap) index(ks []*modelKey, names *table[provEntry], f *focus) {
	m.byModel.reserve(2 * len(ks))
	// Most model IDs have one key: each is written once, backwards, so
	// the first key of a spelling is the one kept. When a model ID has
	// more than one key (the map holds fewer IDs than were written), its
	// keys are listed again in author order.
	refs := 0
	last := ""
	for i := len(ks) - 1; i >= 0; i-- {
		k := ks[i]
		if k.provider != "" && k.provider != last {
			last = k.provider
			addProvider(names, k.provider)
			if f != nil {
				f.provs[k.provider] = true
			}
		}
		t := strings.TrimSpace(k.key)
		m.byModel.set(t, keyRef{k: k, whole: true})
		refs++
		if _, rest, qualified := strings.Cut(t, "/"); qualified {
			r := strings.TrimSpace(rest)
			m.byModel.set(r, keyRef{k: k})
			refs++
			if r == "*" && k.provider != "" && k.policy {
				m.wild = append(m.wild, k)
			}
		}
	}
	slices.Reverse(m.wild)
	if m.byModel.len() == refs {
		return
	}
	m.byModel.clear()
	for _, k := range ks {
		t := strings.TrimSpace(k.key)
		m.addRef(t, keyRef{k: k, whole: true})
		if _, rest, qualified := strings.Cut(t, "/"); qualified {
			m.addRef(strings.TrimSpace(rest), keyRef{k: k})
		}
	}
}

// read reads the key's value at i of s in one pass, its policy (the
// agentRuntime's non-blank id) and its params, and returns the offset
// after it.
func (k *modelKey) read(s string, i int) int {
	var runtime, params bool
	return eachMember(s, i, func(name string, i int) int {
		switch {
		case name == "agentRuntime" && !runtime:
			runtime = true
			id, ok, end := runtimeID(s, i)
			if ok {
				k.policy, k.runtime = true, resolver.NormalizeRuntime(id)
			}
			return end
		case name == "params" && !params:
			params = true
			if i < len(s) && s[i] == 'n' { // null: absent
				return skip(s, i)
			}
			var end int
			k.overrides, end = paramOverride(s, i)
			k.params, k.hasParams = s[i:end], true
			return end
		}
		return skip(s, i)
	})
}

// chunks hands out zero values of T from slices of a growing size, so
// many values cost few allocations and none is copied when more come.
// The first chunk is buf, when set (room in place), then chunks of 4,
// then of at least 8, 16, 32... and at most 16, 64, 256... values, and
// never more than 512 (a model map or a catalog most often has a key or
// a row or two, a benchmark's 20 or 40), sized between the two by how
// many values the rest of the document can hold ([left]): a collection
// near its end, as a catalog most often is, takes little more room than
// it needs, and however wrong the estimate, n values take no more
// chunks than log2(n) and n/512 together, and a few.
type chunks[T any] struct {
	buf  []T
	made int // chunks made
}

// next is a zero value to fill; left is how many values are still to
// come, this one included, as far as the caller can tell.
func (c *chunks[T]) next(left int) *T {
	if len(c.buf) == cap(c.buf) {
		lo, hi := 4<<min(c.made, 7), 4<<min(2*c.made, 7)
		c.buf = make([]T, 0, min(max(lo, min(hi, left)), 512))
		c.made++
	}
	c.buf = c.buf[:len(c.buf)+1]
	return &c.buf[len(c.buf)-1]
}

// left estimates how many values of the collection at start of s are
// still to come, the one at i included, n having been read before it:
// as many as the rest of s holds, were it all values of their mean size.
// It is large when none was read.
func left(s string, start, i, n int) int {
	if n == 0 || i <= start {
		return 512
	}
	return (len(s)-i)*n/(i-start) + 1
}

// key is the first key of m, in author order, written s. Every key is
// in byModel under its trimmed spelling, whole.
func (m *modelMap) key(s string) *modelKey {
	t := trim(s)
	r, ok := m.byModel.get(t)
	switch {
	case !ok:
		return nil
	case !r.more:
		if r.whole && r.k.key == s {
			return r.k
		}
		return nil
	}
	for _, r := range m.dups[t] {
		if r.whole && r.k.key == s {
			return r.k
		}
	}
	return nil
}

func (m *modelMap) addRef(model string, r keyRef) {
	first, ok := m.byModel.get(model)
	switch {
	case !ok:
		m.byModel.set(model, r)
	case !first.more:
		first.more = true
		m.byModel.set(model, first)
		if m.dups == nil {
			m.dups = map[string][]keyRef{}
		}
		m.dups[model] = []keyRef{first, r}
	default:
		m.dups[model] = append(m.dups[model], r)
	}
}

// newProvider prepares the config at i of s, models.providers.<key>, and
// returns the offset after it; openai marks the provider whose routes
// SEL-4 tests. The config is read in one pass, its catalog rows as they
// come (readRows); a row's route facts fall back on the config's, which
// may follow the rows, so they are settled after the pass.
func newProvider(key string, s string, i int, openai bool, f *focus) (*provider, int) {
	p := &provider{key: key}
	o := object{byMember: true}
	var seen uint16
	var rows rowsRead
	var few [32]*row // the rows are listed in place up to len(few)
	rs := few[:0]
	seenRows := false
	end := eachMember(s, i, func(name string, i int) int {
		if name == "models" {
			if seenRows {
				return skip(s, i)
			}
			seenRows = true
			if i >= len(s) || s[i] != '[' {
				return skip(s, i)
			}
			var end int
			rs, end = p.readRows(s, i, f, &rows, rs)
			return end
		}
		j := configKey(name)
		if j < 0 || seen&(1<<j) != 0 {
			return skip(s, i)
		}
		seen |= 1 << j
		var end int
		if j == 0 { // agentRuntime: its id is read in place
			o.runtimeID, o.hasRuntimeID, end = runtimeID(s, i)
			return end
		}
		o.members[j], end = value(s, i)
		return end
	})
	o.v = gjson.Parse(s[i:end])
	p.config(&o, openai)
	if rows.catalog == "" { // models is not an array
		return p, end
	}
	facts := rows.facts
	for _, r := range rs {
		var base, api gjson.Result
		if len(facts) > 0 && facts[0].r == r {
			base, api, facts = gjson.Parse(facts[0].base), gjson.Parse(facts[0].api), facts[1:]
		}
		r.rowFacts(base, api, p, openai)
	}
	p.index(rs, rows.catalog, openai)
	return p, end
}

// index indexes the catalog rows rs of p, in array order; catalog is
// the text of the catalog array, which mergeRows reads again for the
// rows that share an ID.
func (p *provider) index(rs []*row, catalog string, openai bool) {
	if len(rs) == 0 {
		return
	}
	p.bare.reserve(len(rs))
	var dups map[string][]*row // trimmed IDs of more than one row
	for _, r := range rs {
		t := strings.TrimSpace(r.id)
		if first, ok := p.bare.get(t); !ok {
			p.bare.set(t, r)
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
				if p.qual == nil {
					p.qual = map[qualKey]*row{}
				}
				if _, ok := p.qual[q]; !ok {
					p.qual[q] = r
				}
			} else {
				p.other = append(p.other, r)
			}
		}
	}
	if dups == nil {
		return
	}
	texts := map[int]string{} // by array index, the rows that share an ID
	for _, group := range dups {
		for _, r := range group {
			texts[r.idx] = ""
		}
	}
	jsonwalk.Elements(catalog, 0, func(idx, i int) int {
		end := skip(catalog, i)
		if _, ok := texts[idx]; ok {
			texts[idx] = catalog[i:end]
		}
		return end
	})
	for _, group := range dups {
		raws := make([]string, len(group))
		for i, r := range group {
			raws[i] = texts[r.idx]
		}
		p.mergeRows(group, raws, openai)
	}
}

// config reads p's own members o: its policy, request overrides and
// route facts.
func (p *provider) config(o *object, openai bool) {
	raw, ok := o.runtimeID, o.hasRuntimeID
	if !o.byMember {
		raw, ok = runtimeIDOf(o.get("agentRuntime"))
	}
	if ok {
		p.policy, p.runtime = true, resolver.NormalizeRuntime(raw)
		p.owner, p.policyRow = p, -1
	}
	if o.mayOverride() {
		var scan overrideScan
		scan.provider(o, p.path())
		p.overrides = sortPaths(scan.paths)
	}
	p.facts(o.get("baseUrl"), o.get("api"))
	if openai {
		p.official = OfficialOpenAIRoute(RouteFacts{BaseURL: p.baseURL, BaseURLStripped: p.stripped, API: p.api})
	}
}

// rowsRead is what is read of a catalog beside its rows: the text of the
// catalog array, and facts, which holds, in array order, the text of the
// baseUrl and api of the rows that have either.
type rowsRead struct {
	catalog string
	facts   []rowFact
	chunk   chunks[row] // the rows are allocated in chunks, never copied
}

type rowFact struct {
	r         *row
	base, api string // "" when absent
}

// readRows reads the catalog at i of s (the rows of p), appends to rs
// the rows with a string ID that the focus f can reach, in array order,
// each read in one pass, their route facts left to the caller, and
// returns them and the offset after the catalog.
func (p *provider) readRows(s string, i int, f *focus, rows *rowsRead, rs []*row) ([]*row, int) {
	start, kept := i, len(rs)
	end := jsonwalk.Elements(s, i, func(idx, i int) int {
		if !opens(s, i) || f.skipsRow(s, i) {
			return skip(s, i)
		}
		var m [len(rowKeys)]string // the text of each member read, "" when absent
		end := eachMember(s, i, func(name string, i int) int {
			end := skip(s, i)
			if j := slices.Index(rowKeys[:], name); j >= 0 && m[j] == "" {
				m[j] = s[i:end]
			}
			return end
		})
		id := m[0]
		if id == "" || id[0] != '"' {
			return end
		}
		id = text(id, strings.IndexByte(id, '\\') >= 0)
		if !f.row(strings.TrimSpace(id)) {
			return end
		}
		r := rows.chunk.next(left(s, start, i, len(rs)-kept))
		r.idx, r.id = idx, id
		if raw, ok := runtimeIDOf(gjson.Parse(m[1])); ok {
			r.policy, r.runtime = true, resolver.NormalizeRuntime(raw)
			r.owner, r.policyRow = p, idx
		}
		if m[4] != "" || m[5] != "" || m[6] != "" { // a field that can hold an override
			at := p.rowPath(idx)
			var scan overrideScan
			for j, name := range rowFields {
				scan.rowField(name, gjson.Parse(m[4+j]), at)
			}
			r.overrides = sortPaths(scan.paths)
		}
		rs = append(rs, r)
		if m[2] != "" || m[3] != "" {
			rows.facts = append(rows.facts, rowFact{r, m[2], m[3]})
		}
		return end
	})
	if end < 0 {
		end = skip(s, i)
	}
	rows.catalog = s[i:end]
	return rs, end
}

// rowKeys are the members of a catalog row that selection reads: its ID,
// policy, route facts, then rowFields.
var rowKeys = [...]string{"id", "agentRuntime", "baseUrl", "api", "headers", "params", "compat"}

// mergeRows gives the rows of one trimmed ID the route OpenClaw reads for
// them: one row, each member taken from the first row that has it, for
// the request overrides (SEL-6) and the base URL and API (SEL-4). The
// policy stays the first row's (SEL-1). The SPEC is silent on duplicate
// rows; this is how OpenClaw merges them.
// raws holds the text of each row of group.
func (p *provider) mergeRows(group []*row, raws []string, openai bool) {
	var scan overrideScan
	var base, api gjson.Result
	seen := map[string]bool{}
	for i, r := range group {
		at := p.rowPath(r.idx)
		gjson.Parse(raws[i]).ForEach(func(k, v gjson.Result) bool {
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
		m.policy, m.runtime, m.owner, m.policyRow = r.policy, r.runtime, r.owner, r.policyRow
		r.route = m
	}
}

// rowFacts reads a catalog row's baseUrl and api, else its provider p's,
// and for openai whether that is the official route (SEL-4).
func (r *route) rowFacts(base, api gjson.Result, p *provider, openai bool) {
	r.facts(base, api)
	own := r.hasBase || r.hasAPI
	if !r.hasBase {
		r.baseURL, r.stripped, r.hasBase = p.baseURL, p.stripped, p.hasBase
	}
	if !r.hasAPI {
		r.api, r.hasAPI = p.api, p.hasAPI
	}
	switch {
	case !openai:
	case own:
		r.official = OfficialOpenAIRoute(RouteFacts{BaseURL: r.baseURL, BaseURLStripped: r.stripped, API: r.api})
	default: // the provider's facts, and so its verdict
		r.official = p.official
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
// the first of its name (as gjson's Get), located in one pass: with
// byMember, members holds those of configKeys (the others are not read)
// but agentRuntime, whose non-blank id is runtimeID (hasRuntimeID),
// else m, when set, all of them.
type object struct {
	v            gjson.Result
	m            map[string]gjson.Result
	byMember     bool
	members      [len(configKeys)]gjson.Result
	runtimeID    string
	hasRuntimeID bool
}

// configKeys are the members of a provider config that selection reads
// beside its catalog: its policy, its route facts and the members that
// can hold a request override ([overrideScan.provider]).
var configKeys = [...]string{"agentRuntime", "baseUrl", "api", "headers", "request", "params", "authHeader", "timeoutSeconds", "localService"}

// configKey is the index of name in configKeys, -1 when it is not one.
func configKey(name string) int {
	switch name {
	case "agentRuntime":
		return 0
	case "baseUrl":
		return 1
	case "api":
		return 2
	case "headers":
		return 3
	case "request":
		return 4
	case "params":
		return 5
	case "authHeader":
		return 6
	case "timeoutSeconds":
		return 7
	case "localService":
		return 8
	}
	return -1
}

// get is the member k (a plain key, no path syntax).
func (o *object) get(k string) gjson.Result {
	if o.byMember {
		if j := configKey(k); j >= 0 {
			return o.members[j]
		}
	}
	if o.m != nil {
		return o.m[k]
	}
	return o.v.Get(k)
}

// mayOverride reports whether o can hold a request override: it has one
// of the members that can ([overrideScan.provider]), or o was not read
// member by member.
func (o *object) mayOverride() bool {
	if !o.byMember {
		return true
	}
	for _, v := range o.members[3:] {
		if v.Exists() {
			return true
		}
	}
	return false
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
		if a, _ := x.agents.get(id); a != nil {
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
	if agentID == "" || trim(agentID) == "" {
		return x.implicitAgent, &x.none, nil
	}
	id, ok := agentID, true
	if !validAgentID(agentID) { // a valid ID is its own normal form
		id, ok = normalizeAgentID(agentID)
	}
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
	if e, ok := x.provs.getBytes(buf[:len(s)]); ok {
		return e.id
	}
	return strings.ToLower(s)
}

// provider is the chosen config of the normalized provider, or nil.
func (x *Index) provider(id string) *provider {
	if id == "" {
		return nil
	}
	e, _ := x.provs.get(id)
	return e.p
}

// routeRow is the catalog row of model's route (SEL-4 facts, SEL-6
// overrides): the rows whose trimmed ID is model, merged ([mergeRows]).
// A row that names the model with a provider prefix (`openai/m`) gives
// the model its policy ([provider.row]) but not its route: OpenClaw
// 2026.9.6 reads a route's base URL, API and request overrides from the
// exact-ID rows only (measured against its selection; the SPEC is silent).
func (p *provider) routeRow(model string) *row {
	if p == nil || model == "" {
		return nil
	}
	r, _ := p.bare.get(model)
	return r
}

// row finds the first catalog row, in array order, that names
// provider/model (REF-4, [resolver.MatchRow]); bare is p.routeRow(model).
func (p *provider) row(bare *row, provider, model string) *row {
	if p == nil || model == "" {
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
