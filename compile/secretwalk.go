package compile

import (
	"strconv"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/compile/sensitive"
	"github.com/occkit/occkit/internal/inline"
	"github.com/occkit/occkit/internal/jsonwalk"
)

// placeWalker is the walk of [secretPlaces] through the model scopes: it
// reads each scope's JSON text once, left to right (jsonwalk's scanner),
// keeping the steps below the scope and building a path only for a place
// it visits. Below the scope, an object member whose key is "headers"
// (normalized) and holds an object is a place per header; a member whose
// key names a credential ([credentialName]) is a place and is not
// entered; any other member is entered; an array element is entered
// under its array's key; and a URL-like string ([urlLike] with that key)
// is a URL place.
type placeWalker struct {
	// base is the scope walked: its map's path and its key. The walk
	// writes the key of every scope it meets, and only that (not the
	// whole scope, whose value it leaves unset).
	base scope
	// steps are those below the scope. They and known are held in
	// inline stacks, so that a walker on its caller's stack keeps the
	// first of each there (see package inline).
	steps inline.Stack[step]
	// lists are the places the walk visits, in the list into: the
	// scopes of models.providers, of agents.defaults.models and of the
	// agents' models maps apart ([findPlaces] orders them so).
	lists [3][]secretPlace
	into  int
	// rt, when runtimes is set, collects the runtime ids of the entries
	// the walk reads: each scope's, and, in a catalog (models.providers),
	// each element's of a scope's models array, as [runtimeIDs] reads
	// them, but in the walk itself (an entry's agentRuntime and
	// pickerRuntimes are walked for their places anyway) and each id once
	// in a run ([placeWalker.runtime]): the plugins make a set of them.
	rt       runtimeScan
	runtimes bool
	// ids is where the walk is collecting runtime ids: the depth of the
	// strings it collects (0: none), those of an array (pickerRuntimes's
	// elements) or of an "id" member (agentRuntime's).
	ids struct {
		depth  int
		picker bool
	}
	catalog bool
	// known are the extents of the large values the walk has read (a
	// models map, a scope, a member of one), which the sensitive paths'
	// walk then passes over in one step ([sensitive.Set.EachKnown]).
	known inline.Stack[sensitive.Span]
}

// minKnown is the least extent [placeWalker.know] keeps: a smaller value
// is read again sooner than found in the list. (A variable: the tests
// keep every extent.)
var minKnown = 256

// know keeps the extent of the value at raw[at:end] when it is large.
func (w *placeWalker) know(at, end int) int {
	if end-at >= minKnown {
		w.known.Push(sensitive.Span{Start: at, End: end})
	}
	return end
}

// entry reports whether the object being walked is an entry whose
// runtime ids rt collects: a scope, or an element of a catalog scope's
// models array.
func (w *placeWalker) entry() bool {
	switch w.steps.Len() {
	case 0:
		return true
	case 2:
		s0, s1 := w.steps.At(0), w.steps.At(1)
		return w.catalog && s0.index < 0 && s0.key == "models" && s1.index >= 0
	}
	return false
}

// step is one step below a scope: an object key, or an array index
// (index >= 0).
type step struct {
	key   string
	index int
}

// at is the path of the current step, with the keys extra below it.
func (w *placeWalker) at(extra ...string) occkit.Path {
	var b occkit.PathBuilder
	b.Grow(w.base.parent.Len() + 1 + w.steps.Len() + len(extra))
	for i := 0; i < w.base.parent.Len(); i++ {
		if k, n, isIdx := w.base.parent.Elem(i); isIdx {
			b.Index(n)
		} else {
			b.Key(k)
		}
	}
	b.Key(w.base.key)
	for i := range w.steps.Len() {
		if s := w.steps.At(i); s.index >= 0 {
			b.Index(s.index)
		} else {
			b.Key(s.key)
		}
	}
	for _, k := range extra {
		b.Key(k)
	}
	return b.Path()
}

// scopes walks every member of the value at raw[i] (a models map or
// models.providers, at parent) as one scope when it is an object, and
// returns the offset after the value.
func (w *placeWalker) scopes(parent occkit.Path, raw string, i int) int {
	w.base.parent = parent
	if end := jsonwalk.Members(raw, i, func(lit string, escaped bool, at int) int {
		w.base.key = decode(lit, escaped)
		w.steps.Reset()
		return w.know(at, w.value(raw, at, w.base.key))
	}); end >= 0 {
		return w.know(i, end)
	}
	return jsonwalk.Skip(raw, i)
}

