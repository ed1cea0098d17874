package openclawdiff

import (
	"bytes"
	"encoding/json"
	"sort"
)

// Obj is a JSON object that keeps its members in the order they were
// added: the generators write authored key orders (shuffled, not sorted)
// and both sides read the same bytes. A key may repeat only where a
// generator means to write a duplicate key.
type Obj []Member

// Member is one member of an [Obj].
type Member struct {
	K string
	V any
}

// MarshalJSON writes the members in order.
func (o Obj) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, err := json.Marshal(m.K)
		if err != nil {
			return nil, err
		}
		v, err := json.Marshal(m.V)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// Get returns the value of the first member named k.
func (o Obj) Get(k string) (any, bool) {
	for _, m := range o {
		if m.K == k {
			return m.V, true
		}
	}
	return nil, false
}

// Obj returns the member k when it is an object.
func (o Obj) Obj(k string) Obj {
	v, _ := o.Get(k)
	x, _ := v.(Obj)
	return x
}

// Set replaces the value of the first member named k, or appends it.
func (o *Obj) Set(k string, v any) {
	for i := range *o {
		if (*o)[i].K == k {
			(*o)[i].V = v
			return
		}
	}
	*o = append(*o, Member{k, v})
}

// Without returns a copy of o without the members named k.
func (o Obj) Without(k string) Obj {
	out := make(Obj, 0, len(o))
	for _, m := range o {
		if m.K != k {
			out = append(out, m)
		}
	}
	return out
}

// Keys lists the member names in order.
func (o Obj) Keys() []string {
	ks := make([]string, len(o))
	for i, m := range o {
		ks[i] = m.K
	}
	return ks
}

// Clone copies v deeply (objects and arrays; scalars are shared).
func Clone(v any) any {
	switch x := v.(type) {
	case Obj:
		out := make(Obj, len(x))
		for i, m := range x {
			out[i] = Member{m.K, Clone(m.V)}
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = Clone(e)
		}
		return out
	}
	return v
}

// Path is the list of member names from the root to an object (array
// items add nothing).
type Path []string

// Reorder returns a deep copy of v whose objects list their members in
// the order less gives for the object at path (a stable sort: members
// less does not order keep their authored order).
func Reorder(v any, less func(path Path, a, b string) bool) any {
	return reorder(v, nil, less)
}

func reorder(v any, path Path, less func(Path, string, string) bool) any {
	switch x := v.(type) {
	case Obj:
		out := make(Obj, len(x))
		for i, m := range x {
			out[i] = Member{m.K, reorder(m.V, append(path[:len(path):len(path)], m.K), less)}
		}
		sort.SliceStable(out, func(i, j int) bool { return less(path, out[i].K, out[j].K) })
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = reorder(e, path, less)
		}
		return out
	}
	return v
}

// Walk calls fn for every object in v with its path.
func Walk(v any, fn func(path Path, o Obj)) { walk(v, nil, fn) }

func walk(v any, path Path, fn func(Path, Obj)) {
	switch x := v.(type) {
	case Obj:
		fn(path, x)
		for _, m := range x {
			walk(m.V, append(path[:len(path):len(path)], m.K), fn)
		}
	case []any:
		for _, e := range x {
			walk(e, path, fn)
		}
	}
}

// Shuffle permutes o's members in place with r (authored orders are
// neither sorted nor stable across inputs).
func (o Obj) Shuffle(swap func(n int, f func(i, j int))) Obj {
	swap(len(o), func(i, j int) { o[i], o[j] = o[j], o[i] })
	return o
}

// ToObj converts a value decoded from JSON (maps) into Obj values with
// sorted keys; it is for tests and fixtures, never for authored inputs.
func ToObj(v any) any {
	switch x := v.(type) {
	case map[string]any:
		ks := make([]string, 0, len(x))
		for k := range x {
			ks = append(ks, k)
		}
		sort.Strings(ks)
		out := make(Obj, 0, len(x))
		for _, k := range ks {
			out = append(out, Member{k, ToObj(x[k])})
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = ToObj(e)
		}
		return out
	}
	return v
}
