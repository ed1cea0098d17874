package resolver

import (
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// refTextGen draws ref-like text: mostly plain refs, with the bytes
// that take a ref off the fast path (space, tab, upper case, `@`,
// slashes at either end, non-ASCII and Unicode white space) mixed in.
func refTextGen() *rapid.Generator[string] {
	parts := []string{"a", "b", "z", "0", "9", "-", ".", "_", ":", "/", "/", "@", " ", "\t", "A", "Q", "q4", "8bit",
		"20251001", "\u00a0", "\u0085", "é", "\x7f", "\x00", "\u2028"}
	return rapid.OneOf(
		rapid.Custom(func(t *rapid.T) string {
			var b strings.Builder
			for range rapid.IntRange(0, 12).Draw(t, "n") {
				b.WriteString(rapid.SampledFrom(parts).Draw(t, "part"))
			}
			return b.String()
		}),
		rapid.StringMatching(`[a-zA-Z]{0,6}/[a-zA-Z0-9./@ -]{0,12}`),
		rapid.String(),
	)
}

// TestPlainRefOracle holds parseRef, with its fast path (plainRef), to
// the general reading that was all of it before (readRef), strict and
// lenient.
func TestPlainRefOracle(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := refTextGen().Draw(t, "s")
		def := rapid.SampledFrom([]string{"", "fallback", " Open AI ", "a/b"}).Draw(t, "default")
		for _, strict := range []bool{true, false} {
			got, ok := parseRef(s, def, strict)
			want, wantOK := readRef(s, def, strict)
			if ok != wantOK || got != want {
				t.Fatalf("parseRef(%q, %q, %v) = %+v, %v; want %+v, %v", s, def, strict, got, ok, want, wantOK)
			}
		}
	})
}

// TestPlainRefCases pins the fast path's edges against the oracle.
func TestPlainRefCases(t *testing.T) {
	for _, s := range []string{"", "/", "a/", "/b", "a/b", "a//b", "a/b/", "A/b", "a/B", "a b/c", "a/b c", "a/b@c",
		"a/@b", "é/b", "a/é", "a/b\x7f", "\x7fa/b", "a\u00a0/b", "0/0", "openai/vendor/model"} {
		for _, strict := range []bool{true, false} {
			got, ok := parseRef(s, "fallback", strict)
			want, wantOK := readRef(s, "fallback", strict)
			if ok != wantOK || got != want {
				t.Errorf("parseRef(%q, strict %v) = %+v, %v; want %+v, %v", s, strict, got, ok, want, wantOK)
			}
		}
	}
}

// TestTrimSpace holds trimSpace to strings.TrimSpace.
func TestTrimSpace(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := refTextGen().Draw(t, "s")
		if got, want := trimSpace(s), strings.TrimSpace(s); got != want {
			t.Fatalf("trimSpace(%q) = %q, want %q", s, got, want)
		}
	})
}