// value walks the JSON value at raw[i], whose key, or whose array's key,
// is key, and returns the offset after it.
func (w *placeWalker) value(raw string, i int, key string) int {
	if i >= len(raw) {
		return len(raw)
	}
	switch raw[i] {
	case '{':
		if n := w.steps.Len(); n > 0 && (w.ids.picker || w.ids.depth != n+1) {
			// Below a scope (whose members' extents the walk may keep)
			// and not where it collects an "id" member's string, an
			// object that holds nothing for the walk (a catalog's
			// element, most often) is passed over in one read.
			if end := quietObject(raw, i); end > 0 {
				return end
			}
		}
		// The steps are those of this object for each of its members.
		entry := w.runtimes && w.entry()
		return jsonwalk.Members(raw, i, func(lit string, escaped bool, at int) int {
			name := decode(lit, escaped)
			var c byte
			if at < len(raw) {
				c = raw[at]
			}
			switch {
			case c == '{' && headersKey(name):
				return w.headers(raw, at, name)
			case mayNameCredential(name) && credentialTail(name):
				return w.credential(raw, at, name)
			}
			// A string or a scalar is read here, without a call of
			// its own and without a step, which a string takes only to
			// be visited.
			var end int
			switch c {
			case '{', '[':
				end = w.member(raw, at, c, name, entry)
			case '"':
				id := !w.ids.picker && w.ids.depth == w.steps.Len()+1 && name == "id"
				end = w.str(raw, at, name, id, true)
			default:
				end = jsonwalk.Skip(raw, at)
			}
			if w.steps.Len() == 0 {
				// A member of a scope: a catalog's models array.
				return w.know(at, end)
			}
			return end
		})
	case '[':
		return jsonwalk.Elements(raw, i, func(n, at int) int {
			w.steps.Push(step{index: n})
			end := w.value(raw, at, key)
			w.steps.Pop()
			return end
		})
	case '"':
		n := w.steps.Len()
		id := w.ids.picker && w.ids.depth == n && n > 0 && w.steps.At(n-1).index >= 0
		return w.str(raw, i, key, id, false)
	default:
		return jsonwalk.Skip(raw, i)
	}
}

// member walks the object or array at raw[at], which starts with c, of
// the member name that holds no place by its name, below the steps of
// its object (an entry's when entry holds), and returns the offset after
// it.
func (w *placeWalker) member(raw string, at int, c byte, name string, entry bool) int {
	ids := w.ids
	if entry {
		// An entry's runtime ids are the strings of its agentRuntime
		// object's id and of its pickerRuntimes array, two steps down,
		// which the walk below meets.
		switch {
		case c == '{' && name == "agentRuntime":
			if end, id := runtimeOnly(raw, at); end > 0 {
				// {"id":"…"}, as the rules ask of an entry, holds no
				// place (its id is no URL): its id is all the walk
				// below would collect, in one step.
				w.runtime(id)
				return end
			}
			w.ids.depth, w.ids.picker = w.steps.Len()+2, false
		case c == '[' && name == "pickerRuntimes":
			w.ids.depth, w.ids.picker = w.steps.Len()+2, true
		}
	}
	w.steps.Push(step{key: name, index: -1})
	end := w.value(raw, at, name)
	w.steps.Pop()
	w.ids = ids
	return end
}

// runtimeOnly reads the agentRuntime object at raw[at] when it is the
// literal {"id":"…"} with an id that holds no escape and none of
// urlBytes, without one of which [urlLike] cannot hold: it returns the
// offset after it and the id, or 0 when it is anything else.
func runtimeOnly(raw string, at int) (end int, id string) {
	const head = `{"id":"`
	if !strings.HasPrefix(raw[at:], head) {
		return 0, ""
	}
	i := at + len(head)
	for j := i; j < len(raw); j++ {
		switch c := raw[j]; {
		case c == '"':
			if j+1 < len(raw) && raw[j+1] == '}' {
				return j + 2, raw[i:j]
			}
			return 0, ""
		case c == '\\' || urlBytes[c]:
			return 0, ""
		}
	}
	return 0, ""
}

