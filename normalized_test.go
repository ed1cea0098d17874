package occkit_test

import (
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/internal/json5"
	"github.com/occkit/occkit/internal/normalized"
)

// genJSON5 writes a random JSON5 value with varied spellings: quotes,
// unquoted keys, escapes, hexadecimal and exponent numbers, comments,
// trailing commas, and now and then what a Document must refuse (a
// repeated key, a lone surrogate, a number beyond a double).
func genJSON5(t *rapid.T, b *strings.Builder, depth int) {
	kind := rapid.IntRange(0, 6).Draw(t, "kind")
	if depth > 4 && kind >= 5 {
		kind = 0
	}
	ws := func() {
		b.WriteString(rapid.SampledFrom([]string{"", "", " ", "\n", "/*c*/", "//c\n"}).Draw(t, "ws"))
	}
	switch kind {
	case 0:
		b.WriteString(rapid.SampledFrom([]string{`"a"`, `'b'`, `"\u00e9"`, `"\ud83d\ude00"`, `"x\ny"`, `"\ud800"`,
			`"é"`, `"\/"`, `"\u0000"`, `'it\'s'`, `"line\
cont"`}).Draw(t, "str"))
	case 1:
		b.WriteString(rapid.SampledFrom([]string{"0", "-0", "16", "16.0", "1.6e1", "0x10", "+1", ".5", "5.", "1e400",
			"9007199254740993", "1E-7", "-1.5e-300", "123456789012345678901234567890"}).Draw(t, "num"))
	case 2:
		b.WriteString(rapid.SampledFrom([]string{"true", "false", "null"}).Draw(t, "lit"))
	case 3, 4, 5:
		b.WriteByte('{')
		n := rapid.IntRange(0, 4).Draw(t, "members")
		for i := 0; i < n; i++ {
			ws()
			b.WriteString(rapid.SampledFrom([]string{`"a"`, `a`, `'b'`, `"\u0061"`, `c`, `"$x"`, `"k.y"`}).Draw(t, "key"))
			ws()
			b.WriteByte(':')
			genJSON5(t, b, depth+1)
			if i < n-1 || rapid.Bool().Draw(t, "trailing") {
				b.WriteByte(',')
			}
		}
		ws()
		b.WriteByte('}')
	default:
		b.WriteByte('[')
		n := rapid.IntRange(0, 3).Draw(t, "elements")
		for i := 0; i < n; i++ {
			ws()
			genJSON5(t, b, depth+1)
			if i < n-1 {
				b.WriteByte(',')
			}
		}
		b.WriteByte(']')
	}
}

// TestNormalizedIsADocument is what internal/normalized relies on: whatever the
// transcoder normalizes, ParseDocument accepts as it is, byte for byte.
func TestNormalizedIsADocument(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var b strings.Builder
		genJSON5(t, &b, 0)
		n, err := json5.Normalize([]byte(b.String()), json5.Options{MaxDepth: rapid.IntRange(1, 8).Draw(t, "maxDepth")})
		if err != nil {
			return
		}
		d, err := occkit.ParseDocument(n.Bytes())
		if err != nil {
			t.Fatalf("%s normalized to %s, which ParseDocument refuses: %v", b.String(), n.Bytes(), err)
		}
		if got := normalized.Document[occkit.Document](n); !got.Equal(d) || got.String() != string(n.Bytes()) {
			t.Fatalf("%s: normalized.Document %s, ParseDocument %s", b.String(), got, d)
		}
	})
	// The deepest Normalize allows is the deepest ParseDocument allows.
	deep := strings.Repeat("[", json5.MaxNormalizedDepth) + strings.Repeat("]", json5.MaxNormalizedDepth)
	n, err := json5.Normalize([]byte(deep), json5.Options{MaxDepth: 1 << 30})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := occkit.ParseDocument(n.Bytes()); err != nil {
		t.Fatalf("ParseDocument refuses the deepest normalized document: %v", err)
	}
	if _, err := json5.Normalize([]byte("["+deep+"]"), json5.Options{MaxDepth: 1 << 30}); err == nil {
		t.Fatal("Normalize went past MaxNormalizedDepth")
	}
	if (normalized.Document[occkit.Document](json5.Normalized{})).String() != "{}" {
		t.Fatal("the zero Normalized is not the empty object")
	}
}
