package resolver

import (
	"strings"

	"github.com/tidwall/gjson"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/internal/docjson"
)

// SelectIndex is a document prepared for [Select]: the scopes selection
// reads, located once, and indexes of the agent entries, provider configs,
// catalog rows and model-map keys. Preparation is one linear pass over
// those parts of the document; a decision then reads only the entries that
// can name its target, so its cost does not grow with the catalog.
//
// A SelectIndex is immutable and safe for concurrent use. It holds views
// of the document's bytes, so it lives as long as the document.
type SelectIndex struct {
	defaults selObj       // agents.defaults
	entries  gjson.Result // agents.entries
	list     gjson.Result // agents.list
	provs    gjson.Result // models.providers
	defMap   *selKeys     // agents.defaults.models

	indexed   bool
	entryByID map[string][]selKV  // lower(trim(key)) → object entries, author order
	listByID  map[string]selKV    // lower(trim(id)) → first list item
	provByID  map[string][]selKV  // lower(trim(key)) → object provider configs
	rows      map[string]*selRows // provider config key → its catalog index
}

// selKV is one object member (or array item, key "") with its position.
type selKV struct {
	key  string
	idx  int
	v    gjson.Result
	obj  selObj   // v's members, for agent entries and provider configs
	keys *selKeys // the member's `models` map, for agent entries
}

// selObj is an object whose direct members are looked up by key. The
// members of a prepared one are located once, so a lookup never skips a
// large sibling (a model map, a catalog).
type selObj struct {
	v gjson.Result
	m map[string]gjson.Result
}

