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
	// A Document's canonical form is as long as it is unless an escape
	// or a number is spelled otherwise (always so for compile.Load's
	// output): the output is sized once, and starts as a copy of the
	// source (which costs what zeroing it would), so that what is written
	// at the offset it is read from is there already (see copySrc).
	var c canon // not a literal, which is made on the stack then copied
	c.src, c.wantPlaces, c.mirror = src, withPlaces, true
	c.out = append([]byte(nil), src...)
	c.out = c.out[:cap(c.out)]
	c.value(0)
	out := c.out[:c.n:c.n]
	if len(c.out)-c.n > c.n/8 {
		// Much shorter than its source (or grown past it): the
		// Document keeps only its own bytes.
		out = bytes.Clone(out)
	}
	return out, c.places, c.places.obj
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
//
// The bytes written are out[:n]: out is sized once and written by index,
// and the slice is stored again only when it grows, so that writing costs
// no write barrier while the collector runs (as it does for much of a
// large document's pass). The members stack is kept the same way.
type canon struct {
	src []byte
	out []byte
	n   int
	// mirror: out[k] is src[k] for every k from n to the end of src,
	// as out was made (a copy of src) and never written past n since.
	mirror bool
	// members is a stack shared by every object level: an object's
	// members are members[base:nm] while it is being written.
	members []canonMember
	nm      int
	// keys holds the decoded keys that held an escape, and decs where
	// each is, as stacks like members.
	keys []byte
	decs []decodedKey
	// unq holds the decoded value of the last string read that held an
	// escape (strEscaped).
	unq []byte
	// ranks, packed, work and scratch are reorder's buffers, and small
	// its scratch for a small object (of at most smallObject bytes) and
	// for a large one's members that go through scratch when they fit
	// (the out-of-order tenth of a catalog of a few dozen models).
	ranks   []memberRank
	packed  []uint64
	work    []memberWork
	scratch []byte
	small   [smallObject]byte
	// wantPlaces asks for places: those of the root object's members in
	// out, when the root is an object.
	wantPlaces bool
	places     rootPlaces
	// refused: the writer met a member that edits it makes as it goes
	// (see canonicalWith) reach inside, and that is not an object.
	refused bool
	// memberBuf, rankBuf, packedBuf and workBuf are the members stack,
	// ranks, packed and work while they fit (members, ranks, packed and
	// work are nil until they do not): a canon lives on its caller's
	// stack, so a document around a catalog of a few dozen models keeps
	// its bookkeeping there, and only a larger one allocates it. They are
	// sliced where they are used, never stored in c (which would move c
	// to the heap).
	memberBuf [firstMembers]canonMember
	rankBuf   [firstRanks]memberRank
	packedBuf [firstRanks]uint64
	workBuf   [firstRanks + 1]memberWork
}

// stack is the members stack: members, or memberBuf while it fits.
func (c *canon) stack() []canonMember {
	if c.members == nil {
		return c.memberBuf[:]
	}
	return c.members
}

// firstMembers is how many members the members stack holds in the canon
// itself: the members of a configuration's objects around a catalog of a
// few dozen models (the stack holds those of every object open at once).
// firstRanks is as many members of one object sorted (the catalog).
const (
	firstMembers = 64
	firstRanks   = 48
)

// canonMember is one member written to out: "key":value is out[start:end].
// Its decoded key is out[start+1:start+1+key] when it held no escape
// (it is then its own canonical form), else (key negative) the decoded
// key decs[^key] locates. It holds no pointer, so a large object's
// members cost the collector nothing.
type canonMember struct {
	start, end, key int
}

// decodedKey locates a decoded key in canon.keys.
type decodedKey struct{ ks, ke int }

// key is m's decoded key.
func (c *canon) key(m *canonMember) []byte {
	if m.key >= 0 {
		return c.out[m.start+1 : m.start+1+m.key]
	}
	d := c.decs[^m.key]
	return c.keys[d.ks:d.ke]
}

