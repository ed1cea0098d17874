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
