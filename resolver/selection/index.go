package selection

import (
	"strings"

	"github.com/tidwall/gjson"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/resolver"
)

// Index is a document prepared for [Select]: the scopes selection
// reads, located once, and indexes of the agent entries, provider configs,
// catalog rows and model-map keys. Preparation is one linear pass over
// those parts of the document; a decision then reads only the entries that
// can name its target, so its cost does not grow with the catalog.
//
// A Index is immutable and safe for concurrent use. It holds views
// of the document's bytes, so it lives as long as the document.
type Index struct {
	defaults object       // agents.defaults
	entries  gjson.Result // agents.entries
	list     gjson.Result // agents.list
	provs    gjson.Result // models.providers
	defMap   *keyIndex    // agents.defaults.models

	indexed   bool
	entryByID map[string][]member      // lower(trim(key)) → object entries, author order
	listByID  map[string]member        // lower(trim(id)) → first list item
	provByID  map[string][]member      // lower(trim(key)) → object provider configs
	rows      map[string]*catalogIndex // provider config key → its catalog index
}

// member is one object member (or array item, key "") with its position.
type member struct {
	key  string
	idx  int
	v    gjson.Result
	obj  object    // v's members, for agent entries and provider configs
	keys *keyIndex // the member's `models` map, for agent entries
}

// object is an object whose direct members are looked up by key. The
// members of a prepared one are located once, so a lookup never skips a
// large sibling (a model map, a catalog).
type object struct {
	v gjson.Result
	m map[string]gjson.Result
}

