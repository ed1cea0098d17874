package occkit

import "github.com/occkit/occkit/internal/jsonwalk"

// CanonicalApply is [CanonicalDocument] of d.Apply(edits...): the same
// bytes and the same errors, without the edited document in between.
//
// Edits that Apply makes in one splice (object members named by plain
// keys, none inside another's, as the stamp of logging.Stamp makes) are
// made by the canonical writer itself as it passes the members they name,
// in one pass over d (see editTree). Other edits of root members are made
// on a document of just the root members they name, and the canonical
// writer puts the edited members in place of the source's as it goes: one
// pass over d and one over the edited members, where Apply then
// CanonicalDocument is two passes and two document-sized buffers. Any
// other edit goes the long way, as do edits of a root whose members they
// name are repeated.
func CanonicalApply(d Document, edits ...Edit) (Document, error) {
	if len(edits) == 0 {
		return CanonicalDocument(d), nil
	}
	if d.top != nil && d.Root().IsObject() {
		// Room for the tree of the stamp's edits (nine nodes, the root's
		// included) and a few more, on the stack.
		var buf [12]editNode
		if tree, ok := editTree(buf[:0], edits); ok {
			// As Apply checks a splice's values: all of them, in order,
			// before anything is written.
			if err := setValues(tree, edits); err != nil {
				return Document{}, err
			}
			if raw, places, obj, ok := canonicalWith(d, tree); ok {
				return newPlacedDocument(raw, places, obj), nil
			}
		}
	}
	if over, ok, err := rootOverrides(d, edits); err != nil {
		return Document{}, err
	} else if ok {
		if raw, places, obj, ok := canonicalWith(d, over); ok {
			return newPlacedDocument(raw, places, obj), nil
		}
	}
	out, err := d.Apply(edits...)
	if err != nil {
		return Document{}, err
	}
	return CanonicalDocument(out), nil
}

// editNode is one object member that edits name, or an object on the way
// to one, in a tree of keys held in one slice: node 0 is the root, and a
// node's children are the nodes whose parent it is. The canonical writer
// makes the edits of the members of an object it writes from the
// children of that object's node (see canon.object).
type editNode struct {
	key    string // decoded, and plain (see plainSpliceKey)
	parent int32
	// leaf: an edit names the member, to delete it (del) or to set it to
	// raw, a compact, checked value. A node that is not a leaf edits the
	// object that is its member's value.
	leaf, del bool
	raw       []byte
	// hasSet: the subtree sets something, so the member is created when
	// it is absent (deleting what is absent changes nothing).
	hasSet bool
	// seen counts the members of this name the writer met in its object.
	seen int32
}

// editTree appends to nodes the tree of the keys of edits, or reports
// that Apply would not make them in one splice (see newSplice, whose
// rules it follows): an edit of the root or through an array index, of a
// key sjson reads as other than a plain object key, or two edits of one
// member or of a member and something inside it. The edits' values are
// not set (see setValues).
func editTree(nodes []editNode, edits []Edit) ([]editNode, bool) {
	nodes = append(nodes, editNode{parent: -1})
	for _, e := range edits {
		if e.Path.IsRoot() {
			return nil, false
		}
		n := int32(0)
		for _, el := range e.Path.elems {
			if el.isIdx || !plainSpliceKey(el.key) || nodes[n].leaf {
				return nil, false
			}
			if !e.Delete {
				nodes[n].hasSet = true
			}
			c := childNode(nodes, n, el.key)
			if c < 0 {
				nodes = append(nodes, editNode{key: el.key, parent: n})
				c = int32(len(nodes) - 1)
			}
			n = c
		}
		if nodes[n].leaf || hasChild(nodes, n) {
			// Named twice, or with an edit inside it.
			return nil, false
		}
		nodes[n].leaf, nodes[n].del, nodes[n].hasSet = true, e.Delete, !e.Delete
	}
	return nodes, true
}

// setValues checks each value edits set, as Apply does (compactValue),
// and gives it to its leaf of tree: the first refused is Apply's error.
func setValues(tree []editNode, edits []Edit) error {
	for _, e := range edits {
		if e.Delete {
			continue
		}
		raw := e.Raw
		if !plainValue(raw) {
			var err error
			if raw, err = compactValue(e.Path, raw); err != nil {
				return err
			}
		}
		tree[leafOf(tree, e.Path)].raw = raw
	}
	return nil
}

