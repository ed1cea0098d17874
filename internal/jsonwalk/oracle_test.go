package jsonwalk

import (
	"math/bits"
	"strings"
)

// skipBytewise is skip as it was before it read eight bytes a step: the
// oracle the word-wise skip is compared with. It moves through a
// container byte by byte, a string literal by StringEnd (strPlain's scan). The
// other scalars skip reads as it always did.
func skipBytewise(s string, i int) int {
	switch {
	case i >= len(s) || s[i] != '"' && s[i] != '{' && s[i] != '[':
		return skip(s, i)
	case s[i] == '"':
		end, _ := StringEnd(s, i)
		return end
	}
	depth := 0
	for ; i < len(s); i++ {
		switch s[i] {
		case '"':
			i, _ = StringEnd(s, i)
			i--
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

// strPlainBefore is strPlain as it was before it read a short literal in
// one or two words: the oracle the fast path is compared with.
func strPlainBefore(s string, i int) (end int, escaped, plain bool) {
	j := i + 1
	var high uint64
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

// strPlainAgrees reports the first offset of a quote in s where strPlain
// and strPlainBefore disagree, or -1.
func strPlainAgrees(s string) int {
	for i := range len(s) {
		if s[i] != '"' {
			continue
		}
		e1, x1, p1 := strPlain(s, i)
		e2, x2, p2 := strPlainBefore(s, i)
		if e1 != e2 || x1 != x2 || p1 != p2 {
			return i
		}
	}
	return -1
}

// wsBefore is ws as it was before its first test for a byte that is no
// whitespace: the oracle ws is compared with.
func wsBefore(s string, i int) int {
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
