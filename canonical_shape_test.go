package occkit

import (
	"bytes"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
	"pgregory.net/rapid"
)

// TestCanonicalShapeProperty: objects whose keys repeat an earlier
// object's (the same keys in the same order, in another order, one key
// a byte apart, spelled with an escape or without, one more or one
// fewer) take the order remembered only when it is theirs: the canonical
// form and its root places are the definition's.
func TestCanonicalShapeProperty(t *testing.T) {
	// Spellings of keys: several of one decoded key, and keys one byte
	// apart (or ordered otherwise in UTF-16 than in UTF-8).
	spellings := [][]string{
		{`id`, `\u0069d`, `i\u0064`},
		{`ie`}, {`hd`}, {`id2`}, {`i`},
		{`name`, `n\u0061me`},
		{`nbme`}, {`namf`},
		{`\u00e9`, `é`},
		{`\ud83d\ude00`, `😀`},
		{`\uffff`, `￿`},
		{`a`}, {`b`}, {`c`}, {`z`},
	}
	rapid.Check(t, func(t *rapid.T) {
		// A few key sets, each drawn again and again, permuted now and
		// then, with a key swapped for a neighbour or dropped.
		nsets := rapid.IntRange(1, 4).Draw(t, "sets")
		sets := make([][]int, nsets)
		for s := range sets {
			sets[s] = rapid.SliceOfNDistinct(rapid.IntRange(0, len(spellings)-1), 1, 14, rapid.ID[int]).Draw(t, "set")
		}
		object := func(t *rapid.T, inner string) string {
			keys := append([]int(nil), sets[rapid.IntRange(0, nsets-1).Draw(t, "which")]...)
			switch rapid.IntRange(0, 5).Draw(t, "change") {
			case 0:
				i, j := rapid.IntRange(0, len(keys)-1).Draw(t, "i"), rapid.IntRange(0, len(keys)-1).Draw(t, "j")
				keys[i], keys[j] = keys[j], keys[i]
			case 1:
				keys[rapid.IntRange(0, len(keys)-1).Draw(t, "at")] = rapid.IntRange(0, len(spellings)-1).Draw(t, "other")
			case 2:
				keys = keys[:len(keys)-1]
			}
			var b strings.Builder
			b.WriteByte('{')
			for k, key := range keys {
				if k > 0 {
					b.WriteByte(',')
				}
				sp := spellings[key]
				b.WriteString(`"` + sp[rapid.IntRange(0, len(sp)-1).Draw(t, "spelling")] + `":`)
				if inner != "" && k == 0 {
					b.WriteString(inner)
				} else {
					b.WriteString(`[` + strings.Repeat("1,", k) + `0]`)
				}
			}
			b.WriteByte('}')
			return b.String()
		}
		n := rapid.IntRange(1, 30).Draw(t, "objects")
		var b strings.Builder
		b.WriteString(`{"z":[`)
		for i := 0; i < n; i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			inner := ""
			if rapid.Bool().Draw(t, "nested") {
				inner = object(t, "")
			}
			b.WriteString(object(t, inner))
		}
		b.WriteString(`],"a":` + object(t, "") + `}`)
		d, err := ParseDocument([]byte(b.String()))
		if err != nil {
			t.Skip("a key drawn twice in one object")
		}
		var def bytes.Buffer
		refCanonical(&def, gjson.Parse(d.String()))
		if got := Canonical(d); !bytes.Equal(got, def.Bytes()) {
			t.Fatalf("Canonical(%s)\n got %s\ndefinition %s", d, got, def.Bytes())
		}
		cd := CanonicalDocument(d)
		if !bytes.Equal(cd.bytes(), def.Bytes()) {
			t.Fatalf("CanonicalDocument(%s)\n got %s\ndefinition %s", d, cd, def.Bytes())
		}
		checkIndex(t, cd, "CanonicalDocument")
	})
}
