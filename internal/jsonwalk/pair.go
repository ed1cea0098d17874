package jsonwalk

// ValidBoth reports whether the JSON text s satisfies both a, read as p
// reads JSON, and b, read as q reads it, recording b's walk in out (when
// not nil): Valid(p, a, s) && ValidOutline(q, b, s, out), in one walk of
// s. Where both schemas look at a value it is read once for the two: a
// member's key is scanned once (and decoded once when it is plain), a
// scalar's literal once, each schema then judging it in its own terms.
// Below a union of either schema, or where only one of them looks, the
// walk is that schema's own.
//
// When ValidBoth is true, out holds what ValidOutline(q, b, s, out)
// would leave in it; when false, out holds nothing to read (walk each
// schema alone to tell which refuses). s must be JSON text, as an
// occkit.Document's is: one schema's walk then ends a value where the
// other's skip would, which the one walk relies on. On other text the
// verdict may differ from the two walks' (it is never read out of
// bounds).
func ValidBoth[P, Q Policy](p P, a *Node, q Q, b *Node, s string, out *Outline) bool {
	w := pair[P, Q]{a: walker[P]{s: s, p: p}, b: walker[Q]{s: s, p: q}}
	if !w.b.outline(out) {
		return false
	}
	i := ws(s, 0)
	end, ok := w.value(a, b, i, 0)
	return ok && ws(s, end) == len(s)
}

// pair walks one text against two schemas: a's walk (a) and b's, which
// records and omits as its Outline says (b).
type pair[P, Q Policy] struct {
	a walker[P]
	b walker[Q]
}

// kindAt is the type of the value whose first byte is c: Number for any
// byte that opens no other.
func kindAt(c byte) uint8 {
	switch c {
	case '{':
		return Object
	case '[':
		return Array
	case '"':
		return String
	case 't', 'f':
		return Boolean
	case 'n':
		return Null
	}
	return Number
}

// accepts reports whether n admits a value of type t by its type bits.
func accepts(n *Node, t uint8) bool { return n.Types == 0 || n.Types&t != 0 }

// value walks the value at i against a and b, as w.a.value(a, i, depth)
// and w.b.value(b, i, depth) would, and returns the offset after it.
func (w *pair[P, Q]) value(a, b *Node, i, depth int) (end int, ok bool) {
	switch {
	case a != nil && a.alias:
		return w.value(a.AllOf[0], b, i, depth)
	case b != nil && b.alias:
		return w.value(a, b.AllOf[0], i, depth)
	case a == nil:
		// a skips the value: for JSON text, to where b's walk ends it.
		return w.b.value(b, i, depth)
	case b == nil:
		return w.a.value(a, i, depth)
	case a.union || b.union:
		if _, ok := w.a.value(a, i, depth); !ok {
			return 0, false
		}
		return w.b.value(b, i, depth)
	}
	s := w.a.s
	if a.Never || b.Never || i >= len(s) {
		return 0, false
	}
	end = -1
	kind := kindAt(s[i])
	if kind != Number && (!accepts(a, kind) || !accepts(b, kind)) {
		return 0, false
	}
	kindA, kindB := kind, kind
	var strA, strB string
	switch kind {
	case Object, Array:
		if end, ok = w.container(a, b, i, depth, kind == Object); !ok {
			return 0, false
		}
	case String:
		var esc, plain bool
		end, esc, plain = strPlain(s, i)
		if a.Check != nil {
			strA = w.a.decode(s[i:end], esc, plain)
		}
		if b.Check != nil {
			strB = w.b.decode(s[i:end], esc, plain)
		}
	case Boolean, Null:
		end = skip(s, i)
	default:
		var frac bool
		end, frac = num(s, i)
		if end == i {
			return 0, false
		}
		if kindA, kindB = w.a.number(a, s[i:end], frac), w.b.number(b, s[i:end], frac); kindA == 0 || kindB == 0 {
			return 0, false
		}
	}
	if end < 0 {
		end = skip(s, i)
	}
	if a.Check != nil && !a.Check.Accepts(kindA, s[i:end], strA) ||
		b.Check != nil && !b.Check.Accepts(kindB, s[i:end], strB) {
		return 0, false
	}
	return end, end <= len(s)
}

// container walks the object (or the array) at i against those of a
// and b that look at its members (elements): the offset after it, or -1
// when neither does.
func (w *pair[P, Q]) container(a, b *Node, i, depth int, object bool) (int, bool) {
	inA, inB := a.walkArray, b.walkArray
	if object {
		inA, inB = a.walkObject, b.walkObject
	}
	switch {
	case inA && inB && object:
		return w.object(a, b, i, depth)
	case inA && inB:
		return w.array(a, b, i, depth)
	case inA:
		return w.a.container(a, i, depth, object)
	case inB:
		return w.b.container(b, i, depth, object)
	}
	return -1, true
}

