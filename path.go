package occkit

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"
)

// Path is an immutable location inside a JSON document: a sequence of object
// keys and array indexes. The zero value is the document root.
//
// A Path renders in three forms, all produced here and nowhere else:
//
//   - [Path.String]: the dot path used in errors and conformance cases
//     (agents.entries.main.model, fallbacks[0], models["openai/gpt-5"]);
//   - [Path.Pointer]: an RFC 6901 JSON pointer (/agents/entries/main/model);
//   - [Path.GJSON]: an escaped gjson/sjson path, safe for untrusted keys.
//
// A Path also says which document it addresses ([Path.Doc]): the
// Configuration (the zero value, as [NewPath] and [ParsePath] build),
// the Agent ([AgentPath]), the installation's options ([InstallationPath]),
// a render's options ([RenderPath]) or a stored revision record
// ([RevisionPath]). The three forms above do not show it (a conformance
// case or a message names the setting in its own document); [Path.Equal]
// and [Path.Compare] take it into account, and an error's JSON form
// carries it (see [Error.MarshalJSON]), so a user interface knows which
// form holds the field to highlight.
type Path struct {
	// elems is never mutated after construction; every method that extends a
	// path copies it, so a Path can be shared freely.
	elems []elem
	doc   Doc
}

type elem struct {
	key   string
	index int // valid when isIndex
	isIdx bool
}

// Root returns the empty path of the Configuration (the document itself).
func Root() Path { return Path{} }

// NewPath returns the path into the Configuration made of the given
// object keys.
func NewPath(keys ...string) Path { return pathIn(DocConfiguration, keys) }

// AgentPath returns the path into the Agent made of the given object keys:
// its fields executionMode, harnessAuth, configurationId, id, compute.
func AgentPath(keys ...string) Path { return pathIn(DocAgent, keys) }

// InstallationPath returns the path into the installation's options made
// of the given object keys: what the operator configures once for every
// Agent (admission's options such as harnessVersions, a driver's
// declaration and configuration, the SandboxDriver, the Credential
// Gateway).
func InstallationPath(keys ...string) Path { return pathIn(DocInstallation, keys) }

// RenderPath returns the path into a render's options made of the given
// object keys: what a caller passes when it renders or runs an admitted
// revision (a Kubernetes namespace, a driver operation's arguments, a
// process's container, a startup record's fields).
func RenderPath(keys ...string) Path { return pathIn(DocRender, keys) }

// RevisionPath returns the path into a stored revision record made of the
// given object keys (its digest, generation, projection, …).
func RevisionPath(keys ...string) Path { return pathIn(DocRevision, keys) }

func pathIn(d Doc, keys []string) Path {
	p := Path{doc: d}
	if len(keys) > 0 {
		p.elems = make([]elem, len(keys))
		for i, k := range keys {
			p.elems[i] = elem{key: k}
		}
	}
	return p
}

// Doc is the document p addresses.
func (p Path) Doc() Doc { return p.doc }

// In returns p addressing document d: the same elements in another
// document.
func (p Path) In(d Doc) Path {
	p.doc = d
	return p
}

// Key returns p extended by the object key k.
func (p Path) Key(k string) Path { return p.with(elem{key: k}) }

// Index returns p extended by the array index i.
func (p Path) Index(i int) Path { return p.with(elem{index: i, isIdx: true}) }

func (p Path) with(e elem) Path {
	n := make([]elem, len(p.elems), len(p.elems)+1)
	copy(n, p.elems)
	return Path{elems: append(n, e), doc: p.doc}
}

// PathBuilder builds a Path one element at a time in time and memory
// linear in its length ([Path.Key] and [Path.Index] copy the path each
// time, which is quadratic for a path thousands of levels deep). The zero
// value is the Configuration's root; set Doc for another document's.
type PathBuilder struct {
	// Doc is the document the built path addresses.
	Doc   Doc
	elems []elem
}

// Grow makes room for n more elements.
func (b *PathBuilder) Grow(n int) { b.elems = slices.Grow(b.elems, n) }

// Key appends the object key k.
func (b *PathBuilder) Key(k string) { b.elems = append(b.elems, elem{key: k}) }

// Index appends the array index i.
func (b *PathBuilder) Index(i int) { b.elems = append(b.elems, elem{index: i, isIdx: true}) }

// Reset empties b for the next path, which is built in the room b has
// left after the paths it returned (they do not change): Grow once for
// many short paths, Reset before each, and they cost one allocation.
func (b *PathBuilder) Reset() { b.elems = b.elems[len(b.elems):] }

