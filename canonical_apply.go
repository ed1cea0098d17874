package occkit

import "github.com/occkit/occkit/internal/jsonwalk"

// CanonicalApply is [CanonicalDocument] of d.Apply(edits...): the same
// bytes and the same errors, without the edited document in between.
//
// Edits that name members of the root object (every path starts with a
// key, as the stamp of logging.Stamp does) are made on a document of just
// the root members they name, and the canonical writer puts the edited
// members in place of the source's as it goes: the cost is one pass over
// d and one over the edited members, where Apply then CanonicalDocument is
// two passes and two document-sized buffers. Any other edit goes the long
// way, as do edits of a root whose members they name are repeated.
func CanonicalApply(d Document, edits ...Edit) (Document, error) {
	if len(edits) == 0 {
		return CanonicalDocument(d), nil
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

// rootOverride is one root member as the edits leave it: its decoded key
// and its value (compact JSON), or gone (nil raw) when an edit deletes it
// or it was never there. seen counts the source's members of that name.
type rootOverride struct {
	key  string
	raw  []byte
	seen int
}

// rootOverrides makes edits on a document holding only the root members
// of d they name, and returns those members as the edits leave them. ok
// is false when the edits cannot be made that way: the root is not an
// object, or an edit is of the root, starts with an array index or with
// an empty key (which gjson reads by its place in the path) or
// a key that is not plain (see jsonPlainKey). An edit's
// outcome depends only on the member it names, so the edits fail on the
// small document exactly when, and as, they fail on d.
func rootOverrides(d Document, edits []Edit) ([]rootOverride, bool, error) {
	if d.top == nil || !d.Root().IsObject() {
		return nil, false, nil
	}
	var buf [4]rootOverride
	over := buf[:0]
	for _, e := range edits {
		if e.Path.IsRoot() {
			return nil, false, nil
		}
		k, _, isIdx := e.Path.Elem(0)
		if isIdx || k == "" || !jsonPlainKey(k) {
			return nil, false, nil
		}
		if !hasOverride(over, k) {
			over = append(over, rootOverride{key: k})
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

func hasOverride(over []rootOverride, key string) bool {
	for _, o := range over {
		if o.key == key {
			return true
		}
	}
	return false
}

// canonicalWith is canonical(d, true) with the root members over names
// replaced by their values there (added when d has none, left out when
// gone). ok is false when d names one of them twice.
func canonicalWith(d Document, over []rootOverride) ([]byte, rootPlaces, bool, bool) {
	src := d.bytes()
	size := len(src)
	for _, o := range over {
		size += len(o.key) + 4 + len(o.raw)
	}
	var c canon // not a literal (see canonical)
	c.src, c.wantPlaces, c.mirror, c.over = src, true, true, over
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
func (c *canon) override(name []byte) *rootOverride {
	for j := range c.over {
		if c.over[j].key == string(name) {
			return &c.over[j]
		}
	}
	return nil
}

// foreignMember writes the member o names, its value from o.raw, as the
// next member of the object whose members start at mbase on the stack.
func (c *canon) foreignMember(o *rootOverride, mbase int) {
	if c.nm > mbase {
		c.put(',')
	}
	m := canonMember{start: c.n, key: len(o.key)}
	c.put('"')
	c.write([]byte(o.key)) // plain (see jsonPlainKey)
	c.put('"')
	c.put(':')
	src := c.src
	c.src, c.mirror = o.raw, false
	c.value(0)
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
