package compile

import (
	"github.com/tidwall/gjson"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/compile/sensitive"
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
	base  scope
	steps []step
	visit func(at occkit.Path, v gjson.Result, kind placeKind)
	// rt, when set, collects the runtime ids of the entries the walk
	// reads (the text it scans is the walk's): each scope's, and, in a
	// catalog (models.providers), each element's of a scope's models
	// array, as [runtimeIDs] reads them.
	rt      *runtimeScan
	catalog bool
	// known are the extents of the large values the walk has read (a
	// models map, a scope, a member of one), which the sensitive paths'
	// walk then passes over in one step ([sensitive.Set.EachKnown]).
	known []sensitive.Span
}

// minKnown is the least extent [placeWalker.know] keeps: a smaller value
// is read again sooner than found in the list. (A variable: the tests
// keep every extent.)
var minKnown = 256

// know keeps the extent of the value at raw[at:end] when it is large.
func (w *placeWalker) know(at, end int) int {
	if end-at >= minKnown {
		w.known = append(w.known, sensitive.Span{Start: at, End: end})
	}
	return end
}

// entry reports whether the object being walked is an entry whose
// runtime ids rt collects: a scope, or an element of a catalog scope's
// models array.
func (w *placeWalker) entry() bool {
	switch len(w.steps) {
	case 0:
		return true
	case 2:
		return w.catalog && w.steps[0].index < 0 && w.steps[0].key == "models" && w.steps[1].index >= 0
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
	b.Grow(w.base.parent.Len() + 1 + len(w.steps) + len(extra))
	for i := 0; i < w.base.parent.Len(); i++ {
		if k, n, isIdx := w.base.parent.Elem(i); isIdx {
			b.Index(n)
		} else {
			b.Key(k)
		}
	}
	b.Key(w.base.key)
	for _, s := range w.steps {
		if s.index >= 0 {
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
	if end := jsonwalk.Members(raw, i, func(lit string, escaped bool, at int) int {
		w.base, w.steps = scope{parent: parent, key: jsonwalk.JS{}.Decode(lit, escaped)}, w.steps[:0]
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
		return jsonwalk.Members(raw, i, func(lit string, escaped bool, at int) int {
			name := jsonwalk.JS{}.Decode(lit, escaped)
			if w.rt != nil && w.entry() {
				// Read again below for its places: a runtime's value is
				// a few bytes.
				w.rt.runtime(name, at)
			}
			switch {
			case at < len(raw) && raw[at] == '{' && headersKey(name):
				end := jsonwalk.Skip(raw, at)
				gjson.Parse(raw[at:end]).ForEach(func(h, hv gjson.Result) bool {
					w.visit(w.at(name, h.String()), hv, placeValue)
					return true
				})
				return end
			case credentialName(name):
				end := jsonwalk.Skip(raw, at)
				w.visit(w.at(name), gjson.Parse(raw[at:end]), placeValue)
				return end
			}
			w.steps = append(w.steps, step{key: name, index: -1})
			end := w.value(raw, at, name)
			w.steps = w.steps[:len(w.steps)-1]
			if len(w.steps) == 0 {
				// A member of a scope: a catalog's models array.
				return w.know(at, end)
			}
			return end
		})
	case '[':
		return jsonwalk.Elements(raw, i, func(n, at int) int {
			w.steps = append(w.steps, step{index: n})
			end := w.value(raw, at, key)
			w.steps = w.steps[:len(w.steps)-1]
			return end
		})
	case '"':
		end, escaped := jsonwalk.StringEnd(raw, i)
		s := jsonwalk.JS{}.Decode(raw[i:end], escaped)
		if mayBeURL(s) && urlLike(key, s) {
			w.visit(w.at(), gjson.Result{Type: gjson.String, Raw: raw[i:end], Str: s}, placeURL)
		}
		return end
	default:
		return jsonwalk.Skip(raw, i)
	}
}

// mayBeURL reports whether [urlLike] may hold for s: it needs a ':' (of
// "://"), an '@', a '?' or a '#'. A short string, most of a models map's,
// is told by one pass over its bytes.
func mayBeURL(s string) bool {
	if len(s) > 32 {
		return true
	}
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ':', '@', '?', '#':
			return true
		}
	}
	return false
}
