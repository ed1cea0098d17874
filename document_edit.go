package occkit

import (
	"bytes"
	"encoding/json"
	"math"
	"slices"
	"strconv"

	"github.com/tidwall/gjson"

	"github.com/occkit/occkit/internal/json5"
)

// Edit is one change [Document.Apply] makes: the JSON value Raw set at
// Path (as [Document.SetRaw] sets it), or, with Delete, the value at Path
// removed (as [Document.Delete] removes it; Raw is then ignored).
type Edit struct {
	Path   Path
	Raw    []byte
	Delete bool
}

// Apply returns a copy of d with edits made in order: the same bytes and
// the same errors as SetRaw and Delete called one after another, without
// an intermediate document for each. When the edits name distinct object
// members (none inside another's value, no array index on the way), Apply
// reads d once and writes the result once, copying untouched runs of
// bytes as they are; otherwise it makes the edits one after another.
func (d Document) Apply(edits ...Edit) (Document, error) {
	plan, ok := newSplice(edits)
	if ok {
		for i, e := range edits {
			if e.Delete {
				continue
			}
			raw, err := compactValue(e.Path, e.Raw)
			if err != nil {
				return Document{}, err
			}
			plan.setRaw(i, raw)
		}
		if out, ok := plan.run(d); ok {
			return out, nil
		}
	}
	out := d
	for _, e := range edits {
		var err error
		if e.Delete {
			out, err = out.Delete(e.Path)
		} else {
			out, err = out.SetRaw(e.Path, e.Raw)
		}
		if err != nil {
			return Document{}, err
		}
	}
	return out, nil
}

// compactValue is raw compacted and checked as a Document's value at p.
// A value that is compact already (the edits of logging.Stamp, a
// marshalled value) is only validated, as parseCompact validates a
// compact document, and returned as it is: it is read, never written.
func compactValue(p Path, raw []byte) ([]byte, error) {
	value := raw
	if !compactShallow(raw) {
		var buf bytes.Buffer
		if err := compactJSON(&buf, raw); err != nil {
			return nil, invalidValue(p)
		}
		value = buf.Bytes()
	}
	if !gjson.ValidBytes(value) {
		return nil, invalidValue(p)
	}
	if at, problem := checkDocument(value); problem != docOK {
		return nil, checkError(problem, joinPath(p, at))
	}
	return value, nil
}

func invalidValue(p Path) error {
	return Invalid("", p, "value for %s is not valid JSON", p.String())
}

// SetValue is the Edit that sets the Go value v at p, encoded as
// [Document.Set] encodes it, so that several Sets can be one
// [Document.Apply]. A value Set cannot encode (a channel, a NaN) is a 400.
func SetValue(p Path, v any) (Edit, error) {
	raw, ok := setJSON(v)
	if !ok {
		return Edit{}, Invalid("", p, "cannot set %s", p.String())
	}
	return Edit{Path: p, Raw: raw}, nil
}

// setJSON is the JSON sjson.SetBytes writes for v: strings as sjson quotes
// them (escaping only what must be), floating-point numbers in sjson's
// plain decimal form, everything else as encoding/json marshals it.
func setJSON(v any) ([]byte, bool) {
	switch v := v.(type) {
	case string:
		return stringify(v), true
	case []byte:
		return stringify(string(v)), true
	case float32:
		return setFloat(float64(v))
	case float64:
		return setFloat(v)
	}
	b, err := json.Marshal(v)
	return b, err == nil
}

// setFloat writes f as sjson does; not a NaN or an infinity, which sjson
// refuses.
func setFloat(f float64) ([]byte, bool) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return nil, false
	}
	return strconv.AppendFloat(nil, f, 'f', -1, 64), true
}

// stringify quotes s the way sjson does: verbatim between quotes unless it
// holds a control character, a quote, a backslash or a non-ASCII byte.
func stringify(s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < ' ' || c > 0x7f || c == '"' || c == '\\' {
			b, _ := json.Marshal(s)
			return b
		}
	}
	return append(append(append(make([]byte, 0, len(s)+2), '"'), s...), '"')
}

// spliceNode is one object member an edit names, or an object on the way
// to one: the edits form a tree of keys.
type spliceNode struct {
	key      string
	edit     bool // a terminal: set raw, or delete
	del      bool
	raw      []byte
	children []*spliceNode  // in the order the edits first name them
	childBuf [4]*spliceNode // the first children, without an allocation
	// hasSet: the subtree sets something (a missing member is created
	// only then; deleting what is absent changes nothing), first by the
	// edit firstSet: missing members are created in that order.
	hasSet   bool
	firstSet int
}

