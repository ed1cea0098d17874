package occkit

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"slices"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"

	"github.com/occkit/occkit/internal/json5"
	"github.com/occkit/occkit/internal/jsonwalk"
	"github.com/occkit/occkit/internal/normalized"
)

// Document is an immutable JSON document: a native Configuration, or any
// JSON value derived from one. It holds compact JSON bytes whose object key
// order is the author's; every edit returns a new Document and leaves the
// receiver unchanged, so a Document can be shared between goroutines.
//
// The zero Document is the empty object {}.
type Document struct {
	raw []byte
	src SourceMap // where the bytes were read from, or nil (position.go)
	// top locates the root object's members (see [Document.Get]); shared
	// by the copies of one Document, nil for the zero Document.
	top *topIndex
}

// newDocument is the Document of the compact JSON raw, which is never
// written afterwards.
func newDocument(raw []byte) Document { return Document{raw: raw, top: new(topIndex)} }

// newPlacedDocument is newDocument when the writer of raw knows where the
// root object's members are (places, when known): the index is then built
// from them without reading the document again.
func newPlacedDocument(raw []byte, places rootPlaces, known bool) Document {
	d := newDocument(raw)
	if known {
		d.top.places = places
		d.top.known.Store(true)
	}
	return d
}

// topIndex holds the members of a document's root object, located the
// first time a path is looked up. A lookup then starts at its root member
// instead of walking from the first byte past every member before it (a
// document's large agents section, for every lookup of the gateway, env,
// logging or models). It belongs to one Document (its bytes never
// change), so nothing is shared across documents.
//
// Finding the members is a pass over the whole document. A Document
// made by a writer that knows where it put each root member (the
// transcoder of compile.Load, the splice of [Document.Apply],
// [CanonicalDocument], [CanonicalApply]) is given the places instead, and
// the index is built from them.
type topIndex struct {
	once sync.Once
	// known: places are set, given when the Document is made or found by
	// the first lookup (known only once the index is complete, so that a
	// writer reading them sees them whole).
	known  atomic.Bool
	places rootPlaces
	// byName is the first member of each name of a root of more than
	// scanMembers members. A smaller root's names are compared in turn:
	// no map (a configuration's root has a handful of members, and the
	// index lives as long as its Document).
	byName map[string]int32
}

// scanMembers is the most root members a lookup compares in turn.
const scanMembers = 8

// rootPlaces are where the members of a root are in its document, in
// document order.
type rootPlaces struct {
	obj     bool // the root is an object (else members is empty)
	members []memberPlace
	// unique: no key is named twice (keys decoded as gjson decodes
	// them). A splice matches each member it edits by name, so it can
	// carry only places whose names are unique.
	unique bool
}

// memberPlace is one member of the root object: the opening quote of its
// key, the start of its value and the offset past the value.
type memberPlace struct{ key, value, end int }

// member is the root member named key (the first of that name, as gjson
// reads it); ok is false when the root is not an object, where a path's
// first key may read an array index and the whole path goes to gjson.
func (t *topIndex) member(raw string, key string) (v gjson.Result, ok bool) {
	t.once.Do(func() {
		if t.known.Load() {
			t.byName = t.places.names(raw)
			return
		}
		t.places = findRootPlaces(raw)
		t.byName = t.places.names(raw)
		t.places.unique = t.places.distinct(raw, t.byName)
		t.known.Store(true)
	})
	if !t.places.obj {
		return gjson.Result{}, false
	}
	i := -1
	if t.byName != nil {
		if j, ok := t.byName[key]; ok {
			i = int(j)
		}
	} else {
		for j := range t.places.members {
			if t.places.members[j].name(raw) == key {
				i = j
				break
			}
		}
	}
	if i < 0 {
		return gjson.Result{}, true
	}
	m := t.places.members[i]
	v = gjson.Parse(raw[m.value:m.end])
	v.Index = m.value
	return v, true
}

// carried are the places of the root members of d when they are known
// and can be carried into a document made from d: found or given, with
// unique names.
func (d Document) carried() *rootPlaces {
	if d.top == nil {
		return nil
	}
	if p := &d.top.places; d.top.known.Load() && p.obj && p.unique {
		return p
	}
	return nil
}

