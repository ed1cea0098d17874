package jsonwalk

import (
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// TestStringEnd: a string literal ends at the quote a byte-by-byte read
// that skips each escaped byte stops at, and holds an escape when that
// read meets a backslash, on any text, unterminated literals included.
func TestStringEnd(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := `"` + rapid.StringOfN(rapid.SampledFrom([]rune{'a', 'a', 'a', 'a', 'a', 'a', '\\', '"', 'é'}), 0, 160, -1).Draw(t, "s")
		want, esc, closed := len(s), false, false
		for i := 1; i < len(s); i++ {
			if s[i] == '\\' {
				esc = true
				i++
				continue
			}
			if s[i] == '"' {
				want, closed = i+1, true
				break
			}
		}
		if want == len(s) {
			esc = strings.IndexByte(s[1:], '\\') >= 0
		}
		if end, escaped := StringEnd(s, 0); end != want || escaped != esc {
			t.Fatalf("StringEnd(%q) = %d, %v; want %d, %v", s, end, escaped, want, esc)
		}
		// Plain: closed, no escape, all ASCII; always told within
		// plainSpan, never claimed of a longer literal.
		ascii := strings.IndexFunc(s[:want], func(r rune) bool { return r >= 0x80 }) < 0
		wantPlain := closed && !esc && ascii
		if _, _, plain := strPlain(s, 0); plain && !wantPlain || want <= plainSpan && plain != wantPlain {
			t.Fatalf("strPlain(%q) plain = %v; want %v", s, plain, wantPlain)
		}
	})
}

// TestStrPlainMatchesBefore: strPlain reads every literal of any text,
// from every quote, as it did before its short-literal path (the
// oracle strPlainBefore): its end, escape and plainness, short literals,
// long ones, unterminated ones and ones cut by the text's end alike.
func TestStrPlainMatchesBefore(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := rapid.StringOfN(rapid.SampledFrom([]rune{'a', 'a', 'a', 'a', 'a', 'a', 'a', '\\', '"', '"', 'é', '\x80'}), 0, 100, -1).Draw(t, "s")
		if i := strPlainAgrees(s); i >= 0 {
			e1, x1, p1 := strPlain(s, i)
			e2, x2, p2 := strPlainBefore(s, i)
			t.Fatalf("strPlain(%q, %d) = %d, %v, %v; before %d, %v, %v", s, i, e1, x1, p1, e2, x2, p2)
		}
	})
}

// TestWsMatchesBefore: ws stops where the byte-by-byte loop (wsBefore)
// stops, from every offset of any text, its end and beyond included.
func TestWsMatchesBefore(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := rapid.StringOfN(rapid.SampledFrom([]rune{' ', '\t', '\n', '\r', 'a', '"', '{', '\x00', '\x1f', '!', 'é'}), 0, 40, -1).Draw(t, "s")
		for i := 0; i <= len(s)+1; i++ {
			if got, want := ws(s, i), wsBefore(s, i); got != want {
				t.Fatalf("ws(%q, %d) = %d; before %d", s, i, got, want)
			}
		}
	})
}
