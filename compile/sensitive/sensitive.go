package sensitive

import (
	"strings"
	"sync"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/compile/openclawschema"
	"github.com/occkit/occkit/internal/inline"
	"github.com/occkit/occkit/internal/jsonwalk"
)

// Pattern is one sensitive path pattern, split into segments.
type Pattern struct {
	text string
	segs []seg
}

type seg struct {
	key   string // "" with any: every key
	any   bool
	array bool // every element of the array under key
}

// String returns the pattern as OpenClaw writes it.
func (p Pattern) String() string { return p.text }

// HasPrefix reports whether the pattern starts with the given literal keys.
func (p Pattern) HasPrefix(keys ...string) bool {
	if len(keys) > len(p.segs) {
		return false
	}
	for i, k := range keys {
		s := p.segs[i]
		if s.any || s.key != k {
			return false
		}
		if s.array && i < len(keys)-1 {
			return false
		}
	}
	return true
}

// Parse parses one pattern.
func Parse(text string) Pattern {
	p := Pattern{text: text}
	for _, part := range strings.Split(text, ".") {
		s := seg{}
		if strings.HasSuffix(part, "[]") {
			s.array = true
			part = strings.TrimSuffix(part, "[]")
		}
		if part == "*" {
			s.any = true
		} else {
			s.key = part
		}
		p.segs = append(p.segs, s)
	}
	return p
}

// Patterns returns the sensitive paths of the newest carried OpenClaw
// release (openclawschema.Sensitive) as patterns, in its order; see
// ParseList for another release's (openclawschema.Contract.Sensitive).
func Patterns() []Pattern { return ParseList(openclawschema.Sensitive()) }

// ParseList parses a list of OpenClaw's sensitive paths, in its order.
func ParseList(lines []string) []Pattern {
	out := make([]Pattern, 0, len(lines))
	for _, line := range lines {
		out = append(out, Parse(line))
	}
	return out
}

// Find returns the concrete paths of doc that match any of the patterns,
// in document order. A path that is a prefix of another found path hides
// it (deleting the parent removes both). The patterns are merged into one
// tree first, so the document is read once, and only where some pattern
// can match, whatever the number of patterns.
func Find(doc occkit.Document, patterns []Pattern) []occkit.Path {
	return Compile(patterns).Find(doc)
}

// Set is a set of patterns compiled for [Set.Find]: make one with
// [Compile] and share it; it is immutable.
type Set struct {
	root *trie
	// anchors are the keys of which a document must hold one for a
	// pattern to match in it ([Set.mayMatch]), or nil when any document
	// may match.
	anchors *anchors
}

// Compile merges patterns into a Set.
func Compile(patterns []Pattern) *Set {
	root := &trie{}
	for _, p := range patterns {
		root.add(p.segs)
	}
	return &Set{root: root, anchors: anchorsOf(patterns)}
}

// Find is [Find] with the set's patterns.
func (s *Set) Find(doc occkit.Document) []occkit.Path {
	var out []occkit.Path
	s.Each(doc, func(at occkit.Path, _ string) { out = append(out, at) })
	return out
}

// Each calls fn with every path [Set.Find] returns, in its order, and the
// JSON text of the value there, read in the same one pass over the
// document (finding each value again from the root would cost the
// document's size for each path).
func (s *Set) Each(doc occkit.Document, fn func(at occkit.Path, raw string)) {
	s.EachKnown(doc, nil, fn)
}

// Span is where one JSON value of a document's text starts and where it
// ends (the offset after it).
type Span struct{ Start, End int }

// EachKnown is [Set.Each] for a caller that has read some of doc's
// values already: known, sorted by Start, holds where each ends, and a
// value the walk passes over without entering, when known holds its
// start, is passed over in one step instead of being read again. A span
// must be a value's whole extent; one the walk does not meet costs
// nothing.
func (s *Set) EachKnown(doc occkit.Document, known []Span, fn func(at occkit.Path, raw string)) {
	// fn is called once the walk is done (a func the walk held would be
	// made on the heap, and so would all it refers to). The finder holds
	// its steps in an inline.Stack and the known extents are handed to
	// the walk apart, so that what the walk keeps (the matches, made on
	// the heap) makes neither escape: the finder and its first steps stay
	// on this stack, and so do the caller's extents.
	f := finder{raw: doc.String()}
	if !s.mayMatch(f.raw) {
		// A small document without a member of the keys the
		// patterns end with: one pass over its text tells so.
		return
	}
	f.walk(s.root, &knownSpans{spans: known}, 0)
	for _, m := range f.found {
		fn(m.at, m.raw)
	}
}