// grow makes room for k more bytes in out.
func (c *canon) grow(k int) {
	out := make([]byte, max(2*len(c.out), c.n+k, 64))
	copy(out, c.out[:c.n])
	c.out, c.mirror = out, false
}

// put writes the byte b.
func (c *canon) put(b byte) {
	if c.n == len(c.out) {
		c.grow(1)
	}
	c.out[c.n] = b
	c.n++
}

// punct writes src[i], a bracket, a comma or a colon: in out already
// while out mirrors src up to it.
func (c *canon) punct(i int) {
	if c.n == i && c.mirror {
		c.n++
		return
	}
	c.put(c.src[i])
}

// write writes b.
func (c *canon) write(b []byte) {
	if len(c.out)-c.n < len(b) {
		c.grow(len(b))
	}
	c.n += copy(c.out[c.n:], b)
}

// copySrc writes src[i:j]. Read at the offset it goes to, it is in out
// already while out mirrors src (most of a Document: its canonical form
// keeps every length), and it is not copied again.
func (c *canon) copySrc(i, j int) {
	if c.n == i && c.mirror {
		c.n = j
		return
	}
	c.write(c.src[i:j])
}

// appended takes out, the output written so far with something appended
// to it.
func (c *canon) appended(out []byte) {
	if cap(out) != cap(c.out) {
		c.mirror = false // moved: nothing past n is src's any more
	}
	c.n, c.out = len(out), out[:cap(out)]
}

// push puts m on the members stack.
func (c *canon) push(m canonMember) {
	s := c.stack()
	if c.nm == len(s) {
		c.members = make([]canonMember, 2*len(s))
		copy(c.members, s)
		s = c.members
	}
	s[c.nm] = m
	c.nm++
}

// value writes the canonical form of the value at src[i:] and returns the
// index just past it.
func (c *canon) value(i int) int {
	switch c.src[i] {
	case '{':
		return c.object(i, nil, -1)
	case '[':
		c.punct(i)
		i++
		for first := true; c.src[i] != ']'; first = false {
			if !first {
				c.punct(i)
				i++ // ','
			}
			i = c.value(i)
		}
		c.punct(i)
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
			c.copySrc(i, j)
			return j
		}
		if b := c.src[i]; b == '-' || b >= '0' && b <= '9' {
			if out, ok := json5.AppendCanonicalNumber(c.out[:c.n], c.src[i:j]); ok {
				c.appended(out)
				return j
			}
		}
		c.copySrc(i, j)
		return j
	}
}

func isDelim(b byte) bool { return b == ',' || b == '}' || b == ']' }