// splice applies a tree of member edits to compact JSON in one pass.
type splice struct {
	root   spliceNode
	leaves []*spliceNode // by edit index
	extra  int           // bytes the edits may add
	src    []byte
	out    []byte
	// mirror is the capacity out was made with: while it has it, its
	// array past len(out) still holds the source's bytes at the same
	// offsets (out is only appended to).
	mirror  int
	changed bool
	// from are the places of the source's root members when they can be
	// carried to the output (see topIndex), else nil; then runs, hits and
	// made record where the root object's bytes and members go.
	from *rootPlaces
	runs []spliceRun
	hits []spliceLanded // the source's members an edit names, in order
	made []memberPlace  // the members an edit creates, in order
	// The records of a few edits take no allocation of their own.
	runBuf  [6]spliceRun
	hitBuf  [4]spliceLanded
	madeBuf [2]memberPlace
	leafBuf [6]*spliceNode
}

// spliceRun is the run src[from:to] of the root object, written as it is
// at out.
type spliceRun struct{ from, to, out int }

// spliceLanded is the root member whose key is at src in the source: at
// is its place in the output, unless it is deleted (gone).
type spliceLanded struct {
	src  int
	at   memberPlace
	gone bool
}

// newSplice builds the tree, or reports that the edits need the
// one-after-another path: an edit at the root or through an array index,
// two edits of one member or of a member and something inside it, or a key
// sjson would read as other than a plain object key when it creates it.
func newSplice(edits []Edit) (*splice, bool) {
	s := &splice{}
	if s.leaves = s.leafBuf[:]; len(edits) > len(s.leafBuf) {
		s.leaves = make([]*spliceNode, len(edits))
	}
	s.leaves = s.leaves[:len(edits)]
	// The nodes are made at once; the slice never grows, so that a
	// node's address holds. An edit makes at most a node a key of its
	// path past the keys it shares with the edit before (those nodes are
	// made already).
	elems := 0
	for i, e := range edits {
		shared := 0
		if i > 0 {
			prev := edits[i-1].Path.elems
			for shared < len(prev) && shared < len(e.Path.elems) && prev[shared] == e.Path.elems[shared] {
				shared++
			}
		}
		elems += len(e.Path.elems) - shared
	}
	nodes := make([]spliceNode, 0, elems)
	for i, e := range edits {
		if e.Path.IsRoot() {
			return nil, false
		}
		n := &s.root
		for j, el := range e.Path.elems {
			if el.isIdx || !plainSpliceKey(el.key) || n.edit {
				return nil, false
			}
			var c *spliceNode
			for _, k := range n.children {
				if k.key == el.key {
					c = k
					break
				}
			}
			if c == nil {
				if len(nodes) < cap(nodes) {
					nodes = append(nodes, spliceNode{key: el.key})
					c = &nodes[len(nodes)-1]
				} else {
					c = &spliceNode{key: el.key} // not counted: never so
				}
				if n.children == nil {
					n.children = n.childBuf[:0]
				}
				n.children = append(n.children, c)
				s.extra += len(el.key) + 6 // ,"key":{}
			} else if j == len(e.Path.elems)-1 {
				return nil, false // named twice, or inside another edit
			}
			if !e.Delete && !n.hasSet {
				n.hasSet, n.firstSet = true, i
			}
			n = c
		}
		if n.edit || len(n.children) > 0 {
			return nil, false
		}
		n.edit, n.del = true, e.Delete
		n.hasSet, n.firstSet = !e.Delete, i
		s.leaves[i] = n
	}
	return s, true
}

// plainSpliceKey: a key sjson creates as a plain object key, written
// between quotes as it is (so the splice writes what sjson would).
func plainSpliceKey(k string) bool {
	if k == "" {
		return false
	}
	digits := true
	for i := 0; i < len(k); i++ {
		c := k[i]
		if c < ' ' || c > 0x7e || c == '"' || c == '\\' {
			return false
		}
		if c < '0' || c > '9' {
			digits = false
		}
	}
	return !digits && k[0] != '-'
}

func (s *splice) setRaw(i int, raw []byte) {
	s.leaves[i].raw = raw
	s.extra += len(raw)
}

