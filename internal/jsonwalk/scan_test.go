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

// TestStepsTakeNoOffset: the steps a caller takes one at a time read an
// offset of -1 (a value the caller could not read) and one past the
// text as the end of the walk, never out of bounds, and WS stops at the
// first byte that is not JSON whitespace.
func TestStepsTakeNoOffset(t *testing.T) {
	const s = `{"a": [1 ,2]}`
	for _, i := range []int{-1, len(s), len(s) + 1} {
		if at, done := Open(s, i, '{', '}'); at != -1 || !done {
			t.Errorf("Open(%d) = %d, %v; want -1, true", i, at, done)
		}
		if at, done := Next(s, i, '}'); at != -1 || !done {
			t.Errorf("Next(%d) = %d, %v; want -1, true", i, at, done)
		}
		if lit, _, v := Key(s, i); lit != "" || v != -1 {
			t.Errorf("Key(%d) = %q, %d; want no key", i, lit, v)
		}
	}
	for _, c := range []struct{ s, want string }{{" \t\r\n x", "x"}, {"x", "x"}, {"  ", ""}, {"\v", "\v"}} {
		if got := c.s[WS(c.s, 0):]; got != c.want {
			t.Errorf("WS(%q) leaves %q, want %q", c.s, got, c.want)
		}
	}
	// A member and an element, step by step.
	at, done := Open(s, 0, '{', '}')
	lit, esc, v := Key(s, at)
	if done || lit != `"a"` || esc || s[v] != '[' {
		t.Fatalf("Open, Key = %d %v, %q %v %d", at, done, lit, esc, v)
	}
	el, _ := Open(s, v, '[', ']')
	el, done = Next(s, Skip(s, el), ']')
	if done || s[el] != '2' {
		t.Fatalf("Next to the second element = %d %v", el, done)
	}
	if end, done := Next(s, Skip(s, el), ']'); !done || s[end] != '}' {
		t.Fatalf("Next past the last element = %d %v", end, done)
	}
}
