package json5

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestTranscode(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"strict JSON is kept", `{"a": [1, 2.5e-3, true, null, "x"]}`, `{"a":[1,2.5e-3,true,null,"x"]}`},
		{"key order kept", `{z:1, a:2, m:3}`, `{"z":1,"a":2,"m":3}`},
		{"comments", "// head\n{/* in */a: 1 // tail\n}", `{"a":1}`},
		{"trailing commas", `{a: [1, 2,], b: {},}`, `{"a":[1,2],"b":{}}`},
		{"single quotes", `['it\'s', '"q"']`, `["it's","\"q\""]`},
		{"identifier keys", `{$a: 1, _b: 2, café: 3, \u0061x: 4}`, `{"$a":1,"_b":2,"café":3,"ax":4}`},
		{"reserved words as keys", `{null: 1, true: 2, Infinity: 3}`, `{"null":1,"true":2,"Infinity":3}`},
		{"hex", `[0x1F, -0X10, +0xff, 0x0]`, `[31,-16,255,0]`},
		{"big hex is exact", `0x10000000000000000`, `18446744073709551616`},
		{"decimal points", `[.5, 5., -.5, +1, 5.e3, 0.0]`, `[0.5,5,-0.5,1,5e3,0.0]`},
		{"escapes", `"\x41\v\0\a\/\b\f\n\r\t"`, `"A\u000b\u0000a/\b\f\n\r\t"`},
		{"line continuation", "'a\\\nb\\\r\nc\\\u2028d'", `"abcd"`},
		{"surrogate pair joins", `"\uD83D\uDE00"`, `"😀"`},
		{"lone surrogate survives", `"\uD800x"`, `"\ud800x"`},
		{"raw U+2028 in string", "\"a\u2028b\"", "\"a\u2028b\""},
		{"raw tab in string is escaped", "'a\tb'", `"a\tb"`},
		{"bom and unicode spaces", "\ufeff\u00a0\u3000[\u2028 1 \u2029]\u000b", `[1]`},
		{"top-level scalar", `  'x'  `, `"x"`},
		{"empty containers", `[{}, [], {a: []}]`, `[{},[],{"a":[]}]`},
		{"duplicate kept without option", `{a: 1, a: 2}`, `{"a":1,"a":2}`},
		{"largest finite hex", `0xFFFFFFFFFFFFFB` + strings.Repeat("F", 242), "179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497791"},
		{"largest finite and underflow kept", `[1.7976931348623157e308, 1e-999, -0]`, `[1.7976931348623157e308,1e-999,-0]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Transcode([]byte(tt.in), Options{})
			if err != nil {
				t.Fatalf("Transcode: %v", err)
			}
			if diff := cmp.Diff(tt.want, string(got)); diff != "" {
				t.Errorf("output (-want +got):\n%s", diff)
			}
			if !json.Valid(got) {
				t.Errorf("output is not valid JSON: %s", got)
			}
		})
	}
}

func TestTranscodeErrors(t *testing.T) {
	tests := []struct {
		name string
		in   string
		opts Options
		kind Kind
		line int
		col  int
		path []PathElem
	}{
		{"empty", ``, Options{}, KindSyntax, 1, 1, nil},
		{"Infinity", `{a: [1, -Infinity]}`, Options{}, KindNonFinite, 1, 9, []PathElem{{Key: "a"}, {Index: 1, IsIndex: true}}},
		{"NaN", `NaN`, Options{}, KindNonFinite, 1, 1, nil},
		{"huge hex", `0x` + strings.Repeat("f", 257), Options{}, KindNumber, 1, 1, nil},
		{"decimal beyond float64", `{a: [1, 1e999]}`, Options{}, KindNumber, 1, 9, []PathElem{{Key: "a"}, {Index: 1, IsIndex: true}}},
		{"negative decimal beyond float64", `-1.8e308`, Options{}, KindNumber, 1, 1, nil},
		{"JSON5 decimal beyond float64", `+.5e400`, Options{}, KindNumber, 1, 1, nil},
		{"310 integer digits", `1` + strings.Repeat("0", 309), Options{}, KindNumber, 1, 1, nil},
		{"hex rounding up to Infinity", `0xFFFFFFFFFFFFFC` + strings.Repeat("0", 242), Options{}, KindNumber, 1, 1, nil},
		{"unterminated string", "{\n  a: 'x}", Options{}, KindSyntax, 2, 6, []PathElem{{Key: "a"}}},
		{"line break in string", "'a\nb'", Options{}, KindSyntax, 1, 3, nil},
		{"octal escape", `'\1'`, Options{}, KindSyntax, 1, 3, nil},
		{"leading zero", `01`, Options{}, KindSyntax, 1, 2, nil},
		{"number key", `{1: 2}`, Options{}, KindSyntax, 1, 2, nil},
		{"double trailing comma", `[1,,]`, Options{}, KindSyntax, 1, 4, []PathElem{{Index: 1, IsIndex: true}}},
		{"unterminated comment", `[1 /* x`, Options{}, KindSyntax, 1, 4, []PathElem{{Index: 0, IsIndex: true}}},
		{"trailing text", `1 2`, Options{}, KindSyntax, 1, 3, nil},
		{"invalid utf-8", "'\xff'", Options{}, KindEncoding, 1, 2, nil},
		{"undefined", `undefined`, Options{}, KindSyntax, 1, 1, nil},
		{"depth", `{a: [[1]]}`, Options{MaxDepth: 2}, KindDepth, 1, 6, []PathElem{{Key: "a"}, {Index: 0, IsIndex: true}}},
		{"string length", `{abc: 'xyzw'}`, Options{MaxStringBytes: 3}, KindString, 1, 7, []PathElem{{Key: "abc"}}},
		{"key length", `{abcd: 1}`, Options{MaxStringBytes: 3}, KindString, 1, 6, nil},
		{"key count", `[{a: 1}, {b: 2}]`, Options{MaxKeys: 1}, KindKeys, 1, 11, []PathElem{{Index: 1, IsIndex: true}, {Key: "b"}}},
		{"duplicate", `{a: 1, b: {c: 1, 'c': 2}}`, Options{RejectDuplicateKeys: true}, KindDuplicateKey, 1, 18, []PathElem{{Key: "b"}, {Key: "c"}}},
		{"duplicate after a nested object", `{a: {x: 1, a: 2}, b: 1, a: 3}`, Options{RejectDuplicateKeys: true}, KindDuplicateKey, 1, 25, []PathElem{{Key: "a"}}},
		{"duplicate in a large object", "{" + manyKeys(40) + "k7: 0}", Options{RejectDuplicateKeys: true}, KindDuplicateKey, 1, 342, []PathElem{{Key: "k7"}}},
		{"duplicate via escape", `{"a": 1, "\u0061": 2}`, Options{RejectDuplicateKeys: true}, KindDuplicateKey, 1, 10, []PathElem{{Key: "a"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Transcode([]byte(tt.in), tt.opts)
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("want *Error, got %v", err)
			}
			got := struct {
				Kind      Kind
				Line, Col int
				Path      []PathElem
			}{e.Kind, e.Line, e.Column, e.Path}
			want := struct {
				Kind      Kind
				Line, Col int
				Path      []PathElem
			}{tt.kind, tt.line, tt.col, tt.path}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("error (-want +got):\n%s\n%v", diff, e)
			}
		})
	}
}

func manyKeys(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "k%d: %d, ", i, i)
	}
	return b.String()
}

func TestNoFalseDuplicates(t *testing.T) {
	in := "{" + manyKeys(40) + "n: {" + manyKeys(20) + "}, m: [{a: 1}, {a: 2}], a: {a: {a: 1}}}"
	if _, err := Transcode([]byte(in), Options{RejectDuplicateKeys: true}); err != nil {
		t.Fatal(err)
	}
}

// TestErrorsNeverQuoteInput: messages come from a fixed vocabulary.
func TestErrorsNeverQuoteInput(t *testing.T) {
	for _, in := range []string{`{secretkey: sk-live-123}`, `'sk-live-123`, `[sk-live-123]`, `{"sk-live-123": 1, "sk-live-123": 2}`} {
		_, err := Transcode([]byte(in), Options{RejectDuplicateKeys: true})
		if err == nil {
			t.Fatalf("%q: want error", in)
		}
		if strings.Contains(err.Error(), "sk-live") || strings.Contains(err.Error(), "secretkey") {
			t.Errorf("%q: error quotes the input: %v", in, err)
		}
	}
}

// TestDeepBombRefusedFast: 20 MB of '[' is refused at MaxDepth, without
// recursion and without parsing past the first container over the limit
// (no wall clock: the offset where it stopped shows the work).
func TestDeepBombRefusedFast(t *testing.T) {
	bomb := bytes.Repeat([]byte("["), 20<<20)
	_, err := Transcode(bomb, Options{})
	var e *Error
	if !errors.As(err, &e) || e.Kind != KindDepth {
		t.Fatalf("want depth error, got %v", err)
	}
	if e.Offset > DefaultMaxDepth {
		t.Errorf("stopped at offset %d, past the container at depth %d", e.Offset, DefaultMaxDepth+1)
	}
}

func TestUnquote(t *testing.T) {
	for in, want := range map[string]string{
		`"a\u0062"`:      "ab",
		`'\x41\n'`:       "A\n",
		`"\ud800"`:       "\xed\xa0\x80",
		`"\uD83D\uDE00"`: "😀",
	} {
		got, err := Unquote([]byte(in))
		if err != nil || got != want {
			t.Errorf("Unquote(%s) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{``, `x`, `"a" `, `"a`} {
		if _, err := Unquote([]byte(in)); err == nil {
			t.Errorf("Unquote(%q): want error", in)
		}
	}
}

// TestAppendUnquote: the value goes after what dst holds, the same as
// Unquote's; with room for the literal nothing is allocated; a refusal
// leaves dst's bytes as they were.
func TestAppendUnquote(t *testing.T) {
	for _, in := range []string{`"a\u0062"`, `'\x41\n'`, `"\uD83D\uDE00 \"q\""`, `"plain"`, `""`} {
		want, err := Unquote([]byte(in))
		if err != nil {
			t.Fatal(err)
		}
		got, err := AppendUnquote([]byte("pre:"), []byte(in))
		if err != nil || string(got) != "pre:"+want {
			t.Errorf("AppendUnquote(pre:, %s) = %q, %v; want %q", in, got, err, "pre:"+want)
		}
		buf, lit := make([]byte, 0, 64), []byte(in)
		if n := testing.AllocsPerRun(100, func() { buf, _ = AppendUnquote(buf[:0], lit) }); n != 0 {
			t.Errorf("AppendUnquote(%s) with room: %v allocations", in, n)
		}
	}
	dst := []byte("keep")
	if got, err := AppendUnquote(dst, []byte(`"a`)); err == nil || string(got) != "keep" {
		t.Errorf("AppendUnquote of an unterminated string = %q, %v", got, err)
	}
}

func TestKindStrings(t *testing.T) {
	for k := KindSyntax; k <= KindSurrogate; k++ {
		if k.String() == "unknown" {
			t.Errorf("kind %d has no name", k)
		}
	}
}

func FuzzTranscode(f *testing.F) {
	for _, s := range []string{
		`{a: 1, 'b': [0x1F, .5, +1,], "c": "\x41\u00e9"} // x`,
		`[Infinity, NaN]`, "/* */ 'a\\\nb'", `{\u0061: null}`, `[[[[[`, `{"a":"\ud800"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		out, err := Transcode(in, Options{MaxDepth: 64, RejectDuplicateKeys: true})
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.Kind == 0 || e.Line < 1 || e.Column < 1 {
				t.Fatalf("unstructured error %#v", err)
			}
			return
		}
		if !json.Valid(out) {
			t.Fatalf("invalid JSON output %q for %q", out, in)
		}
		checkMembers(t, in, Options{MaxDepth: 64})
		// Transcoding is idempotent on its own output.
		again, err := Transcode(out, Options{MaxDepth: 64})
		if err != nil || !bytes.Equal(again, out) {
			t.Fatalf("not idempotent: %q -> %q (%v)", out, again, err)
		}
		// With canonical numbers and lone surrogates refused, the
		// output is the plain output with its numbers canonicalized.
		canon := Options{MaxDepth: 64, RejectDuplicateKeys: true, CanonicalNumbers: true, RejectLoneSurrogates: true}
		cout, cerr := Transcode(in, canon)
		var ce *Error
		switch {
		case cerr == nil:
			if again, err := Transcode(out, canon); err != nil || !bytes.Equal(again, cout) {
				t.Fatalf("canonical %q differs from canonicalized plain output %q (%v)", cout, again, err)
			}
		case !errors.As(cerr, &ce) || (ce.Kind != KindSurrogate && ce.Kind != KindNumber):
			t.Fatalf("plain transcoding succeeds, canonical fails with %v", cerr)
		}
		// Strict JSON input means the same to encoding/json.
		if json.Valid(in) {
			var a, b any
			if json.Unmarshal(in, &a) == nil && json.Unmarshal(out, &b) == nil && !cmp.Equal(a, b) {
				t.Fatalf("value changed: %q -> %q", in, out)
			}
		}
	})
}