// plainValue reports whether raw is a value compactValue takes as it is,
// without reading it further: true, false, null, a plain string (see
// jsonPlainKey), or an object of at most plainMembers members with
// distinct plain keys and such values, nested at most plainDepth deep.
// The stamp's values (its levels, "json", false and the objects holding
// them) are all such, and take no validation of their UTF-8, escapes,
// numbers or keys. Anything else is for compactValue to judge.
func plainValue(raw []byte) bool {
	end, ok := plainValueEnd(raw, 0, 0)
	return ok && end == len(raw)
}

// plainMembers and plainDepth bound the objects plainValue takes: its
// check of repeated keys compares each key with the ones before it.
const (
	plainMembers = 8
	plainDepth   = 4
)

// plainValueEnd is the end of the plain value (see plainValue) at b[i],
// depth objects deep, or not ok.
func plainValueEnd(b []byte, i, depth int) (int, bool) {
	if i >= len(b) {
		return 0, false
	}
	switch b[i] {
	case '"':
		return plainStringEnd(b, i)
	case 't':
		return literalEnd(b, i, "true")
	case 'f':
		return literalEnd(b, i, "false")
	case 'n':
		return literalEnd(b, i, "null")
	case '{':
		if depth == plainDepth {
			return 0, false
		}
	default:
		return 0, false
	}
	i++
	if i < len(b) && b[i] == '}' {
		return i + 1, true
	}
	var keys [plainMembers][]byte
	for n := 0; n < len(keys); n++ {
		end, ok := plainStringEnd(b, i)
		if !ok || end >= len(b) || b[end] != ':' {
			return 0, false
		}
		keys[n] = b[i+1 : end-1]
		for _, k := range keys[:n] {
			if string(k) == string(keys[n]) {
				return 0, false
			}
		}
		if i, ok = plainValueEnd(b, end+1, depth+1); !ok || i >= len(b) {
			return 0, false
		}
		switch b[i] {
		case '}':
			return i + 1, true
		case ',':
			i++
		default:
			return 0, false
		}
	}
	return 0, false
}

// plainStringEnd is the end of the plain string (see jsonPlainKey)
// quoted at b[i], or not ok.
func plainStringEnd(b []byte, i int) (int, bool) {
	if i >= len(b) || b[i] != '"' {
		return 0, false
	}
	for j := i + 1; j < len(b); j++ {
		switch c := b[j]; {
		case c == '"':
			return j + 1, true
		case c < 0x20 || c >= 0x7f || c == '\\':
			return 0, false
		}
	}
	return 0, false
}

// literalEnd is the end of the literal w at b[i], or not ok.
func literalEnd(b []byte, i int, w string) (int, bool) {
	if len(b)-i < len(w) || string(b[i:i+len(w)]) != w {
		return 0, false
	}
	return i + len(w), true
}

// leafOf is the node of tree that the path p of one of its edits names.
func leafOf(tree []editNode, p Path) int32 {
	n := int32(0)
	for _, el := range p.elems {
		n = childNode(tree, n, el.key)
	}
	return n
}

// childNode is the child of node n whose key is name, or -1.
func childNode(nodes []editNode, n int32, name string) int32 {
	for i := range nodes {
		if nodes[i].parent == n && nodes[i].key == name {
			return int32(i)
		}
	}
	return -1
}

func hasChild(nodes []editNode, n int32) bool {
	for i := range nodes {
		if nodes[i].parent == n {
			return true
		}
	}
	return false
}

