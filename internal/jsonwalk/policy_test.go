package jsonwalk

import (
	"math"
	"strconv"
	"testing"

	"pgregory.net/rapid"
)

// TestFloat: Float reads a literal as strconv.ParseFloat does (the
// nearest float64, sign of zero included), refusing overflow and reading
// underflow as zero.
func TestFloat(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		raw := rapid.SampledFrom([]string{"0", "-0", "7", "-12", "123456789012345", "1234567890123456", "-999999999999999",
			"1.5", "-0.0", "1e400", "-1e400", "1e-400", "9007199254740993", "0.1e1", "00"}).Draw(t, "fixed")
		if rapid.Bool().Draw(t, "random") {
			raw = strconv.FormatInt(rapid.Int64().Draw(t, "int"), 10)
		}
		got, ok := Float(raw)
		want, err := strconv.ParseFloat(raw, 64)
		if err != nil && want != 0 {
			if ok {
				t.Fatalf("Float(%q) = %v, want overflow", raw, got)
			}
			return
		}
		if !ok || got != want || math.Signbit(got) != math.Signbit(want) {
			t.Fatalf("Float(%q) = %v %v, want %v", raw, got, ok, want)
		}
	})
}