// findRootPlaces reads the places of the root members of raw in one pass
// of the byte scanner: each value's end is found once.
func findRootPlaces(raw string) rootPlaces {
	i := 0
	for i < len(raw) && raw[i] <= ' ' {
		i++
	}
	if i == len(raw) || raw[i] != '{' {
		return rootPlaces{}
	}
	// A configuration's root has a few members: they are gathered on the
	// stack and then copied once.
	var buf [24]memberPlace
	ms := buf[:0]
	jsonwalk.Members(raw, i, func(lit string, _ bool, i int) int {
		end := jsonwalk.Skip(raw, i)
		ms = append(ms, memberPlace{key: offsetIn(raw, lit), value: i, end: end})
		return end
	})
	return rootPlaces{obj: true, members: slices.Clone(ms)}
}

// names maps each name of the members of a root of more than
// scanMembers members to the first member of that name; nil for a
// smaller root.
func (p *rootPlaces) names(raw string) map[string]int32 {
	if len(p.members) <= scanMembers {
		return nil
	}
	at := make(map[string]int32, len(p.members))
	for i, m := range p.members {
		if name := m.name(raw); !hasName(at, name) {
			at[name] = int32(i)
		}
	}
	return at
}

// distinct reports whether the members name no key twice; byName is
// names(raw).
func (p *rootPlaces) distinct(raw string, byName map[string]int32) bool {
	if byName != nil {
		return len(byName) == len(p.members)
	}
	for i, m := range p.members {
		name := m.name(raw)
		for _, o := range p.members[:i] {
			if o.name(raw) == name {
				return false
			}
		}
	}
	return true
}

// name is the member's key, decoded as gjson decodes it (a key without
// an escape is a substring of raw: no copy).
func (m memberPlace) name(raw string) string {
	end, escaped := jsonwalk.StringEnd(raw, m.key)
	return (jsonwalk.JS{}).Decode(raw[m.key:end], escaped)
}

// offsetIn is the offset in s of sub, a substring of s.
func offsetIn(s, sub string) int {
	return int(uintptr(unsafe.Pointer(unsafe.StringData(sub))) - uintptr(unsafe.Pointer(unsafe.StringData(s))))
}

// hasName reports whether m has the name k.
func hasName(m map[string]int32, k string) bool {
	_, ok := m[k]
	return ok
}

// ParseDocument wraps valid JSON bytes (copied, compacted) as a Document.
// It applies no limits except the nesting bound of encoding/json (10,000
// levels), past which JSON is refused as invalid: use compile.Load for
// untrusted input. An object that names a key twice is refused (400,
// DOC-2, at the repeated key): gjson reads the first and encoding/json or
// JavaScript the last, so a Document with a duplicate would let occkit and
// the runtime see two different documents. What has no RFC 8785 canonical
// form is refused too (400, DOC-1, at the value): a string or key that is
// not valid UTF-8 or escapes a lone UTF-16 surrogate, and a number beyond
// the range of a double. Replacing those instead would give two different
// documents one digest (see [Canonical]).
func ParseDocument(b []byte) (Document, error) {
	d, err := parseCompact(b)
	if err != nil {
		return Document{}, err
	}
	if at, problem := checkDocument(d.raw); problem != docOK {
		return Document{}, checkError(problem, at)
	}
	return d, nil
}

func init() { normalized.Register(fromNormalized) }

// fromNormalized is the Document of JSON that occkit's own transcoder
// normalized (compile.Load's output, handed over by internal/normalized),
// taken without reading it again: the transcoder refused everything
// [ParseDocument] refuses (invalid JSON or UTF-8, a repeated key, a lone
// surrogate, a number beyond a double, more nesting than its limit, at
// most 10,000 levels) and wrote the rest compact. The zero value is the
// empty object. The transcoder also wrote down where it put the root
// object's members, so the first lookup builds the root index from those
// places instead of a pass over the document (their names are unique: it
// refused a repeated key).
func fromNormalized(n json5.Normalized) Document {
	b := n.Bytes()
	if len(b) == 0 {
		return Document{}
	}
	if b[0] != '{' {
		return newDocument(b)
	}
	ms := n.Members()
	// The index and its places are one allocation when the root has a
	// configuration's handful of members.
	var (
		top    *topIndex
		places []memberPlace
	)
	switch {
	case len(ms) <= 4:
		x := new(struct {
			top topIndex
			fix [4]memberPlace
		})
		top, places = &x.top, x.fix[:len(ms):len(ms)]
	case len(ms) <= 8:
		x := new(struct {
			top topIndex
			fix [8]memberPlace
		})
		top, places = &x.top, x.fix[:len(ms):len(ms)]
	case len(ms) <= 16:
		x := new(struct {
			top topIndex
			fix [16]memberPlace
		})
		top, places = &x.top, x.fix[:len(ms):len(ms)]
	default:
		top, places = new(topIndex), make([]memberPlace, len(ms))
	}
	for i, m := range ms {
		places[i] = memberPlace{key: m.Key, value: m.Value, end: m.End}
	}
	top.places = rootPlaces{obj: true, unique: true, members: places}
	top.known.Store(true)
	return Document{raw: b, top: top}
}

