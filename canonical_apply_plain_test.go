package occkit

import (
	"bytes"
	"testing"

	"pgregory.net/rapid"
)

// plainPieces are the pieces of the values TestPlainValueIsCompactValues
// draws: plain and other strings (escapes, a lone surrogate, invalid
// UTF-8, a control character, DEL), keys repeated, literals whole and
// cut, numbers, nesting and white space.
var plainPieces = []string{
	`{`, `}`, `[`, `]`, `,`, `:`, ` `, `"a"`, `"b"`, `"a"`, `"level"`, `"info"`, `""`, `"\u00e9"`, `"\ud800"`,
	`"\n"`, "\"\xff\"", "\"\x01\"", "\"\x7f\"", `"é"`, `"`, `\`, `true`, `false`, `null`, `tru`, `nul`, `fals`,
	`0`, `-1`, `1e999`, `x`,
}

// checkPlain fails t unless a value plainValue takes is one compactValue
// (the oracle: the general check) accepts and returns as it is.
func checkPlain(t interface{ Fatalf(string, ...any) }, raw []byte) {
	if !plainValue(raw) {
		return
	}
	got, err := compactValue(NewPath("logging"), raw)
	if err != nil || !bytes.Equal(got, raw) {
		t.Fatalf("plainValue(%q) but compactValue gives %q, %v", raw, got, err)
	}
}

// TestPlainValueIsCompactValues: every value plainValue takes without a
// check, compactValue accepts and returns unchanged, over values drawn
// from JSON's alphabet (valid or not, repeated keys, escapes, invalid
// UTF-8, deep nesting). The draws must take the fast way now and then,
// so that the test cannot pass vacuously.
func TestPlainValueIsCompactValues(t *testing.T) {
	var plain, draws int
	rapid.Check(t, func(t *rapid.T) {
		var raw []byte
		for _, s := range rapid.SliceOfN(rapid.SampledFrom(plainPieces), 1, 16).Draw(t, "pieces") {
			raw = append(raw, s...)
		}
		draws++
		if plainValue(raw) {
			plain++
		}
		checkPlain(t, raw)
	})
	if plain == 0 {
		t.Fatalf("none of %d draws was plain", draws)
	}
}

// TestPlainValueTable: the stamp's values are plain (the fast path is
// taken where it is meant to be), and a hand-written list of values that
// are not: compactValue's to judge.
func TestPlainValueTable(t *testing.T) {
	for _, c := range []struct {
		raw   string
		plain bool
	}{
		{`"info"`, true},
		{`false`, true},
		{`null`, true},
		{`true`, true},
		{`{}`, true},
		{`{"level":"info","consoleLevel":"info","consoleStyle":"json"}`, true},
		{`{"otel":{"logs":false}}`, true},
		{`{"logs":false}`, true},
		{`{"a":{"b":{"c":{}}}}`, true},
		{`{"a":{"b":{"c":{"d":{}}}}}`, false}, // deeper than plainDepth
		{`{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8}`, false},
		{`{"a":"","b":"","c":"","d":"","e":"","f":"","g":"","h":""}`, true},
		{`{"a":"","b":"","c":"","d":"","e":"","f":"","g":"","h":"","i":""}`, false}, // more than plainMembers
		{`{"a":true,"a":false}`, false},
		{`{"a":true,}`, false},
		{`{0":""}`, false}, // a key that is not a string (found by FuzzPlainValue)
		{`{"a":"\n"}`, false},
		{`{"a" :true}`, false},
		{`{"a":true`, false},
		{`"caf\u00e9"`, false},
		{`"café"`, false},
		{"\"\x7f\"", false},
		{`"a`, false},
		{`truex`, false},
		{`tru`, false},
		{`1`, false},
		{`[]`, false},
		{``, false},
		{` "a"`, false},
	} {
		if got := plainValue([]byte(c.raw)); got != c.plain {
			t.Errorf("plainValue(%q) = %v, want %v", c.raw, got, c.plain)
		}
		checkPlain(t, []byte(c.raw))
	}
}

// FuzzPlainValue: a value plainValue takes is one compactValue accepts
// and returns unchanged, and plainValue never panics.
func FuzzPlainValue(f *testing.F) {
	for _, s := range []string{`{"level":"info","consoleLevel":"info","consoleStyle":"json"}`, `{"otel":{"logs":false}}`,
		`false`, `"json"`, `{"a":{"b":1}}`, `{"a":"x","a":"y"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		checkPlain(t, raw)
	})
}
