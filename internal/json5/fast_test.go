package json5

import (
	"encoding/json"
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

// TestJSONNumber: what jsonNumber takes is what the strict grammar
// (encoding/json) takes, and what it calls simple is canonical.
func TestJSONNumber(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		lit := rapid.StringMatching(`-?[0-9]{0,18}(\.[0-9]{0,3})?([eE][+-]?[0-9]{0,3})?[x.]?`).Draw(t, "lit")
		if lit == "" {
			return
		}
		end, simple, ok := jsonNumber([]byte(lit), 0)
		if !ok {
			if json.Valid([]byte(lit)) {
				t.Fatalf("jsonNumber refuses %q", lit)
			}
			return
		}
		if !json.Valid([]byte(lit[:end])) {
			t.Fatalf("jsonNumber takes %q of %q", lit[:end], lit)
		}
		if simple && !IsCanonicalNumber([]byte(lit[:end])) {
			t.Fatalf("%q is called simple", lit[:end])
		}
	})
}