// parseCompact validates b and returns it as compact JSON.
func parseCompact(b []byte) (Document, error) {
	// Input that is already compact (compile.Load's output, a frozen
	// revision) needs only validation. gjson's validator recurses once per
	// level, so it runs only where the bracket count shows the nesting is
	// bounded; anything else goes through encoding/json's compactor, a loop
	// with a depth bound, which would otherwise be the costliest step here.
	if compactShallow(b) {
		if !gjson.ValidBytes(b) {
			return Document{}, Invalid("DOC-1", Root(), "document is not valid JSON")
		}
		return newDocument(bytes.Clone(b)), nil
	}
	var buf bytes.Buffer
	if err := compactJSON(&buf, b); err != nil || !gjson.ValidBytes(buf.Bytes()) {
		return Document{}, Invalid("DOC-1", Root(), "document is not valid JSON")
	}
	return newDocument(buf.Bytes()), nil
}

// maxDepth is encoding/json's nesting bound, which ParseDocument keeps.
const maxDepth = 10_000

// compactShallow reports whether b has no white space outside strings and
// no more than maxDepth levels of brackets outside strings: then b is its
// own compact form and gjson may validate it without deep recursion.
func compactShallow(b []byte) bool {
	depth := 0
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '"':
			for i++; i < len(b) && b[i] != '"'; i++ {
				if b[i] == '\\' {
					i++
				}
			}
		case '{', '[':
			if depth++; depth > maxDepth {
				return false
			}
		case '}', ']':
			depth--
		case ' ', '\t', '\n', '\r':
			return false
		}
	}
	return true
}

// MustParseDocument is ParseDocument for literals in tests and examples; it
// panics on invalid JSON.
func MustParseDocument(s string) Document {
	d, err := ParseDocument([]byte(s))
	if err != nil {
		panic(fmt.Sprintf("occkit: MustParseDocument: %v", err))
	}
	return d
}

func (d Document) bytes() []byte {
	if d.raw == nil {
		return []byte("{}")
	}
	return d.raw
}

// Bytes returns a copy of the document's JSON.
func (d Document) Bytes() []byte { return bytes.Clone(d.bytes()) }

// WriteTo writes the document's JSON to w without copying it first (a
// Document is immutable, so its bytes can be handed out for writing): a
// hash or a file takes the bytes straight from the Document.
func (d Document) WriteTo(w io.Writer) (int64, error) {
	n, err := w.Write(d.bytes())
	return int64(n), err
}

// String returns the document's JSON. It is not a copy: a Document's
// bytes never change, so the string shares them.
func (d Document) String() string { return d.view() }

// Root returns the whole document as a [Value] (not a copy).
func (d Document) Root() Value { return Value{r: gjson.Parse(d.view())} }

