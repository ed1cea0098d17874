package occkit

import (
	"bytes"
	"encoding/json"
	"slices"
	"unicode/utf8"

	"github.com/tidwall/gjson"
)

func compactJSON(dst *bytes.Buffer, src []byte) error { return json.Compact(dst, src) }

// Canonical returns the canonical form of d used for digests and frozen
// revisions: compact JSON with the members of every object sorted by key
// (byte order of the decoded key), strings re-encoded with the minimal
// escapes (", \ and control characters; invalid UTF-8 becomes U+FFFD), and
// numbers and literals kept exactly as written. Two documents that differ
// only in key order or in how their strings are escaped have the same
// canonical bytes.
//
// It is one pass over the bytes: each object's members are written in
// document order and then, only when they are out of order, moved into key
// order, so the cost is linear in the document's size.
func Canonical(d Document) []byte {
	src := d.bytes()
	c := canon{src: src, out: make([]byte, 0, len(src))}
	c.value(0)
	return c.out
}

// CanonicalDocument is [Canonical] as a Document. Canonicalizing a valid,
// duplicate-free Document gives one again (keys compare decoded, so no two
// spellings can collapse into a new duplicate), so nothing is re-validated:
// a caller that keeps the canonical form, such as a frozen revision, pays
// for one pass instead of a pass and a parse.
func CanonicalDocument(d Document) Document { return Document{raw: Canonical(d)} }

// CanonicalDigest is the hex SHA-256 of [Canonical].
func CanonicalDigest(d Document) string {
	return Document{raw: Canonical(d)}.Digest()
}

// canon canonicalizes compact, valid JSON (the invariant of a Document).
type canon struct {
	src     []byte
	out     []byte
	scratch []byte
	// members is a stack shared by every object level: an object's members
	// are members[base:] while it is being written.
	members []canonMember
}

type canonMember struct {
	key        []byte // decoded (aliases src when nothing needed decoding)
	start, end int    // of "key":value in out
}

// value writes the canonical form of the value at src[i:] and returns the
// index just past it.
func (c *canon) value(i int) int {
	switch c.src[i] {
	case '{':
		return c.object(i)
	case '[':
		c.out = append(c.out, '[')
		i++
		for first := true; c.src[i] != ']'; first = false {
			if !first {
				c.out = append(c.out, ',')
				i++ // ','
			}
			i = c.value(i)
		}
		c.out = append(c.out, ']')
		return i + 1
	case '"':
		end, s := c.str(i)
		c.out = appendCanonicalString(c.out, s)
		return end
	default:
		j := i
		for j < len(c.src) && !isDelim(c.src[j]) {
			j++
		}
		c.out = append(c.out, c.src[i:j]...)
		return j
	}
}

func isDelim(b byte) bool { return b == ',' || b == '}' || b == ']' }

func (c *canon) object(i int) int {
	base := len(c.out)
	c.out = append(c.out, '{')
	i++
	mbase := len(c.members)
	sorted := true
	for c.src[i] != '}' {
		if len(c.members) > mbase {
			i++ // ','
		}
		start := len(c.out)
		end, key := c.str(i)
		c.out = appendCanonicalString(c.out, key)
		c.out = append(c.out, ':')
		i = c.value(end + 1) // skip ':'
		if n := len(c.members); n > mbase && bytes.Compare(c.members[n-1].key, key) > 0 {
			sorted = false
		}
		c.members = append(c.members, canonMember{key: key, start: start, end: len(c.out)})
	}
	members := c.members[mbase:]
	if !sorted {
		c.scratch = append(c.scratch[:0], c.out[base+1:]...)
		off := base + 1
		slices.SortStableFunc(members, func(a, b canonMember) int { return bytes.Compare(a.key, b.key) })
		c.out = c.out[:base+1]
		for _, m := range members {
			c.out = append(c.out, c.scratch[m.start-off:m.end-off]...)
		}
	}
	if len(members) > 1 {
		c.out = insertCommas(c.out, members)
	}
	c.members = c.members[:mbase]
	c.out = append(c.out, '}')
	return i + 1
}

// insertCommas rewrites out[from:] (the members back to back, in their
// final order) with a comma between members.
func insertCommas(out []byte, members []canonMember) []byte {
	total := len(out) + len(members) - 1
	out = slices.Grow(out, len(members)-1)[:total]
	// Move from the back so nothing is overwritten before it is copied.
	w, r := total, total-(len(members)-1)
	for k := len(members) - 1; k >= 0; k-- {
		n := members[k].end - members[k].start
		r -= n
		w -= n
		copy(out[w:w+n], out[r:r+n])
		if k > 0 {
			w--
			out[w] = ','
		}
	}
	return out
}

// str reads the JSON string at src[i] and returns the index past it and its
// decoded value (the raw bytes when nothing needs decoding).
func (c *canon) str(i int) (int, []byte) {
	j := i + 1
	escaped := false
	for c.src[j] != '"' {
		if c.src[j] == '\\' {
			escaped = true
			j++
		}
		j++
	}
	if !escaped {
		return j + 1, c.src[i+1 : j]
	}
	return j + 1, []byte(gjson.ParseBytes(c.src[i : j+1]).String())
}

// appendCanonicalString writes s as a JSON string with the minimal escapes.
func appendCanonicalString(dst []byte, s []byte) []byte {
	dst = append(dst, '"')
	for i := 0; i < len(s); {
		b := s[i]
		switch {
		case b == '"' || b == '\\':
			dst = append(dst, '\\', b)
			i++
		case b < 0x20:
			switch b {
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				const hex = "0123456789abcdef"
				dst = append(dst, '\\', 'u', '0', '0', hex[b>>4], hex[b&0xf])
			}
			i++
		case b < utf8.RuneSelf:
			dst = append(dst, b)
			i++
		default:
			r, n := utf8.DecodeRune(s[i:])
			if r == utf8.RuneError && n == 1 {
				dst = append(dst, "\ufffd"...)
			} else {
				dst = append(dst, s[i:i+n]...)
			}
			i += n
		}
	}
	return append(dst, '"')
}
