package jsonwalk

import (
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// drawText writes JSON text to b: containers nested up to depth 4,
// string literals whose quotes, escapes and brackets fall at every offset
// around eight-byte boundaries, non-ASCII, numbers, literals and
// whitespace between tokens.
func drawText(t *rapid.T, b *strings.Builder, depth int) {
	space := func() {
		b.WriteString(rapid.SampledFrom([]string{"", "", "", " ", "\n  ", "\t", "\r\n        "}).Draw(t, "ws"))
	}
	kind := rapid.IntRange(0, 5).Draw(t, "kind")
	if depth >= 4 {
		kind = 2 + kind%4
	}
	switch kind {
	case 0, 1:
		open, close := "{", "}"
		if kind == 1 {
			open, close = "[", "]"
		}
		b.WriteString(open)
		for j := range rapid.IntRange(0, 4).Draw(t, "n") {
			if j > 0 {
				b.WriteByte(',')
			}
			space()
			if kind == 0 {
				drawString(t, b)
				space()
				b.WriteByte(':')
				space()
			}
			drawText(t, b, depth+1)
			space()
		}
		b.WriteString(close)
	case 2, 3:
		drawString(t, b)
	case 4:
		b.WriteString(rapid.SampledFrom([]string{"0", "-12", "1.5e+3", "12345678901234567890", "0.000001"}).Draw(t, "num"))
	default:
		b.WriteString(rapid.SampledFrom([]string{"true", "false", "null"}).Draw(t, "lit"))
	}
}

// drawString writes a string literal of 0 to 24 pieces, each an ASCII
// letter, a byte the container scan stops at or passes ('{', '[', ']',
// '}', 'Y', '_', 'y', DEL), an escape, non-ASCII, or a run of letters or
// escaped backslashes that makes the literal longer than plainSpan.
func drawString(t *rapid.T, b *strings.Builder) {
	b.WriteByte('"')
	pieces := rapid.SliceOfN(rapid.SampledFrom([]string{
		"a", "a", "a", "a", "b", "{", "[", "]", "}", "Y", "_", "y", "\x7f", ":", ",",
		`\"`, `\\`, `\n`, `\u00e9`, `\/`, "é", "\u20ac", "\xff",
		strings.Repeat("a", 40), strings.Repeat("\\\\", 9),
	}), 0, 24).Draw(t, "pieces")
	for _, p := range pieces {
		b.WriteString(p)
	}
	b.WriteByte('"')
}

// drawDamaged is drawn JSON text, then maybe cut short and maybe with
// bytes overwritten by ones that end strings, escape, or open and close
// containers: text that is not JSON as well as text that is.
func drawDamaged(t *rapid.T) string {
	var b strings.Builder
	b.WriteString(rapid.SampledFrom([]string{"", "", " ", "\n\t"}).Draw(t, "lead"))
	drawText(t, &b, 0)
	s := []byte(b.String())
	for range rapid.IntRange(0, 3).Draw(t, "damage") {
		at := rapid.IntRange(0, len(s)-1).Draw(t, "at")
		s[at] = rapid.SampledFrom([]byte(`"\{}[]ay`+"\x80 ")).Draw(t, "byte")
	}
	if rapid.Bool().Draw(t, "cut") {
		s = s[:rapid.IntRange(0, len(s)).Draw(t, "len")]
	}
	return string(s)
}

// agrees fails t unless skip and strEnd find what the byte-by-byte scan
// finds from every offset of s.
func agrees(t interface{ Fatalf(string, ...any) }, s string) {
	for i := 0; i <= len(s); i++ {
		if got, want := skip(s, i), skipBytewise(s, i); got != want {
			t.Fatalf("skip(%q, %d) = %d, byte by byte %d", s, i, got, want)
		}
		if i < len(s) {
			if got, want := strEnd(s, i), strEndBytewise(s, i); got != want {
				t.Fatalf("strEnd(%q, %d) = %d, StringEnd %d", s, i, got, want)
			}
		}
	}
}

// strEndBytewise is the end StringEnd finds (strPlain's mixed scan).
func strEndBytewise(s string, i int) int { end, _ := StringEnd(s, i); return end }

// TestSkipAgreesBytewise: skipping eight bytes a step ends every value,
// from every offset, where the byte-by-byte scan ends it, on JSON and on
// damaged or truncated text.
func TestSkipAgreesBytewise(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) { agrees(t, drawDamaged(t)) })
}

// FuzzSkip: on any text, skip and strEnd agree with the byte-by-byte scan
// from every offset.
func FuzzSkip(f *testing.F) {
	for _, s := range []string{`{}`, `[{"a":"b\"c"},[1,2,{"y_Y":"]"}]]`, `{"abcdefg\\":"h"}`, `["\`, `[`, `"abcdefgh`, `{"é€":[true,null,-1.5e3]}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { agrees(t, s) })
}
