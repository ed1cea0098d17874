package jsonwalk

import (
	"testing"

	"pgregory.net/rapid"
)

// upperBytewise is Upper byte by byte: the high bit of each byte whose
// low seven bits are 'A' to 'Z'.
func upperBytewise(x uint64) uint64 {
	var out uint64
	for k := range 8 {
		if c := byte(x>>(8*k)) & 0x7f; 'A' <= c && c <= 'Z' {
			out |= 0x80 << (8 * k)
		}
	}
	return out
}

// TestUpperEveryByte holds Upper to the bytewise reading with each byte
// value in each place, its neighbours the bytes that would carry or
// borrow the most (0x00, 'Z', 0x7f, 0xff).
func TestUpperEveryByte(t *testing.T) {
	for _, fill := range []uint64{0, 'Z' * lowBits, 0x7f * lowBits, 0xff * lowBits} {
		for k := range 8 {
			for b := range uint64(256) {
				x := fill&^(0xff<<(8*k)) | b<<(8*k)
				if got, want := Upper(x), upperBytewise(x); got != want {
					t.Fatalf("Upper(%#016x) = %#016x, want %#016x", x, got, want)
				}
			}
		}
	}
}

func TestUpperMatchesBytewise(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		x := rapid.Uint64().Draw(t, "x")
		if got, want := Upper(x), upperBytewise(x); got != want {
			t.Fatalf("Upper(%#016x) = %#016x, want %#016x", x, got, want)
		}
	})
}
