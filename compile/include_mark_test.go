package compile

import (
	"bytes"
	"testing"

	"pgregory.net/rapid"
)

// TestHoldsInclude: the loader's search for a $include member finds what
// bytes.Contains finds, wherever the pieces of the mark fall.
func TestHoldsInclude(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		pieces := []string{`"`, `$`, `$include`, `":`, `"$include":`, `$include":`, `\"`, `x`, `include`, `{`, `:`}
		var b bytes.Buffer
		for _, p := range rapid.SliceOfN(rapid.SampledFrom(pieces), 0, 12).Draw(t, "pieces") {
			b.WriteString(p)
		}
		if got, want := holdsInclude(b.Bytes()), bytes.Contains(b.Bytes(), []byte(includeMark)); got != want {
			t.Fatalf("holdsInclude(%q) = %v, bytes.Contains says %v", b.Bytes(), got, want)
		}
	})
}
