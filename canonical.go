package occkit

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"math/bits"
	"slices"
	"unicode/utf8"

	"github.com/occkit/occkit/internal/json5"
)

func compactJSON(dst *bytes.Buffer, src []byte) error { return json.Compact(dst, src) }

// Canonical returns the canonical form of d used for digests and frozen
// revisions: the JSON Canonicalization Scheme of RFC 8785. It is compact
// JSON in which
//
//   - the members of every object are sorted by key, comparing the keys as
//     strings of UTF-16 code units (as JavaScript's sort does; this differs
//     from byte order only between U+E000–U+FFFF and characters above
//     U+FFFF);
//   - strings are written with the fewest escapes: \" \\ \b \f \n \r \t,
//     other control characters as \u00xx, everything else as UTF-8;
//   - numbers are written as ECMAScript's Number-to-String writes the
//     double they denote (16, 16.0, 1.6e1 and 1.6E1 are all 16; 1e21 is
//     1e+21; -0 is 0), so the digest depends on the value, not its spelling;
//   - true, false and null are as written.
//
// A Document never holds what JCS cannot represent: [ParseDocument] refuses
// invalid UTF-8, lone UTF-16 surrogates and numbers outside the range of a
// double. Two Documents have the same canonical bytes exactly when they
// denote the same JSON value with objects taken as unordered (Canonical
// is injective on meaning).
//
// This form replaced an earlier one that kept numbers as written and
// sorted keys by bytes: digests computed before it changed differ for
// documents holding such numbers or keys.
//
// It is one pass over the bytes: each object's members are written in
// document order and then, only when they are out of order, moved into key
// order, so the cost is linear in the document's size (plus the sort).
func Canonical(d Document) []byte {
	out, _, _ := canonical(d, false)
	return out
}

// canonical is the canonical form of d and, when asked (withPlaces) and
// the root is an object, the places of its members in it.
func canonical(d Document, withPlaces bool) ([]byte, rootPlaces, bool) {
	src := d.bytes()
	c := canon{src: src, out: make([]byte, 0, len(src)), wantPlaces: withPlaces}
	c.value(0)
	return c.out, c.places, c.places.obj
}

// CanonicalDocument is [Canonical] as a Document. Canonicalizing a valid,
// duplicate-free Document gives one again (keys compare decoded, so no two
// spellings can collapse into a new duplicate), so nothing is re-validated:
// a caller that keeps the canonical form, such as a frozen revision, pays
// for one pass instead of a pass and a parse.
//
// The canonical writer knows where it puts each member of the root
// object, so the Document is given those places for its index of root
// members instead of reading its bytes again (see [Document.Get]).
func CanonicalDocument(d Document) Document {
	return newPlacedDocument(canonical(d, true))
}

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
	// keys holds the decoded keys that held an escape, as a stack like
	// members.
	keys []byte
	// ranks and sorted are sortMembers' buffers for large objects.
	ranks  []memberRank
	sorted []canonMember
	// wantPlaces asks for places: those of the root object's members in
	// out, when the root is an object.
	wantPlaces bool
	places     rootPlaces
}

// canonMember is one member written to out. It holds no pointer, so a
// large object's members cost the collector nothing.
type canonMember struct {
	ks, ke     int  // the decoded key: src[ks:ke], or keys[ks:ke] when dec
	dec        bool // the key held an escape
	start, end int  // "key":value in out
}

