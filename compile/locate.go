package compile

import (
	"unicode/utf8"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/internal/json5"
)

// Locate maps a path of a loaded document back to where it is written in
// src, the JSON or JSON5 text it was loaded from, so that a refusal can be
// reported as file:line:col. The position is that of the key naming the
// deepest element of p found in src (of the value, for an array element
// or the root); line and column count from 1, the column in characters.
// When p leaves src part way (a key the document lacks, or one that came
// from an $include), the position is that of the longest prefix of p that
// is written in src, so a missing key points at the object that lacks it
// and a path into an included file at the including object. ok is false
// only when src holds no readable value at all. Locate reads src once and
// allocates nothing beyond the decoded keys it compares.
func Locate(src []byte, p occkit.Path) (line, col int, ok bool) {
	off, _, ok := locateFrom(src, p, 0)
	if !ok {
		return 0, 0, false
	}
	line, col, _ = lineCol(src, off)
	return line, col, true
}

// locateFrom is Locate for the elements of p from index from on: the byte
// offset to report and how many elements were found.
func locateFrom(src []byte, p occkit.Path, from int) (off, found int, ok bool) {
	s := locScanner{src: src}
	s.skip()
	if s.i >= len(src) {
		return 0, 0, false
	}
	best := s.i
	for depth := from; depth < p.Len(); depth++ {
		key, index, isIdx := p.Elem(depth)
		at, ok := s.find(key, index, isIdx)
		if !ok {
			break
		}
		best = at
		found++
	}
	return best, found, true
}

// lineCol is the line and column (from 1, in characters) of byte offset
// off of src, and the offset where that line starts.
func lineCol(src []byte, off int) (line, col, start int) {
	line, col = 1, 1
	for j := 0; j < off; {
		r, n := utf8.DecodeRune(src[j:])
		j += n
		switch {
		case r == '\n':
			line, col, start = line+1, 1, j
		case r == '\r':
			if j < len(src) && src[j] == '\n' {
				j++
			}
			line, col, start = line+1, 1, j
		default:
			col++
		}
	}
	return line, col, start
}

// locScanner walks JSON5 text without building anything; i is the offset
// of the next unread byte.
type locScanner struct {
	src []byte
	i   int
}

// find looks inside the container starting at s.i for the element named
// by key or index; on success it returns the offset to report (the key, or
// the element's value) and leaves s.i at the element's value.
func (s *locScanner) find(key string, index int, isIdx bool) (int, bool) {
	if s.i >= len(s.src) {
		return 0, false
	}
	switch s.src[s.i] {
	case '{':
		if isIdx {
			return 0, false
		}
		s.i++
		for {
			s.skip()
			if s.i >= len(s.src) || s.src[s.i] == '}' {
				return 0, false
			}
			at := s.i
			k, ok := s.key()
			if !ok {
				return 0, false
			}
			s.skip()
			if s.i >= len(s.src) || s.src[s.i] != ':' {
				return 0, false
			}
			s.i++
			s.skip()
			if k == key {
				return at, true
			}
			if !s.value() {
				return 0, false
			}
			s.skip()
			if s.i < len(s.src) && s.src[s.i] == ',' {
				s.i++
			}
		}
	case '[':
		if !isIdx {
			return 0, false
		}
		s.i++
		for n := 0; ; n++ {
			s.skip()
			if s.i >= len(s.src) || s.src[s.i] == ']' {
				return 0, false
			}
			if n == index {
				return s.i, true
			}
			if !s.value() {
				return 0, false
			}
			s.skip()
			if s.i < len(s.src) && s.src[s.i] == ',' {
				s.i++
			}
		}
	}
	return 0, false
}

// key reads an object key, quoted or a bare identifier, and decodes it.
func (s *locScanner) key() (string, bool) {
	if c := s.src[s.i]; c == '"' || c == '\'' {
		start := s.i
		if !s.str() {
			return "", false
		}
		k, err := json5.Unquote(s.src[start:s.i])
		return k, err == nil
	}
	start := s.i
	for s.i < len(s.src) {
		c := s.src[s.i]
		if c == ':' || c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '/' {
			break
		}
		s.i++
	}
	if s.i == start {
		return "", false
	}
	// A bare identifier may hold \uXXXX escapes; unquote it as a string.
	k, err := json5.Unquote(append(append([]byte{'"'}, s.src[start:s.i]...), '"'))
	if err != nil {
		return string(s.src[start:s.i]), true
	}
	return k, true
}

// str skips a quoted string starting at s.i.
func (s *locScanner) str() bool {
	q := s.src[s.i]
	for s.i++; s.i < len(s.src); s.i++ {
		switch s.src[s.i] {
		case '\\':
			s.i++
		case q:
			s.i++
			return true
		}
	}
	return false
}

// value skips one value of any type starting at s.i.
func (s *locScanner) value() bool {
	if s.i >= len(s.src) {
		return false
	}
	switch c := s.src[s.i]; c {
	case '"', '\'':
		return s.str()
	case '{', '[':
		depth := 0
		for s.i < len(s.src) {
			switch s.src[s.i] {
			case '"', '\'':
				if !s.str() {
					return false
				}
				continue
			case '/':
				before := s.i
				s.skip()
				if s.i == before {
					s.i++
				}
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					s.i++
					return true
				}
			}
			s.i++
		}
		return false
	}
	for s.i < len(s.src) {
		switch s.src[s.i] {
		case ',', '}', ']', ' ', '\t', '\n', '\r', '/':
			return true
		}
		s.i++
	}
	return true
}

// skip passes white space and comments.
func (s *locScanner) skip() {
	for s.i < len(s.src) {
		switch c := s.src[s.i]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			s.i++
		case c == 0xEF && s.i+2 < len(s.src) && s.src[s.i+1] == 0xBB && s.src[s.i+2] == 0xBF:
			s.i += 3
		case c == 0xC2 && s.i+1 < len(s.src) && s.src[s.i+1] == 0xA0:
			s.i += 2
		case c == 0xE2 && s.i+2 < len(s.src) && s.src[s.i+1] == 0x80 && (s.src[s.i+2] == 0xA8 || s.src[s.i+2] == 0xA9):
			s.i += 3
		case c == '/' && s.i+1 < len(s.src) && s.src[s.i+1] == '/':
			for s.i += 2; s.i < len(s.src) && s.src[s.i] != '\n' && s.src[s.i] != '\r'; s.i++ {
			}
		case c == '/' && s.i+1 < len(s.src) && s.src[s.i+1] == '*':
			end := s.i + 2
			for end+1 < len(s.src) && !(s.src[end] == '*' && s.src[end+1] == '/') {
				end++
			}
			s.i = min(end+2, len(s.src))
		default:
			return
		}
	}
}