// object writes the canonical form of the object at src[i:] and returns
// the index just past it. at is the node of tree whose children edit its
// members, or -1: a member a leaf names is deleted or written with the
// leaf's value, one an inner node names is edited in turn, and the
// members they name that are absent are created after the others (the
// order is the sort's to decide). The tree is a parameter, not a field of
// c, so that it stays on its maker's stack.
func (c *canon) object(i int, tree []editNode, at int32) int {
	base := c.n
	c.punct(i)
	i++
	mbase, kbase, dbase := c.nm, len(c.keys), len(c.decs)
	sorted := true
	// prev is the decoded key of the member last pushed: the source's
	// bytes, or those canon.keys holds for a key with an escape (which
	// the objects inside a member only append after, or copy when they
	// grow it, and never write over).
	var prev []byte
	for first := true; c.src[i] != '}'; first = false {
		if !first {
			i++ // ','
		}
		edit := int32(-1)
		if at >= 0 {
			end, name, _ := c.strEscaped(i)
			if edit = editedChild(tree, at, name); edit >= 0 {
				n := &tree[edit]
				n.seen++
				if n.leaf {
					i = skipValue(c.src, end+1)
					if n.del {
						c.mirror = false // the output no longer lines up with the source
					} else {
						c.editedMember(tree, edit, mbase)
						sorted = false
					}
					continue
				}
			}
		}
		if c.nm > mbase {
			c.punct(i - 1)
		}
		m := canonMember{start: c.n}
		// A key and a string value without an escape (nearly all of a
		// configuration's) are their own canonical forms, and the key its
		// own decoded one: they are told here, by where their plain run
		// ends, without the calls (writeKey, strEscaped, value, string)
		// that would read them again to find out.
		var end int
		var key []byte
		if k := json5.PlainEnd(c.src, i+1); c.src[k] == '"' {
			c.copySrc(i, k+1)
			m.key, end, key = k-i-1, k+1, c.src[i+1:k]
		} else {
			end = c.writeKey(i, &m)
			key = c.key(&m)
		}
		c.punct(end)
		v := end + 1 // skip ':'
		switch {
		case edit >= 0 && c.src[v] == '{':
			i = c.object(v, tree, edit)
		case edit >= 0:
			// Apply makes edits inside a value that is not an object
			// one at a time, as sjson does: not this way.
			c.refused = true
			i = c.value(v)
		case c.src[v] == '"':
			if j := json5.PlainEnd(c.src, v+1); c.src[j] == '"' {
				c.copySrc(v, j+1)
				i = j + 1
			} else {
				i = c.string(v)
			}
		case c.src[v] == '{':
			i = c.object(v, nil, -1)
		default:
			i = c.value(v)
		}
		m.end = c.n
		if sorted && c.nm > mbase && compareUTF16(prev, key) > 0 {
			sorted = false
		}
		prev = key
		c.push(m)
	}
	if at >= 0 {
		for k := range tree {
			if n := &tree[k]; n.parent == at && n.seen == 0 && n.hasSet {
				c.editedMember(tree, int32(k), mbase)
				sorted = false
			}
		}
	}
	// An object in key order that is not the root (most of them) needs
	// its members no more.
	if n := c.nm - mbase; !sorted || base == 0 || n >= largeObject {
		members := c.stack()[mbase:c.nm]
		var order []memberRank
		if !sorted {
			order = c.reorder(base+1, members)
		}
		if base == 0 && c.wantPlaces {
			// The root object (the only one written at the start of out).
			c.places = c.rootPlaces(members, order)
		}
		c.nm = mbase
		if n >= largeObject {
			c.release()
		}
	}
	c.nm = mbase
	if len(c.decs) > dbase {
		c.keys, c.decs = c.keys[:kbase], c.decs[:dbase]
	}
	c.punct(i)
	return i + 1
}

// smallObject is how many bytes make an object small enough for reorder
// to copy it out whole and back in order: a models map or a provider of
// a few dozen models (an entry naming its runtime is about 55 bytes),
// which two copies of its bytes put in order for less than finding its
// heaviest ordered run does. Its buffer (small) is the canon's, on its
// caller's stack.
const smallObject = 2048

// largeObject is how many members make an object whose buffers are let go
// once it is written.
const largeObject = 256

// release lets the collector have the buffers a large object grew, once it
// is written: the objects around a catalog are most often small, and the
// root is reordered last, while the whole output is held, so that the
// canonical form's peak is its output and little more.
func (c *canon) release() {
	c.ranks, c.packed, c.work, c.scratch = nil, nil, nil, nil
	if c.members == nil {
		return
	}
	open := c.members[:c.nm]
	c.members = nil
	if c.nm > len(c.memberBuf) {
		c.members = make([]canonMember, 2*c.nm)
	}
	copy(c.stack(), open)
}

// rootPlaces are the places of the root object's members ms, in key
// order: order's when it is given, else theirs. Keys are unique unless
// two neighbours in that order decode alike.
func (c *canon) rootPlaces(ms []canonMember, order []memberRank) rootPlaces {
	p := rootPlaces{obj: true, unique: true, members: make([]memberPlace, len(ms))}
	var prev *canonMember
	for k := range ms {
		m := &ms[k]
		if order != nil {
			m = &ms[order[k].i]
		}
		p.members[k] = memberPlace{key: m.start, value: skipString(c.out, m.start) + 1, end: m.end}
		if prev != nil && bytes.Equal(c.key(prev), c.key(m)) {
			p.unique = false
		}
		prev = m
	}
	return p
}