func selObjOf(v gjson.Result, indexed bool) selObj {
	o := selObj{v: v}
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
func (o selObj) get(k string) gjson.Result {
	if o.m != nil {
		return o.m[k]
	}
	return o.v.Get(k)
}

// selRows indexes a catalog (`models.providers.<p>.models`) by the two
// spellings a row ID can match (MatchRow): the bare ID and a
// provider-qualified ID. Rows whose provider part is not ASCII are always
// candidates (case folding is then not a plain lower-casing).
type selRows struct {
	v     gjson.Result
	bare  map[string][]selKV
	qual  map[string][]selKV
	other []selKV
}

// selKeys indexes a model map: its members by trimmed key and by the
// trimmed part after a key's first slash.
type selKeys struct {
	v      gjson.Result
	exact  map[string][]selKV
	byRest map[string][]selKV
}

// PrepareSelect prepares doc for any number of [SelectIndex.Select]
// decisions.
func PrepareSelect(doc occkit.Document) *SelectIndex { return selPrepare(doc, true) }

// selPrepare locates the scopes; with indexed unset it builds no indexes
// and every decision scans (the reference the indexes are tested against).
func selPrepare(doc occkit.Document, indexed bool) *SelectIndex {
	root := docjson.Root(doc)
	agents := root.Get("agents")
	x := &SelectIndex{
		defaults: selObjOf(agents.Get("defaults"), indexed),
		entries:  agents.Get("entries"),
		list:     agents.Get("list"),
		provs:    root.Get("models").Get("providers"),
		indexed:  indexed,
	}
	x.defMap = x.keysOf(x.defaults.get("models"))
	if !indexed {
		return x
	}
	x.entryByID = map[string][]selKV{}
	if x.entries.IsObject() {
		i := 0
		x.entries.ForEach(func(k, v gjson.Result) bool {
			if v.IsObject() {
				id := selFold(k.String())
				o := selObjOf(v, true)
				x.entryByID[id] = append(x.entryByID[id], selKV{key: k.String(), idx: i, v: v, obj: o, keys: x.keysOf(o.get("models"))})
			}
			i++
			return true
		})
	}
	x.listByID = map[string]selKV{}
	if x.list.IsArray() {
		i := 0
		x.list.ForEach(func(_, v gjson.Result) bool {
			if v.IsObject() {
				id := selFold(v.Get("id").String())
				if _, dup := x.listByID[id]; !dup {
					o := selObjOf(v, true)
					x.listByID[id] = selKV{idx: i, v: v, obj: o, keys: x.keysOf(o.get("models"))}
				}
			}
			i++
			return true
		})
	}
	x.provByID, x.rows = map[string][]selKV{}, map[string]*selRows{}
	if x.provs.IsObject() {
		x.provs.ForEach(func(k, v gjson.Result) bool {
			if v.IsObject() {
				id := selFold(k.String())
				o := selObjOf(v, true)
				x.provByID[id] = append(x.provByID[id], selKV{key: k.String(), v: v, obj: o})
				if _, seen := x.rows[k.String()]; !seen {
					x.rows[k.String()] = selIndexRows(o.get("models"))
				}
			}
			return true
		})
	}
	return x
}

func selFold(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

func selASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

func selIndexRows(rows gjson.Result) *selRows {
	r := &selRows{v: rows, bare: map[string][]selKV{}, qual: map[string][]selKV{}}
	if !rows.IsArray() {
		return r
	}
	i := 0
	rows.ForEach(func(_, v gjson.Result) bool {
		id := v.Get("id")
		if v.IsObject() && id.Type == gjson.String {
			kv := selKV{idx: i, v: v}
			row := strings.TrimSpace(id.String())
			r.bare[row] = append(r.bare[row], kv)
			if p, rest, ok := strings.Cut(row, "/"); ok {
				if selASCII(p) {
					q := selFold(p) + "/" + strings.TrimSpace(rest)
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
func (x *SelectIndex) keysOf(m gjson.Result) *selKeys {
	k := &selKeys{v: m}
	if !x.indexed || !m.IsObject() {
		return k
	}
	k.exact, k.byRest = map[string][]selKV{}, map[string][]selKV{}
	i := 0
	m.ForEach(func(key, v gjson.Result) bool {
		kv := selKV{key: key.String(), idx: i, v: v}
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
func (k *selKeys) each(model string, wildcard bool, fn func(key string, v gjson.Result)) {
	if k.exact == nil {
		k.v.ForEach(func(key, v gjson.Result) bool { fn(key.String(), v); return true })
		return
	}
	var a, b []selKV
	if wildcard {
		a = k.byRest["*"]
	} else if model != "" {
		a, b = k.exact[model], k.byRest[model]
	}
	selMerge(a, b, nil, fn)
}

// selMerge visits three position-ordered lists in position order.
func selMerge(a, b, c []selKV, fn func(key string, v gjson.Result)) {
	for len(a)+len(b)+len(c) > 0 {
		best := -1
		pick := func(l []selKV, n int) {
			if len(l) > 0 && (best < 0 || l[0].idx < selHead(a, b, c, best)) {
				best = n
			}
		}
		pick(a, 0)
		pick(b, 1)
		pick(c, 2)
		var kv selKV
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

func selHead(a, b, c []selKV, n int) int {
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
func (x *SelectIndex) entry(id string) (occkit.Path, selObj, *selKeys) {
	if id == "" {
		return occkit.Root(), selObj{}, nil
	}
	entries := occkit.NewPath("agents", "entries")
	var cands []selKV
	if x.indexed {
		cands = x.entryByID[id]
	} else {
		i := 0
		x.entries.ForEach(func(k, v gjson.Result) bool {
			if v.IsObject() && selFold(k.String()) == id {
				cands = append(cands, selKV{key: k.String(), idx: i, v: v, obj: selObj{v: v}})
			}
			i++
			return true
		})
	}
	if best := selPick(cands, id); best >= 0 {
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
		return occkit.Root(), selObj{}, nil
	}
	if x.list.IsArray() {
		for i, v := range x.list.Array() {
			if v.IsObject() && selFold(v.Get("id").String()) == id {
				return list.Index(i), selObj{v: v}, x.keysOf(v.Get("models"))
			}
		}
	}
	return occkit.Root(), selObj{}, nil
}

// selPick chooses among the spellings of id: the exact key, else the
// smallest key, independent of author key order; -1 when there is none.
func selPick(cands []selKV, id string) int {
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
func (x *SelectIndex) providerConfig(provider string) (selKV, *selRows, bool) {
	if provider == "" {
		return selKV{}, nil, false
	}
	var cands []selKV
	if x.indexed {
		cands = x.provByID[provider]
	} else {
		x.provs.ForEach(func(k, v gjson.Result) bool {
			if v.IsObject() && selFold(k.String()) == provider {
				cands = append(cands, selKV{key: k.String(), v: v, obj: selObj{v: v}})
			}
			return true
		})
	}
	best := selPick(cands, provider)
	if best < 0 {
		return selKV{}, nil, false
	}
	c := cands[best]
	if x.indexed {
		return c, x.rows[c.key], true
	}
	return c, &selRows{v: c.obj.get("models")}, true
}

// row finds the first catalog row, in array order, matching ref (REF-4).
func (r *selRows) row(ref Ref) (selKV, bool) {
	var found selKV
	ok := false
	visit := func(idx int, v gjson.Result) bool {
		id := v.Get("id")
		if v.IsObject() && id.Type == gjson.String && MatchRow(ref, id.String()) {
			found, ok = selKV{idx: idx, v: v}, true
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
	for _, l := range [][]selKV{r.bare[ref.ID], r.qual[ref.Provider+"/"+ref.ID], r.other} {
		for _, c := range l {
			if (!ok || c.idx < found.idx) && !visit(c.idx, c.v) {
				break
			}
		}
	}
	return found, ok
}
