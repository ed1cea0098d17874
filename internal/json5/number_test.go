package json5

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// rfc8785Numbers is the number serialization table of RFC 8785, Appendix
// B: IEEE-754 bit patterns and the text JCS writes for them (NaN and
// Infinity, which have none, are left out).
var rfc8785Numbers = []struct {
	bits uint64
	want string
}{
	{0x0000000000000000, "0"},
	{0x8000000000000000, "0"},
	{0x0000000000000001, "5e-324"},
	{0x8000000000000001, "-5e-324"},
	{0x7fefffffffffffff, "1.7976931348623157e+308"},
	{0xffefffffffffffff, "-1.7976931348623157e+308"},
	{0x4340000000000000, "9007199254740992"},
	{0xc340000000000000, "-9007199254740992"},
	{0x4430000000000000, "295147905179352830000"},
	{0x44b52d02c7e14af5, "9.999999999999997e+22"},
	{0x44b52d02c7e14af6, "1e+23"},
	{0x44b52d02c7e14af7, "1.0000000000000001e+23"},
	{0x444b1ae4d6e2ef4e, "999999999999999700000"},
	{0x444b1ae4d6e2ef4f, "999999999999999900000"},
	{0x444b1ae4d6e2ef50, "1e+21"},
	{0x3eb0c6f7a0b5ed8c, "9.999999999999997e-7"},
	{0x3eb0c6f7a0b5ed8d, "0.000001"},
	{0x41b3de4355555553, "333333333.3333332"},
	{0x41b3de4355555554, "333333333.33333325"},
	{0x41b3de4355555555, "333333333.3333333"},
	{0x41b3de4355555556, "333333333.3333334"},
	{0x41b3de4355555557, "333333333.33333343"},
	{0xbecbf647612f3696, "-0.0000033333333333333333"},
	{0x43143ff3c1cb0959, "1424953923781206.2"},
}

func TestAppendNumberRFC8785(t *testing.T) {
	for _, tt := range rfc8785Numbers {
		f := math.Float64frombits(tt.bits)
		if got := string(AppendNumber(nil, f)); got != tt.want {
			t.Errorf("%016x: got %s, want %s", tt.bits, got, tt.want)
		}
	}
}

func TestAppendCanonicalNumber(t *testing.T) {
	for lit, want := range map[string]string{
		"16": "16", "16.0": "16", "1.6e1": "16", "1.6E1": "16", "160e-1": "16", "-0": "0", "-0.0e5": "0",
		"1e6": "1000000", "1000000": "1000000", "1e21": "1e+21", "1e-7": "1e-7", "0.000001": "0.000001",
		"12345678901234567890": "12345678901234567000", "1e-400": "0", "-1e-400": "0", "0.1": "0.1",
		"4.50": "4.5", "2e-3": "0.002", "1E30": "1e+30", "333333333.33333329": "333333333.3333333",
		"0.000000000000000000000000001": "1e-27", "1.7976931348623157e308": "1.7976931348623157e+308",
	} {
		got, ok := AppendCanonicalNumber(nil, []byte(lit))
		if !ok || string(got) != want {
			t.Errorf("%s: got %s (%v), want %s", lit, got, ok, want)
		}
	}
	for _, lit := range []string{"1e309", "-1e309", "1.7976931348623159e308", "x", ""} {
		if got, ok := AppendCanonicalNumber([]byte("keep"), []byte(lit)); ok || string(got) != "keep" {
			t.Errorf("%s: got %s, %v; want a refusal that appends nothing", lit, got, ok)
		}
	}
}

// TestTranscodeCanonicalNumbers: every spelling of one value transcodes
// to the same bytes, hexadecimal included; what is not a finite double
// is refused.
func TestTranscodeCanonicalNumbers(t *testing.T) {
	opts := Options{CanonicalNumbers: true}
	for in, want := range map[string]string{
		`[16, 16.0, 1.6e1, 1.6E1, 0x10, 0X10, +16, 16., .16e2, +0x10]`: `[16,16,16,16,16,16,16,16,16,16]`,
		`[-0, -0x0, +0, 0.0, -.0e9]`:                                   `[0,0,0,0,0]`,
		`[0x1FFFFFFFFFFFFF, 0x20000000000001, -0xFFFFFFFFFFFFFFFF]`:    `[9007199254740991,9007199254740992,-18446744073709552000]`,
	} {
		got, err := Transcode([]byte(in), opts)
		if err != nil || string(got) != want {
			t.Errorf("%s: got %s (%v), want %s", in, got, err, want)
		}
	}
	for _, in := range []string{`[1e309]`, `[-1.8e308]`, `[0x1` + strings.Repeat("0", 256) + `]`} {
		_, err := Transcode([]byte(in), opts)
		if e, ok := err.(*Error); !ok || e.Kind != KindNumber {
			t.Errorf("%s: got %v, want a KindNumber error", in, err)
		}
	}
}

