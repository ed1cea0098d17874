package celrules

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sync"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
)

// jsonValue is the value that starts at s[0] (s may run on past it) as a
// CEL value. An object or an array stays a view of the admitted
// document's text, read member by member as the expression reaches them,
// so a rule that reads one setting of a large document does not pay for
// the rest; what it has read, it keeps (the members it located and their
// values), so that the rules of an admission, which share the document's
// value, and the iterations of a comprehension that look a member up
// again, read each member once. Numbers are doubles, as CEL reads JSON.
func jsonValue(s string) ref.Val {
	if s == "" {
		return types.NullValue
	}
	switch s[0] {
	case '{':
		return &jsonObject{s: s}
	case '[':
		return &jsonArray{s: s}
	case '"':
		return types.String(unquote(text(s)))
	case 't':
		return types.True
	case 'f':
		return types.False
	case 'n':
		return types.NullValue
	}
	return types.Double(number(text(s)))
}

// native decodes the JSON text of the value at s[0] into Go values.
func native(s string, t reflect.Type) (any, error) {
	var out any
	if err := json.Unmarshal([]byte(text(s)), &out); err != nil {
		return nil, err
	}
	if t == nil || reflect.TypeOf(out).AssignableTo(t) || t.Kind() == reflect.Interface {
		return out, nil
	}
	return nil, fmt.Errorf("a JSON %s does not convert to %v", kind(s), t)
}

// kind names the JSON type of the value at s[0].
func kind(s string) string {
	switch {
	case s == "":
		return "missing"
	case s[0] == '{':
		return "object"
	case s[0] == '[':
		return "array"
	case s[0] == '"':
		return "string"
	case s[0] == 't' || s[0] == 'f':
		return "boolean"
	case s[0] == 'n':
		return "null"
	}
	return "number"
}

// jsonObject is a JSON object, starting at s[0], as a CEL map(string,
// dyn). The first lookup scans its members for the key; the ones after
// it read the members in order as far as they need, keeping each by its
// key, so that looking every key up, as a comprehension over the object
// does, reads the object once more, not once a key. key, when set, finds
// a member's text without reading the members before it (the document's
// root, indexed by the admission View). A member found is kept with its
// value. It is safe for concurrent use.
type jsonObject struct {
	s   string
	key func(string) (string, bool)

	mu      sync.Mutex
	found   map[string]*member // by key, the first of a repeated key
	scanned bool               // a lookup has scanned; the next ones read
	keys    []string           // the keys read, in document order
	next    int                // where the next member to read starts; -1 when all are read
	started bool               // next is set
}

// member is a member's or an element's value: its text, and the value
// once converted.
type member struct {
	text string
	val  ref.Val
}

// value is m's value, converted on first use (under its container's
// lock).
func (m *member) value() ref.Val {
	if m.val == nil {
		m.val = jsonValue(m.text)
	}
	return m.val
}

var _ traits.Mapper = (*jsonObject)(nil)

// keep keeps m as member k, unless one is kept already; o.mu is held.
func (o *jsonObject) keep(k string, m *member) *member {
	if first, ok := o.found[k]; ok {
		return first
	}
	if o.found == nil {
		o.found = map[string]*member{}
	}
	o.found[k] = m
	return m
}

// read reads the next member and returns its key, false when every
// member is read; o.mu is held.
func (o *jsonObject) read() (string, bool) {
	if !o.started {
		o.next, o.started = first(o.s), true
	}
	quoted, v, ok := memberAt(o.s, o.next)
	if !ok {
		o.next = -1
		return "", false
	}
	o.next = after(o.s, v)
	k := unquote(quoted)
	o.keys = append(o.keys, k)
	o.keep(k, &member{text: o.s[v:]})
	return k, true
}

// complete reports whether every member is read; o.mu is held.
func (o *jsonObject) complete() bool { return o.started && o.next < 0 }

// find is the member k.
func (o *jsonObject) find(k string) (ref.Val, bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if m, ok := o.found[k]; ok {
		return m.value(), true
	}
	var text string
	var ok bool
	switch {
	case o.key != nil:
		text, ok = o.key(k)
	case !o.scanned:
		o.scanned = true
		text, ok = o.scan(k)
	default:
		for !o.complete() {
			if read, more := o.read(); more && read == k {
				return o.found[k].value(), true
			}
		}
	}
	if !ok {
		return nil, false
	}
	return o.keep(k, &member{text: text}).value(), true
}

// scan finds the member k by a scan from the first member that keeps
// none.
func (o *jsonObject) scan(k string) (string, bool) {
	for i := first(o.s); i >= 0; {
		quoted, v, ok := memberAt(o.s, i)
		if !ok {
			return "", false
		}
		if keyIs(quoted, k) {
			return o.s[v:], true
		}
		i = after(o.s, v)
	}
	return "", false
}

// eachKey calls fn with each key in document order, without keeping the
// members unless they are all read already.
func (o *jsonObject) eachKey(fn func(string)) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.complete() {
		for _, k := range o.keys {
			fn(k)
		}
		return
	}
	for i := first(o.s); i >= 0; {
		quoted, v, ok := memberAt(o.s, i)
		if !ok {
			return
		}
		fn(unquote(quoted))
		i = after(o.s, v)
	}
}

func (o *jsonObject) ConvertToNative(t reflect.Type) (any, error) { return native(o.s, t) }

func (o *jsonObject) ConvertToType(t ref.Type) ref.Val { return convertTo(o, t) }

