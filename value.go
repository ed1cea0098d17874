package occkit

import (
	"github.com/tidwall/gjson"
)

// Value is one JSON value read from a [Document] by [Document.Get] or
// [Document.Root]: an object, array, string, number, boolean, null, or a
// missing value ([Value.Exists] is false). It is a view, not a copy: it
// reads the Document's own bytes, which never change, so a Value taken
// before an edit keeps its content and may be shared between goroutines.
//
// The zero Value is missing. Conversions follow JSON's types loosely, the
// way a reader of a Configuration does: [Value.String] of a number is its
// text, [Value.Int] of a numeric string is its number, and a conversion
// that does not apply returns the zero value of its result.
type Value struct {
	r gjson.Result
}

// Kind is the JSON type of a [Value].
type Kind uint8

// The kinds of a [Value]. KindMissing is a value that is not there.
const (
	KindMissing Kind = iota
	KindNull
	KindBool
	KindNumber
	KindString
	KindObject
	KindArray
)

var kindNames = [...]string{"missing", "null", "boolean", "number", "string", "object", "array"}

// String names the kind as JSON Schema does ("object", "boolean", ...), or
// "missing".
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "unknown"
}

// Kind is v's JSON type.
func (v Value) Kind() Kind {
	switch v.r.Type {
	case gjson.Null:
		if v.r.Raw == "" {
			return KindMissing
		}
		return KindNull
	case gjson.False, gjson.True:
		return KindBool
	case gjson.Number:
		return KindNumber
	case gjson.String:
		return KindString
	}
	if v.r.IsArray() {
		return KindArray
	}
	return KindObject
}

// Exists reports whether the value is there (null exists).
func (v Value) Exists() bool { return v.r.Exists() }

// IsNull reports whether the value is JSON null.
func (v Value) IsNull() bool { return v.Kind() == KindNull }

// IsObject reports whether the value is a JSON object.
func (v Value) IsObject() bool { return v.r.IsObject() }

// IsArray reports whether the value is a JSON array.
func (v Value) IsArray() bool { return v.r.IsArray() }

// IsBool reports whether the value is true or false.
func (v Value) IsBool() bool { return v.r.IsBool() }

// IsString reports whether the value is a JSON string.
func (v Value) IsString() bool { return v.r.Type == gjson.String }

// IsNumber reports whether the value is a JSON number.
func (v Value) IsNumber() bool { return v.r.Type == gjson.Number }

// String is a string's unescaped content, the text of a number, "true" or
// "false", an object's or array's JSON, and "" for null or a missing value.
func (v Value) String() string { return v.r.String() }

// Int is a number (or numeric string) as an int64, truncated toward zero
// and clamped to the int64 range; true is 1; anything else is 0.
func (v Value) Int() int64 { return v.r.Int() }

// Float is a number (or numeric string) as a float64; true is 1; anything
// else is 0.
func (v Value) Float() float64 { return v.r.Float() }

// Bool is true for true, a non-zero number and a string strconv.ParseBool
// reads as true; anything else is false.
func (v Value) Bool() bool { return v.r.Bool() }

// Raw is the value's JSON text as it stands in the document (not a copy),
// or "" for a missing value.
func (v Value) Raw() string { return v.r.Raw }

// Get returns the value at p below v (missing when v is not a container or
// has nothing at p).
func (v Value) Get(p Path) Value {
	if p.IsRoot() {
		return v
	}
	if !v.r.IsObject() && !v.r.IsArray() {
		return Value{}
	}
	return Value{r: v.r.Get(p.GJSON())}
}

// Key returns the member of an object named name, matched exactly (no
// path syntax), or a missing value.
func (v Value) Key(name string) Value {
	if !v.r.IsObject() {
		return Value{}
	}
	return Value{r: v.r.Get(gjsonKey(name))}
}

// ForEach calls fn for each member of an object (key is a string Value)
// or element of an array (key is missing) in document order, until fn
// returns false. A scalar or missing value has no members.
func (v Value) ForEach(fn func(key, value Value) bool) {
	if !v.r.IsObject() && !v.r.IsArray() {
		return
	}
	if v.r.IsArray() {
		v.r.ForEach(func(_, e gjson.Result) bool { return fn(Value{}, Value{r: e}) })
		return
	}
	v.r.ForEach(func(k, e gjson.Result) bool { return fn(Value{r: k}, Value{r: e}) })
}

// Array is the elements of an array, in order; anything else has none.
func (v Value) Array() []Value {
	if !v.r.IsArray() {
		return nil
	}
	rs := v.r.Array()
	if len(rs) == 0 {
		return nil
	}
	out := make([]Value, len(rs))
	for i, r := range rs {
		out[i] = Value{r: r}
	}
	return out
}
