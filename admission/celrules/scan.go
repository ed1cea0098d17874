package celrules

import (
	"strconv"
	"strings"

	"github.com/tidwall/gjson"
)

// The document is read by its text, the way gjson reads it, but a member
// is located without reading its value through: a rule that reaches
// agents.defaults.maxConcurrent pays for the members before each step
// and never for the model catalog after it (gjson's Get finds where a
// member's value ends before it returns it, a pass over the whole
// catalog for agents.defaults). Each function takes the text from the
// value it reads on: s[i:] starts with it and may run on past its end.
// The text is the admitted document's, valid JSON; on any other text the
// functions stay in bounds.

// skipSpace is the index of the first byte at or after i that is not
// JSON whitespace.
func skipSpace(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\n' || s[i] == '\r' || s[i] == '\t') {
		i++
	}
	return i
}

// skipValue is the index just after the value that starts at s[i].
func skipValue(s string, i int) int {
	if i >= len(s) {
		return len(s)
	}
	switch s[i] {
	case '"':
		return min(closingQuote(s, i+1)+1, len(s))
	case '{', '[':
		return skipContainer(s, i)
	}
	for i < len(s) && s[i] != ',' && s[i] != '}' && s[i] != ']' && s[i] != ' ' && s[i] != '\n' && s[i] != '\r' && s[i] != '\t' {
		i++
	}
	return i
}

// closingQuote is the index of the quote that closes the string whose
// content starts at s[i] (len(s) when it is not closed).
func closingQuote(s string, i int) int {
	for ; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			return i
		}
	}
	return len(s)
}

// skipContainer is the index just after the object or array that starts
// at s[i].
func skipContainer(s string, i int) int {
	depth := 0
	for ; i < len(s); i++ {
		switch s[i] {
		case '"':
			i = closingQuote(s, i+1)
		case '{', '[':
			depth++
		case '}', ']':
			if depth--; depth == 0 {
				return i + 1
			}
		}
	}
	return len(s)
}

// first is the offset of the first member or element of the object or
// array that starts at s[0], or -1 when it is empty.
func first(s string) int {
	i := skipSpace(s, 1)
	if i >= len(s) || s[i] == '}' || s[i] == ']' {
		return -1
	}
	return i
}

// memberAt reads the member whose quoted key starts at s[i]: the key, and
// the offset of its value. ok is false when no member starts there.
func memberAt(s string, i int) (key string, value int, ok bool) {
	if i < 0 || i >= len(s) || s[i] != '"' {
		return "", 0, false
	}
	end := closingQuote(s, i+1) + 1
	if end > len(s) {
		return "", 0, false
	}
	j := skipSpace(s, end)
	if j >= len(s) || s[j] != ':' {
		return "", 0, false
	}
	if j = skipSpace(s, j+1); j >= len(s) {
		return "", 0, false
	}
	return s[i:end], j, true
}

// after is the offset of the member or element that follows the value at
// s[v] in its object or array, or -1 when the container closes after it.
func after(s string, v int) int {
	i := skipSpace(s, skipValue(s, v))
	if i >= len(s) || s[i] != ',' {
		return -1
	}
	return skipSpace(s, i+1)
}

// eachElement calls fn with each element's text (running on past it) of
// the array that starts at s[0], in order.
func eachElement(s string, fn func(value string)) {
	for i := first(s); i >= 0 && i < len(s); i = after(s, i) {
		fn(s[i:])
	}
}

// keyIs reports whether the quoted key names name.
func keyIs(key, name string) bool {
	if strings.IndexByte(key, '\\') < 0 {
		return len(key) == len(name)+2 && key[1:len(key)-1] == name
	}
	return unquote(key) == name
}

// unquote is the content of a quoted JSON string.
func unquote(q string) string {
	if strings.IndexByte(q, '\\') < 0 {
		if len(q) < 2 {
			return ""
		}
		return q[1 : len(q)-1]
	}
	return gjson.Parse(q).Str
}

// text is the exact text of the value that starts at s[0].
func text(s string) string { return s[:skipValue(s, 0)] }

// number reads a JSON number as a double, as gjson does (out of range is
// an infinity).
func number(raw string) float64 {
	f, _ := strconv.ParseFloat(raw, 64)
	return f
}
