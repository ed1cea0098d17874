package jsonwalk

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// Type bits: the JSON type of a value as a schema's "type" names it; a
// number whose value is whole is also an Integer.
const (
	Null uint8 = 1 << iota
	Boolean
	Number
	Integer
	String
	Object
	Array
)

// Node is one compiled schema position. A nil *Node accepts every value
// (and the walker only skips it). Make nodes with [NewNode], build the
// tree, then call [Seal] on its root before the first walk; a sealed tree
// is immutable and safe for concurrent use.
type Node struct {
	// Never is the false schema.
	Never bool
	// Types are the type bits the value must have one of; 0 is any.
	Types uint8

	// Objects. Props holds the schema of every named key (nil: any
	// value); keys it does not name answer to Additional (nil: any value),
	// or are refused when Closed. Required names keys that must be
	// present (at most 64). Keys is the schema every key, as a string,
	// must satisfy (propertyNames); MaxProps bounds the number of members
	// (-1: none), repeated keys counted.
	Props      map[string]*Node
	Additional *Node
	Closed     bool
	Required   []string
	Keys       *Node
	MaxProps   int

	// Arrays: element i answers to Prefix[i], the others to Rest (nil:
	// any value). MinItems and MaxItems bound the length (-1: none).
	Prefix             []*Node
	Rest               *Node
	MinItems, MaxItems int

	// Check holds the checks of the value itself the policy words (string
	// lengths and patterns, number bounds, enums); nil: none.
	Check Check

	AllOf, AnyOf, OneOf []*Node

	members    map[string]member
	table      table // members, found by their key's hash
	reqMask    uint64
	walkObject bool
	walkArray  bool
	// union: the node has allOf, anyOf or oneOf branches; alias: it is
	// allOf one branch and asserts nothing else (a reference), so the
	// branch alone says what it says.
	union  bool
	alias  bool
	sealed bool
}

// NewNode is a node that asserts nothing, its bounds unset.
func NewNode() *Node { return &Node{MaxProps: -1, MinItems: -1, MaxItems: -1} }

// keyed is a member by its key, with the key's first and last eight
// bytes (see heads): a lookup compares those and the key's length, which
// tell a key of up to 16 bytes, before its other bytes. next is 1 + the
// index of the next key in its bucket of a table (0: none).
type keyed struct {
	head, tail uint64
	key        string
	next       uint32
	member
}

// is reports whether k's key is name, whose heads are h and t.
func (k *keyed) is(name string, h, t uint64) bool {
	return k.head == h && k.tail == t && len(k.key) == len(name) &&
		(len(name) <= 16 || k.key[8:len(name)-8] == name[8:len(name)-8])
}

// heads is the first eight bytes of k (the first in the lowest byte,
// zero bytes past its end) and, for a key longer than eight bytes, its
// last eight (else 0). A key shorter than eight bytes is read in two
// overlapping loads of its first and last bytes, the bytes they share
// the same in both.
func heads(k string) (head, tail uint64) {
	switch n := len(k); {
	case n > 8:
		return word(k, 0), word(k, n-8)
	case n == 8:
		return word(k, 0), 0
	case n >= 4:
		return uint64(load32(k, 0)) | uint64(load32(k, n-4))<<(8*(n-4)), 0
	case n >= 2:
		return uint64(k[0]) | uint64(k[1])<<8 | (uint64(k[n-2])|uint64(k[n-1])<<8)<<(8*(n-2)), 0
	case n == 1:
		return uint64(k[0]), 0
	}
	return 0, 0
}

// load32 is the four bytes of s from j, the first in the lowest byte.
func load32(s string, j int) uint32 {
	w := s[j:][:4]
	return uint32(w[0]) | uint32(w[1])<<8 | uint32(w[2])<<16 | uint32(w[3])<<24
}

// member is what an object's key means: its schema, whether the schema
// names it (else it answers to Additional) and its required bit.
type member struct {
	node  *Node
	named bool
	bit   uint64
}

// Check is a check of one value beyond its type and structure, in the
// policy's terms.
type Check interface {
	// Accepts reports whether the value of type bits kind passes. raw is
	// its JSON text; str is the decoded string of a String, as the
	// policy decodes it.
	Accepts(kind uint8, raw, str string) bool
}