// memberWork is what reorder knows of one member of an object: its place
// in key order (pos), the weight of the heaviest run ending with it and
// the member before it in that run (at, prev), whether it is in the run
// kept (kept) and then, once the run is chosen, where it goes (at again);
// tree is a node of the tree over places that finds the best run to
// extend.
type memberWork struct {
	at              int
	pos, prev, tree int32
	kept            bool
}

// reorder moves the members ms of an object, written in document order
// from out[at:], into key order, and returns that order (the member in
// each place). The heaviest subsequence of members (in bytes) that is
// already in key order stays in out, each member moving at most by the
// others' length (and often not at all: the root's large sections); only
// the rest go out to scratch and back. Scratch is then what an author
// wrote out of order, often a small part of the object (a catalog
// numbered model-0 … model-999 keeps its 900 three-digit keys in order),
// where copying the whole object out and back would take a second buffer
// as large as the document for the root.
func (c *canon) reorder(at int, ms []canonMember) []memberRank {
	k := len(ms)
	order := c.sortMembers(ms)
	if size := c.n - at; size <= smallObject {
		// Small (most objects): copied out whole and back in order.
		copy(c.small[:size], c.out[at:c.n])
		dest := at
		for p, r := range order {
			m := &ms[r.i]
			if p > 0 {
				c.out[dest] = ','
				dest++
			}
			n := copy(c.out[dest:], c.small[m.start-at:m.end-at])
			m.start, m.end = dest, dest+n
			dest += n
		}
		return order
	}
	w := room(c.workBuf[:], &c.work, k+1)
	for p := range order {
		w[order[p].i].pos = int32(p)
	}
	// The heaviest increasing run: the run ending with member i weighs
	// its length plus the best of a member before it placed before it,
	// found in a Fenwick tree
	// over places (node x covers the places below x down to x-(x&-x)),
	// which holds the member with the best run ending there.
	for x := range w {
		w[x].tree = -1
	}
	top := int32(-1)
	for i := range ms {
		wi := &w[i]
		wi.kept = false
		wi.prev = -1
		for x := int(wi.pos); x > 0; x -= x & -x {
			if t := w[x].tree; t >= 0 && (wi.prev < 0 || w[t].at > w[wi.prev].at) {
				wi.prev = t
			}
		}
		wi.at = ms[i].end - ms[i].start
		if wi.prev >= 0 {
			wi.at += w[wi.prev].at
		}
		for x := int(wi.pos) + 1; x <= k; x += x & -x {
			if t := w[x].tree; t < 0 || wi.at > w[t].at {
				w[x].tree = int32(i)
			}
		}
		if top < 0 || wi.at > w[top].at {
			top = int32(i)
		}
	}
	for i := top; i >= 0; i = w[i].prev {
		w[i].kept = true
	}
	// Where each member goes, and the others out to scratch.
	need, dest := 0, at
	for _, r := range order {
		m := &ms[r.i]
		w[r.i].at = dest
		dest += m.end - m.start + 1
		if !w[r.i].kept {
			need += m.end - m.start
		}
	}
	var scratch []byte
	switch {
	case need <= len(c.small):
		scratch = c.small[:need]
	case cap(c.scratch) < need:
		c.scratch = make([]byte, max(need, 2*cap(c.scratch)))
		fallthrough
	default:
		scratch = c.scratch[:need]
	}
	off := 0
	for i := range ms {
		if !w[i].kept {
			off += copy(scratch[off:], c.out[ms[i].start:ms[i].end])
		}
	}
	// The kept members in their order: those that move toward the start
	// first to last, then those that move toward the end last to first,
	// so that none is written over before it has moved (copy is
	// memmove).
	for i := range ms {
		if m := &ms[i]; w[i].kept && w[i].at < m.start {
			copy(c.out[w[i].at:], c.out[m.start:m.end])
		}
	}
	for i := k - 1; i >= 0; i-- {
		if m := &ms[i]; w[i].kept && w[i].at > m.start {
			copy(c.out[w[i].at:], c.out[m.start:m.end])
		}
	}
	off = 0
	for i := range ms {
		m := &ms[i]
		n := m.end - m.start
		if !w[i].kept {
			off += copy(c.out[w[i].at:w[i].at+n], scratch[off:])
		}
		m.start, m.end = w[i].at, w[i].at+n
		if m.start > at {
			c.out[m.start-1] = ','
		}
	}
	return order
}