// key is m's decoded key.
func (c *canon) key(m *canonMember) []byte {
	if m.dec {
		return c.keys[m.ks:m.ke]
	}
	return c.src[m.ks:m.ke]
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
		return c.string(i)
	default:
		j := i
		for j < len(c.src) && !isDelim(c.src[j]) {
			j++
		}
		if json5.IsCanonicalNumber(c.src[i:j]) {
			// Already in its canonical form (every number a Document
			// loaded by compile.Load holds): copied as it is.
			c.out = append(c.out, c.src[i:j]...)
			return j
		}
		if b := c.src[i]; b == '-' || b >= '0' && b <= '9' {
			if out, ok := json5.AppendCanonicalNumber(c.out, c.src[i:j]); ok {
				c.out = out
				return j
			}
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
	mbase, kbase := len(c.members), len(c.keys)
	sorted := true
	for c.src[i] != '}' {
		if len(c.members) > mbase {
			i++ // ','
			c.out = append(c.out, ',')
		}
		m := canonMember{start: len(c.out)}
		end := c.writeKey(i, &m)
		c.out = append(c.out, ':')
		i = c.value(end + 1) // skip ':'
		m.end = len(c.out)
		if n := len(c.members); n > mbase && compareUTF16(c.key(&c.members[n-1]), c.key(&m)) > 0 {
			sorted = false
		}
		c.members = append(c.members, m)
	}
	members := c.members[mbase:]
	if !sorted {
		// The members move into key order through scratch. Inner
		// objects come first, so it grows with the objects; once one
		// is a good part of the document, it takes room for all of it
		// rather than growing again for each enclosing object.
		if need := len(c.out) - base; cap(c.scratch) < need {
			c.scratch = make([]byte, 0, max(need, min(len(c.src), 2*need)))
		}
		c.scratch = append(c.scratch[:0], c.out[base+1:]...)
		off := base + 1
		c.sortMembers(members)
		c.out = c.out[:base+1]
		for k, m := range members {
			if k > 0 {
				c.out = append(c.out, ',')
			}
			start := len(c.out)
			c.out = append(c.out, c.scratch[m.start-off:m.end-off]...)
			members[k].start, members[k].end = start, len(c.out)
		}
	}
	if base == 0 && c.wantPlaces {
		// The root object (the only one written at the start of out).
		c.places = c.rootPlaces(members)
	}
	c.members, c.keys = c.members[:mbase], c.keys[:kbase]
	c.out = append(c.out, '}')
	return i + 1
}

// rootPlaces are the places of the root object's members ms, written in
// key order. Keys are unique unless two neighbours in that order decode
// alike.
func (c *canon) rootPlaces(ms []canonMember) rootPlaces {
	p := rootPlaces{obj: true, unique: true, members: make([]memberPlace, len(ms))}
	for k := range ms {
		m := &ms[k]
		p.members[k] = memberPlace{key: m.start, value: skipString(c.out, m.start) + 1, end: m.end}
		if k > 0 && bytes.Equal(c.key(&ms[k-1]), c.key(m)) {
			p.unique = false
		}
	}
	return p
}

// sortMembers puts ms in key order. Keys are distinct (a Document has no
// repeated key, and the decoded keys compare), so any sort gives the one
// order; the position breaks ties all the same, so it stays
// deterministic. Most objects are small: they take an insertion sort,
// without a call per comparison.
func (c *canon) sortMembers(ms []canonMember) {
	if len(ms) <= 12 {
		for i := 1; i < len(ms); i++ {
			for j := i; j > 0 && compareUTF16(c.key(&ms[j]), c.key(&ms[j-1])) < 0; j-- {
				ms[j], ms[j-1] = ms[j-1], ms[j]
			}
		}
		return
	}
	// A large object sorts ranks: eight bytes of each key from where the
	// keys first differ (a catalog's keys share a long "provider/model-"
	// prefix), so that nearly every comparison is of two integers.
	first := c.key(&ms[0])
	common := len(first)
	for k := 1; k < len(ms) && common > 0; k++ {
		common = commonPrefix(first[:common], c.key(&ms[k]))
	}
	if cap(c.ranks) < len(ms) {
		c.ranks = make([]memberRank, 0, len(ms))
	}
	c.ranks = c.ranks[:0]
	for k := range ms {
		c.ranks = append(c.ranks, memberRank{utf16Rank(c.key(&ms[k])[common:]), k})
	}
	slices.SortFunc(c.ranks, func(a, b memberRank) int {
		switch {
		case a.rank < b.rank:
			return -1
		case a.rank > b.rank:
			return 1
		}
		if k := compareUTF16(c.key(&ms[a.i]), c.key(&ms[b.i])); k != 0 {
			return k
		}
		return a.i - b.i
	})
	if cap(c.sorted) < len(ms) {
		c.sorted = make([]canonMember, 0, len(ms))
	}
	c.sorted = c.sorted[:0]
	for _, r := range c.ranks {
		c.sorted = append(c.sorted, ms[r.i])
	}
	copy(ms, c.sorted)
}

// memberRank is a member (its index) and the rank of its key.
type memberRank struct {
	rank uint64
	i    int
}

// commonPrefix is the length of the longest common prefix of a and b.
func commonPrefix(a, b []byte) int {
	i := 0
	for i+8 <= len(a) && i+8 <= len(b) {
		x, y := binary.LittleEndian.Uint64(a[i:]), binary.LittleEndian.Uint64(b[i:])
		if x != y {
			return i + bits.TrailingZeros64(x^y)/8
		}
		i += 8
	}
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	return i
}

// utf16Rank is the first eight bytes of the UTF-8 string s (zero-padded),
// big-endian, with the lead bytes of U+E000–U+FFFF (EE, EF) moved above
// those of the characters beyond U+FFFF (F0–F4): ranks then compare as
// the strings' UTF-16 code units do, except where they are equal, which
// decides nothing. Two strings with a common prefix differ first either
// at two lead bytes or at two continuation bytes of the same lead byte,
// and the remapping changes lead bytes only, keeping the order of each
// class.
func utf16Rank(s []byte) uint64 {
	var r uint64
	for k := 0; k < 8; k++ {
		var b byte
		if k < len(s) {
			b = s[k]
			switch {
			case b >= 0xF0 && b <= 0xF4:
				b -= 2 // F0–F4 to EE–F2
			case b == 0xEE || b == 0xEF:
				b += 5 // EE, EF to F3, F4
			}
		}
		r = r<<8 | uint64(b)
	}
	return r
}

// string writes the canonical form of the JSON string at src[i] and
// returns the index past it. A string without escapes is its own canonical
// form (a Document's strings are valid UTF-8, and JSON has no raw control
// characters), so its bytes are copied as they are.
func (c *canon) string(i int) int {
	end, s, escaped := c.strEscaped(i)
	if escaped {
		c.out = appendCanonicalString(c.out, s)
	} else {
		c.out = append(c.out, c.src[i:end]...)
	}
	return end
}

// writeKey is string for the key of the member m, whose decoded key it
// sets.
func (c *canon) writeKey(i int, m *canonMember) int {
	end, s, escaped := c.strEscaped(i)
	if !escaped {
		c.out = append(c.out, c.src[i:end]...)
		m.ks, m.ke = i+1, end-1
		return end
	}
	c.out = appendCanonicalString(c.out, s)
	m.ks, m.dec = len(c.keys), true
	c.keys = append(c.keys, s...)
	m.ke = len(c.keys)
	return end
}

// strEscaped reads the JSON string at src[i] and returns the index past
// it, its decoded value (the raw bytes when nothing needs decoding) and
// whether it holds an escape.
func (c *canon) strEscaped(i int) (int, []byte, bool) {
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
		return j + 1, c.src[i+1 : j], false
	}
	// json5.Unquote keeps a lone surrogate (which a Document cannot hold,
	// see ParseDocument) as its own code point instead of U+FFFD, so even
	// then two different strings never decode alike.
	v, err := json5.Unquote(c.src[i : j+1])
	if err != nil {
		return j + 1, c.src[i+1 : j], true
	}
	return j + 1, []byte(v), true
}