// finder walks a document's text against a trie in one pass (the
// scanner of internal/jsonwalk): it enters only the members a
// pattern goes on through, skips the rest, and builds a path only for a
// location a pattern names, which it keeps with the value's text.
type finder struct {
	raw   string
	found []match
	// steps are the steps from the root to the value walked.
	steps inline.Stack[pathStep]
}

// knownSpans are the value extents [Set.EachKnown] was given, and next
// the first whose start the walk has not passed.
type knownSpans struct {
	spans []Span
	next  int
}

// skip returns the offset after the value at at: a known one's end, or
// the end jsonwalk's scanner reads. The walk asks in document order (a
// value walked twice, by a key and by *, is asked again from its start,
// and then may be read).
func (f *finder) skip(k *knownSpans, at int) int {
	for k.next < len(k.spans) && k.spans[k.next].Start < at {
		k.next++
	}
	if k.next < len(k.spans) && k.spans[k.next].Start == at {
		return k.spans[k.next].End
	}
	return jsonwalk.Skip(f.raw, at)
}

// match is a location a pattern names and the JSON text of its value.
type match struct {
	at  occkit.Path
	raw string
}

// pathStep is one step from the root: a key, or an index (index >= 0).
type pathStep struct {
	key   string
	index int
}

func (f *finder) path() occkit.Path {
	var b occkit.PathBuilder
	b.Grow(f.steps.Len())
	for i := range f.steps.Len() {
		if s := f.steps.At(i); s.index >= 0 {
			b.Index(s.index)
		} else {
			b.Key(s.key)
		}
	}
	return b.Path()
}

// walk walks the value at raw[at] against t, in document order (as
// gjson's ForEach visits it), and returns the offset after the value.
func (f *finder) walk(t *trie, k *knownSpans, at int) int {
	if t.end {
		// The value is read to its end here, and again below only when
		// a longer pattern goes on through it.
		end := f.skip(k, at)
		f.found = append(f.found, match{f.path(), strings.TrimSpace(f.raw[at:end])})
		if t.keys == nil && t.any == nil {
			return end
		}
	}
	if t.keys == nil && t.any == nil {
		return f.skip(k, at)
	}
	end := jsonwalk.Members(f.raw, at, func(lit string, escaped bool, vat int) int {
		key := jsonwalk.JS{}.Decode(lit, escaped)
		vend := -1
		for _, st := range [2]*step{t.step(key), t.any} {
			if st == nil {
				continue
			}
			f.steps.Push(pathStep{key: key, index: -1})
			if st.obj != nil {
				vend = f.walk(st.obj, k, vat)
			}
			if st.arr != nil && vat < len(f.raw) && f.raw[vat] == '[' {
				vend = jsonwalk.Elements(f.raw, vat, func(i, eat int) int {
					f.steps.Push(pathStep{index: i})
					e := f.walk(st.arr, k, eat)
					f.steps.Pop()
					return e
				})
			}
			f.steps.Pop()
		}
		if vend < 0 {
			vend = f.skip(k, vat)
		}
		return vend
	})
	if end < 0 {
		return f.skip(k, at)
	}
	return end
}

// trie is the patterns' segments merged: the patterns that end here,
// and the steps that go on.
type trie struct {
	end  bool
	keys map[string]*step
	// sigs are the [keySig] bits of the keys: the walk asks of every
	// key it meets, most of which no pattern names, and a key whose bit
	// is not set is told without a look-up in keys.
	sigs uint64
	any  *step
}

// step is the step of the key k, or nil.
func (t *trie) step(k string) *step {
	if t.sigs&keySig(k) == 0 {
		return nil
	}
	return t.keys[k]
}

// keySig is one bit of 64 by the length of k and its last byte: keys
// that differ in either mostly set different bits.
func keySig(k string) uint64 {
	if k == "" {
		return 1
	}
	return 1 << ((uint(len(k))*7 + uint(k[len(k)-1])*13) & 63)
}

// step goes on from a key to the value under it (obj) or to every
// element of the array under it (arr).
type step struct{ obj, arr *trie }