func TestTranscodeLoneSurrogates(t *testing.T) {
	opts := Options{RejectLoneSurrogates: true}
	for in, ok := range map[string]bool{
		`"\ud83d\ude00"`: true, `'\uD83D\uDE00'`: true, `{"\ud83d\ude00": 1}`: true, `"\ufffd"`: true,
		`"\ud800"`: false, `"\udc00"`: false, `"\ude00\ud83d"`: false, `"\ud83d x"`: false, `{"\ud800": 1}`: false,
		`{\ud800: 1}`: false, `"\ud83d\\\n\ude00"`: false,
	} {
		_, err := Transcode([]byte(in), opts)
		if ok != (err == nil) {
			t.Errorf("%s: got %v, want accepted=%v", in, err, ok)
		}
		if e, isE := err.(*Error); err != nil && (!isE || e.Kind != KindSurrogate && e.Kind != KindSyntax) {
			t.Errorf("%s: got %v, want a KindSurrogate error", in, err)
		}
	}
}

// FuzzAppendNumber: for every finite double, AppendNumber reads back as
// the same double and agrees with encoding/json, which writes float64 "as
// if by ES6 number to string conversion" (the form RFC 8785 adopts).
func FuzzAppendNumber(f *testing.F) {
	for _, tt := range rfc8785Numbers {
		f.Add(tt.bits)
	}
	f.Fuzz(func(t *testing.T, bits uint64) {
		x := math.Float64frombits(bits)
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return
		}
		got := AppendNumber(nil, x)
		back, err := strconv.ParseFloat(string(got), 64)
		if err != nil || back != x && !(x == 0 && back == 0) {
			t.Fatalf("%016x: %s reads back as %v (%v)", bits, got, back, err)
		}
		if x == 0 {
			x = 0 // encoding/json writes -0 as "-0"; RFC 8785 as "0"
		}
		want, _ := json.Marshal(x)
		if string(got) != string(want) {
			t.Fatalf("%016x: got %s, encoding/json writes %s", bits, got, want)
		}
		// The canonical form is a fixed point.
		again, ok := AppendCanonicalNumber(nil, got)
		if !ok || string(again) != string(got) {
			t.Fatalf("%016x: %s canonicalizes to %s", bits, got, again)
		}
	})
}

func ExampleAppendNumber() {
	for _, f := range []float64{16, 1e21, 1e-7, 0.000001, 333333333.33333329, math.Copysign(0, -1)} {
		fmt.Println(string(AppendNumber(nil, f)))
	}
	// Output:
	// 16
	// 1e+21
	// 1e-7
	// 0.000001
	// 333333333.3333333
	// 0
}

// slowCanonical is AppendCanonicalNumber without its fast path.
func slowCanonical(lit string) (string, bool) {
	f, err := strconv.ParseFloat(lit, 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return "", false
	}
	return string(AppendNumber(nil, f)), true
}

func TestIsCanonicalNumber(t *testing.T) {
	for lit, want := range map[string]bool{
		"0": true, "-0": false, "7": true, "-7": true, "123456789012345": true, "1234567890123456": false,
		"0.5": true, "-0.5": true, "0.1": true, "1.5": true, "100.25": true, "0.000001": true, "0.0000001": false,
		"0.0000015": true, "0.00000015": false, "1.50": false, "1.0": false, "01": false, "00.5": false,
		"1.": false, ".5": false, "+1": false, "1e5": false, "1E5": false, "0x10": false, "": false, "-": false,
		"12345678901234.5": true, "123456789012345.5": false, "0.123456789012345": true, "0.1234567890123456": false,
		"0.000001234567890123": true, "0.00000123456789012345678": false, "Infinity": false, "NaN": false, "1.5x": false,
	} {
		if got := IsCanonicalNumber([]byte(lit)); got != want {
			t.Errorf("IsCanonicalNumber(%q) = %v, want %v", lit, got, want)
		}
		if want {
			if slow, ok := slowCanonical(lit); !ok || slow != lit {
				t.Errorf("%q: the full conversion writes %q", lit, slow)
			}
		}
	}
}

// TestIsCanonicalNumberProperty: whatever IsCanonicalNumber accepts, the
// full conversion writes as it is, so the fast path never changes a
// canonical form; and every double of at most 15 significant digits
// between 1e-6 and 1e15 takes the fast path once written canonically.
func TestIsCanonicalNumberProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		digits := rapid.StringMatching(`-?(0|[1-9][0-9]{0,16})(\.[0-9]{0,18})?`).Draw(t, "lit")
		if IsCanonicalNumber([]byte(digits)) {
			if slow, ok := slowCanonical(digits); !ok || slow != digits {
				t.Fatalf("%q is taken as canonical, the full conversion writes %q", digits, slow)
			}
		}
		mant := rapid.Int64Range(1, 999_999_999_999_999).Draw(t, "mantissa")
		exp := rapid.IntRange(-20, 0).Draw(t, "exp")
		f := float64(mant) * math.Pow10(exp)
		if f < 1e-6 || f >= 1e15 {
			return
		}
		lit := AppendNumber(nil, f)
		if strings.ContainsAny(string(lit), "e") {
			return
		}
		sig := strings.TrimLeft(strings.ReplaceAll(string(lit), ".", ""), "0")
		if len(sig) <= 15 && !IsCanonicalNumber(lit) {
			t.Fatalf("%s (%d significant digits) misses the fast path", lit, len(sig))
		}
	})
}