// object walks the object at i against a and b, both of which look at
// its members, recording it as b's walk would.
func (w *pair[P, Q]) object(a, b *Node, i, depth int) (int, bool) {
	record, base := w.b.opening(i, depth)
	end, ok := w.members(a, b, i, depth, record)
	w.b.closing(record, i, base, ok)
	return end, ok
}

// members is walker.members for the two schemas: each key read once,
// each member judged by a's and b's own rules (b's omissions, watched
// keys and outline included), its value walked against both.
func (w *pair[P, Q]) members(a, b *Node, i, depth int, record bool) (int, bool) {
	s, wb := w.a.s, &w.b
	var seenA, seenB uint64
	countA, countB := 0, 0
	for i, done := Open(s, i, '{', '}'); ; i, done = Next(s, i, '}') {
		if i < 0 {
			return 0, false
		}
		if done {
			if a.MaxProps >= 0 && countA > a.MaxProps || seenA != a.reqMask ||
				b.MaxProps >= 0 && countB > b.MaxProps || seenB != b.reqMask {
				return 0, false
			}
			return i, true
		}
		lit, esc, plain, start := keyPlain(s, i)
		if start < 0 {
			return 0, false
		}
		// A plain key is the same name under both policies, and is
		// looked up in both nodes by the same heads.
		var nameA, nameB string
		var hA, tlA, hB, tlB uint64
		if plain {
			nameA = lit[1 : len(lit)-1]
			nameB = nameA
			hA, tlA = heads(nameA)
			hB, tlB = hA, tlA
		} else {
			nameA, nameB = w.a.p.Decode(lit, esc), wb.p.Decode(lit, esc)
			hA, tlA = heads(nameA)
			hB, tlB = heads(nameB)
		}
		// a's walk records, omits and watches nothing and admits no
		// unknown key (walker.entry, inline).
		ca := a.Additional
		switch m := a.memberAt(nameA, hA, tlA); {
		case m != nil && m.named:
			ca = m.node
			seenA |= m.bit
		case a.Closed:
			return 0, false
		case m != nil:
			seenA |= m.bit // required, answering to Additional
		}
		if a.Keys != nil && !w.a.key(a.Keys, i, depth+1, lit, nameA) {
			return 0, false
		}
		countA++
		mb := b.memberAt(nameB, hB, tlB)
		var cb *Node
		var bit uint64
		way := walkMember
		if depth >= wb.omitDepth && wb.watchLens&lenBit(len(nameB)) == 0 && b.Keys == nil {
			// Where no member is omitted (or its key kept for an
			// omission below), the key is not watched and b names no
			// propertyNames, entry's steps come to its switch alone:
			// taken here, without a call per member.
			cb = b.Additional
			switch {
			case mb != nil && mb.named:
				cb, bit = mb.node, mb.bit
			case b.Closed && wb.unknownKeysOK:
				way = countMember
			case b.Closed:
				return 0, false
			case mb != nil:
				bit = mb.bit // required, answering to Additional
			}
		} else {
			cb, bit, way = wb.entry(b, i, depth, lit, nameB, mb)
		}
		switch way {
		case refuseMember:
			return 0, false
		case countMember:
			countB++
			fallthrough
		case omitMember:
			// b reads the member's value as absent; a alone walks it.
			var ok bool
			if i, ok = w.a.value(ca, start, depth+1); !ok {
				return 0, false
			}
			continue
		}
		countB++
		seenB |= bit
		lens, hushed := wb.hushing(depth, nameB)
		end, ok := w.value(ca, cb, start, depth+1)
		if hushed {
			wb.unhush(lens)
		}
		if !ok {
			return 0, false
		}
		if record {
			wb.out.open = append(wb.out.open, Member{Key: nameB, Start: int32(start), End: int32(end)})
		}
		i = end
	}
}

// array walks the array at i against a and b, both of which look at its
// elements.
func (w *pair[P, Q]) array(a, b *Node, i, depth int) (int, bool) {
	s := w.a.s
	count := 0
	for i, done := Open(s, i, '[', ']'); ; i, done = Next(s, i, ']') {
		if i < 0 {
			return 0, false
		}
		if done {
			if a.MinItems >= 0 && count < a.MinItems || a.MaxItems >= 0 && count > a.MaxItems ||
				b.MinItems >= 0 && count < b.MinItems || b.MaxItems >= 0 && count > b.MaxItems {
				return 0, false
			}
			return i, true
		}
		ca, cb := a.Rest, b.Rest
		if count < len(a.Prefix) {
			ca = a.Prefix[count]
		}
		if count < len(b.Prefix) {
			cb = b.Prefix[count]
		}
		count++
		if depth < w.b.omitDepth-1 {
			w.b.indexed[depth] = true
		}
		end, ok := w.value(ca, cb, i, depth+1)
		if !ok {
			return 0, false
		}
		i = end
	}
}