// sortMembers returns the members ms in key order (each rank's i).
// Keys are distinct (a Document has no repeated key, and the decoded
// keys compare), so any sort gives the one order; the position breaks
// ties all the same, so it stays deterministic. Most objects are small:
// they take an insertion sort on their members' ranks, without a call
// per comparison.
func (c *canon) sortMembers(ms []canonMember) []memberRank {
	rs := room(c.rankBuf[:], &c.ranks, len(ms))
	if len(ms) <= smallSort {
		// Each key's rank (its first eight bytes) decides unless two
		// are equal.
		var ranks [smallSort]uint64
		for i := range rs {
			ranks[i] = utf16Rank(c.key(&ms[i]))
			rs[i] = memberRank{i: int32(i)}
			for j := i; j > 0; j-- {
				a, b := rs[j].i, rs[j-1].i
				if ranks[a] > ranks[b] || ranks[a] == ranks[b] && compareUTF16(c.key(&ms[a]), c.key(&ms[b])) >= 0 {
					break
				}
				rs[j], rs[j-1] = rs[j-1], rs[j]
			}
		}
		return rs
	}
	// A large object sorts integers: eight bytes of each key from where
	// the keys first differ (a catalog's keys share a long
	// "provider/model-" prefix), their last bits replaced by the
	// member's index, so that nearly every comparison is of two integers
	// and ties are broken by the position. Members whose integers agree
	// but for the index are then ordered by their whole keys.
	first := c.key(&ms[0])
	common := len(first)
	for k := 1; k < len(ms) && common > 0; k++ {
		common = commonPrefix(first[:common], c.key(&ms[k]))
	}
	shift := uint(bits.Len(uint(len(ms) - 1)))
	index := uint64(1)<<shift - 1
	packed := room(c.packedBuf[:], &c.packed, len(ms))
	for k := range ms {
		packed[k] = utf16Rank(c.key(&ms[k])[common:])&^index | uint64(k)
	}
	slices.Sort(packed)
	for a := 0; a < len(packed); {
		b := a + 1
		for b < len(packed) && packed[b]&^index == packed[a]&^index {
			b++
		}
		if b-a > 1 {
			slices.SortFunc(packed[a:b], func(x, y uint64) int {
				if k := compareUTF16(c.key(&ms[x&index]), c.key(&ms[y&index])); k != 0 {
					return k
				}
				return int(x&index) - int(y&index)
			})
		}
		a = b
	}
	for k, p := range packed {
		rs[k] = memberRank{i: int32(p & index)}
	}
	return rs
}

// smallSort is how many members an object has at most to be sorted by
// insertion.
const smallSort = 12

// room is n elements: buf's while they fit, else heap's (grown when it
// is too short, or was let go by release).
func room[T any](buf []T, heap *[]T, n int) []T {
	if n <= len(buf) {
		return buf[:n]
	}
	if cap(*heap) < n {
		*heap = make([]T, 0, max(n, 2*cap(*heap)))
	}
	return (*heap)[:n]
}

// memberRank is a member (its index) in an order.
type memberRank struct {
	i int32
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
	if len(s) >= 8 {
		r = binary.BigEndian.Uint64(s)
	} else {
		for k, b := range s {
			r |= uint64(b) << (56 - 8*k)
		}
	}
	if r&0x8080808080808080 == 0 {
		return r // ASCII: nothing to move
	}
	var q uint64
	for k := 56; k >= 0; k -= 8 {
		b := byte(r >> k)
		switch {
		case b >= 0xF0 && b <= 0xF4:
			b -= 2 // F0–F4 to EE–F2
		case b == 0xEE || b == 0xEF:
			b += 5 // EE, EF to F3, F4
		}
		q = q<<8 | uint64(b)
	}
	return q
}