// Path returns the path built so far; later appends do not change it.
func (b *PathBuilder) Path() Path {
	if len(b.elems) == 0 {
		return Path{doc: b.Doc}
	}
	return Path{elems: b.elems[:len(b.elems):len(b.elems)], doc: b.Doc}
}

// Len reports the number of elements of p.
func (p Path) Len() int { return len(p.elems) }

// IsRoot reports whether p is the root of its document.
func (p Path) IsRoot() bool { return len(p.elems) == 0 }

// Elem returns element i: the key, or the index when isIndex is true.
func (p Path) Elem(i int) (key string, index int, isIndex bool) {
	e := p.elems[i]
	return e.key, e.index, e.isIdx
}

// Parent returns p without its last element; the root's parent is the root.
func (p Path) Parent() Path {
	if len(p.elems) == 0 {
		return p
	}
	return Path{elems: p.elems[: len(p.elems)-1 : len(p.elems)-1], doc: p.doc}
}

// Equal reports whether p and q name the same location of the same
// document.
func (p Path) Equal(q Path) bool {
	if p.doc != q.doc || len(p.elems) != len(q.elems) {
		return false
	}
	for i := range p.elems {
		if p.elems[i] != q.elems[i] {
			return false
		}
	}
	return true
}

// Compare orders paths element by element; a prefix sorts first, indexes
// before keys at the same depth; paths with the same elements order by
// document ([Doc] order). It returns -1, 0 or +1.
func (p Path) Compare(q Path) int {
	for i := 0; i < len(p.elems) && i < len(q.elems); i++ {
		a, b := p.elems[i], q.elems[i]
		switch {
		case a.isIdx && !b.isIdx:
			return -1
		case !a.isIdx && b.isIdx:
			return 1
		case a.isIdx:
			if a.index != b.index {
				if a.index < b.index {
					return -1
				}
				return 1
			}
		default:
			if c := strings.Compare(a.key, b.key); c != 0 {
				return c
			}
		}
	}
	switch {
	case len(p.elems) < len(q.elems):
		return -1
	case len(p.elems) > len(q.elems):
		return 1
	case p.doc < q.doc:
		return -1
	case p.doc > q.doc:
		return 1
	}
	return 0
}

// plainKey reports whether k can be written bare in a dot path.
func plainKey(k string) bool {
	if k == "" {
		return false
	}
	for i := 0; i < len(k); i++ {
		c := k[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '$' || c == '@' || c == '*' || c == ':') {
			return false
		}
	}
	return true
}

// String renders p as a dot path: keys joined by ".", indexes as "[i]", and
// keys that are empty or hold anything but letters, digits and "_-$@*:" as
// ["key"] with JSON string quoting. The root renders as "".
func (p Path) String() string {
	var b strings.Builder
	for i, e := range p.elems {
		switch {
		case e.isIdx:
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(e.index))
			b.WriteByte(']')
		case plainKey(e.key):
			if i > 0 {
				b.WriteByte('.')
			}
			b.WriteString(e.key)
		default:
			b.WriteByte('[')
			b.Write(gjson.AppendJSONString(nil, e.key))
			b.WriteByte(']')
		}
	}
	return b.String()
}

// Format prints p for people: %s and %v show the dot path ([Path.String]),
// and the root, whose dot path is empty, as "(root)", so a message never
// reads "at : …". %q quotes the dot path itself ("" for the root), the
// form that compares and parses.
func (p Path) Format(f fmt.State, verb rune) {
	if verb == 'q' {
		fmt.Fprintf(f, "%q", p.String())
		return
	}
	if p.IsRoot() {
		io.WriteString(f, "(root)")
		return
	}
	io.WriteString(f, p.String())
}

// Pointer renders p as an RFC 6901 JSON pointer ("" for the root).
func (p Path) Pointer() string {
	var b strings.Builder
	for _, e := range p.elems {
		b.WriteByte('/')
		if e.isIdx {
			b.WriteString(strconv.Itoa(e.index))
			continue
		}
		b.WriteString(strings.NewReplacer("~", "~0", "/", "~1").Replace(e.key))
	}
	return b.String()
}

// GJSON renders p as a gjson/sjson path with every key escaped, so a key
// taken from a document can never act as a wildcard, modifier or query.
func (p Path) GJSON() string { return p.gjsonFrom(0) }

// hasEmptyKey reports an element that is the empty key.
func (p Path) hasEmptyKey() bool {
	for _, e := range p.elems {
		if !e.isIdx && e.key == "" {
			return true
		}
	}
	return false
}

// gjsonFrom is the gjson path of p's elements from the i-th on.
func (p Path) gjsonFrom(from int) string {
	if from == len(p.elems)-1 && !p.elems[from].isIdx {
		return gjsonKey(p.elems[from].key)
	}
	var b strings.Builder
	for i, e := range p.elems[from:] {
		if i > 0 {
			b.WriteByte('.')
		}
		if e.isIdx {
			b.WriteString(strconv.Itoa(e.index))
			continue
		}
		writeGJSONKey(&b, e.key)
	}
	return b.String()
}

