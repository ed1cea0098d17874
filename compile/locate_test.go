package compile_test

import (
	"fmt"
	"testing"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/compile"
	"pgregory.net/rapid"
)

func TestLocate(t *testing.T) {
	src := []byte("// head\n{\n  agents: {\n    'defaults': {model: \"a/b\", /* c */ fallbacks: [\"x/y\", {k: 1}]},\n  },\n  \"é\": {a: 1}, z: 2\n}\n")
	root := occkit.Root()
	tests := []struct {
		p         occkit.Path
		line, col int
	}{
		{root, 2, 1},
		{root.Key("agents"), 3, 3},
		{root.Key("agents").Key("defaults"), 4, 5},
		{root.Key("agents").Key("defaults").Key("model"), 4, 18},
		{root.Key("agents").Key("defaults").Key("fallbacks"), 4, 40},
		{root.Key("agents").Key("defaults").Key("fallbacks").Index(1), 4, 59},
		{root.Key("agents").Key("defaults").Key("fallbacks").Index(1).Key("k"), 4, 60},
		{root.Key("agents").Key("defaults").Key("missing"), 4, 5},
		{root.Key("z"), 6, 16},
		{root.Key("é").Key("a"), 6, 9},
		{root.Key("agents").Index(0), 3, 3},
	}
	for _, tc := range tests {
		line, col, ok := compile.Locate(src, tc.p)
		if !ok || line != tc.line || col != tc.col {
			t.Errorf("Locate(%s) = %d:%d %v, want %d:%d", tc.p, line, col, ok, tc.line, tc.col)
		}
	}
	if _, _, ok := compile.Locate([]byte(" // nothing\n"), root); ok {
		t.Errorf("an empty document located")
	}
}

// Every key of a generated strict JSON document is located at its own
// quoted key, whatever comes before it, and Locate never panics.
func TestLocateProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		keys := rapid.SliceOfNDistinct(rapid.StringMatching(`[a-z]{1,4}`), 1, 6, func(s string) string { return s }).Draw(t, "keys")
		src := "{"
		pos := map[string]int{}
		for i, k := range keys {
			if i > 0 {
				src += ",\n "
			}
			pos[k] = len(src)
			src += fmt.Sprintf("%q: [1, {\"x\": \"}]\"}]", k)
		}
		src += "}"
		for _, k := range keys {
			if _, _, ok := compile.Locate([]byte(src), occkit.Root().Key(k).Index(1).Key("x")); !ok {
				t.Fatalf("not located")
			}
			l, c, _ := compile.Locate([]byte(src), occkit.Root().Key(k))
			wantLine, wantCol := 1, 1
			for _, ch := range src[:pos[k]] {
				if ch == '\n' {
					wantLine, wantCol = wantLine+1, 1
				} else {
					wantCol++
				}
			}
			if l != wantLine || c != wantCol {
				t.Fatalf("key %q at %d:%d, want %d:%d in %s", k, l, c, wantLine, wantCol, src)
			}
		}
		junk := rapid.SliceOf(rapid.Byte()).Draw(t, "junk")
		compile.Locate(junk, occkit.Root().Key("a").Index(3))
	})
}

func FuzzLocate(f *testing.F) {
	f.Add([]byte(`{a: [1, {b: 'x'}]}`), "a", 1, "b")
	f.Fuzz(func(t *testing.T, src []byte, k1 string, i int, k2 string) {
		compile.Locate(src, occkit.Root().Key(k1).Index(i&0xff).Key(k2))
	})
}

// Locate turns the path of a refusal into a line and column of the text.
func ExampleLocate() {
	src := []byte("{\n  agents: {\n    defualts: {model: 'openai/gpt-5'},\n  },\n}")
	line, col, _ := compile.Locate(src, occkit.Root().Key("agents").Key("defualts"))
	fmt.Printf("openclaw.json5:%d:%d\n", line, col)
	// Output: openclaw.json5:3:5
}
