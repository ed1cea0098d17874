package openclawschema

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tidwall/gjson"
)

// valid reports whether r satisfies n. It reads the document bytes in
// place and allocates only to compare a whole object or array with an
// enum, which the OpenClaw schema never does.
func (n *node) valid(r gjson.Result) bool {
	if n.never {
		return false
	}
	if n.types != 0 && n.types&typeOf(r) == 0 {
		return false
	}
	switch r.Type {
	case gjson.JSON:
		if r.Raw[0] == '{' {
			if n.walkObject && !n.validObject(r) {
				return false
			}
		} else if n.walkArray && !n.validArray(r) {
			return false
		}
	case gjson.String:
		if !n.validString(r) {
			return false
		}
	case gjson.Number:
		if !n.validNumber(r) {
			return false
		}
	}
	if n.enum != nil && !n.inEnum(r) {
		return false
	}
	for _, c := range n.allOf {
		if !c.valid(r) {
			return false
		}
	}
	if n.anyOf != nil {
		ok := false
		for _, c := range n.anyOf {
			if c.valid(r) {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	if n.oneOf != nil {
		matched := 0
		for _, c := range n.oneOf {
			if c.valid(r) {
				matched++
			}
		}
		if matched != 1 {
			return false
		}
	}
	return true
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

func (n *node) validObject(r gjson.Result) bool {
	ok := true
	count := 0
	r.ForEach(func(k, v gjson.Result) bool {
		count++
		name := keyOf(k)
		c, allowed := n.child(name)
		if !allowed || c != nil && !c.valid(v) {
			ok = false
			return false
		}
		if n.keys != nil && !n.keys.valid(k) {
			ok = false
		}
		return ok
	})
	if !ok || n.maxProps >= 0 && count > n.maxProps {
		return false
	}
	for _, name := range n.required {
		if !has(r, name) {
			return false
		}
	}
	return true
}

func (n *node) validArray(r gjson.Result) bool {
	ok := true
	i := 0
	r.ForEach(func(_, v gjson.Result) bool {
		if c := n.itemSchema(i); c != nil && !c.valid(v) {
			ok = false
		}
		i++
		return ok
	})
	return ok && (n.minItems < 0 || i >= n.minItems) && (n.maxItems < 0 || i <= n.maxItems)
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

func (n *node) validString(r gjson.Result) bool {
	if n.minLen < 0 && n.maxLen < 0 && n.pattern == nil && !n.uri {
		return true
	}
	s := r.String()
	if n.minLen >= 0 || n.maxLen >= 0 {
		l := utf16Len(s)
		if n.minLen >= 0 && l < n.minLen || n.maxLen >= 0 && l > n.maxLen {
			return false
		}
	}
	if n.pattern != nil && !n.pattern.match(s) {
		return false
	}
	return !n.uri || validURL(s)
}

func (n *node) validNumber(r gjson.Result) bool {
	if n.minimum == nil && n.maximum == nil && n.exclMin == nil && n.exclMax == nil {
		return true
	}
	f, ok := number(r)
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
		f, ok := number(r)
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

// number reads r as JavaScript does: the nearest float64, and not finite
// when the literal overflows.
func number(r gjson.Result) (float64, bool) {
	f, err := strconv.ParseFloat(strings.TrimSpace(r.Raw), 64)
	if err != nil && !isRangeUnderflow(f) {
		return 0, false
	}
	return f, !math.IsInf(f, 0)
}

// isRangeUnderflow: ParseFloat reports a literal too small to represent
// as a range error with a zero result, which JavaScript reads as zero.
func isRangeUnderflow(f float64) bool { return f == 0 }

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