// Policy is how a validator reads JSON scalars: how a string literal
// decodes and what type bits a number literal has.
type Policy interface {
	// Decode is the string literal raw (quotes included) decoded;
	// escaped says whether it holds an escape. A literal without an
	// escape whose bytes are all ASCII must decode to the bytes between
	// its quotes: the walker takes those for a short one without asking.
	Decode(raw string, escaped bool) string
	// NumberType is the type bits of the number literal raw: Number,
	// Number|Integer, or 0 for a literal the policy does not read as a
	// number.
	NumberType(raw string) uint8
}

// Seal derives what the walker needs from the tree under n. It fails when
// an object schema requires more than 64 keys.
func Seal(n *Node) error {
	if n == nil || n.sealed {
		return nil
	}
	n.sealed = true
	if len(n.Required) > 64 {
		return fmt.Errorf("a schema requires %d keys, more than 64", len(n.Required))
	}
	if len(n.Props) > 0 || len(n.Required) > 0 {
		n.members = make(map[string]member, len(n.Props)+len(n.Required))
		for k, c := range n.Props {
			n.members[k] = member{node: c, named: true}
		}
		for _, k := range n.Required {
			m, ok := n.members[k]
			if !ok {
				m = member{node: n.Additional}
			}
			if m.bit == 0 {
				m.bit = 1 << bitsSet(n.reqMask)
				n.reqMask |= m.bit
			}
			n.members[k] = m
		}
	}
	if n.members != nil {
		n.table = newTable(n.members)
	}
	n.walkObject = n.Closed || n.Additional != nil || n.reqMask != 0 || n.Keys != nil || n.MaxProps >= 0
	for _, c := range n.Props {
		n.walkObject = n.walkObject || c != nil
	}
	n.walkArray = n.Rest != nil || n.MinItems >= 0 || n.MaxItems >= 0
	for _, c := range n.Prefix {
		n.walkArray = n.walkArray || c != nil
	}
	n.union = len(n.AllOf)+len(n.AnyOf)+len(n.OneOf) > 0
	n.alias = len(n.AllOf) == 1 && len(n.AnyOf)+len(n.OneOf) == 0 &&
		!n.Never && n.Types == 0 && !n.walkObject && !n.walkArray && n.Check == nil
	var subs []*Node
	for _, c := range n.Props {
		subs = append(subs, c)
	}
	subs = append(subs, n.Additional, n.Keys, n.Rest)
	subs = append(subs, n.Prefix...)
	subs = append(subs, n.AllOf...)
	subs = append(subs, n.AnyOf...)
	subs = append(subs, n.OneOf...)
	for _, c := range subs {
		if err := Seal(c); err != nil {
			return err
		}
	}
	return nil
}

func bitsSet(m uint64) int {
	n := 0
	for ; m != 0; m &= m - 1 {
		n++
	}
	return n
}

// Valid reports whether the JSON text s satisfies n, read as p reads
// JSON. It reads s once, in place, and allocates nothing beyond what a
// Check or the Policy allocates; structure nested in s is scanned once
// whatever its depth (only a union reads the value again per branch).
// Text that is not JSON is not valid.
func Valid[P Policy](p P, n *Node, s string) bool { return ValidOutline(p, n, s, nil) }

// ValidOutline is [Valid] that also records, in out (when not nil), the
// members of the objects the walk reads: the outline later lookups of
// values at known paths take instead of scanning the text again. It is
// complete only for the objects it holds; an object the walk skips (its
// schema looks at none of its members) or abandons is not recorded.
func ValidOutline[P Policy](p P, n *Node, s string, out *Outline) bool {
	w := walker[P]{s: s, p: p}
	if !w.outline(out) {
		return false
	}
	i := ws(s, 0)
	end, ok := w.value(n, i, 0)
	return ok && ws(s, end) == len(s)
}

// outline sets w to record in out (nil: nothing), false when out.Omit
// names a path the walk cannot take.
func (w *walker[P]) outline(out *Outline) bool {
	w.out = out
	if out == nil {
		return true
	}
	for _, k := range out.Watch {
		w.watchLens |= lenBit(len(k))
	}
	w.omit = out.Omit
	for _, o := range w.omit {
		if len(o) == 0 || len(o) > maxOmitPath {
			return false
		}
		w.omitDepth = max(w.omitDepth, len(o))
	}
	return true
}

