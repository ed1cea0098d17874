package openclawschema

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
	"pgregory.net/rapid"

	"github.com/occkit/occkit"
)

// shuffled writes the JSON value v with the members of every object in an
// order drawn from t (elements stay in theirs: arrays are ordered).
func shuffled(t *rapid.T, b *strings.Builder, v gjson.Result) {
	switch {
	case v.IsObject():
		var keys, vals []gjson.Result
		v.ForEach(func(k, x gjson.Result) bool {
			keys, vals = append(keys, k), append(vals, x)
			return true
		})
		order := make([]int, len(keys))
		for i := range order {
			order[i] = i
		}
		order = rapid.Permutation(order).Draw(t, "order")
		b.WriteByte('{')
		for n, i := range order {
			if n > 0 {
				b.WriteByte(',')
			}
			b.WriteString(keys[i].Raw)
			b.WriteByte(':')
			shuffled(t, b, vals[i])
		}
		b.WriteByte('}')
	case v.IsArray():
		b.WriteByte('[')
		for n, x := range v.Array() {
			if n > 0 {
				b.WriteByte(',')
			}
			shuffled(t, b, x)
		}
		b.WriteByte(']')
	default:
		b.WriteString(v.Raw)
	}
}

// TestValidityIgnoresMemberOrder: no schema rule or refinement decides on
// the order of an object's members, so a document, the same document with
// every object's members shuffled and its canonical form get the same
// verdict (admission validates the canonical form). What a refusal says
// may depend on the order (a refinement names the first header of two
// that differ only by case; the cap on issues keeps those met first), so
// admission explains a refusal on the document as stamped, and this test
// compares verdicts. Documents are drawn from the schema and the
// refinements, and read from the fuzz corpus.
func TestValidityIgnoresMemberOrder(t *testing.T) {
	v, err := New()
	if err != nil {
		t.Fatal(err)
	}
	var refused, total int
	check := func(t *rapid.T, src []byte) {
		doc, err := occkit.ParseDocument(src)
		if err != nil {
			t.Skip("not a Document")
		}
		var b strings.Builder
		shuffled(t, &b, gjson.Parse(doc.String()))
		other, err := occkit.ParseDocument([]byte(b.String()))
		if err != nil {
			t.Fatalf("shuffling %s made %s: %v", doc, b.String(), err)
		}
		want := v.Validate(doc)
		total++
		if want != nil {
			refused++
		}
		for name, d := range map[string]occkit.Document{"shuffled": other, "canonical": occkit.CanonicalDocument(other)} {
			got := v.Validate(d)
			if (got == nil) != (want == nil) {
				t.Fatalf("%s %s: %v; as written %s: %v", name, d, got, doc, want)
			}
		}
	}
	for run := 0; run < 3; run++ {
		rapid.Check(t, func(t *rapid.T) { check(t, genDocument(t, v, 23)) })
	}
	corpus, _ := filepath.Glob("testdata/fuzz/FuzzValidate/*")
	var srcs [][]byte
	for _, f := range corpus {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		// "go test fuzz v1", then one string(...) literal.
		lines := strings.SplitN(string(raw), "\n", 2)
		lit := strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(lines[len(lines)-1]), "string("), ")")
		if src, err := strconv.Unquote(lit); err == nil {
			srcs = append(srcs, []byte(src))
		}
	}
	if len(srcs) == 0 {
		t.Fatal("no fuzz corpus read")
	}
	for run := 0; run < 3; run++ {
		rapid.Check(t, func(t *rapid.T) { check(t, rapid.SampledFrom(srcs).Draw(t, "corpus")) })
	}
	if refused == 0 || refused == total {
		t.Fatalf("%d of %d documents refused: the draw must reach both verdicts", refused, total)
	}
	t.Logf("%d documents, %d refused", total, refused)
}