// run applies the edits to d. ok is false when d is not what the edits
// expect (the root or an object on the way is not an object): the caller
// then edits one at a time.
func (s *splice) run(d Document) (Document, bool) {
	src := d.bytes()
	if len(src) == 0 || src[0] != '{' {
		return Document{}, false
	}
	s.src = src
	if s.from = d.carried(); s.from != nil {
		s.runs, s.hits, s.made = s.runBuf[:0], s.hitBuf[:0], s.madeBuf[:0]
	}
	// The output starts as a copy of the source (not zeroed first), in
	// an array whose size class most often leaves room for what the
	// edits add: a run copied to the offset it is read from is there
	// already (see copyRun), and copying the source costs what zeroing
	// the output would. Else it is made with that room, empty.
	if s.out = append([]byte(nil), src...); cap(s.out)-len(src) >= s.extra {
		s.out, s.mirror = s.out[:0], cap(s.out)
	} else {
		s.out, s.mirror = make([]byte, 0, len(src)+s.extra), -1
	}
	if !s.object(&s.root, 0, len(src)-1) {
		return Document{}, false
	}
	if !s.changed {
		if d.top != nil {
			// The same bytes: the same root members.
			return Document{raw: src, top: d.top}, true
		}
		return newDocument(src), true
	}
	places, known := s.places()
	return newPlacedDocument(s.out, places, known), true
}

// places are the places of the output's root members, carried from the
// source's: a member no edit names moved with the run that copied it, one
// an edit names or creates is where it was written. known is false when
// the source's places are unknown.
func (s *splice) places() (_ rootPlaces, known bool) {
	if s.from == nil {
		return rootPlaces{}, false
	}
	p := rootPlaces{obj: true, unique: true, members: make([]memberPlace, 0, len(s.from.members)+len(s.made))}
	// The members, the runs and the hits are all in the source's order.
	r, h := 0, 0
	for _, m := range s.from.members {
		if h < len(s.hits) && s.hits[h].src == m.key {
			if !s.hits[h].gone {
				p.members = append(p.members, s.hits[h].at)
			}
			h++
			continue
		}
		for r < len(s.runs) && s.runs[r].to < m.end {
			r++
		}
		if r == len(s.runs) || s.runs[r].from > m.key {
			return rootPlaces{}, false // not copied whole: the places do not hold
		}
		shift := s.runs[r].out - s.runs[r].from
		p.members = append(p.members, memberPlace{key: m.key + shift, value: m.value + shift, end: m.end + shift})
	}
	if h < len(s.hits) {
		return rootPlaces{}, false
	}
	p.members = append(p.members, s.made...)
	return p, true
}

// copyRun writes src[from:to]; top says it is a run of the root object
// whose place is carried.
func (s *splice) copyRun(top bool, from, to int) {
	if top {
		s.runs = append(s.runs, spliceRun{from: from, to: to, out: len(s.out)})
	}
	if from == len(s.out) && cap(s.out) == s.mirror {
		s.out = s.out[:to] // in place already
		return
	}
	s.out = append(s.out, s.src[from:to]...)
}

// landed records, when top, where the member h names was written: its
// value from v to the end of the output, its key just before.
func (s *splice) landed(top bool, h spliceHit, v int) {
	if top {
		s.hits = append(s.hits, spliceLanded{src: h.start, at: memberPlace{key: v - (h.value - h.start), value: v, end: len(s.out)}})
	}
}

// spliceHit is a member of the object being edited that an edit names.
type spliceHit struct {
	node              *spliceNode
	start, value, end int // of "key", of the value, past the value
}

// object writes the object src[i:end+1] (end is its closing brace) with
// n's edits applied. The bytes before i are already written. The members
// after the last one an edit names are not even scanned.
func (s *splice) object(n *spliceNode, i, end int) bool {
	src := s.src
	if src[i] != '{' {
		return false
	}
	var hitBuf [4]spliceHit
	hits := hitBuf[:0]
	found := 0
	hit := func(start, value, end int) bool {
		c, ok := s.named(n, start, value)
		if c != nil {
			hits = append(hits, spliceHit{node: c, start: start, value: value, end: end})
			found++
		}
		return ok
	}
	top := s.from != nil && n == &s.root
	if top {
		// The root members' places are known: the members before the
		// last one an edit names are not read past value by value.
		for _, m := range s.from.members {
			if found == len(n.children) {
				break
			}
			if !hit(m.key, m.value, m.end) {
				return false
			}
		}
	}
	for j := i + 1; !top && j < end && found < len(n.children); {
		if src[j] == ',' {
			j++
		}
		start := j
		j = skipString(src, j)
		value := j + 1 // past ':'
		j = skipValue(src, value)
		if !hit(start, value, j) {
			return false
		}
	}
	rewrite := false
	for _, c := range n.children {
		if c.edit {
			rewrite = true
		}
	}
	if found < len(n.children) {
		for _, c := range n.children {
			if c.hasSet && !hitFor(hits, c) {
				rewrite = true
			}
		}
	}
	if !rewrite {
		// Only objects inside change: copy around them.
		at := i
		for _, h := range hits {
			s.copyRun(top, at, h.value)
			v := len(s.out)
			if !s.object(h.node, h.value, h.end-1) {
				return false
			}
			s.landed(top, h, v)
			at = h.end
		}
		s.copyRun(top, at, end+1)
		return true
	}
	s.changed = true
	s.out = append(s.out, '{')
	first := true
	member := func(from, to int) {
		if !first {
			s.out = append(s.out, ',')
		}
		first = false
		s.copyRun(top, from, to)
	}
	at := i + 1 // start of the unnamed members not yet written
	for _, h := range hits {
		if from, to := trimCommas(src, at, h.start); from < to {
			member(from, to)
		}
		at = h.end
		c := h.node
		switch {
		case c.edit && c.del:
			if top {
				s.hits = append(s.hits, spliceLanded{src: h.start, gone: true})
			}
		case c.edit:
			member(h.start, h.value)
			v := len(s.out)
			s.out = append(s.out, c.raw...)
			s.landed(top, h, v)
		default:
			member(h.start, h.value)
			v := len(s.out)
			if !s.object(c, h.value, h.end-1) {
				return false
			}
			s.landed(top, h, v)
		}
	}
	if from, to := trimCommas(src, at, end); from < to {
		member(from, to)
	}
	s.createMembers(n, hits, first, top)
	return true
}

