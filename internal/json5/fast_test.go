package json5

import (
	"testing"

	"pgregory.net/rapid"
)

// TestPlainEnd: the eight-bytes-at-a-time scan stops where a byte-by-byte
// one does, whatever the bytes around the stop.
func TestPlainEnd(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		alphabet := []byte{'a', ' ', '"', '\\', 0x00, 0x1f, 0x20, 0x21, 0x5b, 0x5d, 0x7f, 0x80, 0xa2, 0xdc, 0xe2, 0xff, '\''}
		s := rapid.SliceOfN(rapid.SampledFrom(alphabet), 0, 40).Draw(t, "s")
		j := rapid.IntRange(0, len(s)).Draw(t, "from")
		want := j
		for want < len(s) && !strStop[s[want]] {
			want++
		}
		if got := plainEnd(s, j); got != want {
			t.Fatalf("plainEnd(%q, %d) = %d, want %d", s, j, got, want)
		}
	})
}
