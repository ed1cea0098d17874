package occkit

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/occkit/occkit/internal/json5"
)

// dupFrame is one open container of the duplicate-key scan.
type dupFrame struct {
	object bool
	// base is where this object's keys start in dupScan.keys.
	base int
	// key is the member being read (objects); index the element (arrays).
	key   []byte
	index int
}

// dupScan finds an object that names the same key twice in compact, valid
// JSON. Keys compare as decoded strings, the way encoding/json and
// JavaScript see them: "a" and "\u0061" are the same key, and so are two
// spellings that both decode to U+FFFD.
type dupScan struct {
	keys   [][]byte
	frames []dupFrame
}

// docProblem is what checkDocument found wrong.
type docProblem int

const (
	docOK        docProblem = iota
	docDuplicate            // an object names a key twice (DOC-2)
	docEncoding             // a string or key is not valid UTF-8
	docSurrogate            // a string or key escapes a lone UTF-16 surrogate
	docRange                // a number lies outside the range of a double
)

// checkError is the occkit error for a problem at p.
func checkError(problem docProblem, p Path) error {
	switch problem {
	case docDuplicate:
		return Invalid("DOC-2", p, "duplicate object key %s", p.String())
	case docEncoding:
		return Invalid("DOC-1", p, "a string or key is not valid UTF-8")
	case docSurrogate:
		return Invalid("DOC-1", p, "a string or key holds a lone UTF-16 surrogate, which has no canonical form")
	case docRange:
		return Invalid("DOC-1", p, "a number lies outside the range of a double")
	}
	return nil
}

// checkDocument scans compact, valid JSON for what a Document must not
// hold and returns the first problem with its path: a repeated key, a
// string or key that is not valid UTF-8 or escapes a lone surrogate
// (neither has an RFC 8785 form, and replacing them would make two
// documents one), and a number beyond the range of a double. It is one
// pass; its memory is proportional to the nesting and the keys of the open
// objects, both bounded by the input.
func checkDocument(b []byte) (Path, docProblem) {
	var s dupScan
	expectKey := false
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case c == '"':
			start := i + 1
			escaped := false
			for i++; b[i] != '"'; i++ {
				if b[i] == '\\' {
					escaped = true
					i++
				}
			}
			raw := b[start:i]
			problem := docOK
			if !utf8.Valid(raw) {
				problem = docEncoding
			} else if escaped && loneSurrogateEscape(raw) {
				problem = docSurrogate
			}
			if !expectKey {
				if problem != docOK {
					return s.valuePath(), problem
				}
				continue
			}
			if problem != docOK {
				return s.path(nil), problem
			}
			key := raw
			if escaped {
				var k string
				_ = json.Unmarshal(b[start-1:i+1], &k)
				key = []byte(k)
			}
			top := &s.frames[len(s.frames)-1]
			top.key = key
			s.keys = append(s.keys, key)
			expectKey = false
		case c == '-' || c >= '0' && c <= '9':
			j := i
			big := false
			for j < len(b) && !isDelim(b[j]) {
				if b[j] == 'e' || b[j] == 'E' {
					big = true
				}
				j++
			}
			// Only an exponent or more than 308 digits can leave the
			// range of a double.
			if big || j-i > 308 {
				if _, ok := json5.AppendCanonicalNumber(nil, b[i:j]); !ok {
					return s.valuePath(), docRange
				}
			}
			i = j - 1
		case c == '{':
			s.frames = append(s.frames, dupFrame{object: true, base: len(s.keys)})
			expectKey = true
		case c == '[':
			s.frames = append(s.frames, dupFrame{})
		case c == ',':
			top := &s.frames[len(s.frames)-1]
			if top.object {
				expectKey = true
			} else {
				top.index++
			}
		case c == '}':
			// An empty object leaves expectKey set; nothing after its
			// close is one of its keys.
			expectKey = false
			top := s.frames[len(s.frames)-1]
			if dup, ok := repeated(s.keys[top.base:]); ok {
				return s.path(dup), docDuplicate
			}
			s.keys = s.keys[:top.base]
			s.frames = s.frames[:len(s.frames)-1]
		case c == ']':
			s.frames = s.frames[:len(s.frames)-1]
		}
	}
	return Path{}, docOK
}

// loneSurrogateEscape reports whether the string content raw (between the
// quotes, valid JSON) escapes a UTF-16 surrogate that is not half of a
// high-low pair.
func loneSurrogateEscape(raw []byte) bool {
	pendingHigh := false
	for i := 0; i < len(raw); i++ {
		if raw[i] != '\\' {
			if pendingHigh {
				return true
			}
			continue
		}
		i++
		if raw[i] != 'u' {
			if pendingHigh {
				return true
			}
			continue
		}
		u, _ := strconv.ParseUint(string(raw[i+1:i+5]), 16, 16)
		i += 4
		switch {
		case u >= 0xD800 && u <= 0xDBFF:
			if pendingHigh {
				return true
			}
			pendingHigh = true
		case u >= 0xDC00 && u <= 0xDFFF:
			if !pendingHigh {
				return true
			}
			pendingHigh = false
		default:
			if pendingHigh {
				return true
			}
		}
	}
	return pendingHigh
}

// repeated returns a key that occurs twice in keys.
func repeated(keys [][]byte) ([]byte, bool) {
	if len(keys) <= 16 {
		for i := 1; i < len(keys); i++ {
			for j := 0; j < i; j++ {
				if bytes.Equal(keys[i], keys[j]) {
					return keys[i], true
				}
			}
		}
		return nil, false
	}
	// The slice is discarded once the object closes, so sorting it in
	// place is free of consequences.
	slices.SortFunc(keys, bytes.Compare)
	for i := 1; i < len(keys); i++ {
		if bytes.Equal(keys[i], keys[i-1]) {
			return keys[i], true
		}
	}
	return nil, false
}

// path is the path of key inside the innermost open object, or of that
// object when key is nil.
func (s *dupScan) path(key []byte) Path {
	var p PathBuilder
	for _, f := range s.frames[:len(s.frames)-1] {
		if f.object {
			p.Key(string(f.key))
		} else {
			p.Index(f.index)
		}
	}
	if key != nil {
		p.Key(string(key))
	}
	return p.Path()
}

// valuePath is the path of the value being read.
func (s *dupScan) valuePath() Path {
	var p PathBuilder
	for _, f := range s.frames {
		if f.object {
			p.Key(string(f.key))
		} else {
			p.Index(f.index)
		}
	}
	return p.Path()
}

// joinPath is q relative to p.
func joinPath(p, q Path) Path {
	if q.IsRoot() {
		return p
	}
	elems := make([]elem, 0, len(p.elems)+len(q.elems))
	return Path{elems: append(append(elems, p.elems...), q.elems...)}
}
