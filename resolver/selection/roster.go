package selection

import (
	"strings"

	"github.com/tidwall/gjson"

	"github.com/occkit/occkit"
)

// Which agent's scopes a decision reads, and which provider config, as
// OpenClaw 2026.9.6 reads them (the SPEC is silent; see the package doc):
//
//   - the roster is `agents.entries` when that member is present (any
//     value), else `agents.list`; an entries roster ignores the list;
//   - agent IDs compare after OpenClaw's agent-ID normalization
//     ([normalizeAgentID]); of several entry keys naming one agent the key
//     equal to the ID wins, else the smallest (trimmed, then as written);
//     of several list items, the first;
//   - a request naming no agent reads the implicit owner agent: with
//     `agents.ownership: "explicit"` the agent `agents.defaults.systemAgent.agentId`
//     names when the roster has it; otherwise the one entry marked
//     `default: true`, else the only entry; a configuration without a
//     roster has the implicit `main`, which has no entry;
//   - provider configs whose keys trim to the same spelling merge (later
//     members win, `models` only when present), the spelling equal to the
//     normalized provider ID first, else the smallest trimmed spelling;
//     members merge in a fixed order (the key equal to the ID, then byte
//     order), so author key order never changes a decision.

// normalizeAgentID is OpenClaw's agent-ID normalization: a trimmed ID
// matching `^[a-z0-9][a-z0-9_-]{0,63}$` (case-insensitive) is lower-cased;
// otherwise runs of other characters become `-`, leading and trailing
// dashes go, and the result is cut to 64 characters. ok is false when
// nothing is left.
func normalizeAgentID(s string) (string, bool) {
	t := strings.TrimSpace(s)
	lower := strings.ToLower(t)
	if validAgentID(lower) {
		return lower, true
	}
	var b strings.Builder
	dash := false
	for _, r := range lower {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' || r == '-' {
			b.WriteRune(r)
			dash = false
			continue
		}
		if !dash {
			b.WriteByte('-')
			dash = true
		}
	}
	out := strings.TrimRight(strings.TrimLeft(b.String(), "-"), "-")
	if len(out) > 64 {
		out = out[:64]
	}
	return out, out != ""
}

func validAgentID(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		alnum := c >= 'a' && c <= 'z' || c >= '0' && c <= '9'
		if !alnum && (i == 0 || c != '_' && c != '-') {
			return false
		}
	}
	return true
}

// agentKey is the normalized agent ID OpenClaw files an entry under
// (`main` when nothing is left).
func agentKey(s string) string {
	if id, ok := normalizeAgentID(s); ok {
		return id
	}
	return "main"
}

// rosterMember is one agent of the roster.
type rosterMember struct {
	id        string // normalized
	key       string // the entries key ("" for a list item)
	at        scopeAt
	raw       string // the member's text
	isDefault bool   // `default: true`
}

// roster is the agents of a configuration, in author order.
type roster struct {
	present bool // agents.entries or agents.list is present
	entries bool // the roster is agents.entries
	members []rosterMember
}

// scopeAt is where an agent scope is: agents.defaults (the zero
// scopeAt), the member key of agents.entries or the item idx of
// agents.list. The paths under it are built, each in one allocation,
// only when something names them: most entries are read for none.
type scopeAt struct {
	kind scopeKind
	key  string // the entries key
	idx  int    // the list index
}

type scopeKind uint8

const (
	atDefaults scopeKind = iota
	atEntry
	atItem
)

// path is the path of the member keys of the scope.
func (a scopeAt) path(keys ...string) occkit.Path {
	var b occkit.PathBuilder
	b.Grow(3 + len(keys))
	b.Key("agents")
	switch a.kind {
	case atDefaults:
		b.Key("defaults")
	case atEntry:
		b.Key("entries")
		b.Key(a.key)
	case atItem:
		b.Key("list")
		b.Index(a.idx)
	}
	for _, k := range keys {
		b.Key(k)
	}
	return b.Path()
}

// modelsPath is the path of the scope's model map.
func (a scopeAt) modelsPath() occkit.Path {
	if a.kind == atDefaults {
		return defaultsModelsPath
	}
	return a.path("models")
}

// agentsSection is what selection reads of `agents`, each member the
// first of its name (the defaults scope is prepared as it is read:
// [Index.readAgents]).
type agentsSection struct {
	v                                  gjson.Result
	defaults, entries, list, ownership gjson.Result
}

// readRoster reads the roster of the agents section a, its members
// appended to members (room a caller can hold in place), and byID, the
// member (an index into members) each normalized name selects. byID is
// not a field of the roster: a table's content reaches the heap, and
// with it, were it a field, the caller's room for members.
func readRoster(a agentsSection, members []rosterMember) (r roster, byID table[int32]) {
	r.members = members[:0]
	if !a.v.IsObject() {
		return r, byID
	}
	if entries := a.entries; entries.Exists() {
		r.present, r.entries = true, true
		entries.ForEach(func(k, v gjson.Result) bool {
			if entries.IsObject() && v.IsObject() {
				r.members = append(r.members, rosterMember{id: agentKey(k.String()), key: k.String(), at: scopeAt{kind: atEntry, key: k.String()},
					raw: v.Raw, isDefault: v.Get("default").Type == gjson.True})
			}
			return true
		})
		byID.reserve(len(r.members))
		for i, m := range r.members {
			if cur, ok := byID.get(m.id); !ok || spellingBefore(m.key, r.members[cur].key, m.id) {
				byID.set(m.id, int32(i))
			}
		}
		return r, byID
	}
	if list := a.list; list.Exists() {
		r.present = true
		i := 0
		list.ForEach(func(_, v gjson.Result) bool {
			if list.IsArray() && (v.IsObject() || v.IsArray()) {
				id := v.Get("id")
				m := rosterMember{id: agentKey(id.String()), at: scopeAt{kind: atItem, idx: i}, raw: v.Raw, isDefault: v.Get("default").Type == gjson.True}
				if id.Type != gjson.String {
					m.id = "main"
				}
				if _, dup := byID.get(m.id); !dup {
					byID.set(m.id, int32(len(r.members)))
				}
				r.members = append(r.members, m)
			}
			i++
			return true
		})
	}
	return r, byID
}