// convertTo converts a container v to t: to its own type (itself) or to
// its type's type.
func convertTo(v ref.Val, t ref.Type) ref.Val {
	switch t {
	case v.Type():
		return v
	case types.TypeType:
		return v.Type().(ref.Val)
	}
	return types.NewErr("type conversion error from %s to '%s'", v.Type().TypeName(), t)
}

func (o *jsonObject) Equal(other ref.Val) ref.Val {
	m, ok := other.(traits.Mapper)
	if !ok || o.Size() != m.Size() {
		return types.False
	}
	var keys []string
	o.eachKey(func(k string) { keys = append(keys, k) })
	for _, k := range keys {
		mv, found := m.Find(types.String(k))
		if !found {
			return types.False
		}
		v, _ := o.find(k)
		if eq := v.Equal(mv); eq != types.True {
			return eq
		}
	}
	return types.True
}

func (o *jsonObject) Type() ref.Type { return types.MapType }

func (o *jsonObject) Value() any {
	v, _ := native(o.s, nil)
	return v
}

func (o *jsonObject) Contains(key ref.Val) ref.Val {
	_, found := o.Find(key)
	return types.Bool(found)
}

func (o *jsonObject) Get(key ref.Val) ref.Val {
	v, found := o.Find(key)
	if !found {
		return types.NewErr("no such key: %v", key)
	}
	return v
}

func (o *jsonObject) Find(key ref.Val) (ref.Val, bool) {
	k, ok := key.(types.String)
	if !ok {
		return nil, false
	}
	return o.find(string(k))
}

func (o *jsonObject) Iterator() traits.Iterator {
	var keys []ref.Val
	o.eachKey(func(k string) { keys = append(keys, types.String(k)) })
	return &iterator{items: keys}
}

func (o *jsonObject) Size() ref.Val {
	n := 0
	o.eachKey(func(string) { n++ })
	return types.Int(n)
}

// jsonArray is a JSON array, starting at s[0], as a CEL list(dyn); its
// elements are located once, on first use, and each is converted once.
// It is safe for concurrent use.
type jsonArray struct {
	s string

	mu    sync.Mutex
	elems []member
	read  bool
}

var _ traits.Lister = (*jsonArray)(nil)

// items locates the elements, once; a.mu is held.
func (a *jsonArray) items() []member {
	if !a.read {
		eachElement(a.s, func(e string) { a.elems = append(a.elems, member{text: e}) })
		a.read = true
	}
	return a.elems
}

// values is every element, converted.
func (a *jsonArray) values() []ref.Val {
	a.mu.Lock()
	defer a.mu.Unlock()
	items := a.items()
	out := make([]ref.Val, len(items))
	for i := range items {
		out[i] = items[i].value()
	}
	return out
}

func (a *jsonArray) ConvertToNative(t reflect.Type) (any, error) { return native(a.s, t) }

func (a *jsonArray) ConvertToType(t ref.Type) ref.Val { return convertTo(a, t) }

func (a *jsonArray) Equal(other ref.Val) ref.Val {
	l, ok := other.(traits.Lister)
	if !ok || a.Size() != l.Size() {
		return types.False
	}
	for i, e := range a.values() {
		if eq := e.Equal(l.Get(types.Int(i))); eq != types.True {
			return eq
		}
	}
	return types.True
}

func (a *jsonArray) Type() ref.Type { return types.ListType }

func (a *jsonArray) Value() any {
	v, _ := native(a.s, nil)
	return v
}

func (a *jsonArray) Add(other ref.Val) ref.Val {
	l, ok := other.(traits.Lister)
	if !ok {
		return types.NewErr("no such overload: list + %s", other.Type())
	}
	out := a.values()
	for it := l.Iterator(); it.HasNext() == types.True; {
		out = append(out, it.Next())
	}
	return types.NewRefValList(types.DefaultTypeAdapter, out)
}

func (a *jsonArray) Contains(x ref.Val) ref.Val {
	for _, e := range a.values() {
		if e.Equal(x) == types.True {
			return types.True
		}
	}
	return types.False
}

func (a *jsonArray) Get(index ref.Val) ref.Val {
	i, err := types.IndexOrError(index)
	if err != nil {
		return types.NewErrFromString(err.Error())
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	items := a.items()
	if i < 0 || i >= len(items) {
		return types.NewErr("index out of range: %d", i)
	}
	return items[i].value()
}

func (a *jsonArray) Iterator() traits.Iterator { return &iterator{items: a.values()} }

func (a *jsonArray) Size() ref.Val {
	a.mu.Lock()
	defer a.mu.Unlock()
	return types.Int(len(a.items()))
}

// iterator walks a list of values.
type iterator struct {
	items []ref.Val
	next  int
}

func (it *iterator) HasNext() ref.Val { return types.Bool(it.next < len(it.items)) }

func (it *iterator) Next() ref.Val {
	if it.next >= len(it.items) {
		return types.NewErr("no more elements")
	}
	v := it.items[it.next]
	it.next++
	return v
}

func (it *iterator) ConvertToNative(reflect.Type) (any, error) {
	return nil, fmt.Errorf("an iterator does not convert")
}

func (it *iterator) ConvertToType(ref.Type) ref.Val {
	return types.NewErr("an iterator does not convert")
}

func (it *iterator) Equal(ref.Val) ref.Val { return types.False }

func (it *iterator) Type() ref.Type { return types.IteratorType }

func (it *iterator) Value() any { return nil }
