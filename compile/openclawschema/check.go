package openclawschema

import (
	"math"
	"strings"
	"unicode/utf8"

	"github.com/tidwall/gjson"

	"github.com/occkit/occkit/internal/jsonwalk"
)

// valid reports whether r satisfies n: the shared walker
// (internal/jsonwalk) reads r's bytes once, in place, as
// JSON.parse reads them. A missing r reads as null. It allocates only to
// decode a string with an escape or to compare a number or a whole object
// with an enum.
func (n *node) valid(r gjson.Result) bool {
	raw := r.Raw
	if raw == "" {
		raw = "null"
	}
	return jsonwalk.Valid(jsonwalk.JS{}, n.w, raw)
}

// validBarUnknownKeys is valid where a closed object admits keys it does
// not name: what OpenClaw requires of an object before it runs the
// object's refinements (zod goes on past an unknown key).
func (n *node) validBarUnknownKeys(r gjson.Result) bool {
	raw := r.Raw
	if raw == "" {
		raw = "null"
	}
	return jsonwalk.ValidBarUnknownKeys(jsonwalk.JS{}, n.w, raw)
}

// child is the schema a member named name answers to, and whether the
// object admits it at all.
func (n *node) child(name string) (*node, bool) {
	if c, ok := n.props[name]; ok {
		return c, true
	}
	if n.additional != nil && n.additional.never {
		return nil, false
	}
	return n.additional, true
}

// itemSchema is the schema of element i, or nil for any value.
func (n *node) itemSchema(i int) *node {
	if n.tuple != nil {
		if i < len(n.tuple) {
			return n.tuple[i]
		}
		return n.extraItems
	}
	return n.items
}

func (n *node) validString(r gjson.Result) bool { return n.stringOK(r.String()) }

// stringOK reports whether the string s satisfies n's string keywords.
func (n *node) stringOK(s string) bool {
	if n.minLen < 0 && n.maxLen < 0 && n.pattern == nil && !n.uri {
		return true
	}
	if (n.minLen >= 0 || n.maxLen >= 0) && !lengthWithin(s, n.minLen, n.maxLen) {
		return false
	}
	if n.pattern != nil && !n.pattern.match(s) {
		return false
	}
	return !n.uri || validURL(s)
}

func (n *node) validNumber(r gjson.Result) bool { return n.numberOK(r.Raw) }

// numberOK reports whether the number literal raw satisfies n's bounds.
func (n *node) numberOK(raw string) bool {
	if n.minimum == nil && n.maximum == nil && n.exclMin == nil && n.exclMax == nil {
		return true
	}
	f, ok := jsonwalk.Float(raw)
	return ok &&
		(n.minimum == nil || f >= *n.minimum) && (n.maximum == nil || f <= *n.maximum) &&
		(n.exclMin == nil || f > *n.exclMin) && (n.exclMax == nil || f < *n.exclMax)
}

func (n *node) inEnum(r gjson.Result) bool {
	if r.Type == gjson.String {
		s := r.String()
		for _, e := range n.enum {
			if e.isString && e.str == s {
				return true
			}
		}
		return false
	}
	c := canonical(r)
	for _, e := range n.enum {
		if !e.isString && e.text == c {
			return true
		}
	}
	return false
}

// typeOf is the JSON type of r; a whole number is also an integer.
func typeOf(r gjson.Result) uint8 {
	switch r.Type {
	case gjson.Null:
		return jsNull
	case gjson.True, gjson.False:
		return jsBoolean
	case gjson.String:
		return jsString
	case gjson.Number:
		f, ok := jsonwalk.Float(r.Raw)
		if !ok {
			// JSON.parse reads an overflowing literal as Infinity, which
			// OpenClaw's number check refuses.
			return 0
		}
		if f == math.Trunc(f) {
			return jsNumber | jsInteger
		}
		return jsNumber
	}
	if r.Raw[0] == '{' {
		return jsObject
	}
	return jsArray
}

// keyOf is the member name k as JSON.parse reads it.
func keyOf(k gjson.Result) string {
	if strings.IndexByte(k.Raw, '\\') < 0 && len(k.Raw) >= 2 {
		return k.Raw[1 : len(k.Raw)-1]
	}
	return k.String()
}

// has reports whether object r has the member name.
func has(r gjson.Result, name string) bool {
	found := false
	r.ForEach(func(k, _ gjson.Result) bool {
		found = keyOf(k) == name
		return !found
	})
	return found
}

// lengthWithin reports whether the length of s in UTF-16 code units is
// at least min and at most max (-1: no bound). That length is at most
// len(s) (a code unit takes one byte or more) and at least a third of it
// (a character of three bytes is one unit, of four two): bounds a string
// of len(s) bytes meets either way are told without counting, as most
// are (a non-empty id, a name of at most 200).
func lengthWithin(s string, min, max int) bool {
	if n := len(s); (min < 0 || (n+2)/3 >= min) && (max < 0 || n <= max) {
		return true
	}
	l := utf16Len(s)
	return (min < 0 || l >= min) && (max < 0 || l <= max)
}

// utf16Len is the length of s in UTF-16 code units, JavaScript's length.
func utf16Len(s string) int {
	n := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			n++
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		n++
		if r >= 0x10000 {
			n++
		}
	}
	return n
}