// quietObject reads the object at raw[at] when nothing in it is a place
// and it holds no object, written compact: each member a key without
// an escape that names no credential ([credentialName]) and a string of
// at most 32 bytes without an escape or a byte of urlBytes (so no URL,
// [literalMayBeURL]), a number, a literal, or an array of those (but
// pickerRuntimes, whose strings may be runtime ids). It returns the offset after
// the object, or 0 when it is anything else, which the walk reads member
// by member. It reads a byte at a time: the keys and strings it is for
// ("id", "model-1", "name", "Model 1") are a few bytes long.
func quietObject(raw string, at int) int {
	i := at + 1
	if i < len(raw) && raw[i] == '}' {
		return i + 1
	}
	for i < len(raw) && raw[i] == '"' {
		k := i + 1
		for k < len(raw) && raw[k] != '"' && raw[k] != '\\' {
			k++
		}
		if k+2 >= len(raw) || raw[k] != '"' || raw[k+1] != ':' {
			return 0
		}
		name := raw[i+1 : k]
		if credentialName(name) {
			return 0
		}
		j := k + 2
		if raw[j] == '[' {
			// An array of such strings, numbers and literals, unless an
			// entry's runtime ids may be its strings.
			if name == "pickerRuntimes" {
				return 0
			}
			j++
			if j < len(raw) && raw[j] != ']' {
				for j = quietScalar(raw, j); j < len(raw) && raw[j] == ','; {
					j = quietScalar(raw, j+1)
				}
			}
			if j >= len(raw) || raw[j] != ']' {
				return 0
			}
			j++
		} else {
			j = quietScalar(raw, j)
		}
		if j >= len(raw) {
			return 0
		}
		switch raw[j] {
		case '}':
			return j + 1
		case ',':
			i = j + 1
		default:
			return 0
		}
	}
	return 0
}

// quietScalar is the offset after the string, number or literal at
// raw[j] that [quietObject] passes over, or len(raw) when it declines
// it.
func quietScalar(raw string, j int) int {
	if j >= len(raw) {
		return len(raw)
	}
	if raw[j] != '"' {
		for j < len(raw) && scalarByte[raw[j]] {
			j++
		}
		return j
	}
	e := j + 1
	for e < len(raw) && e-j <= 33 && !quietStop[raw[e]] {
		e++
	}
	if e >= len(raw) || raw[e] != '"' || e-j-1 > 32 {
		return len(raw)
	}
	return e + 1
}

// quietStop are the bytes that end a string [quietObject] passes over:
// its closing quote, and those it declines, a backslash, a control
// character and urlBytes.
var quietStop = func() (t [256]bool) {
	for c := 0; c < 0x20; c++ {
		t[c] = true
	}
	t['"'], t['\\'] = true, true
	for c, u := range urlBytes {
		t[c] = t[c] || u
	}
	return t
}()

// scalarByte are the bytes of JSON's numbers and literals.
var scalarByte = func() (t [256]bool) {
	for _, c := range []byte("0123456789+-.eEtruefalsn") {
		t[c] = true
	}
	return t
}()

// str walks the string at raw[at], whose key, or whose array's key, is
// key, collecting it as a runtime id when id holds, and returns the
// offset after it. A URL-like string is visited below a step of its own
// when named says it is a member's. A string that may be no URL and no
// id is not decoded: most of a models map's are short and plain, and
// told from their literal ([literalMayBeURL]).
func (w *placeWalker) str(raw string, at int, key string, id, named bool) int {
	end, escaped := jsonwalk.StringEnd(raw, at)
	if !id && !literalMayBeURL(raw, at, end, escaped) {
		return end
	}
	s := decode(raw[at:end], escaped)
	if id {
		w.runtime(s)
	}
	if mayBeURL(s) && urlLike(key, s) {
		if !named {
			w.visitURL(raw[at:end], s)
			return end
		}
		w.steps.Push(step{key: key, index: -1})
		w.visitURL(raw[at:end], s)
		w.steps.Pop()
	}
	return end
}

// headers visits each member of the header map at raw[at], under the
// key name, as a place, and returns the offset after the map. (The
// visits are methods of their own, so that the walk's frame holds no
// gjson value.)
func (w *placeWalker) headers(raw string, at int, name string) int {
	end := jsonwalk.Skip(raw, at)
	gjson.Parse(raw[at:end]).ForEach(func(h, hv gjson.Result) bool {
		w.visit(w.at(name, h.String()), hv, placeValue)
		return true
	})
	return end
}