// rootOverrides makes edits on a document holding only the root members
// of d they name, and returns the tree of those members as the edits
// leave them: each is a leaf of the root, set to its edited value, or
// deleted when an edit deletes it or it was never there. ok is false when
// the edits cannot be made that way: the root is not an object, or an
// edit is of the root, starts with an array index or with an empty key
// (which gjson reads by its place in the path) or a key that is not plain
// (see jsonPlainKey). An edit's outcome depends only on the member it
// names, so the edits fail on the small document exactly when, and as,
// they fail on d. It serves the edits the edit tree does not make: a key
// of digits below a root member (which sjson may read as an index), an
// edit inside a member that is not an object.
func rootOverrides(d Document, edits []Edit) ([]editNode, bool, error) {
	if d.top == nil || !d.Root().IsObject() {
		return nil, false, nil
	}
	over := make([]editNode, 1, 5)
	over[0].parent = -1
	for _, e := range edits {
		if e.Path.IsRoot() {
			return nil, false, nil
		}
		k, _, isIdx := e.Path.Elem(0)
		if isIdx || k == "" || !jsonPlainKey(k) {
			return nil, false, nil
		}
		if childNode(over, 0, k) < 0 {
			over = append(over, editNode{key: k, leaf: true, del: true})
		}
	}
	view := d.view()
	size := 2
	for _, o := range over[1:] {
		if m, _ := d.top.member(view, o.key); m.Exists() {
			size += len(o.key) + 4 + len(m.Raw)
		}
	}
	small := make([]byte, 0, size)
	small = append(small, '{')
	for _, o := range over[1:] {
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
		if k := childNode(over, 0, (jsonwalk.JS{}).Decode(lit, escaped)); k >= 0 {
			over[k].raw, over[k].del, over[k].hasSet = raw[at:end], false, true
		}
		return end
	})
	return over, true, nil
}

// canonicalWith is canonical(d, true) with the edits of tree made (see
// canon.object). ok is false when they cannot be made that way: d names
// a member an edit names twice in one object, or a member that edits
// reach inside is not an object.
func canonicalWith(d Document, tree []editNode) ([]byte, rootPlaces, bool, bool) {
	src := d.bytes()
	size := len(src)
	for _, n := range tree {
		size += len(n.key) + 6 + len(n.raw) // ,"key":{} at most
	}
	var c canon // not a literal (see canonical)
	c.src, c.wantPlaces, c.mirror = src, true, true
	c.out = append(make([]byte, 0, size), src...)
	c.out = c.out[:cap(c.out)]
	c.object(0, tree, 0)
	if c.refused {
		return nil, rootPlaces{}, false, false
	}
	for _, n := range tree {
		if n.seen > 1 {
			return nil, rootPlaces{}, false, false
		}
	}
	out := c.out[:c.n:c.n]
	if len(c.out)-c.n > c.n/8 {
		out = append([]byte(nil), out...)
	}
	return out, c.places, c.places.obj, true
}

// editedChild is the child of the node at of tree whose key is name
// (decoded), or -1.
func editedChild(tree []editNode, at int32, name []byte) int32 {
	for k := range tree {
		if n := &tree[k]; n.parent == at && n.key == string(name) {
			return int32(k)
		}
	}
	return -1
}

// editedMember writes the member that the node k of tree sets or creates
// as the next member of the object whose members start at mbase on the
// stack: its value is the node's (a leaf's) or, as sjson creates the
// objects on the way to an edit, the node's edits made on an empty
// object.
func (c *canon) editedMember(tree []editNode, k int32, mbase int) {
	n := &tree[k]
	if c.nm > mbase {
		c.put(',')
	}
	m := canonMember{start: c.n, key: len(n.key)}
	c.put('"')
	c.write([]byte(n.key)) // plain (see plainSpliceKey and jsonPlainKey)
	c.put('"')
	c.put(':')
	src := c.src
	c.mirror = false // the output no longer lines up with the source
	if n.leaf {
		c.src = n.raw
		c.value(0)
	} else {
		c.src = []byte("{}")
		c.object(0, tree, k)
	}
	c.src = src
	m.end = c.n
	c.push(m)
}

// jsonPlainKey reports whether k is its own JSON spelling between quotes,
// and so its own canonical form: printable ASCII without a quote or a
// backslash. A key an edit creates that is anything else goes the long
// way (the way Apply spells it is the one that is canonicalized).
func jsonPlainKey(k string) bool {
	for i := 0; i < len(k); i++ {
		if b := k[i]; b < 0x20 || b >= 0x7f || b == '"' || b == '\\' {
			return false
		}
	}
	return true
}
