package resolver

import (
	"testing"

	"pgregory.net/rapid"
)

// TestStrTableSpan: the strRef of a span told by its place is the one
// put makes of that span of the text, and names the same string.
func TestStrTableSpan(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		text := rapid.StringN(0, 64, -1).Draw(t, "text")
		off := rapid.IntRange(0, len(text)).Draw(t, "off")
		n := rapid.IntRange(0, len(text)-off).Draw(t, "n")
		a, b := strTable{text: text}, strTable{text: text}
		got, want := a.span(off, n), b.put(text[off:off+n])
		if got != want || a.get(got) != text[off:off+n] || len(a.spill) != len(b.spill) {
			t.Fatalf("%q[%d:%d]: span %+v (%q), put %+v", text, off, off+n, got, a.get(got), want)
		}
	})
}
