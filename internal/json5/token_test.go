package json5

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestOnToken: the pieces Transcode reports are in order, disjoint and
// inside the text; between them lies only white space, ',' and ':'; keys
// and strings carry their decoded value; containers open and close in
// pairs; and when Transcode succeeds, every other byte is accounted for.
// The inputs are the fuzz corpus and a few forms written out.
func TestOnToken(t *testing.T) {
	inputs := []string{
		`{a: 1, 'b': [0x1F, .5, +1,], "c": "\x41\u00e9"} // x`,
		"/* c */ {\u2028k: 'v\\\nw', \"q\": null, t: true, f: false, n: -0.5e3}",
		"{a: 1, // note\u2028 b: 2}",
		`{\u0061b: "x"}`,
		`[1, [2, {}], "s"`,
	}
	files, _ := filepath.Glob("testdata/fuzz/FuzzTranscode/*")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(line, "[]byte(") {
				if s, err := strconv.Unquote(strings.TrimSuffix(strings.TrimPrefix(line, "[]byte("), ")")); err == nil {
					inputs = append(inputs, s)
				}
			}
		}
	}
	if len(inputs) < 100 {
		t.Fatalf("only %d inputs", len(inputs))
	}
	for _, in := range inputs {
		checkTokens(t, []byte(in))
	}
}

func checkTokens(t *testing.T, src []byte) {
	t.Helper()
	var toks []Token
	_, err := Transcode(src, Options{MaxDepth: 64, OnToken: func(tk Token) {
		if tk.Value != nil {
			tk.Value = append([]byte(nil), tk.Value...)
		}
		toks = append(toks, tk)
	}})
	prev, depth := 0, 0
	for _, tk := range toks {
		if tk.Start < prev || tk.End <= tk.Start || tk.End > len(src) {
			t.Fatalf("%q: token %+v out of order after %d", src, tk, prev)
		}
		if gap := src[prev:tk.Start]; !blankGap(gap) {
			t.Fatalf("%q: %q between tokens", src, gap)
		}
		text := src[tk.Start:tk.End]
		switch tk.Kind {
		case TokenOpen:
			depth++
			if c := text[0]; len(text) != 1 || c != '{' && c != '[' {
				t.Fatalf("%q: open %q", src, text)
			}
		case TokenClose:
			depth--
			if c := text[0]; len(text) != 1 || c != '}' && c != ']' || depth < 0 {
				t.Fatalf("%q: close %q", src, text)
			}
		case TokenKey, TokenString:
			lit := text
			if c := text[0]; c != '"' && c != '\'' {
				lit = append(append([]byte{'"'}, text...), '"')
			}
			if v, err := Unquote(lit); err != nil || v != string(tk.Value) {
				t.Fatalf("%q: %v %q decodes to %q, told %q (%v)", src, tk.Kind, text, v, tk.Value, err)
			}
		case TokenLiteral:
			if _, err := Transcode(text, Options{}); err != nil {
				t.Fatalf("%q: literal %q: %v", src, text, err)
			}
		case TokenComment:
			if text[0] != '/' || text[1] != '/' && (text[1] != '*' || !strings.HasSuffix(string(text), "*/")) {
				t.Fatalf("%q: comment %q", src, text)
			}
		default:
			t.Fatalf("%q: kind %d", src, tk.Kind)
		}
		prev = tk.End
	}
	if err == nil && (depth != 0 || !blankGap(src[prev:])) {
		t.Fatalf("%q: parsed, yet depth %d and %q after the last token", src, depth, src[prev:])
	}
}

// blankGap reports whether b holds only what separates tokens.
func blankGap(b []byte) bool {
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		if r != ',' && r != ':' && !isSpace(r) {
			return false
		}
		b = b[n:]
	}
	return true
}
