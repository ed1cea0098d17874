package occkit

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/occkit/occkit/internal/json5"
)

// dupScan finds an object that names the same key twice in compact, valid
// JSON. Keys compare as decoded strings, the way encoding/json and
// JavaScript see them: "a" and "\u0061" are the same key.
//
// It keeps one int per open object (where its keys start in keys) and
// nothing per open array; in compact JSON a string followed by ':' is a
// key. Paths are found by a second scan ([PathAt]), only for an error, so
// deep nesting costs little.
type dupScan struct {
	keys    [][]byte
	objects []int
}

// PathAt returns the location of the value or key that starts at byte
// offset at of compact, valid JSON (a [Document]'s bytes, or any JSON
// without white space); for a key, the path of its object. It scans
// compact[:at] once and allocates only for the containers open at that
// point, which is how a parser can report a path without keeping one for
// every level it reads.
func PathAt(compact []byte, at int) Path {
	var b PathBuilder
	elems := json5.PathAt(compact, at)
	b.Grow(len(elems))
	for _, e := range elems {
		if e.IsIndex {
			b.Index(e.Index)
		} else {
			b.Key(e.Key)
		}
	}
	return b.Path()
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
	// A small value (an edit's) is scanned without an allocation.
	var keys [8][]byte
	var objects [8]int
	s := dupScan{keys: keys[:0], objects: objects[:0]}
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
			if problem != docOK {
				return PathAt(b, start-1), problem
			}
			if i+1 >= len(b) || b[i+1] != ':' {
				continue
			}
			key := raw
			if escaped {
				var k string
				_ = json.Unmarshal(b[start-1:i+1], &k)
				key = []byte(k)
			}
			s.keys = append(s.keys, key)
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
					return PathAt(b, i), docRange
				}
			}
			i = j - 1
		case c == '{':
			s.objects = append(s.objects, len(s.keys))
		case c == '}':
			base := s.objects[len(s.objects)-1]
			if dup, ok := repeated(s.keys[base:]); ok {
				// At the close, the path ends with the object's last key.
				return PathAt(b, i).Parent().Key(string(dup)), docDuplicate
			}
			s.keys = s.keys[:base]
			s.objects = s.objects[:len(s.objects)-1]
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

// joinPath is q relative to p.
func joinPath(p, q Path) Path {
	if q.IsRoot() {
		return p
	}
	elems := make([]elem, 0, len(p.elems)+len(q.elems))
	return Path{elems: append(append(elems, p.elems...), q.elems...)}
}
