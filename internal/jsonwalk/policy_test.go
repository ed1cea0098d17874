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

// TestPlainDecodes: a literal strPlain calls plain decodes, under both
// policies, to the bytes between its quotes, which is what the walker
// takes for it without asking the policy (walker.decode); strings drawn
// with escapes, quotes, controls and non-ASCII bytes.
func TestPlainDecodes(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		body := rapid.StringOfN(rapid.SampledFrom([]rune{'a', 'Z', ' ', '\t', '\x01', '\\', '"', 'é', '\u2028', 0x7f}), 0, 80, -1).Draw(t, "body")
		lit := `"` + body + `"`
		end, esc, plain := strPlain(lit, 0)
		if !plain {
			return
		}
		raw := lit[:end]
		for name, got := range map[string]string{"JS": JS{}.Decode(raw, esc), "Exact": Exact{}.Decode(raw, esc)} {
			if want := raw[1 : len(raw)-1]; got != want {
				t.Fatalf("%s.Decode(%q) = %q, the walker takes %q", name, raw, got, want)
			}
		}
	})
}