// view is the document's bytes as a string without a copy. A Document's
// bytes are never written after construction (every edit builds new
// bytes), so the string is as immutable as Go requires; gjson.ParseBytes
// would copy the whole document on every Root call instead.
func (d Document) view() string {
	b := d.bytes()
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// Get returns the value at p (Exists() is false when absent). The Value
// reads the document's bytes; it is not a copy.
func (d Document) Get(p Path) Value {
	if p.IsRoot() {
		return d.Root()
	}
	view := d.view()
	// A path with an empty key goes to gjson whole: gjson reads an empty
	// path component by its place in the path, so the lookup from the
	// member could differ.
	if first, _, isIdx := p.Elem(0); d.top != nil && !isIdx && !p.hasEmptyKey() {
		if m, ok := d.top.member(view, first); ok {
			if p.Len() > 1 && m.Exists() {
				if m.IsObject() || m.IsArray() {
					m = gjson.Get(m.Raw, p.gjsonFrom(1))
				} else {
					// Nothing is inside a scalar. (gjson.Get of a bare
					// string would read its text as JSON: "[1]" has a 0.)
					m = gjson.Result{}
				}
			}
			if m.Raw != "" {
				// As gjson.Get of the whole path: the offset of the value
				// in the document.
				m.Index = offsetIn(view, m.Raw)
			}
			return Value{r: m}
		}
	}
	return Value{r: gjson.Get(view, p.GJSON())}
}

// Has reports whether a value exists at p.
func (d Document) Has(p Path) bool { return d.Get(p).Exists() }

// Set returns a copy of d with the Go value v (marshalled as JSON) at p,
// creating missing parent objects. Other bytes are kept as they are.
func (d Document) Set(p Path, v any) (Document, error) {
	if p.IsRoot() {
		return Document{}, Invalid("", p, "cannot replace the document root")
	}
	if raw, ok := setJSON(v); ok {
		if out, ok := d.splice(Edit{Path: p}, raw); ok {
			return out, nil
		}
	}
	// sjson never writes into its input: the receiver stays as it is.
	out, err := sjson.SetBytes(d.throughScalars(p).bytes(), p.GJSON(), v)
	if err != nil || !gjson.ValidBytes(out) {
		return Document{}, Invalid("", p, "cannot set %s", p.String())
	}
	return newDocument(out), nil
}

// throughScalars is d made ready for sjson to set p: when a value on the
// way to p is a string, that string is null instead. sjson replaces a
// scalar on the way with the object or array the path needs, but it reads
// a string whose text starts like JSON as that JSON (setting index 0
// through "[1,2]" left it as it was, through "[\u0026" it broke the
// string); with null it builds what it builds for any other scalar.
func (d Document) throughScalars(p Path) Document {
	for k := 1; k < p.Len(); k++ {
		q := Path{elems: p.elems[:k:k], doc: p.doc}
		switch v := d.Get(q); {
		case v.IsObject() || v.IsArray():
			continue
		case v.r.Type == gjson.String:
			if out, err := d.SetRaw(q, []byte("null")); err == nil {
				return out
			}
		}
		return d
	}
	return d
}

// SetRaw is Set with v given as raw JSON, which must be valid.
func (d Document) SetRaw(p Path, raw []byte) (Document, error) {
	if p.IsRoot() {
		return ParseDocument(raw)
	}
	value, err := compactValue(p, raw)
	if err != nil {
		return Document{}, err
	}
	if out, ok := d.splice(Edit{Path: p}, value); ok {
		return out, nil
	}
	out, err := sjson.SetRawBytes(d.throughScalars(p).bytes(), p.GJSON(), value)
	if err != nil || !gjson.ValidBytes(out) {
		return Document{}, Invalid("", p, "cannot set %s", p.String())
	}
	return newDocument(out), nil
}

// Delete returns a copy of d without the value at p; deleting an absent
// value is not an error.
func (d Document) Delete(p Path) (Document, error) {
	if p.IsRoot() {
		return Document{}, Invalid("", p, "cannot delete the document root")
	}
	if out, ok := d.splice(Edit{Path: p, Delete: true}, nil); ok {
		return out, nil
	}
	if !d.Has(p) {
		return d, nil
	}
	out, err := sjson.DeleteBytes(d.bytes(), p.GJSON())
	if err != nil || !gjson.ValidBytes(out) {
		return Document{}, Invalid("", p, "cannot delete %s", p.String())
	}
	return newDocument(out), nil
}

// splice makes the one edit e (with its value raw, already compact and
// checked) in one pass, when it is a plain object member edit.
func (d Document) splice(e Edit, raw []byte) (Document, bool) {
	plan, ok := newSplice([]Edit{e})
	if !ok {
		return Document{}, false
	}
	if !e.Delete {
		plan.setRaw(0, raw)
	}
	return plan.run(d)
}

// Equal reports whether d and e hold the same bytes.
func (d Document) Equal(e Document) bool { return bytes.Equal(d.bytes(), e.bytes()) }

// Digest is the hex SHA-256 of the document's bytes.
func (d Document) Digest() string {
	sum := sha256.Sum256(d.bytes())
	return hex.EncodeToString(sum[:])
}
