package sensitive

import (
	"strings"
	"sync"

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

// pinned is the pinned release's patterns, parsed once.
var pinned = sync.OnceValue(Patterns)

// For returns the sensitive patterns of an OpenClaw release: the pinned
// release's ([openclawschema.Release]) for it, and as a floor for a
// release whose data the library does not carry. The slice is shared:
// do not modify it.
func For(release string) []Pattern {
	return pinned()
}
