package occkit

import (
	"bytes"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
	"pgregory.net/rapid"
)

// canonicalWritten is the canonical writer as it was before its output
// started as a copy of the source: every byte written, none taken from
// the copy (mirror off, the output zeroed).
func canonicalWritten(d Document) []byte {
	src := d.bytes()
	c := canon{src: src, out: make([]byte, len(src))}
	c.value(0)
	return c.out[:c.n]
}

// TestCanonicalMirrorProperty: the canonical form taken partly from the
// copy of the source is byte for byte the one written whole, and the
// definition's, on documents where escapes and number spellings shorten
// and lengthen the output now and then (so that it falls out of step
// with the source and back), between plain runs and reordered objects.
func TestCanonicalMirrorProperty(t *testing.T) {
	token := func(t *rapid.T) string {
		return rapid.SampledFrom([]string{
			`"plain"`, `"a\u0041b"`, `"\/x"`, `"\u00e9"`, `"<\u003c>"`, `"\u2028"`,
			`1`, `1.0`, `1E2`, `1e21`, `-0`, `0.10`, `12345678901234567890`, `2.50e-3`,
			`true`, `null`, `[1,"x",2.0]`, `{"b":1,"a":"\u0061"}`,
		}).Draw(t, "token")
	}
	var object func(t *rapid.T, depth int) string
	object = func(t *rapid.T, depth int) string {
		n := rapid.IntRange(0, 12).Draw(t, "members")
		var b strings.Builder
		b.WriteByte('{')
		seen := map[string]bool{}
		for i := 0; i < n; i++ {
			k := rapid.StringMatching(`[a-e]{1,3}|\\u006[1-5]x`).Draw(t, "key")
			if seen[k] {
				continue
			}
			seen[k] = true
			if b.Len() > 1 {
				b.WriteByte(',')
			}
			b.WriteString(`"` + k + `":`)
			if depth < 3 && rapid.IntRange(0, 3).Draw(t, "nested") == 0 {
				b.WriteString(object(t, depth+1))
			} else {
				b.WriteString(token(t))
			}
		}
		b.WriteByte('}')
		return b.String()
	}
	rapid.Check(t, func(t *rapid.T) {
		d, err := ParseDocument([]byte(object(t, 0)))
		if err != nil {
			t.Skip("a key drawn twice in two spellings")
		}
		got := Canonical(d)
		if want := canonicalWritten(d); !bytes.Equal(got, want) {
			t.Fatalf("Canonical(%s)\n got %s\nwritten whole %s", d, got, want)
		}
		var def bytes.Buffer
		refCanonical(&def, gjson.Parse(d.String()))
		if !bytes.Equal(got, def.Bytes()) {
			t.Fatalf("Canonical(%s)\n got %s\ndefinition %s", d, got, def.Bytes())
		}
		cd := CanonicalDocument(d)
		if !bytes.Equal(cd.bytes(), got) {
			t.Fatalf("CanonicalDocument(%s) = %s, want %s", d, cd, got)
		}
		checkIndex(t, cd, "CanonicalDocument")
	})
}
