package jsonwalk

import (
	"math/bits"
	"strings"
)

// The scanner reads JSON text in place. Every function takes the text and
// an offset and returns an offset; none allocates. Input that is not JSON
// never makes them read out of bounds: they return len(s) or an offset
// the caller's next check refuses.

// ws skips JSON whitespace from i. Its first test is the common answer
// on an occkit.Document's compact text: no whitespace at all (every byte
// above a space is not whitespace).
func ws(s string, i int) int {
	if i < len(s) && s[i] > ' ' {
		return i
	}
	for i < len(s) {
		switch s[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// Masks of a word of eight bytes read in place (SWAR).
const (
	lowBits  = 0x0101010101010101
	highBits = 0x8080808080808080
)

// matches has the high bit set in the lowest byte of x that is b (and
// maybe in bytes above it, never below): borrows only run upwards.
func matches(x, b uint64) uint64 {
	y := x ^ (lowBits * b)
	return (y - lowBits) &^ y & highBits
}

// word is the eight bytes of s from j, the first in the lowest byte.
func word(s string, j int) uint64 {
	w := s[j:][:8] // its length known, the loads below are checked once
	return uint64(w[0]) | uint64(w[1])<<8 | uint64(w[2])<<16 | uint64(w[3])<<24 |
		uint64(w[4])<<32 | uint64(w[5])<<40 | uint64(w[6])<<48 | uint64(w[7])<<56
}

// Word is the eight bytes of s from j, the first in the lowest byte, and
// Matches has the high bit set in the lowest byte of x that is b (and
// maybe in bytes above it, never below): the scanner's way of reading a
// word at a time, for a walk of its own that looks for bytes as it does.
func Word(s string, j int) uint64 { return word(s, j) }

// Matches: see [Word].
func Matches(x uint64, b byte) uint64 { return matches(x, uint64(b)) }

// Upper has the high bit set in each byte of x whose low seven bits are
// an upper-case ASCII letter, 'A' to 'Z', and in no other: a byte of a
// wider rune (its high bit set) may be among them, so a caller that reads
// ASCII tests the high bits apart. No byte carries into the next.
func Upper(x uint64) uint64 {
	low := x &^ highBits
	return (low + (0x80-'A')*lowBits) &^ (low + (0x7f-'Z')*lowBits) & highBits
}

// plainSpan is how far into a literal strPlain tells plain text from the
// rest: most strings of a configuration are shorter.
const plainSpan = 64

// strPlain scans the string literal at i (s[i] is '"'): the offset after
// its closing quote, whether it holds an escape, and whether it is plain:
// closed, without an escape and all ASCII, so that every policy decodes
// it to the bytes between its quotes. A literal longer than plainSpan is not
// reported plain (its decoding is the policy's). The first bytes are read
// eight at a time; the rest of a longer string is searched with
// IndexByte, which reads many bytes a step: its closing quote is the
// first quote that no odd run of backslashes escapes.
//
// A literal of up to 15 bytes without an escape, most keys and values of a
// configuration, is read here in one or two words; any other goes on to
// strScan. Which of a word's quote and backslash comes first needs no
// byte read again: the lowest bit matches sets is exact (see matches), so
// the lowest of the two masks' bits is a quote's when the quote mask
// holds it.
func strPlain(s string, i int) (end int, escaped, plain bool) {
	if i < 0 || len(s)-i < 17 {
		return strScan(s, i)
	}
	j := i + 1
	w := s[j : j+16] // the test above proves it in bounds: the two words' loads are checked once
	x := word(w, 0)
	if q, m := matches(x, '"'), matches(x, '\\'); q|m != 0 {
		low := (q | m) & -(q | m)
		if low&q == 0 {
			return strScan(s, i)
		}
		// low is the quote's high bit: the bits below it hold every byte
		// before the quote.
		return j + bits.TrailingZeros64(low)>>3 + 1, false, x&(low-1)&highBits == 0
	}
	y := word(w, 8)
	if q, m := matches(y, '"'), matches(y, '\\'); q|m != 0 {
		low := (q | m) & -(q | m)
		if low&q == 0 {
			return strScan(s, i)
		}
		return j + 8 + bits.TrailingZeros64(low)>>3 + 1, false, (x|y&(low-1))&highBits == 0
	}
	// Sixteen plain bytes read: the scan goes on from there.
	return strScanFrom(s, i, j+16, x|y)
}

// strScan is strPlain for any literal, from its opening quote.
func strScan(s string, i int) (end int, escaped, plain bool) {
	return strScanFrom(s, i, i+1, 0)
}

// strScanFrom is strScan from s[j], the bytes of s[i+1:j] (no quote, no
// backslash) or-ed in high: a high bit is a non-ASCII byte.
func strScanFrom(s string, i, j int, high uint64) (end int, escaped, plain bool) {
	for j+8 <= len(s) && j-i <= plainSpan {
		x := word(s, j)
		m := matches(x, '"') | matches(x, '\\')
		if m == 0 {
			high |= x
			j += 8
			continue
		}
		k := bits.TrailingZeros64(m) >> 3
		high |= x & (1<<(8*k) - 1)
		j += k
		if s[j] == '"' {
			return j + 1, escaped, !escaped && high&highBits == 0
		}
		escaped = true
		j += 2
	}
	for n := min(len(s), i+1+plainSpan+8); j < n; j++ {
		switch s[j] {
		case '"':
			return j + 1, escaped, !escaped && high&highBits == 0
		case '\\':
			escaped = true
			j++
		default:
			high |= uint64(s[j])
		}
	}
	for j < len(s) {
		k := strings.IndexByte(s[j:], '"')
		if k < 0 {
			break
		}
		q := j + k
		bs := 0
		for p := q - 1; p > i && s[p] == '\\'; p-- {
			bs++
		}
		if bs%2 == 0 {
			return q + 1, escaped || strings.IndexByte(s[i+1:q], '\\') >= 0, false
		}
		j = q + 1
	}
	return len(s), escaped || strings.IndexByte(s[min(i+1, len(s)):], '\\') >= 0, false
}

// StringEnd scans the string literal at i (s[i] is '"') and returns the
// offset after its closing quote and whether it holds an escape.
func StringEnd(s string, i int) (end int, escaped bool) {
	end, escaped, _ = strPlain(s, i)
	return end, escaped
}

// num scans the number literal at i and reports whether it has a
// fraction or an exponent.
func num(s string, i int) (end int, frac bool) {
	for ; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9', c == '-', c == '+':
		case c == '.', c == 'e', c == 'E':
			frac = true
		default:
			return i, frac
		}
	}
	return i, frac
}

// skip returns the offset after the value at i, reading each byte once
// (a container or a string eight bytes a step).
func skip(s string, i int) int {
	if i >= len(s) {
		return len(s)
	}
	switch s[i] {
	case '"':
		return strEnd(s, i)
	case '{', '[':
		return skipContainer(s, i)
	case 't', 'n':
		return min(i+4, len(s))
	case 'f':
		return min(i+5, len(s))
	default:
		if end, _ := num(s, i); end > i {
			return end
		}
		return len(s)
	}
}

// strEnd is the offset after the string literal at i (s[i] is '"'), as
// StringEnd finds it, read eight bytes a step without telling what it holds
// (past plainSpan, many bytes a step): the first quote that no escape
// covers, or len(s).
func strEnd(s string, i int) int {
	j := i + 1
	for j+8 <= len(s) {
		x := word(s, j)
		m := matches(x, '"') | matches(x, '\\')
		if m == 0 {
			if j += 8; j-i > plainSpan {
				return literalRest(s, j) // a long literal: its rest many bytes a step
			}
			continue
		}
		j += bits.TrailingZeros64(m) >> 3
		if s[j] == '"' {
			return j + 1
		}
		j += 2
	}
	for ; j < len(s); j++ {
		switch s[j] {
		case '"':
			return j + 1
		case '\\':
			j++
		}
	}
	return len(s)
}

// WS is the offset of the first byte from i that is not JSON
// whitespace (len(s) when none is).
func WS(s string, i int) int { return ws(s, i) }

// Skip returns the offset after the value at i (leading whitespace
// skipped), reading each byte once.
func Skip(s string, i int) int { return skip(s, ws(s, i)) }

// Open steps into the object or array at i (s[i] is open, '{' or '[',
// after any whitespace): the offset of its first member or element, or,
// when it is empty (done), the offset after it; -1 (done) when s[i] is
// not open. With [Key] and [Next] it is [Members] and [Elements] taken a
// step at a time, for a loop that would rather not make a call through a
// closure for each member.
func Open(s string, i int, open, close byte) (at int, done bool) {
	if i < 0 {
		return -1, true
	}
	i = ws(s, i)
	if i >= len(s) || s[i] != open {
		return -1, true
	}
	i = ws(s, i+1)
	if i < len(s) && s[i] == close {
		return i + 1, true
	}
	return i, false
}

// Next steps from the offset after a member or element (end, or -1 for
// a value a caller could not read) to the next one, or, when the
// container closes (done), to the offset after it; -1 (done) when
// neither follows.
func Next(s string, end int, close byte) (at int, done bool) {
	if end < 0 {
		return -1, true
	}
	i := ws(s, end)
	if i >= len(s) {
		return -1, true
	}
	switch s[i] {
	case ',':
		return ws(s, i+1), false
	case close:
		return i + 1, true
	}
	return -1, true
}

// Key reads the member key at i (-1 included): its literal (quotes
// included), whether it holds an escape, and the offset of the member's
// value; value is -1 when no key and colon are at i.
func Key(s string, i int) (lit string, escaped bool, value int) {
	lit, escaped, _, value = keyPlain(s, i)
	return lit, escaped, value
}

// keyPlain is key that also reports whether the key's literal is plain
// (see strPlain).
func keyPlain(s string, i int) (lit string, escaped, plain bool, value int) {
	if i < 0 || i >= len(s) || s[i] != '"' {
		return "", false, false, -1
	}
	end, escaped, plain := strPlain(s, i)
	j := ws(s, end)
	if j >= len(s) || s[j] != ':' {
		return "", false, false, -1
	}
	return s[i:end], escaped, plain, ws(s, j+1)
}

// Members calls fn for each member of the object at i (after any
// whitespace) with its key literal (quotes included), whether the key
// holds an escape, and the offset of its value; fn returns the offset
// after the value, or -1 to stop. Members returns the offset after the
// object, or -1 when fn stopped or the text is not an object.
func Members(s string, i int, fn func(key string, escaped bool, at int) int) int {
	i, done := Open(s, i, '{', '}')
	for !done {
		lit, esc, at := Key(s, i)
		if at < 0 {
			return -1
		}
		if i = fn(lit, esc, at); i < 0 {
			return -1
		}
		i, done = Next(s, i, '}')
	}
	return i
}

// Elements calls fn for each element of the array at i (after any
// whitespace) with its index and offset; fn returns the offset after the
// element, or -1 to stop. Elements returns the offset after the array, or
// -1 when fn stopped or the text is not an array.
func Elements(s string, i int, fn func(index, at int) int) int {
	i, done := Open(s, i, '[', ']')
	for n := 0; !done; n++ {
		if i = fn(n, i); i < 0 {
			return -1
		}
		i, done = Next(s, i, ']')
	}
	return i
}

// zeros has the high bit set in each byte of y that is zero, and only
// there.
func zeros(y uint64) uint64 {
	return ^((y&^highBits + 0x7f*lowBits) | y) & highBits
}

// skipContainer is the offset after the object or array at i (s[i] is
// '{' or '['): after the bracket that closes it outside string literals,
// or len(s). It reads eight bytes a step, finds the quotes, backslashes
// and brackets among them at once, and visits only those, in order: a
// quote opens or closes a literal, a backslash in one escapes the next
// byte (maybe the next word's first), a bracket outside one counts. A
// literal longer than plainSpan is left to literalRest, as strPlain leaves
// one to IndexByte.
func skipContainer(s string, i int) int {
	depth := 0
	in := false      // inside a string literal
	var carry uint64 // highBits' lowest bit when the next word's first byte is escaped
	quiet := 0       // words in a row begun inside a literal
	for ; i < len(s); i += 8 {
		if !in {
			quiet = 0
		} else if quiet++; quiet > plainSpan/8 {
			// A long literal: search its rest many bytes a step.
			i, in, quiet, carry = literalRest(s, i)-8, false, 0, 0
			continue
		}
		var x uint64
		if i+8 <= len(s) {
			x = word(s, i)
		} else {
			for k := len(s) - 1; k >= i; k-- {
				x = x<<8 | uint64(s[k])
			}
		}
		z := x | 0x20*lowBits
		q := zeros(x ^ '"'*lowBits)
		bs := zeros(x ^ '\\'*lowBits)
		op := zeros(z ^ '{'*lowBits)
		cl := zeros(z ^ '}'*lowBits)
		m := (q | bs | op | cl) &^ carry
		carry = 0
		for m != 0 {
			b := m & -m
			m &^= b
			if in {
				if b&q != 0 {
					in = false
				} else if b&bs != 0 {
					m &^= b << 8
					carry = b >> 56
				}
				continue
			}
			switch {
			case b&q != 0:
				in = true
			case b&op != 0:
				depth++
			case b&cl != 0:
				if depth--; depth == 0 {
					return i + bits.TrailingZeros64(b)>>3 + 1
				}
			}
		}
	}
	return len(s)
}

// literalRest is the offset after the string literal that s[i] is inside
// of (escaped or not): after its first quote from i that no odd run of
// backslashes escapes, or len(s). The literal's opening quote ends any
// run.
func literalRest(s string, i int) int {
	for i < len(s) {
		k := strings.IndexByte(s[i:], '"')
		if k < 0 {
			break
		}
		q := i + k
		p := q - 1
		for p >= 0 && s[p] == '\\' {
			p--
		}
		if (q-p)%2 == 1 {
			return q + 1
		}
		i = q + 1
	}
	return len(s)
}