// credential visits the value at raw[at], under the key name, as a
// place, and returns the offset after it.
func (w *placeWalker) credential(raw string, at int, name string) int {
	end := jsonwalk.Skip(raw, at)
	w.visit(w.at(name), gjson.Parse(raw[at:end]), placeValue)
	return end
}

// visit adds the place at at, of value v and kind kind, to the walk's
// list.
func (w *placeWalker) visit(at occkit.Path, v gjson.Result, kind placeKind) {
	w.lists[w.into] = append(w.lists[w.into], secretPlace{at, v, kind})
}

// visitURL visits the string of literal lit and value s at the current
// step as a URL place.
func (w *placeWalker) visitURL(lit, s string) {
	w.visit(w.at(), gjson.Result{Type: gjson.String, Raw: lit, Str: s}, placeURL)
}

// decode is the value of the JSON string literal lit, which holds an
// escape when escaped says so, as JavaScript reads it: a literal
// without one is its bytes between the quotes (the walk's nearly every
// key and string, told without a call).
func decode(lit string, escaped bool) string {
	if !escaped && len(lit) >= 2 {
		return lit[1 : len(lit)-1]
	}
	return jsonwalk.JS{}.Decode(lit, escaped)
}

// mayBeURL reports whether [urlLike] may hold for s: it needs a ':' (of
// "://"), an '@', a '?' or a '#'. A short string, most of a models map's,
// is told by one pass over its bytes, a look-up a byte.
func mayBeURL(s string) bool {
	if len(s) > 32 {
		return true
	}
	for _, c := range []byte(s) {
		if urlBytes[c] {
			return true
		}
	}
	return false
}

// literalMayBeURL is [mayBeURL] of the value of the JSON string literal
// raw[at:end] (escaped: it holds an escape, [escapedMayBeURL]). A plain
// one's value is its bytes between the quotes, which are read eight at a
// time, as words of raw, where raw holds eight bytes from each (the
// bytes past the value masked off), without a look-up a byte.
func literalMayBeURL(raw string, at, end int, escaped bool) bool {
	if escaped {
		return escapedMayBeURL(raw[at:end])
	}
	last := end - 1 // the closing quote
	if last-(at+1) > 32 {
		return true
	}
	for i := at + 1; i < last; i += 8 {
		if i+8 > len(raw) {
			return mayBeURL(raw[i:last])
		}
		x := jsonwalk.Word(raw, i)
		// The high bit of the lowest byte that is one of [urlBytes] (and
		// maybe of bytes above it, never below).
		m := jsonwalk.Matches(x, ':') | jsonwalk.Matches(x, '@') | jsonwalk.Matches(x, '?') | jsonwalk.Matches(x, '#')
		if n := last - i; n < 8 {
			m &= 1<<(8*n) - 1
		}
		if m != 0 {
			return true
		}
	}
	return false
}

// escapedMayBeURL reports whether [urlLike] may hold for the value of
// the JSON string literal lit, which holds an escape, without decoding
// it (an allocation): urlLike needs a ':', '@', '?' or '#', which the
// value holds only where lit holds one or a \u escape writes one.
func escapedMayBeURL(lit string) bool {
	return strings.ContainsAny(lit, ":@?#") || escapesASCII(lit, ":@?#")
}

// escapesASCII reports whether the JSON string literal lit may hold a \u
// escape of a byte of set (ASCII): a \u and four hexadecimal digits that
// write one. (A \u after an escaped backslash is no escape, and counts:
// the answer errs only towards decoding.) Text from a writer that escapes
// every non-ASCII character holds many \u escapes, none of them these.
func escapesASCII(lit, set string) bool {
	for i := 0; ; i += 2 {
		j := strings.Index(lit[i:], `\u`)
		if j < 0 {
			return false
		}
		i += j
		if i+6 <= len(lit) {
			if v, err := strconv.ParseUint(lit[i+2:i+6], 16, 16); err == nil && v < 0x80 && strings.IndexByte(set, byte(v)) >= 0 {
				return true
			}
		}
	}
}

// urlBytes are the bytes of which [urlLike] needs one.
var urlBytes = [256]bool{':': true, '@': true, '?': true, '#': true}

// runtime collects the runtime id id, unless it is one of the last few
// collected: most entries of a large map select the same runtime, and
// the plugins make a set of the ids ([modelSettings]).
func (w *placeWalker) runtime(id string) {
	out := w.rt.out
	for _, o := range out[max(0, len(out)-4):] {
		if o == id {
			return
		}
	}
	w.rt.out = append(out, id)
}