// ValidBarUnknownKeys is [Valid] where a closed object admits keys it
// does not name, whatever their values: zod records an unknown key and
// goes on (the parse is dirty, not aborted), so OpenClaw still runs the
// refinements of an object that holds one.
func ValidBarUnknownKeys[P Policy](p P, n *Node, s string) bool {
	w := walker[P]{s: s, p: p, unknownKeysOK: true}
	i := ws(s, 0)
	end, ok := w.value(n, i, 0)
	return ok && ws(s, end) == len(s)
}

// Outline is the members of the objects a walk read, down to a depth,
// and which of some keys it met at any depth.
type Outline struct {
	// Depth is the deepest level recorded: 0 records the root object's
	// members only.
	Depth int
	// Watch lists keys (at most 64) the walk notes when it meets them as
	// a member of an object it reads.
	Watch []string
	// Omit lists members the walk reads as absent, each by the keys of
	// its path from the root (1 to 8 of them; a path through an array
	// element never matches): the walk's verdict and outline are those of
	// the text without the members, every offset the text's own. An
	// omitted member is not checked, counted, recorded or watched.
	Omit [][]string
	// Unrecorded lists root members whose values the outline neither
	// records nor watches: the walk checks them as any other, but
	// Members reports no object inside them and Met no key met there.
	// A reader that never looks below them (compile/openclawschema's
	// refinements skip channels) spares the outline their objects.
	Unrecorded []string
	// objects are the objects recorded, sorted by offset: object k's
	// members are members[objects[k].lo:objects[k].hi]. The walk records
	// an object when it closes, nested ones before the object holding
	// them, so it inserts in place (a recorded object has at most Depth
	// recorded ancestors to move past).
	objects []span
	members []Member
	// open holds the members of the recorded objects the walk is in,
	// innermost last, until each closes and moves its own to members.
	open []Member
	met  uint64
	// room is where objects, members and open start (see reserve), in the
	// Outline itself: one allocation holds an outline of a configuration's
	// top sections. So an Outline is not copied once a walk has used it.
	room struct {
		members [reserveMembers + reserveOpen]Member
		objects [reserveObjects]span
	}
}

// The objects and members an Outline holds before it grows, and the
// members of the objects open around one: enough for a configuration's
// top sections (compile/openclawschema's outline of the paired
// benchmarks' documents, stamped as admission checks them, holds 20
// members of 9 objects, at most 6 open at once), an Outline of 1,072
// bytes, in the allocator's 1,152-byte size class with its header. A
// validation that allocates one pays for its room as a fixed cost: the
// room before (2 KB) was most of what the validation of a small document
// allocated, and collecting it most of the rest of its time
// (compile/openclawschema's Valid now reuses one: see Reset).
const reserveObjects, reserveMembers, reserveOpen = 12, 24, 8

// Reset empties o of what a walk recorded, so that another walk can use
// it: its settings (Depth, Watch, Omit, Unrecorded) and its room stay,
// not what grew past the room, nor anything of the text the walk read
// (the keys in the room are cleared). A caller that validates often
// keeps an Outline for the next walk instead of allocating one each time.
func (o *Outline) Reset() {
	if o.open != nil {
		clear(o.room.members[:])
	}
	o.objects, o.members, o.open, o.met = nil, nil, nil, 0
}

// span is one recorded object: its offset and where its members sit
// in Outline.members.
type span struct{ at, lo, hi int32 }

