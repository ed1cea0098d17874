package celrules

import (
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"

	"github.com/occkit/occkit"
)

// jsonValue is v as a CEL value. An object or an array stays a view of
// the admitted document's bytes, read member by member as the expression
// reaches them, so a rule that reads one setting of a large document does
// not pay for the rest. Numbers are doubles, as CEL reads JSON.
func jsonValue(v occkit.Value) ref.Val {
	switch v.Kind() {
	case occkit.KindBool:
		return types.Bool(v.Bool())
	case occkit.KindNumber:
		return types.Double(v.Float())
	case occkit.KindString:
		return types.String(v.String())
	case occkit.KindObject:
		return jsonObject{v: v}
	case occkit.KindArray:
		return &jsonArray{v: v}
	}
	return types.NullValue
}

// native decodes v's JSON text into Go values.
func native(v occkit.Value, t reflect.Type) (any, error) {
	var out any
	if err := json.Unmarshal([]byte(v.Raw()), &out); err != nil {
		return nil, err
	}
	if t == nil || reflect.TypeOf(out).AssignableTo(t) || t.Kind() == reflect.Interface {
		return out, nil
	}
	return nil, fmt.Errorf("a JSON %s does not convert to %v", v.Kind(), t)
}

// jsonObject is a JSON object as a CEL map(string, dyn). key, when set,
// finds a member faster than the Value's own Key (the document's root,
// indexed by the admission View).
type jsonObject struct {
	v   occkit.Value
	key func(string) occkit.Value
}

var _ traits.Mapper = jsonObject{}

func (o jsonObject) ConvertToNative(t reflect.Type) (any, error) { return native(o.v, t) }

func (o jsonObject) ConvertToType(t ref.Type) ref.Val { return convertTo(o, t) }

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

func (o jsonObject) Equal(other ref.Val) ref.Val {
	m, ok := other.(traits.Mapper)
	if !ok || o.Size() != m.Size() {
		return types.False
	}
	eq := ref.Val(types.True)
	o.v.ForEach(func(k, v occkit.Value) bool {
		mv, found := m.Find(types.String(k.String()))
		if !found {
			eq = types.False
			return false
		}
		if e := jsonValue(v).Equal(mv); e != types.True {
			eq = e
			return false
		}
		return true
	})
	return eq
}

func (o jsonObject) Type() ref.Type { return types.MapType }

func (o jsonObject) Value() any {
	v, _ := native(o.v, nil)
	return v
}

func (o jsonObject) Contains(key ref.Val) ref.Val {
	_, found := o.Find(key)
	return types.Bool(found)
}

func (o jsonObject) Get(key ref.Val) ref.Val {
	v, found := o.Find(key)
	if !found {
		return types.NewErr("no such key: %v", key)
	}
	return v
}

func (o jsonObject) Find(key ref.Val) (ref.Val, bool) {
	k, ok := key.(types.String)
	if !ok {
		return nil, false
	}
	var v occkit.Value
	if o.key != nil {
		v = o.key(string(k))
	} else {
		v = o.v.Key(string(k))
	}
	if !v.Exists() {
		return nil, false
	}
	return jsonValue(v), true
}

func (o jsonObject) Iterator() traits.Iterator {
	var keys []ref.Val
	o.v.ForEach(func(k, _ occkit.Value) bool {
		keys = append(keys, types.String(k.String()))
		return true
	})
	return &iterator{items: keys}
}

func (o jsonObject) Size() ref.Val {
	n := 0
	o.v.ForEach(func(_, _ occkit.Value) bool {
		n++
		return true
	})
	return types.Int(n)
}

// jsonArray is a JSON array as a CEL list(dyn); its elements are located
// once, on first use.
type jsonArray struct {
	v     occkit.Value
	elems []occkit.Value
	read  bool
}

var _ traits.Lister = (*jsonArray)(nil)

func (a *jsonArray) items() []occkit.Value {
	if !a.read {
		a.elems, a.read = a.v.Array(), true
	}
	return a.elems
}

func (a *jsonArray) ConvertToNative(t reflect.Type) (any, error) { return native(a.v, t) }

func (a *jsonArray) ConvertToType(t ref.Type) ref.Val { return convertTo(a, t) }

func (a *jsonArray) Equal(other ref.Val) ref.Val {
	l, ok := other.(traits.Lister)
	if !ok || a.Size() != l.Size() {
		return types.False
	}
	for i, e := range a.items() {
		if eq := jsonValue(e).Equal(l.Get(types.Int(i))); eq != types.True {
			return eq
		}
	}
	return types.True
}

func (a *jsonArray) Type() ref.Type { return types.ListType }

func (a *jsonArray) Value() any {
	v, _ := native(a.v, nil)
	return v
}

func (a *jsonArray) Add(other ref.Val) ref.Val {
	l, ok := other.(traits.Lister)
	if !ok {
		return types.NewErr("no such overload: list + %s", other.Type())
	}
	var out []ref.Val
	for _, e := range a.items() {
		out = append(out, jsonValue(e))
	}
	for it := l.Iterator(); it.HasNext() == types.True; {
		out = append(out, it.Next())
	}
	return types.NewRefValList(types.DefaultTypeAdapter, out)
}

func (a *jsonArray) Contains(x ref.Val) ref.Val {
	for _, e := range a.items() {
		if jsonValue(e).Equal(x) == types.True {
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
	items := a.items()
	if i < 0 || i >= len(items) {
		return types.NewErr("index out of range: %d", i)
	}
	return jsonValue(items[i])
}

func (a *jsonArray) Iterator() traits.Iterator {
	items := a.items()
	out := make([]ref.Val, len(items))
	for i, e := range items {
		out[i] = jsonValue(e)
	}
	return &iterator{items: out}
}

func (a *jsonArray) Size() ref.Val { return types.Int(len(a.items())) }

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
