package sensitive

import (
	"strings"

	"github.com/tidwall/gjson"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/compile/openclawschema"
	"github.com/occkit/occkit/internal/docjson"
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

// Patterns returns OpenClaw's sensitive paths (openclawschema.Sensitive)
// as patterns, in its order.
func Patterns() []Pattern {
	var out []Pattern
	for _, line := range openclawschema.Sensitive() {
		out = append(out, Parse(line))
	}
	return out
}

// Find returns the concrete paths of doc that match any of the patterns,
// in the order found. A path that is a prefix of another found path hides
// it (deleting the parent removes both).
func Find(doc occkit.Document, patterns []Pattern) []occkit.Path {
	var out []occkit.Path
	root := docjson.Root(doc)
	for _, p := range patterns {
		walk(root, p.segs, occkit.Root(), &out)
	}
	return out
}

func walk(v gjson.Result, segs []seg, at occkit.Path, out *[]occkit.Path) {
	if len(segs) == 0 {
		*out = append(*out, at)
		return
	}
	if !v.IsObject() {
		return
	}
	s := segs[0]
	next := func(k string, child gjson.Result) {
		p := at.Key(k)
		if !s.array {
			walk(child, segs[1:], p, out)
			return
		}
		if !child.IsArray() {
			return
		}
		for i, el := range child.Array() {
			walk(el, segs[1:], p.Index(i), out)
		}
	}
	if s.any {
		v.ForEach(func(k, child gjson.Result) bool {
			next(k.String(), child)
			return true
		})
		return
	}
	// Exact key: ForEach, not Get, so keys with gjson syntax characters
	// are matched literally.
	v.ForEach(func(k, child gjson.Result) bool {
		if k.String() == s.key {
			next(s.key, child)
		}
		return true
	})
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