func (t *trie) add(segs []seg) {
	if len(segs) == 0 {
		t.end = true
		return
	}
	s := segs[0]
	var st *step
	if s.any {
		if t.any == nil {
			t.any = &step{}
		}
		st = t.any
	} else {
		if t.keys == nil {
			t.keys = map[string]*step{}
		}
		if st = t.keys[s.key]; st == nil {
			st = &step{}
			t.keys[s.key] = st
			t.sigs |= keySig(s.key)
		}
	}
	next := &st.obj
	if s.array {
		next = &st.arr
	}
	if *next == nil {
		*next = &trie{}
	}
	(*next).add(segs[1:])
}

// Cursor follows a walk down a document, one key or index at a time,
// against a set of patterns: [Cursor.Matched] reports whether the
// location reached is one a pattern names or lies below one. It lets a
// reader of the text (the author view of a refusal masks what it prints)
// classify every value in one pass, at a cost per step proportional to
// the patterns still alive there, not to the depth. The zero Cursor
// matches nothing.
type Cursor struct {
	patterns []Pattern
	live     []state
	matched  bool
}

// state is one pattern part way: its next segment, and whether that
// segment's key was taken and an array index is due.
type state struct {
	pattern, seg int
	index        bool
}

// Start is the cursor at the root of a document for patterns.
func Start(patterns []Pattern) Cursor {
	c := Cursor{patterns: patterns}
	for i, p := range patterns {
		if len(p.segs) > 0 {
			c.live = append(c.live, state{pattern: i})
		}
	}
	return c
}

// Matched reports whether the location reached is named by a pattern or
// lies below one.
func (c Cursor) Matched() bool { return c.matched }

// Live reports whether a pattern can still match at or below the
// location reached (Matched excepted): a walk whose cursor is not live
// need not look further down.
func (c Cursor) Live() bool { return len(c.live) > 0 }

// Key is the cursor one object key further down.
func (c Cursor) Key(k string) Cursor {
	return c.step(func(s state, sg seg) (state, bool) {
		if s.index || !sg.any && sg.key != k {
			return s, false
		}
		if sg.array {
			return state{pattern: s.pattern, seg: s.seg, index: true}, true
		}
		return state{pattern: s.pattern, seg: s.seg + 1}, true
	})
}

// Index is the cursor one array element further down.
func (c Cursor) Index() Cursor {
	return c.step(func(s state, _ seg) (state, bool) {
		if !s.index {
			return s, false
		}
		return state{pattern: s.pattern, seg: s.seg + 1}, true
	})
}

func (c Cursor) step(next func(state, seg) (state, bool)) Cursor {
	if c.matched {
		return c
	}
	out := Cursor{patterns: c.patterns}
	for _, s := range c.live {
		segs := c.patterns[s.pattern].segs
		n, ok := next(s, segs[s.seg])
		if !ok {
			continue
		}
		if n.seg == len(segs) {
			return Cursor{matched: true}
		}
		out.live = append(out.live, n)
	}
	return out
}

// pinned is the pinned release's patterns, parsed once, and pinnedSet
// them compiled.
var (
	pinned    = sync.OnceValue(Patterns)
	pinnedSet = sync.OnceValue(func() *Set { return Compile(pinned()) })
)

// release is one carried release's patterns and their Set.
type release struct {
	patterns []Pattern
	set      *Set
}

// releases are the carried releases other than the pinned one, by
// version, each parsed and compiled on first use, once per process.
var releases = sync.OnceValue(func() map[string]func() *release {
	out := map[string]func() *release{}
	for _, v := range openclawschema.Releases() {
		if v == openclawschema.Release() {
			continue
		}
		out[v] = sync.OnceValue(func() *release {
			c, err := openclawschema.ContractFor(v)
			if err != nil {
				return nil
			}
			ps := ParseList(c.Sensitive())
			return &release{patterns: ps, set: Compile(ps)}
		})
	}
	return out
})

func forRelease(version string) *release {
	if f, ok := releases()[version]; ok {
		return f()
	}
	return nil
}

// For returns the sensitive patterns of an OpenClaw release: the carried
// release's own ([openclawschema.ContractFor]), and the pinned release's
// ([openclawschema.Release]) as a floor for a release whose data the
// library does not carry. The slice is shared: do not modify it.
func For(version string) []Pattern {
	if r := forRelease(version); r != nil {
		return r.patterns
	}
	return pinned()
}

// SetFor is [For] compiled, shared: the Set of an OpenClaw release's
// sensitive patterns.
func SetFor(version string) *Set {
	if r := forRelease(version); r != nil {
		return r.set
	}
	return pinnedSet()
}