// gjsonKey is the gjson path of the one key k: k itself when it needs no
// escape (no allocation), else its escaped form.
func gjsonKey(k string) string {
	for i := 0; i < len(k); i++ {
		if c := k[i]; c < 0x80 && !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			var b strings.Builder
			writeGJSONKey(&b, k)
			return b.String()
		}
	}
	return k
}

// writeGJSONKey escapes every ASCII byte that is not a letter, digit, '_' or
// '-'. gjson.Escape leaves ':' bare, which sjson reads as its "force key"
// prefix at the start of a component.
func writeGJSONKey(b *strings.Builder, k string) {
	for i := 0; i < len(k); i++ {
		c := k[i]
		if c < 0x80 && !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			b.WriteByte('\\')
		}
		b.WriteByte(c)
	}
}

// ParsePath parses the dot-path form written by [Path.String].
func ParsePath(s string) (Path, error) {
	p := Path{}
	i := 0
	for i < len(s) {
		switch s[i] {
		case '.':
			if i == 0 || i == len(s)-1 {
				return Path{}, fmt.Errorf("occkit: bad path %q: stray '.' at %d", s, i)
			}
			i++
			if s[i] == '.' || s[i] == '[' {
				return Path{}, fmt.Errorf("occkit: bad path %q: empty key at %d", s, i)
			}
		case '[':
			end := -1
			if i+1 < len(s) && s[i+1] == '"' {
				// A quoted key: find the closing quote, honouring escapes.
				j := i + 2
				for j < len(s) && s[j] != '"' {
					if s[j] == '\\' {
						j++
					}
					j++
				}
				if j >= len(s) || j+1 >= len(s) || s[j+1] != ']' {
					return Path{}, fmt.Errorf("occkit: bad path %q: unterminated key at %d", s, i)
				}
				lit := s[i+1 : j+1]
				if !gjson.Valid(lit) {
					return Path{}, fmt.Errorf("occkit: bad path %q: bad quoted key at %d", s, i)
				}
				p = p.Key(gjson.Parse(lit).String())
				i = j + 2
				continue
			}
			end = strings.IndexByte(s[i:], ']')
			if end < 0 {
				return Path{}, fmt.Errorf("occkit: bad path %q: unterminated index at %d", s, i)
			}
			n, err := strconv.Atoi(s[i+1 : i+end])
			if err != nil || n < 0 || strconv.Itoa(n) != s[i+1:i+end] {
				return Path{}, fmt.Errorf("occkit: bad path %q: bad index at %d", s, i)
			}
			p = p.Index(n)
			i += end + 1
			continue
		}
		j := i
		for j < len(s) && s[j] != '.' && s[j] != '[' {
			j++
		}
		if j == i {
			continue
		}
		p = p.Key(s[i:j])
		i = j
	}
	return p, nil
}

// ParsePointer parses an RFC 6901 JSON pointer. Every segment becomes an
// object key except all-digit segments, which become indexes (a pointer alone
// cannot tell "0" the key from 0 the index; rendering is the same either way).
func ParsePointer(s string) (Path, error) {
	if s == "" {
		return Path{}, nil
	}
	if s[0] != '/' {
		return Path{}, fmt.Errorf("occkit: bad JSON pointer %q: must start with '/'", s)
	}
	var b PathBuilder
	b.Grow(strings.Count(s, "/"))
	for _, seg := range strings.Split(s[1:], "/") {
		if isIndexSegment(seg) {
			n, _ := strconv.Atoi(seg)
			b.Index(n)
			continue
		}
		if strings.Contains(strings.ReplaceAll(strings.ReplaceAll(seg, "~0", ""), "~1", ""), "~") {
			return Path{}, fmt.Errorf("occkit: bad JSON pointer %q: bad escape", s)
		}
		if strings.Contains(seg, "~") {
			// A Replacer built per segment costs kilobytes: one for
			// each refusal a validator reports by pointer.
			seg = pointerUnescaper.Replace(seg)
		}
		b.Key(seg)
	}
	return b.Path(), nil
}

var pointerUnescaper = strings.NewReplacer("~1", "/", "~0", "~")

func isIndexSegment(seg string) bool {
	if seg == "" || len(seg) > 9 || (len(seg) > 1 && seg[0] == '0') {
		return false
	}
	for i := 0; i < len(seg); i++ {
		if seg[i] < '0' || seg[i] > '9' {
			return false
		}
	}
	return true
}