// named is the child of n that the key of the member at start names (its
// value at value), or nil; ok is false when the key cannot be read.
func (s *splice) named(n *spliceNode, start, value int) (_ *spliceNode, ok bool) {
	key := s.src[start+1 : value-2]
	if bytes.IndexByte(key, '\\') >= 0 {
		k, err := json5.Unquote(s.src[start : value-1])
		if err != nil {
			return nil, false
		}
		key = []byte(k)
	}
	for _, c := range n.children {
		if c.key == string(key) {
			return c, true
		}
	}
	return nil, true
}

// createMembers writes n's absent children (not in hits) that must be
// created and the closing brace; first says no member is written yet, top
// that n is the root object, whose members' places are carried.
func (s *splice) createMembers(n *spliceNode, hits []spliceHit, first, top bool) {
	var buf [4]*spliceNode
	for _, c := range created(buf[:0], n, hits) {
		if !first {
			s.out = append(s.out, ',')
		}
		first = false
		k := len(s.out)
		s.create(c)
		if top {
			s.made = append(s.made, memberPlace{key: k, value: k + len(c.key) + 3, end: len(s.out)})
		}
	}
	s.out = append(s.out, '}')
}

// created appends to out n's children that are absent (not in hits) and
// must be created, in the order sjson would create them one edit after
// another.
func created(out []*spliceNode, n *spliceNode, hits []spliceHit) []*spliceNode {
	for _, c := range n.children {
		if c.hasSet && !hitFor(hits, c) {
			out = append(out, c)
		}
	}
	slices.SortFunc(out, func(a, b *spliceNode) int { return a.firstSet - b.firstSet })
	return out
}

// create writes the member c names, which is absent, with the objects on
// the way to its edits, as sjson creates them.
func (s *splice) create(c *spliceNode) {
	s.out = append(s.out, '"')
	s.out = append(s.out, c.key...)
	s.out = append(s.out, '"', ':')
	if c.edit {
		s.out = append(s.out, c.raw...)
		return
	}
	s.out = append(s.out, '{')
	s.createMembers(c, nil, true, false)
}

func hitFor(hits []spliceHit, c *spliceNode) bool {
	for _, h := range hits {
		if h.node == c {
			return true
		}
	}
	return false
}

// trimCommas strips the separators around the run of members
// b[from:to].
func trimCommas(b []byte, from, to int) (int, int) {
	if from < to && b[from] == ',' {
		from++
	}
	if from < to && b[to-1] == ',' {
		to--
	}
	return from, to
}

// skipString returns the index past the string that starts at b[i].
func skipString(b []byte, i int) int {
	i++
	for {
		q := bytes.IndexByte(b[i:], '"')
		i += q
		// The quote ends the string unless an odd number of backslashes
		// precede it.
		n := 0
		for k := i - 1; b[k] == '\\'; k-- {
			n++
		}
		if n%2 == 0 {
			return i + 1
		}
		i++
	}
}

// skipValue returns the index past the compact JSON value at b[i].
func skipValue(b []byte, i int) int {
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for {
			switch b[i] {
			case '"':
				i = skipString(b, i)
				continue
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1
				}
			}
			i++
		}
	}
	for i < len(b) && !isDelim(b[i]) {
		i++
	}
	return i
}
