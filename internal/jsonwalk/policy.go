package jsonwalk

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tidwall/gjson"

	"github.com/occkit/occkit/internal/json5"
)

// Exact reads JSON as encoding/json with UseNumber decodes it, which is
// what a JSON Schema validator on decoded values sees: strings decoded by
// encoding/json (invalid UTF-8 and lone surrogates become U+FFFD) and
// numbers as exact decimals (a number is an integer when its value is
// whole). The decimal of a number is the double it denotes, in the RFC
// 8785 form of [CanonicalNumber]: what compile.Load writes, what a
// revision's digest reads and what JavaScript reads. Taking the literal's
// own decimal instead would cost work in proportion to its exponent (a
// ten-byte 1e-1000000 is a fraction with a million-digit denominator) and
// would judge a value the runtime never sees.
type Exact struct{}

// Decode implements [Policy].
func (Exact) Decode(raw string, escaped bool) string { return DecodeExact(raw, escaped) }

// NumberType implements [Policy]. A literal that overflows a double is a
// Number only: a Document never holds one (DOC-1).
func (Exact) NumberType(raw string) uint8 {
	if !strings.ContainsAny(raw, ".eE") {
		return Number | Integer
	}
	c, ok := CanonicalNumber(raw)
	switch {
	case !ok:
		return Number
	case !strings.ContainsAny(c, ".e") || strings.Contains(c, "e+"):
		// RFC 8785 writes a fraction with a point or a negative
		// exponent; from 1e21 up every double is whole.
		return Number | Integer
	}
	return Number
}

// CanonicalNumber returns the RFC 8785 form of the number literal raw
// (surrounding space allowed): the shortest decimal of the double it
// denotes, as ECMAScript writes it. A literal too small to tell from zero
// is "0"; ok is false when raw is not a number or overflows a double. The
// work is linear in len(raw), and the result is at most 25 bytes.
func CanonicalNumber(raw string) (string, bool) {
	out, ok := json5.AppendCanonicalNumber(nil, []byte(strings.TrimSpace(raw)))
	return string(out), ok
}

// DecodeExact unquotes the JSON string literal raw exactly as
// encoding/json does; the common case, plain text, is a substring of raw.
func DecodeExact(raw string, escaped bool) string {
	if len(raw) >= 2 {
		body := raw[1 : len(raw)-1]
		if !escaped && utf8.ValidString(body) {
			return body
		}
	}
	var s string
	if err := json.Unmarshal([]byte(raw), &s); err != nil {
		return ""
	}
	return s
}

// JS reads JSON as JavaScript's JSON.parse does: a string literal without
// an escape is its bytes, an escape decodes as gjson does (a lone
// surrogate reads as U+FFFD), and a number is the nearest float64, not a
// number at all when the literal overflows (JSON.parse reads Infinity).
type JS struct{}

// Decode implements [Policy].
func (JS) Decode(raw string, escaped bool) string {
	if !escaped && len(raw) >= 2 {
		return raw[1 : len(raw)-1]
	}
	return gjson.Parse(raw).String()
}

// NumberType implements [Policy].
func (JS) NumberType(raw string) uint8 {
	if len(raw) <= 300 && !strings.ContainsAny(raw, ".eE") {
		// A whole literal this short is finite and whole as a float64.
		return Number | Integer
	}
	f, ok := Float(raw)
	switch {
	case !ok:
		return 0
	case f == math.Trunc(f):
		return Number | Integer
	}
	return Number
}

// Float reads the number literal raw as JavaScript does: the nearest
// float64, and not finite (false) when the literal overflows; a literal
// too small to represent reads as zero.
func Float(raw string) (float64, bool) {
	if f, ok := shortInt(raw); ok {
		return f, true
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(raw), 64)
	if err != nil && f != 0 {
		return 0, false
	}
	return f, !math.IsInf(f, 0)
}

// shortInt reads a literal of at most 15 digits and no fraction or
// exponent, which a float64 holds exactly.
func shortInt(raw string) (float64, bool) {
	digits := raw
	if len(digits) > 0 && digits[0] == '-' {
		digits = digits[1:]
	}
	if len(digits) == 0 || len(digits) > 15 {
		return 0, false
	}
	var v int64
	for i := 0; i < len(digits); i++ {
		c := digits[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int64(c-'0')
	}
	f := float64(v)
	if len(digits) < len(raw) {
		f = -f
	}
	return f, true
}
