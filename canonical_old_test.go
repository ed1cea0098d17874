package occkit

// The canonical writer as it was at 9e8c1e8 (canonical.go and
// canonical_apply.go), kept whole as the oracle of the one that replaced
// it (see TestCanonicalMatchesOldWriter): every name is prefixed "old".
// It is not the code under test and is not changed with it, but for one
// fix made to both: an edit of the root is looked at before its first
// element (Path.Elem of the root panicked).

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"slices"
	"unicode/utf8"

	"github.com/occkit/occkit/internal/json5"
	"github.com/occkit/occkit/internal/jsonwalk"
)

// oldCanonicalForm is the canonical form of d and, when asked (withPlaces) and
// the root is an object, the places of its members in it.
func oldCanonicalForm(d Document, withPlaces bool) ([]byte, rootPlaces, bool) {
	src := d.bytes()
	// A Document's canonical form is as long as it is unless an escape
	// or a number is spelled otherwise (always so for compile.Load's
	// output): the output is sized once, and starts as a copy of the
	// source (which costs what zeroing it would), so that what is written
	// at the offset it is read from is there already (see copySrc).
	c := oldCanon{src: src, wantPlaces: withPlaces, mirror: true}
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

// oldCanonicalDocument is [oldCanonicalForm] as a Document. Canonicalizing a valid,
// duplicate-free Document gives one again (keys compare decoded, so no two
// spellings can collapse into a new duplicate), so nothing is re-validated:
// a caller that keeps the canonical form, such as a frozen revision, pays
// for one pass instead of a pass and a parse.
//
// The canonical writer knows where it puts each member of the root
// object, so the Document is given those places for its index of root
// members instead of reading its bytes again (see [Document.Get]).
func oldCanonicalDocument(d Document) Document {
	return newPlacedDocument(oldCanonicalForm(d, true))
}

// oldCanon canonicalizes compact, valid JSON (the invariant of a Document).
//
// The bytes written are out[:n]: out is sized once and written by index,
// and the slice is stored again only when it grows, so that writing costs
// no write barrier while the collector runs (as it does for much of a
// large document's pass). The members stack is kept the same way.
type oldCanon struct {
	src []byte
	out []byte
	n   int
	// mirror: out[k] is src[k] for every k from n to the end of src,
	// as out was made (a copy of src) and never written past n since.
	mirror bool
	// members is a stack shared by every object level: an object's
	// members are members[base:nm] while it is being written.
	members []oldCanonMember
	nm      int
	// keys holds the decoded keys that held an escape, and decs where
	// each is, as stacks like members.
	keys []byte
	decs []oldDecodedKey
	// ranks, work and scratch are reorder's buffers, and small its
	// scratch for a small object (of at most oldSmallObject bytes) and for
	// a large one's members that go through scratch when they fit (the
	// out-of-order tenth of a catalog of a few dozen models).
	ranks   []oldMemberRank
	work    []oldMemberWork
	scratch []byte
	small   [1024]byte
	// wantPlaces asks for places: those of the root object's members in
	// out, when the root is an object.
	wantPlaces bool
	places     rootPlaces
	// over replaces root members (see oldCanonicalApply), or is nil.
	over []oldRootOverride
	// shapes remembers, for each member count up to oldMaxShapeMembers, the
	// decoded keys of the last object of that many members that was
	// sorted and its order (see sortedOrder).
	shapes [oldMaxShapeMembers + 1]oldShape
	// shapeKeys and shapeInts hold the shapes' keys, and their keys'
	// ends then their orders, up to nKeys and nInts: fixed, so that
	// remembering costs no allocation (a oldShape that does not fit is not
	// remembered).
	shapeKeys    [1024]byte
	shapeInts    [256]int32
	nKeys, nInts int
	// memberBuf, rankBuf and workBuf are the members stack, ranks and
	// work while they fit (members, ranks and work are nil until they
	// do not): a oldCanon lives on its caller's stack, so a document around
	// a catalog of a few dozen models keeps its bookkeeping there, and
	// only a larger one allocates it. They are sliced where they are
	// used, never stored in c (which would move c to the heap).
	memberBuf [oldFirstMembers]oldCanonMember
	rankBuf   [oldFirstRanks]oldMemberRank
	workBuf   [oldFirstRanks + 1]oldMemberWork
}

// stack is the members stack: members, or memberBuf while it fits.
func (c *oldCanon) stack() []oldCanonMember {
	if c.members == nil {
		return c.memberBuf[:]
	}
	return c.members
}

// oldMaxShapeMembers is how many members an object may have at most for its
// order to be remembered: a catalog's entries, their params and a
// provider's models are small objects, each of one oldShape repeated.
const oldMaxShapeMembers = 32

// oldShape is a remembered object of n members: its keys are
// shapeKeys[keys:], the k-th ending at shapeInts[ints+k], and the member
// in place k of its key order is shapeInts[ints+n+k]. keyCap is how many
// key bytes its place in shapeKeys holds.
type oldShape struct {
	set          bool
	keys, keyCap int
	ints         int
}

// oldFirstMembers is how many members the members stack holds in the oldCanon
// itself: the members of a configuration's objects around a catalog of a
// few dozen models (the stack holds those of every object open at once).
// oldFirstRanks is as many members of one object sorted (the catalog).
const (
	oldFirstMembers = 64
	oldFirstRanks   = 48
)

// oldCanonMember is one member written to out: "key":value is out[start:end].
// Its decoded key is out[start+1:start+1+key] when it held no escape
// (it is then its own canonical form), else (key negative) the decoded
// key decs[^key] locates. It holds no pointer, so a large object's
// members cost the collector nothing.
type oldCanonMember struct {
	start, end, key int
}

// oldDecodedKey locates a decoded key in oldCanon.keys.
type oldDecodedKey struct{ ks, ke int }

// key is m's decoded key.
func (c *oldCanon) key(m *oldCanonMember) []byte {
	if m.key >= 0 {
		return c.out[m.start+1 : m.start+1+m.key]
	}
	d := c.decs[^m.key]
	return c.keys[d.ks:d.ke]
}

// grow makes room for k more bytes in out.
func (c *oldCanon) grow(k int) {
	out := make([]byte, max(2*len(c.out), c.n+k, 64))
	copy(out, c.out[:c.n])
	c.out, c.mirror = out, false
}

// put writes the byte b.
func (c *oldCanon) put(b byte) {
	if c.n == len(c.out) {
		c.grow(1)
	}
	c.out[c.n] = b
	c.n++
}

// write writes b.
func (c *oldCanon) write(b []byte) {
	if len(c.out)-c.n < len(b) {
		c.grow(len(b))
	}
	c.n += copy(c.out[c.n:], b)
}

// copySrc writes src[i:j]. Read at the offset it goes to, it is in out
// already while out mirrors src (most of a Document: its canonical form
// keeps every length), and it is not copied again.
func (c *oldCanon) copySrc(i, j int) {
	if c.n == i && c.mirror {
		c.n = j
		return
	}
	c.write(c.src[i:j])
}

// appended takes out, the output written so far with something appended
// to it.
func (c *oldCanon) appended(out []byte) {
	if cap(out) != cap(c.out) {
		c.mirror = false // moved: nothing past n is src's any more
	}
	c.n, c.out = len(out), out[:cap(out)]
}

// push puts m on the members stack.
func (c *oldCanon) push(m oldCanonMember) {
	s := c.stack()
	if c.nm == len(s) {
		c.members = make([]oldCanonMember, 2*len(s))
		copy(c.members, s)
		s = c.members
	}
	s[c.nm] = m
	c.nm++
}

// value writes the canonical form of the value at src[i:] and returns the
// index just past it.
func (c *oldCanon) value(i int) int {
	switch c.src[i] {
	case '{':
		return c.object(i)
	case '[':
		c.put('[')
		i++
		for first := true; c.src[i] != ']'; first = false {
			if !first {
				c.put(',')
				i++ // ','
			}
			i = c.value(i)
		}
		c.put(']')
		return i + 1
	case '"':
		return c.string(i)
	default:
		j := i
		for j < len(c.src) && !oldIsDelim(c.src[j]) {
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

func oldIsDelim(b byte) bool { return b == ',' || b == '}' || b == ']' }

func (c *oldCanon) object(i int) int {
	base := c.n
	c.put('{')
	i++
	mbase, kbase, dbase := c.nm, len(c.keys), len(c.decs)
	sorted := true
	over := base == 0 && c.over != nil // the root, with members replaced
	for first := true; c.src[i] != '}'; first = false {
		if !first {
			i++ // ','
		}
		if over {
			end, name, _ := c.strEscaped(i)
			if o := c.override(name); o != nil {
				o.seen++
				i = skipValue(c.src, end+1)
				if o.raw != nil {
					c.foreignMember(o, mbase)
					sorted = false
				} else {
					c.mirror = false // the output no longer lines up with the source
				}
				continue
			}
		}
		if c.nm > mbase {
			c.put(',')
		}
		m := oldCanonMember{start: c.n}
		end := c.writeKey(i, &m)
		c.put(':')
		i = c.value(end + 1) // skip ':'
		m.end = c.n
		if sorted && c.nm > mbase && oldCompareUTF16(c.key(&c.stack()[c.nm-1]), c.key(&m)) > 0 {
			sorted = false
		}
		c.push(m)
	}
	if over {
		for k := range c.over {
			if o := &c.over[k]; o.seen == 0 && o.raw != nil {
				c.foreignMember(o, mbase)
				sorted = false
			}
		}
	}
	members := c.stack()[mbase:c.nm]
	var order []oldMemberRank
	if !sorted {
		order = c.reorder(base+1, members)
	}
	if base == 0 && c.wantPlaces {
		// The root object (the only one written at the start of out).
		c.places = c.rootPlaces(members, order)
	}
	c.nm, c.keys, c.decs = mbase, c.keys[:kbase], c.decs[:dbase]
	if len(members) >= oldLargeObject {
		c.release()
	}
	c.put('}')
	return i + 1
}

// oldSmallObject is how many bytes make an object small enough for reorder
// to copy it out whole and back in order.
const oldSmallObject = 512

// oldLargeObject is how many members make an object whose buffers are let go
// once it is written.
const oldLargeObject = 256

// release lets the collector have the buffers a large object grew, once it
// is written: the objects around a catalog are most often small, and the
// root is reordered last, while the whole output is held, so that the
// canonical form's peak is its output and little more.
func (c *oldCanon) release() {
	c.ranks, c.work, c.scratch = nil, nil, nil
	if c.members == nil {
		return
	}
	open := c.members[:c.nm]
	c.members = nil
	if c.nm > len(c.memberBuf) {
		c.members = make([]oldCanonMember, 2*c.nm)
	}
	copy(c.stack(), open)
}

// rootPlaces are the places of the root object's members ms, in key
// order: order's when it is given, else theirs. Keys are unique unless
// two neighbours in that order decode alike.
func (c *oldCanon) rootPlaces(ms []oldCanonMember, order []oldMemberRank) rootPlaces {
	p := rootPlaces{obj: true, unique: true, members: make([]memberPlace, len(ms))}
	var prev *oldCanonMember
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

// oldMemberWork is what reorder knows of one member of an object: its place
// in key order (pos), the weight of the heaviest run ending with it and
// the member before it in that run (at, prev), whether it is in the run
// kept (kept) and then, once the run is chosen, where it goes (at again);
// tree is a node of the tree over places that finds the best run to
// extend.
type oldMemberWork struct {
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
func (c *oldCanon) reorder(at int, ms []oldCanonMember) []oldMemberRank {
	k := len(ms)
	order := c.sortedOrder(ms)
	if size := c.n - at; size <= oldSmallObject {
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
	var w []oldMemberWork
	switch {
	case k+1 <= len(c.workBuf):
		w = c.workBuf[:k+1]
	case cap(c.work) < k+1:
		c.work = make([]oldMemberWork, 0, max(k+1, 2*cap(c.work)))
		fallthrough
	default:
		w = c.work[:k+1]
	}
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

// sortedOrder is sortMembers(ms), taken from the last object sorted with
// as many members when its decoded keys are those of ms, in the same
// order, byte for byte: the order is a function of that sequence of keys
// alone, so it is the one sortMembers would give. Otherwise ms is sorted
// and remembered in its place.
func (c *oldCanon) sortedOrder(ms []oldCanonMember) []oldMemberRank {
	n := len(ms)
	if n > oldMaxShapeMembers {
		return c.sortMembers(ms)
	}
	s := &c.shapes[n]
	if s.set && c.sameKeys(s, ms) {
		rs := c.rankSlice(n)
		for k, i := range c.shapeInts[s.ints+n : s.ints+2*n] {
			rs[k] = oldMemberRank{i: i}
		}
		return rs
	}
	rs := c.sortMembers(ms)
	size := 0
	for k := range ms {
		size += len(c.key(&ms[k]))
	}
	if !s.set || size > s.keyCap {
		if c.nKeys+size > len(c.shapeKeys) {
			s.set = false
			return rs
		}
		s.keys, s.keyCap = c.nKeys, size
		c.nKeys += size
	}
	if !s.set {
		if c.nInts+2*n > len(c.shapeInts) {
			return rs
		}
		s.ints = c.nInts
		c.nInts += 2 * n
	}
	s.set = true
	end := s.keys
	for k := range ms {
		end += copy(c.shapeKeys[end:], c.key(&ms[k]))
		c.shapeInts[s.ints+k] = int32(end)
		c.shapeInts[s.ints+n+k] = rs[k].i
	}
	return rs
}

// sameKeys reports whether the decoded keys of ms are those of s, in
// order.
func (c *oldCanon) sameKeys(s *oldShape, ms []oldCanonMember) bool {
	start := s.keys
	for k := range ms {
		end := int(c.shapeInts[s.ints+k])
		if !bytes.Equal(c.key(&ms[k]), c.shapeKeys[start:end]) {
			return false
		}
		start = end
	}
	return true
}

// sortMembers returns the members ms in key order (each rank's i).
// Keys are distinct (a Document has no repeated key, and the decoded
// keys compare), so any sort gives the one order; the position breaks
// ties all the same, so it stays deterministic. Most objects are small:
// they take an insertion sort, without a call per comparison.
func (c *oldCanon) sortMembers(ms []oldCanonMember) []oldMemberRank {
	rs := c.rankSlice(len(ms))
	if len(ms) <= 12 {
		for i := range rs {
			rs[i] = oldMemberRank{i: int32(i)}
			for j := i; j > 0 && oldCompareUTF16(c.key(&ms[rs[j].i]), c.key(&ms[rs[j-1].i])) < 0; j-- {
				rs[j], rs[j-1] = rs[j-1], rs[j]
			}
		}
		return rs
	}
	// A large object sorts ranks: eight bytes of each key from where the
	// keys first differ (a catalog's keys share a long "provider/model-"
	// prefix), so that nearly every comparison is of two integers.
	first := c.key(&ms[0])
	common := len(first)
	for k := 1; k < len(ms) && common > 0; k++ {
		common = oldCommonPrefix(first[:common], c.key(&ms[k]))
	}
	for k := range ms {
		rs[k] = oldMemberRank{oldUtf16Rank(c.key(&ms[k])[common:]), int32(k)}
	}
	slices.SortFunc(rs, func(a, b oldMemberRank) int {
		switch {
		case a.rank < b.rank:
			return -1
		case a.rank > b.rank:
			return 1
		}
		if k := oldCompareUTF16(c.key(&ms[a.i]), c.key(&ms[b.i])); k != 0 {
			return k
		}
		return int(a.i - b.i)
	})
	return rs
}

// rankSlice is room for n ranks: rankBuf's while they fit, else ranks
// (grown when it is too short, or was let go by release).
func (c *oldCanon) rankSlice(n int) []oldMemberRank {
	if n <= len(c.rankBuf) {
		return c.rankBuf[:n]
	}
	if cap(c.ranks) < n {
		c.ranks = make([]oldMemberRank, 0, max(n, 2*cap(c.ranks)))
	}
	return c.ranks[:n]
}

// oldMemberRank is a member (its index) and the rank of its key.
type oldMemberRank struct {
	rank uint64
	i    int32
}

// oldCommonPrefix is the length of the longest common prefix of a and b.
func oldCommonPrefix(a, b []byte) int {
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

// oldUtf16Rank is the first eight bytes of the UTF-8 string s (zero-padded),
// big-endian, with the lead bytes of U+E000–U+FFFF (EE, EF) moved above
// those of the characters beyond U+FFFF (F0–F4): ranks then compare as
// the strings' UTF-16 code units do, except where they are equal, which
// decides nothing. Two strings with a common prefix differ first either
// at two lead bytes or at two continuation bytes of the same lead byte,
// and the remapping changes lead bytes only, keeping the order of each
// class.
func oldUtf16Rank(s []byte) uint64 {
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
// returns the index past it. A string without escapes is its own oldCanonical
// form (a Document's strings are valid UTF-8, and JSON has no raw control
// characters), so its bytes are copied as they are.
func (c *oldCanon) string(i int) int {
	end, s, escaped := c.strEscaped(i)
	if escaped {
		c.appended(oldAppendCanonicalString(c.out[:c.n], s))
	} else {
		c.copySrc(i, end)
	}
	return end
}

// writeKey is string for the key of the member m, whose decoded key it
// sets.
func (c *oldCanon) writeKey(i int, m *oldCanonMember) int {
	end, s, escaped := c.strEscaped(i)
	if !escaped {
		c.copySrc(i, end)
		m.key = end - i - 2
		return end
	}
	c.appended(oldAppendCanonicalString(c.out[:c.n], s))
	m.key = ^len(c.decs)
	c.decs = append(c.decs, oldDecodedKey{len(c.keys), len(c.keys) + len(s)})
	c.keys = append(c.keys, s...)
	return end
}

// strEscaped reads the JSON string at src[i] and returns the index past
// it, its decoded value (the raw bytes when nothing needs decoding) and
// whether it holds an escape.
func (c *oldCanon) strEscaped(i int) (int, []byte, bool) {
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
	v, err := json5.Unquote(c.src[i : j+1])
	if err != nil {
		return j + 1, c.src[i+1 : j], true
	}
	return j + 1, []byte(v), true
}

// oldCompareUTF16 orders two UTF-8 strings as their UTF-16 code units compare
// (RFC 8785, section 3.2.3). Up to the first differing character that is
// byte order; there, a character above U+FFFF counts as its high
// surrogate (D800–DBFF), so it sorts before U+E000–U+FFFF.
func oldCompareUTF16(a, b []byte) int {
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
	ua, ub := oldUtf16Lead(ra), oldUtf16Lead(rb)
	if ua != ub {
		return int(ua) - int(ub)
	}
	return int(ra) - int(rb)
}

// oldUtf16Lead is the first UTF-16 code unit of r.
func oldUtf16Lead(r rune) rune {
	if r >= 0x10000 {
		return 0xD800 + (r-0x10000)>>10
	}
	return r
}

// oldAppendCanonicalString writes s as a JSON string with the minimal escapes.
func oldAppendCanonicalString(dst []byte, s []byte) []byte {
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

// oldCanonicalApply is [oldCanonicalDocument] of d.Apply(edits...): the same
// bytes and the same errors, without the edited document in between.
//
// Edits that name members of the root object (every path starts with a
// key, as the stamp of logging.Stamp does) are made on a document of just
// the root members they name, and the canonical writer puts the edited
// members in place of the source's as it goes: the cost is one pass over
// d and one over the edited members, where Apply then oldCanonicalDocument is
// two passes and two document-sized buffers. Any other edit goes the long
// way, as do edits of a root whose members they name are repeated.
func oldCanonicalApply(d Document, edits ...Edit) (Document, error) {
	if len(edits) == 0 {
		return oldCanonicalDocument(d), nil
	}
	if over, ok, err := oldRootOverrides(d, edits); err != nil {
		return Document{}, err
	} else if ok {
		if raw, places, obj, ok := oldCanonicalWith(d, over); ok {
			return newPlacedDocument(raw, places, obj), nil
		}
	}
	out, err := d.Apply(edits...)
	if err != nil {
		return Document{}, err
	}
	return oldCanonicalDocument(out), nil
}

// oldRootOverride is one root member as the edits leave it: its decoded key
// and its value (compact JSON), or gone (nil raw) when an edit deletes it
// or it was never there. seen counts the source's members of that name.
type oldRootOverride struct {
	key  string
	raw  []byte
	seen int
}

// oldRootOverrides makes edits on a document holding only the root members
// of d they name, and returns those members as the edits leave them. ok
// is false when the edits cannot be made that way: the root is not an
// object, or an edit is of the root, starts with an array index or with
// an empty key (which gjson reads by its place in the path) or
// a key that is not plain (see oldJsonPlainKey). An edit's
// outcome depends only on the member it names, so the edits fail on the
// small document exactly when, and as, they fail on d.
func oldRootOverrides(d Document, edits []Edit) ([]oldRootOverride, bool, error) {
	if d.top == nil || !d.Root().IsObject() {
		return nil, false, nil
	}
	var buf [4]oldRootOverride
	over := buf[:0]
	for _, e := range edits {
		if e.Path.IsRoot() {
			return nil, false, nil
		}
		k, _, isIdx := e.Path.Elem(0)
		if isIdx || k == "" || !oldJsonPlainKey(k) {
			return nil, false, nil
		}
		if !oldHasOverride(over, k) {
			over = append(over, oldRootOverride{key: k})
		}
	}
	view := d.view()
	size := 2
	for _, o := range over {
		if m, _ := d.top.member(view, o.key); m.Exists() {
			size += len(o.key) + 4 + len(m.Raw)
		}
	}
	small := make([]byte, 0, size)
	small = append(small, '{')
	for _, o := range over {
		if m, _ := d.top.member(view, o.key); m.Exists() {
			if len(small) > 1 {
				small = append(small, ',')
			}
			small = append(append(append(small, '"'), o.key...), '"', ':')
			small = append(small, m.Raw...)
		}
	}
	edited, err := newDocument(append(small, '}')).Apply(edits...)
	if err != nil {
		return nil, false, err
	}
	// The edited members, read from the small document (whose members
	// are the ones over names, each once).
	raw := edited.bytes()
	out := edited.view()
	jsonwalk.Members(out, 0, func(lit string, escaped bool, at int) int {
		end := jsonwalk.Skip(out, at)
		name := (jsonwalk.JS{}).Decode(lit, escaped)
		for i := range over {
			if over[i].key == name {
				over[i].raw = raw[at:end]
			}
		}
		return end
	})
	return over, true, nil
}

func oldHasOverride(over []oldRootOverride, key string) bool {
	for _, o := range over {
		if o.key == key {
			return true
		}
	}
	return false
}

// oldCanonicalWith is oldCanonicalForm(d, true) with the root members over names
// replaced by their values there (added when d has none, left out when
// gone). ok is false when d names one of them twice.
func oldCanonicalWith(d Document, over []oldRootOverride) ([]byte, rootPlaces, bool, bool) {
	src := d.bytes()
	size := len(src)
	for _, o := range over {
		size += len(o.key) + 4 + len(o.raw)
	}
	c := oldCanon{src: src, wantPlaces: true, mirror: true, over: over}
	c.out = append(make([]byte, 0, size), src...)
	c.out = c.out[:cap(c.out)]
	c.value(0)
	for _, o := range over {
		if o.seen > 1 {
			return nil, rootPlaces{}, false, false
		}
	}
	out := c.out[:c.n:c.n]
	if len(c.out)-c.n > c.n/8 {
		out = append([]byte(nil), out...)
	}
	return out, c.places, c.places.obj, true
}

// override is the override of the root member whose decoded key is
// name, or nil.
func (c *oldCanon) override(name []byte) *oldRootOverride {
	for j := range c.over {
		if c.over[j].key == string(name) {
			return &c.over[j]
		}
	}
	return nil
}

// foreignMember writes the member o names, its value from o.raw, as the
// next member of the object whose members start at mbase on the stack.
func (c *oldCanon) foreignMember(o *oldRootOverride, mbase int) {
	if c.nm > mbase {
		c.put(',')
	}
	m := oldCanonMember{start: c.n, key: len(o.key)}
	c.put('"')
	c.write([]byte(o.key)) // plain (see oldJsonPlainKey)
	c.put('"')
	c.put(':')
	src := c.src
	c.src, c.mirror = o.raw, false
	c.value(0)
	c.src = src
	m.end = c.n
	c.push(m)
}

// oldJsonPlainKey reports whether k is its own JSON spelling between quotes,
// and so its own canonical form: printable ASCII without a quote or a
// backslash. A key an edit creates that is anything else goes the long
// way (the way Apply spells it is the one that is canonicalized).
func oldJsonPlainKey(k string) bool {
	for i := 0; i < len(k); i++ {
		if b := k[i]; b < 0x20 || b >= 0x7f || b == '"' || b == '\\' {
			return false
		}
	}
	return true
}