// find is the index in o.objects of the object at offset at, or where it
// would go, and whether it is there.
func (o *Outline) find(at int) (int, bool) {
	objects := o.objects
	if at < 0 || at > maxOutlined {
		return len(objects), false // no object recorded is there
	}
	// A search of its own: slices.BinarySearchFunc's call of a comparison
	// per step was a tenth of a small document's walk.
	lo, hi, at32 := 0, len(objects), int32(at)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if objects[m].at < at32 {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo, lo < len(objects) && objects[lo].at == at32
}

// reserve starts objects, members and open in o.room: an outline grows
// past it only for larger configurations.
func (o *Outline) reserve() {
	buf := o.room.members[:]
	o.members, o.open = buf[:0:reserveMembers], buf[reserveMembers:reserveMembers:reserveMembers+reserveOpen]
	o.objects = o.room.objects[:0]
}

// record moves the members of the object at offset at, open[base:], to
// the outline.
func (o *Outline) record(at, base int) {
	lo := len(o.members)
	o.members = append(o.members, o.open[base:]...)
	o.open = o.open[:base]
	// The objects recorded after at are most often only those inside it
	// (they close first), a few: it moves past them from the end, without
	// a search (a union's branch may have recorded more, further on).
	x := span{at: int32(at), lo: int32(lo), hi: int32(len(o.members))}
	o.objects = append(o.objects, x)
	k := len(o.objects) - 1
	for ; k > 0 && o.objects[k-1].at > x.at; k-- {
		o.objects[k] = o.objects[k-1]
	}
	o.objects[k] = x
}

// Met reports whether the walk met the key Watch[i].
func (o *Outline) Met(i int) bool { return o.met&(1<<i) != 0 }

// Member is one member of an object: its key decoded as the walk's
// policy decodes it, and the offsets of its value in the text. The
// offsets are 32 bits, so that an outline of a configuration's sections
// is a quarter smaller (a member is 24 bytes): a walk records nothing of
// a text longer than maxOutlined.
type Member struct {
	Key        string
	Start, End int32
}

// maxOutlined is the longest text a walk records an outline of: its
// offsets fit a Member's. (compile.Load refuses a document over 2 MiB;
// a longer text is walked all the same, its outline left empty.)
const maxOutlined = math.MaxInt32

// Members is the members of the object at offset at (its '{'), in
// document order, repeated keys included, and whether the outline holds
// that object.
func (o *Outline) Members(at int) ([]Member, bool) {
	if o == nil {
		return nil, false
	}
	k, ok := o.find(at)
	if !ok {
		return nil, false
	}
	x := o.objects[k]
	return o.members[x.lo:x.hi:x.hi], true
}

type walker[P Policy] struct {
	s   string
	p   P
	out *Outline
	// unknownKeysOK: a closed object admits keys it does not name
	// (ValidBarUnknownKeys).
	unknownKeysOK bool
	// omit is out.Omit; keys[d] is the key of the member at depth d+1 on
	// the way to the value the walk is at, indexed[d] when that step is
	// an array element instead (kept only above the deepest omitted
	// member).
	omit      [][]string
	omitDepth int // the most keys of a path omit names
	// watchLens has lenBit set of the length of each key out.Watch
	// lists: a key of another length is none of them.
	watchLens uint64
	// hush: the walk is in a root member out.Unrecorded names.
	hush    bool
	keys    [maxOmitPath]string
	indexed [maxOmitPath]bool
}

// lenBit is the bit of watchLens for a key of n bytes (all from 63 on
// share one).
func lenBit(n int) uint64 { return 1 << min(n, 63) }

// maxOmitPath is the most keys of a path [Outline].Omit names.
const maxOmitPath = 8

// omitted reports whether the member name of the object at depth is one
// the walk reads as absent.
func (w *walker[P]) omitted(depth int, name string) bool {
	for _, o := range w.omit {
		if len(o) != depth+1 || o[depth] != name {
			continue
		}
		match := true
		for d := 0; d < depth && match; d++ {
			match = !w.indexed[d] && w.keys[d] == o[d]
		}
		if match {
			return true
		}
	}
	return false
}

// value walks the value at i against n and returns the offset after it;
// the offset means nothing when ok is false.
func (w *walker[P]) value(n *Node, i, depth int) (end int, ok bool) {
	s := w.s
	if n == nil {
		return skip(s, i), i < len(s)
	}
	if n.Never || i >= len(s) {
		return 0, false
	}
	end = -1
	var kind uint8
	var decoded string
	switch s[i] {
	case '{':
		kind = Object
		if n.Types != 0 && n.Types&Object == 0 {
			return 0, false
		}
		if n.walkObject {
			if end, ok = w.object(n, i, depth); !ok {
				return 0, false
			}
		}
	case '[':
		kind = Array
		if n.Types != 0 && n.Types&Array == 0 {
			return 0, false
		}
		if n.walkArray {
			if end, ok = w.array(n, i, depth); !ok {
				return 0, false
			}
		}
	case '"':
		kind = String
		if n.Types != 0 && n.Types&String == 0 {
			return 0, false
		}
		var esc, plain bool
		end, esc, plain = strPlain(s, i)
		if n.Check != nil {
			decoded = w.decode(s[i:end], esc, plain)
		}
	case 't', 'f':
		kind = Boolean
		if n.Types != 0 && n.Types&Boolean == 0 {
			return 0, false
		}
		end = skip(s, i)
	case 'n':
		kind = Null
		if n.Types != 0 && n.Types&Null == 0 {
			return 0, false
		}
		end = skip(s, i)
	default:
		var frac bool
		end, frac = num(s, i)
		if end == i {
			return 0, false
		}
		kind = Number
		if n.Types != 0 {
			if !frac && end-i <= 300 {
				// Whole and finite under either policy.
				kind = Number | Integer
			} else {
				kind = w.p.NumberType(s[i:end])
			}
			if n.Types&kind == 0 {
				return 0, false
			}
		}
	}
	if n.Check != nil {
		if end < 0 {
			end = skip(s, i)
		}
		if !n.Check.Accepts(kind, s[i:end], decoded) {
			return 0, false
		}
	}
	for _, c := range n.AllOf {
		e, ok := w.value(c, i, depth)
		if !ok {
			return 0, false
		}
		end = e
	}
	if len(n.AnyOf) > 0 {
		ok = false
		for _, c := range n.AnyOf {
			if e, branch := w.value(c, i, depth); branch {
				ok, end = true, e
				break
			}
		}
		if !ok {
			return 0, false
		}
	}
	if len(n.OneOf) > 0 {
		matched := 0
		for _, c := range n.OneOf {
			if e, branch := w.value(c, i, depth); branch {
				matched++
				end = e
			}
		}
		if matched != 1 {
			return 0, false
		}
	}
	if end < 0 {
		end = skip(s, i)
	}
	return end, end <= len(s)
}

// container walks the object (object) or the array at i against n.
func (w *walker[P]) container(n *Node, i, depth int, object bool) (int, bool) {
	if object {
		return w.object(n, i, depth)
	}
	return w.array(n, i, depth)
}

// number is the type bits n reads the number literal raw with (Number
// alone when n names no type), 0 when n refuses it; frac: raw has a
// fraction or an exponent. (value reads its own numbers inline, as
// members does its keys: see entry.)
func (w *walker[P]) number(n *Node, raw string, frac bool) uint8 {
	if n.Types == 0 {
		return Number
	}
	kind := Number | Integer // whole and finite under either policy
	if frac || len(raw) > 300 {
		kind = w.p.NumberType(raw)
	}
	if n.Types&kind == 0 {
		return 0
	}
	return kind
}

func (w *walker[P]) object(n *Node, i, depth int) (int, bool) {
	if w.out == nil || depth > w.out.Depth || w.hush {
		return w.members(n, i, depth, false) // opening's answer, without the call
	}
	record, base := w.opening(i, depth)
	end, ok := w.members(n, i, depth, record)
	w.closing(record, i, base, ok)
	return end, ok
}

// opening reports whether the walk records the members of the object at
// i, at depth, and where they start among the outline's open members.
func (w *walker[P]) opening(i, depth int) (record bool, base int) {
	if w.out == nil || depth > w.out.Depth || w.hush || len(w.s) > maxOutlined {
		return false, 0
	}
	if _, done := w.out.find(i); done {
		// A union's other branch read it already.
		return false, 0
	}
	if w.out.open == nil {
		w.out.reserve()
	}
	return true, len(w.out.open)
}

// closing ends the object at i that opening began: the members of an
// object the walk abandons (not ok) are dropped; the objects recorded
// inside it stay (they were read whole).
func (w *walker[P]) closing(record bool, i, base int, ok bool) {
	switch {
	case !record:
	case ok:
		w.out.record(i, base)
	default:
		w.out.open = w.out.open[:base]
	}
}

// members walks the members of the object at i against n, adding them to
// the outline's open members when record.
func (w *walker[P]) members(n *Node, i, depth int, record bool) (int, bool) {
	s := w.s
	var seen uint64
	count := 0
	for i, done := Open(s, i, '{', '}'); ; i, done = Next(s, i, '}') {
		if i < 0 {
			return 0, false
		}
		if done {
			if n.MaxProps >= 0 && count > n.MaxProps || seen != n.reqMask {
				return 0, false
			}
			return i, true
		}
		lit, esc, plain, start := keyPlain(s, i)
		if start < 0 {
			return 0, false
		}
		name := w.decode(lit, esc, plain)
		if depth < w.omitDepth && w.omitted(depth, name) {
			if i = Skip(s, start); i > len(s) {
				return 0, false
			}
			continue
		}
		count++
		if w.watchLens&lenBit(len(name)) != 0 {
			for b, k := range w.out.Watch {
				if name == k {
					w.out.met |= 1 << b
				}
			}
		}
		m, found := n.member(name)
		c := n.Additional
		switch {
		case found && m.named:
			c = m.node
		case n.Closed && w.unknownKeysOK:
			if i = Skip(s, start); i > len(s) {
				return 0, false
			}
			continue
		case n.Closed:
			return 0, false
		}
		seen |= m.bit
		if depth < w.omitDepth-1 {
			w.keys[depth], w.indexed[depth] = name, false
		}
		if n.Keys != nil && !w.key(n.Keys, i, depth+1, lit, name) {
			return 0, false
		}
		lens, hushed := w.hushing(depth, name)
		end, ok := w.value(c, start, depth+1)
		if hushed {
			w.unhush(lens)
		}
		if !ok {
			return 0, false
		}
		if record {
			w.out.open = append(w.out.open, Member{Key: name, Start: int32(start), End: int32(end)})
		}
		i = end
	}
}

// hushing starts the walk of the value of the member name of an object
// at depth hushed (neither recorded nor watched) when it is a root
// member out.Unrecorded names, and then returns the watched key lengths
// that unhush restores after it.
func (w *walker[P]) hushing(depth int, name string) (lens uint64, hushed bool) {
	if depth != 0 || w.out == nil || !slices.Contains(w.out.Unrecorded, name) {
		return 0, false
	}
	lens = w.watchLens
	w.hush, w.watchLens = true, 0
	return lens, true
}

// unhush ends what hushing started.
func (w *walker[P]) unhush(lens uint64) { w.hush, w.watchLens = false, lens }

// The ways a member of an object goes (entry).
const (
	walkMember   = iota // its value is walked
	countMember         // it counts, its value unread: a key a closed object admits unknown (ValidBarUnknownKeys)
	omitMember          // the walk reads it as absent (Outline.Omit)
	refuseMember        // the object is refused
)

// entry is how the member at i of an object n at depth, its key literal
// lit decoding to name, goes: when walked, the schema its value answers
// to and its required bit. m is what n says of the key (memberAt), nil
// when n does not name it. It notes the key when watched, and as the
// step to its value when omissions lie below. (members takes the same
// steps inline: a call per member costs a walk about 3%.)
func (w *walker[P]) entry(n *Node, i, depth int, lit, name string, m *member) (c *Node, bit uint64, way int) {
	if depth < w.omitDepth && w.omitted(depth, name) {
		return nil, 0, omitMember
	}
	if w.watchLens&lenBit(len(name)) != 0 {
		for b, k := range w.out.Watch {
			if name == k {
				w.out.met |= 1 << b
			}
		}
	}
	c = n.Additional
	switch {
	case m != nil && m.named:
		c, bit = m.node, m.bit
	case n.Closed && w.unknownKeysOK:
		return nil, 0, countMember
	case n.Closed:
		return nil, 0, refuseMember
	case m != nil:
		bit = m.bit // required, answering to Additional
	}
	if depth < w.omitDepth-1 {
		w.keys[depth], w.indexed[depth] = name, false
	}
	if n.Keys != nil && !w.key(n.Keys, i, depth+1, lit, name) {
		return nil, 0, refuseMember
	}
	return c, bit, walkMember
}

// key reports whether the member key at i, its literal lit (s[i:], as
// keyPlain read it) decoding to name, satisfies k, the object's
// propertyNames: what value(k, i, depth) says of it, without reading the
// literal again. A union in k is left to value.
func (w *walker[P]) key(k *Node, i, depth int, lit, name string) bool {
	if k.AllOf != nil || k.AnyOf != nil || k.OneOf != nil {
		_, ok := w.value(k, i, depth)
		return ok
	}
	return !k.Never && (k.Types == 0 || k.Types&String != 0) &&
		(k.Check == nil || k.Check.Accepts(String, lit, name))
}

// decode is the string literal raw decoded as the policy decodes it: a
// plain literal (see strPlain) is the bytes between its quotes under
// every policy, without asking it.
func (w *walker[P]) decode(raw string, escaped, plain bool) string {
	if plain {
		return raw[1 : len(raw)-1]
	}
	return w.p.Decode(raw, escaped)
}

// member is what the key name means in n's objects.
func (n *Node) member(name string) (member, bool) {
	if n.members == nil {
		return member{}, false
	}
	return n.table.find(name)
}

// memberAt is member of the key name whose heads are h and tl: a key
// looked up in two nodes (pair.members) takes its heads once.
func (n *Node) memberAt(name string, h, tl uint64) *member {
	if n.members == nil {
		return nil
	}
	return n.table.at(name, h, tl)
}

// table finds a key among a node's members: the keys sit in buckets by a
// hash of their heads and length, cheaper to take than a map's hash of
// the whole key. The hash's multiplier is the first of a few that puts
// each key in a bucket of its own, when one does (else the one whose
// fullest bucket holds the fewest): a lookup then compares one key, where
// a scan of a node's keys compared most of them.
type table struct {
	mult    uint64
	shift   uint8
	slots   []uint32 // 1 + the index in entries of bucket b's first key (0: none)
	entries []keyed
}

// The multipliers newTable tries, and how many.
const tableSeed, tableTries = 0x9e3779b97f4a7c15, 64

func newTable(members map[string]member) table {
	bits := uint8(2)
	for 1<<bits < 4*len(members) {
		bits++
	}
	t := table{shift: 64 - bits, slots: make([]uint32, 1<<bits), entries: make([]keyed, 0, len(members))}
	for k, m := range members {
		h, tl := heads(k)
		t.entries = append(t.entries, keyed{head: h, tail: tl, key: k, member: m})
	}
	// The map's order is random: the keys' sorted order makes the
	// multiplier chosen, and so the table, the same for the same keys.
	slices.SortFunc(t.entries, func(a, b keyed) int { return strings.Compare(a.key, b.key) })
	counts := make([]int, len(t.slots))
	best, fewest := uint64(0), len(t.entries)+1
	for try := range uint64(tableTries) {
		t.mult = tableSeed * (2*try + 1)
		clear(counts)
		most := 0
		for _, e := range t.entries {
			b := t.bucket(len(e.key), e.head, e.tail)
			counts[b]++
			most = max(most, counts[b])
		}
		if most < fewest {
			best, fewest = t.mult, most
		}
		if most <= 1 {
			break
		}
	}
	t.mult = best
	for j := range t.entries {
		e := &t.entries[j]
		b := t.bucket(len(e.key), e.head, e.tail)
		e.next, t.slots[b] = t.slots[b], uint32(j+1)
	}
	return t
}

// bucket is the bucket of a key of n bytes, its heads h and t.
func (t *table) bucket(n int, h, tl uint64) uint32 {
	x := (h ^ tl*0xc2b2ae3d27d4eb4f ^ uint64(n)<<58) * t.mult
	return uint32(x >> t.shift)
}

func (t *table) find(k string) (member, bool) {
	h, tl := heads(k)
	if m := t.at(k, h, tl); m != nil {
		return *m, true
	}
	return member{}, false
}

// at is the member of the key k, its heads h and tl, or nil. A key of
// up to 16 bytes, most of a schema's, is told by its heads and length
// alone: its loop calls nothing, so it keeps its arguments in registers,
// where a loop that may compare strings spills them on every lookup.
func (t *table) at(k string, h, tl uint64) *member {
	if len(k) > 16 {
		return t.atLong(k, h, tl)
	}
	for j := t.slots[t.bucket(len(k), h, tl)]; j != 0; {
		e := &t.entries[j-1]
		if e.head == h && e.tail == tl && len(e.key) == len(k) {
			return &e.member
		}
		j = e.next
	}
	return nil
}

// atLong is at for a key longer than 16 bytes.
func (t *table) atLong(k string, h, tl uint64) *member {
	for j := t.slots[t.bucket(len(k), h, tl)]; j != 0; {
		e := &t.entries[j-1]
		if e.is(k, h, tl) {
			return &e.member
		}
		j = e.next
	}
	return nil
}

func (w *walker[P]) array(n *Node, i, depth int) (int, bool) {
	count := 0
	for i, done := Open(w.s, i, '[', ']'); ; i, done = Next(w.s, i, ']') {
		if i < 0 {
			return 0, false
		}
		if done {
			if n.MinItems >= 0 && count < n.MinItems || n.MaxItems >= 0 && count > n.MaxItems {
				return 0, false
			}
			return i, true
		}
		c := n.Rest
		if count < len(n.Prefix) {
			c = n.Prefix[count]
		}
		count++
		if depth < w.omitDepth-1 {
			w.indexed[depth] = true
		}
		end, ok := w.value(c, i, depth+1)
		if !ok {
			return 0, false
		}
		i = end
	}
}