// compareUTF16 orders two UTF-8 strings as their UTF-16 code units compare
// (RFC 8785, section 3.2.3). Up to the first differing character that is
// byte order; there, a character above U+FFFF counts as its high
// surrogate (D800–DBFF), so it sorts before U+E000–U+FFFF.
func compareUTF16(a, b []byte) int {
	i := 0
	// Eight bytes at a time up to the word that differs.
	for i+8 <= len(a) && i+8 <= len(b) {
		x, y := binary.LittleEndian.Uint64(a[i:]), binary.LittleEndian.Uint64(b[i:])
		if x != y {
			i += bits.TrailingZeros64(x^y) / 8
			break
		}
		i += 8
	}
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	if i == len(a) || i == len(b) {
		return len(a) - len(b)
	}
	// The orders differ only between a character of U+E000–U+FFFF (lead
	// byte EE or EF) and one above U+FFFF (F0–F4), which differ in their
	// lead bytes; a byte below EE on either side decides as it is.
	if x, y := a[i], b[i]; x < 0xEE || y < 0xEE {
		return int(x) - int(y)
	}
	// Back up to the first byte of the character that differs.
	for i > 0 && a[i]&0xC0 == 0x80 {
		i--
	}
	ra, _ := utf8.DecodeRune(a[i:])
	rb, _ := utf8.DecodeRune(b[i:])
	ua, ub := utf16Lead(ra), utf16Lead(rb)
	if ua != ub {
		return int(ua) - int(ub)
	}
	return int(ra) - int(rb)
}

// utf16Lead is the first UTF-16 code unit of r.
func utf16Lead(r rune) rune {
	if r >= 0x10000 {
		return 0xD800 + (r-0x10000)>>10
	}
	return r
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
			// Multi-byte characters are written as they are. A byte that
			// is not valid UTF-8 (which a Document cannot hold) is kept,
			// not replaced, so that it cannot collide with U+FFFD; a
			// lone surrogate is written as its \u escape.
			if json5.HasLoneSurrogate(s[i:min(i+3, len(s))]) {
				u := 0xD000 | rune(s[i+1]&0x3F)<<6 | rune(s[i+2]&0x3F)
				const hex = "0123456789abcdef"
				dst = append(dst, '\\', 'u', hex[u>>12], hex[u>>8&0xF], hex[u>>4&0xF], hex[u&0xF])
				i += 3
				continue
			}
			_, n := utf8.DecodeRune(s[i:])
			dst = append(dst, s[i:i+n]...)
			i += n
		}
	}
	return append(dst, '"')
}