// spellingBefore orders two spellings of the normalized name id: the
// spelling equal to id first, then the smaller trimmed spelling, then the
// smaller key.
func spellingBefore(a, b, id string) bool {
	if (a == id) != (b == id) {
		return a == id
	}
	if ta, tb := strings.TrimSpace(a), strings.TrimSpace(b); ta != tb {
		return ta < tb
	}
	return a < b
}

// implicitAgent is the agent a request naming none reads (OpenClaw's
// legacy compatibility owner), "" when there is none; ownership is
// `agents.ownership` and rec `agents.defaults.systemAgent.agentId`.
func (r roster) implicitAgent(byID *table[int32], ownership, rec gjson.Result) string {
	if o := ownership; o.Type == gjson.String && o.String() == "explicit" {
		if rec.Type != gjson.String || strings.TrimSpace(rec.String()) == "" {
			return ""
		}
		id := agentKey(rec.String())
		if _, ok := byID.get(id); ok || !r.present && id == "main" {
			return id
		}
		return ""
	}
	marked := ""
	n := 0
	for _, m := range r.members {
		if m.isDefault {
			marked, n = m.id, n+1
		}
	}
	switch {
	case n == 1:
		return marked
	case len(r.members) == 1:
		return r.members[0].id
	case len(r.members) == 0 && !r.present:
		return "main"
	}
	return ""
}

// providerGroup is the merged provider config of one normalized provider
// ID: its members in merge order, or its one member.
type providerGroup struct {
	key     string // the spelling reasons name
	members []gjson.Result
	one     gjson.Result // the member of a group of one (members nil)
	// prepared is the config prepared as it was read, when the group
	// has one member (merged is that member).
	prepared *provider
}

// member is one member of models.providers: its key and its value, and
// the value prepared when it was read (or nil).
type member struct {
	key      string
	v        gjson.Result
	prepared *provider
}

// eachProviderGroup groups the object members of models.providers
// (provs, in author order) by normalized ID, picks, per ID, the members
// that merge and calls fn with each ID's group, in the author order of
// their first members. An ID of one member, the common case, is its own
// group without a list of its own.
func eachProviderGroup(provs []member, fn func(id string, g providerGroup)) {
	if len(provs) == 0 {
		return
	}
	firsts := make(map[string]int, len(provs)) // each ID's first member
	var shared map[string][]member             // the IDs of more than one member
	for i, m := range provs {
		if !m.v.IsObject() {
			continue
		}
		id := fold(m.key)
		if id == "" {
			continue
		}
		f, dup := firsts[id]
		if !dup {
			firsts[id] = i
			continue
		}
		if shared == nil {
			shared = map[string][]member{}
		}
		if shared[id] == nil {
			shared[id] = []member{provs[f]}
		}
		shared[id] = append(shared[id], m)
	}
	for i, m := range provs {
		if !m.v.IsObject() {
			continue
		}
		id := fold(m.key)
		if id == "" || firsts[id] != i {
			continue
		}
		if cs, many := shared[id]; many {
			fn(id, mergeGroup(id, cs))
			continue
		}
		fn(id, providerGroup{key: m.key, one: m.v, prepared: m.prepared})
	}
}

// mergeGroup is the group of the members cs (in author order) of the
// normalized ID id, more than one.
func mergeGroup(id string, cs []member) providerGroup {
	// The trimmed spelling that merges: the ID itself, else the
	// smallest.
	spell := ""
	for _, c := range cs {
		t := strings.TrimSpace(c.key)
		if t == id {
			spell = t
			break
		}
		if spell == "" || t < spell {
			spell = t
		}
	}
	var ms []member
	for _, c := range cs {
		if strings.TrimSpace(c.key) == spell {
			ms = append(ms, c)
		}
	}
	// merge order: the key equal to the ID, then byte order
	for i := 1; i < len(ms); i++ {
		for j := i; j > 0 && spellingBefore(ms[j].key, ms[j-1].key, id); j-- {
			ms[j], ms[j-1] = ms[j-1], ms[j]
		}
	}
	g := providerGroup{key: ms[0].key}
	if len(ms) == 1 {
		g.one, g.prepared = ms[0].v, ms[0].prepared
		return g
	}
	for _, m := range ms {
		g.members = append(g.members, m.v)
	}
	return g
}

// merged is the group's config as one object: members merged in order,
// a later member's value winning, except that `models` is taken only
// from a member where it is present and not null.
func (g providerGroup) merged() gjson.Result {
	if g.members == nil {
		return g.one
	}
	var order []string
	vals := map[string]string{}
	rawKeys := map[string]string{}
	for _, m := range g.members {
		m.ForEach(func(k, v gjson.Result) bool {
			key := k.String()
			if key == "models" && v.Type == gjson.Null {
				return true
			}
			if _, seen := vals[key]; !seen {
				order = append(order, key)
				rawKeys[key] = k.Raw
			}
			vals[key] = v.Raw
			return true
		})
	}
	var b strings.Builder
	b.WriteByte('{')
	for i, k := range order {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(rawKeys[k])
		b.WriteByte(':')
		b.WriteString(vals[k])
	}
	b.WriteByte('}')
	return gjson.Parse(b.String())
}