// string writes the canonical form of the JSON string at src[i] and
// returns the index past it. A string whose escapes are all ones RFC 8785
// writes, or that has none, is its own canonical form (a Document's
// strings are valid UTF-8, and JSON has no raw control characters), so
// its bytes are copied as they are without being decoded: compile.Load's
// documents (json5's output) escape only that way.
func (c *canon) string(i int) int {
	src := c.src
	for j := json5.PlainEnd(src, i+1); ; {
		switch src[j] {
		case '"':
			c.copySrc(i, j+1)
			return j + 1
		case '\\':
			if !canonicalEscape(src[j+1:]) {
				return c.stringDecoded(i)
			}
			j = json5.PlainEnd(src, j+2)
		default:
			j = json5.PlainEnd(src, j+1)
		}
	}
}

// canonicalEscape reports whether the escape whose text after the
// backslash starts e is one RFC 8785 (JSON.stringify) writes: \" \\
// \b \f \n \r \t, or \u00xx in lower-case hexadecimal for another
// control character.
func canonicalEscape(e []byte) bool {
	switch e[0] {
	case '"', '\\', 'b', 'f', 'n', 'r', 't':
		return true
	case 'u':
		if len(e) < 5 || e[1] != '0' || e[2] != '0' || (e[3] != '0' && e[3] != '1') {
			return false
		}
		var lo byte
		switch d := e[4]; {
		case '0' <= d && d <= '9':
			lo = d - '0'
		case 'a' <= d && d <= 'f':
			lo = d - 'a' + 10
		default:
			return false
		}
		switch (e[3]-'0')<<4 | lo {
		case '\b', '\f', '\n', '\r', '\t':
			return false
		}
		return true
	}
	return false
}

// stringDecoded is string for a literal with an escape RFC 8785 does
// not write: it is decoded and written again.
func (c *canon) stringDecoded(i int) int {
	end, s, escaped := c.strEscaped(i)
	if escaped {
		c.appended(appendCanonicalString(c.out[:c.n], s))
	} else {
		c.copySrc(i, end)
	}
	return end
}

// writeKey is string for the key of the member m, whose decoded key it
// sets.
func (c *canon) writeKey(i int, m *canonMember) int {
	end, s, escaped := c.strEscaped(i)
	if !escaped {
		c.copySrc(i, end)
		m.key = end - i - 2
		return end
	}
	c.appended(appendCanonicalString(c.out[:c.n], s))
	m.key = ^len(c.decs)
	c.decs = append(c.decs, decodedKey{len(c.keys), len(c.keys) + len(s)})
	c.keys = append(c.keys, s...)
	return end
}

// strEscaped reads the JSON string at src[i] and returns the index past
// it, its decoded value (the raw bytes when nothing needs decoding) and
// whether it holds an escape. A decoded value is in c.unq, valid until
// the next call: every caller writes or copies it at once.
func (c *canon) strEscaped(i int) (int, []byte, bool) {
	// The plain run ends at the closing quote or at an escape (a
	// Document's strings hold no control character).
	j := json5.PlainEnd(c.src, i+1)
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
	var err error
	if c.unq, err = json5.AppendUnquote(c.unq[:0], c.src[i:j+1]); err != nil {
		return j + 1, c.src[i+1 : j], true
	}
	return j + 1, c.unq, true
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
		// A run of bytes written as they are, in one copy: up to a quote,
		// a backslash, a control character or the lead byte of what may
		// be a lone surrogate (0xED; never inside a longer character).
		j := i
		for j < len(s) {
			if b := s[j]; b < 0x20 || b == '"' || b == '\\' || b == 0xED {
				break
			}
			j++
		}
		dst = append(dst, s[i:j]...)
		if i = j; i == len(s) {
			break
		}
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
