package occkit

import (
	"bytes"
	"encoding/json"
	"slices"
	"unicode/utf8"
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

// duplicateKey returns the path of the first repeated key of b and true,
// or false when every object's keys are distinct (DOC-2).
func duplicateKey(b []byte) (Path, bool) {
	var s dupScan
	expectKey := false
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '"':
			start := i + 1
			escaped := false
			for i++; b[i] != '"'; i++ {
				if b[i] == '\\' {
					escaped = true
					i++
				}
			}
			if !expectKey {
				continue
			}
			key := b[start:i]
			if escaped || !utf8.Valid(key) {
				var k string
				_ = json.Unmarshal(b[start-1:i+1], &k)
				key = []byte(k)
			}
			top := &s.frames[len(s.frames)-1]
			top.key = key
			s.keys = append(s.keys, key)
			expectKey = false
		case '{':
			s.frames = append(s.frames, dupFrame{object: true, base: len(s.keys)})
			expectKey = true
		case '[':
			s.frames = append(s.frames, dupFrame{})
		case ',':
			top := &s.frames[len(s.frames)-1]
			if top.object {
				expectKey = true
			} else {
				top.index++
			}
		case '}':
			// An empty object leaves expectKey set; nothing after its
			// close is one of its keys.
			expectKey = false
			top := s.frames[len(s.frames)-1]
			if dup, ok := repeated(s.keys[top.base:]); ok {
				return s.path(dup), true
			}
			s.keys = s.keys[:top.base]
			s.frames = s.frames[:len(s.frames)-1]
		case ']':
			s.frames = s.frames[:len(s.frames)-1]
		}
	}
	return Path{}, false
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

// path is the path of key inside the innermost open object.
func (s *dupScan) path(key []byte) Path {
	p := Root()
	for _, f := range s.frames[:len(s.frames)-1] {
		if f.object {
			p = p.Key(string(f.key))
		} else {
			p = p.Index(f.index)
		}
	}
	return p.Key(string(key))
}

// joinPath is q relative to p.
func joinPath(p, q Path) Path {
	for i := 0; i < q.Len(); i++ {
		if k, idx, isIdx := q.Elem(i); isIdx {
			p = p.Index(idx)
		} else {
			p = p.Key(k)
		}
	}
	return p
}
