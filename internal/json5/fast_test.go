package json5

import (
	"encoding/json"
	"testing"

	"pgregory.net/rapid"
)

// TestPlainEnd: the eight-bytes-at-a-time scan, alone and after
// firstStop, stops where a byte-by-byte one does, whatever the bytes
// around the stop, after runs of plain bytes long enough to take the
// scan through several words.
func TestPlainEnd(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		alphabet := []byte{'a', ' ', '"', '\\', 0x00, 0x1f, 0x20, 0x21, 0x5b, 0x5d, 0x7f, 0x80, 0xa2, 0xdc, 0xe2, 0xff, '\''}
		plain := []byte{'a', ' ', 0x20, 0x21, 0x5b, 0x5d, 0x7f, 0x80, 0xa2, 0xdc, 0xe2, 0xff, '\''}
		s := rapid.SliceOfN(rapid.SampledFrom(alphabet), 0, 12).Draw(t, "head")
		s = append(s, rapid.SliceOfN(rapid.SampledFrom(plain), 0, 40).Draw(t, "run")...)
		s = append(s, rapid.SliceOfN(rapid.SampledFrom(alphabet), 0, 12).Draw(t, "tail")...)
		j := rapid.IntRange(0, len(s)).Draw(t, "from")
		want := j
		for want < len(s) && !strStop[s[want]] {
			want++
		}
		if got := PlainEnd(s, j); got != want {
			t.Fatalf("PlainEnd(%q, %d) = %d, want %d", s, j, got, want)
		}
		// parser.fast's form: the first eight bytes inline, then
		// PlainEnd from where firstStop says.
		got := firstStop(s, j)
		if got < 0 {
			got = PlainEnd(s, ^got)
		}
		if got != want {
			t.Fatalf("firstStop(%q, %d), then PlainEnd: %d, want %d", s, j, got, want)
		}
	})
}

// TestJSONNumber: what jsonNumber takes is what the strict grammar
// (encoding/json) takes, and what it calls canonical is what
// IsCanonicalNumber (a second pass over the literal) calls canonical.
func TestJSONNumber(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		lit := rapid.StringMatching(`-?[0-9]{0,18}(\.0{0,7}[0-9]{0,18})?([eE][+-]?[0-9]{0,3})?[x.]?`).Draw(t, "lit")
		if lit == "" {
			return
		}
		end, canon, ok := jsonNumber([]byte(lit), 0)
		if !ok {
			if json.Valid([]byte(lit)) {
				t.Fatalf("jsonNumber refuses %q", lit)
			}
			return
		}
		if !json.Valid([]byte(lit[:end])) {
			t.Fatalf("jsonNumber takes %q of %q", lit[:end], lit)
		}
		if want := IsCanonicalNumber([]byte(lit[:end])); canon != want {
			t.Fatalf("jsonNumber(%q) calls it canonical: %v, IsCanonicalNumber %v", lit[:end], canon, want)
		}
	})
}

// TestKeySlot: a slot gives back where its key starts and its part of the
// hash, for keys in the source and in the output, up to the largest
// offsets a table is made for.
func TestKeySlot(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		pos := rapid.IntRange(0, 3*maxTableSource).Draw(t, "offset")
		start := pos
		if rapid.Bool().Draw(t, "in the source") {
			start = ^rapid.IntRange(0, maxTableSource-1).Draw(t, "source offset")
		} else if pos == 0 {
			return // the output never holds a key at 0
		}
		h := rapid.Uint32().Draw(t, "hash")
		e := makeSlot(h, start)
		if e == 0 || e.start() != start || e.tag() != h>>8 {
			t.Fatalf("makeSlot(%#x, %d) = %#x: start %d, tag %#x", h, start, uint64(e), e.start(), e.tag())
		}
	})
}

// TestKeyBitIgnoresCapacity: a key's bloom bit is a function of its bytes
// alone, whatever follows them in the slice's capacity (the fast path
// reads keys in the source, the general loop in its output) or how much
// capacity there is, and it is the bit of the key's little-endian number
// when the key is shorter than eight bytes (written out here byte by
// byte).
func TestKeyBitIgnoresCapacity(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		key := rapid.SliceOfN(rapid.Byte(), 0, 20).Draw(t, "key")
		after := rapid.SliceOfN(rapid.Byte(), 0, 12).Draw(t, "after")
		in := append(append([]byte{}, key...), after...)[:len(key)]
		alone := append([]byte(nil), key...)[:len(key):len(key)]
		if a, b := keyBit(in), keyBit(alone); a != b {
			t.Fatalf("keyBit(%q) = %#x followed by %q, %#x alone", key, a, after, b)
		}
		if len(key) < 8 {
			var x uint64
			for i := len(key) - 1; i >= 0; i-- {
				x = x<<8 | uint64(key[i])
			}
			if want := uint64(1) << ((x ^ uint64(len(key))) * 0x9e3779b97f4a7c15 >> 58); keyBit(in) != want {
				t.Fatalf("keyBit(%q) = %#x, want %#x", key, keyBit(in), want)
			}
		}
	})
}