func objectOf(v gjson.Result, indexed bool) object {
	o := object{v: v}
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
func (o object) get(k string) gjson.Result {
	if o.m != nil {
		return o.m[k]
	}
	return o.v.Get(k)
}

// catalogIndex indexes a catalog (`models.providers.<p>.models`) by the two
// spellings a row ID can match (MatchRow): the bare ID and a
// provider-qualified ID. Rows whose provider part is not ASCII are always
// candidates (case folding is then not a plain lower-casing).
type catalogIndex struct {
	v     gjson.Result
	bare  map[string][]member
	qual  map[string][]member
	other []member
}

// keyIndex indexes a model map: its members by trimmed key and by the
// trimmed part after a key's first slash.
type keyIndex struct {
	v      gjson.Result
	exact  map[string][]member
	byRest map[string][]member
}

// Prepare prepares doc for any number of [Index.Select]
// decisions.
func Prepare(doc occkit.Document) *Index { return prepare(doc, true) }

// prepare locates the scopes; with indexed unset it builds no indexes
// and every decision scans (the reference the indexes are tested against).
func prepare(doc occkit.Document, indexed bool) *Index {
	root := doc.Root()
	agents := root.Get("agents")
	x := &Index{
		defaults: objectOf(agents.Get("defaults"), indexed),
		entries:  agents.Get("entries"),
		list:     agents.Get("list"),
		provs:    root.Get("models").Get("providers"),
		indexed:  indexed,
	}
	x.defMap = x.keysOf(x.defaults.get("models"))
	if !indexed {
		return x
	}
	x.entryByID = map[string][]member{}
	if x.entries.IsObject() {
		i := 0
		x.entries.ForEach(func(k, v gjson.Result) bool {
			if v.IsObject() {
				id := fold(k.String())
				o := objectOf(v, true)
				x.entryByID[id] = append(x.entryByID[id], member{key: k.String(), idx: i, v: v, obj: o, keys: x.keysOf(o.get("models"))})
			}
			i++
			return true
		})
	}
	x.listByID = map[string]member{}
	if x.list.IsArray() {
		i := 0
		x.list.ForEach(func(_, v gjson.Result) bool {
			if v.IsObject() {
				id := fold(v.Get("id").String())
				if _, dup := x.listByID[id]; !dup {
					o := objectOf(v, true)
					x.listByID[id] = member{idx: i, v: v, obj: o, keys: x.keysOf(o.get("models"))}
				}
			}
			i++
			return true
		})
	}
	x.provByID, x.rows = map[string][]member{}, map[string]*catalogIndex{}
	if x.provs.IsObject() {
		x.provs.ForEach(func(k, v gjson.Result) bool {
			if v.IsObject() {
				id := fold(k.String())
				o := objectOf(v, true)
				x.provByID[id] = append(x.provByID[id], member{key: k.String(), v: v, obj: o})
				if _, seen := x.rows[k.String()]; !seen {
					x.rows[k.String()] = indexRows(o.get("models"))
				}
			}
			return true
		})
	}
	return x
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

func indexRows(rows gjson.Result) *catalogIndex {
	r := &catalogIndex{v: rows, bare: map[string][]member{}, qual: map[string][]member{}}
	if !rows.IsArray() {
		return r
	}
	i := 0
	rows.ForEach(func(_, v gjson.Result) bool {
		id := v.Get("id")
		if v.IsObject() && id.Type == gjson.String {
			kv := member{idx: i, v: v}
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
func (x *Index) keysOf(m gjson.Result) *keyIndex {
	k := &keyIndex{v: m}
	if !x.indexed || !m.IsObject() {
		return k
	}
	k.exact, k.byRest = map[string][]member{}, map[string][]member{}
	i := 0
	m.ForEach(func(key, v gjson.Result) bool {
		kv := member{key: key.String(), idx: i, v: v}
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
func (k *keyIndex) each(model string, wildcard bool, fn func(key string, v gjson.Result)) {
	if k.exact == nil {
		k.v.ForEach(func(key, v gjson.Result) bool { fn(key.String(), v); return true })
		return
	}
	var a, b []member
	if wildcard {
		a = k.byRest["*"]
	} else if model != "" {
		a, b = k.exact[model], k.byRest[model]
	}
	mergeByPosition(a, b, nil, fn)
}

// mergeByPosition visits three position-ordered lists in position order.
func mergeByPosition(a, b, c []member, fn func(key string, v gjson.Result)) {
	for len(a)+len(b)+len(c) > 0 {
		best := -1
		pick := func(l []member, n int) {
			if len(l) > 0 && (best < 0 || l[0].idx < head(a, b, c, best)) {
				best = n
			}
		}
		pick(a, 0)
		pick(b, 1)
		pick(c, 2)
		var kv member
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

func head(a, b, c []member, n int) int {
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
func (x *Index) entry(id string) (occkit.Path, object, *keyIndex) {
	if id == "" {
		return occkit.Root(), object{}, nil
	}
	entries := occkit.NewPath("agents", "entries")
	var cands []member
	if x.indexed {
		cands = x.entryByID[id]
	} else {
		i := 0
		x.entries.ForEach(func(k, v gjson.Result) bool {
			if v.IsObject() && fold(k.String()) == id {
				cands = append(cands, member{key: k.String(), idx: i, v: v, obj: object{v: v}})
			}
			i++
			return true
		})
	}
	if best := pickSpelling(cands, id); best >= 0 {
		c := cands[best]
		if c.keys == nil {
			c.keys = x.keysOf(c.obj.get("models"))
		}
		return entries.Key(c.key), c.obj, c.keys
	}
	list := occkit.NewPath("agents", "list")
	if x.indexed {
		if c, ok := x.listByID[id]; ok {
			return list.Index(c.idx), c.obj, c.keys
		}
		return occkit.Root(), object{}, nil
	}
	if x.list.IsArray() {
		for i, v := range x.list.Array() {
			if v.IsObject() && fold(v.Get("id").String()) == id {
				return list.Index(i), object{v: v}, x.keysOf(v.Get("models"))
			}
		}
	}
	return occkit.Root(), object{}, nil
}

// pickSpelling chooses among the spellings of id: the exact key, else the
// smallest key, independent of author key order; -1 when there is none.
func pickSpelling(cands []member, id string) int {
	best := -1
	for i, c := range cands {
		if c.key == id {
			return i
		}
		if best < 0 || c.key < cands[best].key {
			best = i
		}
	}
	return best
}

// providerConfig finds `models.providers.<p>` (the key compared
// case-insensitively; of several spellings the exact key, then the
// smallest).
func (x *Index) providerConfig(provider string) (member, *catalogIndex, bool) {
	if provider == "" {
		return member{}, nil, false
	}
	var cands []member
	if x.indexed {
		cands = x.provByID[provider]
	} else {
		x.provs.ForEach(func(k, v gjson.Result) bool {
			if v.IsObject() && fold(k.String()) == provider {
				cands = append(cands, member{key: k.String(), v: v, obj: object{v: v}})
			}
			return true
		})
	}
	best := pickSpelling(cands, provider)
	if best < 0 {
		return member{}, nil, false
	}
	c := cands[best]
	if x.indexed {
		return c, x.rows[c.key], true
	}
	return c, &catalogIndex{v: c.obj.get("models")}, true
}

// row finds the first catalog row, in array order, matching ref (REF-4).
func (r *catalogIndex) row(ref resolver.Ref) (member, bool) {
	var found member
	ok := false
	visit := func(idx int, v gjson.Result) bool {
		id := v.Get("id")
		if v.IsObject() && id.Type == gjson.String && resolver.MatchRow(ref, id.String()) {
			found, ok = member{idx: idx, v: v}, true
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
	for _, l := range [][]member{r.bare[ref.ID], r.qual[ref.Provider+"/"+ref.ID], r.other} {
		for _, c := range l {
			if (!ok || c.idx < found.idx) && !visit(c.idx, c.v) {
				break
			}
		}
	}
	return found, ok
}
