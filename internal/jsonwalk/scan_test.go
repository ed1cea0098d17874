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
		s := `"` + rapid.StringOfN(rapid.SampledFrom([]rune{'a', 'a', 'a', '\\', '"', 'é'}), 0, 120, -1).Draw(t, "s")
		want, esc := len(s), false
		for i := 1; i < len(s); i++ {
			if s[i] == '\\' {
				esc = true
				i++
				continue
			}
			if s[i] == '"' {
				want = i + 1
				break
			}
		}
		if want == len(s) {
			esc = strings.IndexByte(s[1:], '\\') >= 0
		}
		if end, escaped := StringEnd(s, 0); end != want || escaped != esc {
			t.Fatalf("StringEnd(%q) = %d, %v; want %d, %v", s, end, escaped, want, esc)
		}
	})
}
