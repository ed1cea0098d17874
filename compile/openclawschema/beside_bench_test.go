package openclawschema

import (
	"fmt"
	"testing"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/internal/bench"
	"github.com/occkit/occkit/logging"
)

// stampedCanonical is d stamped (LOG-1) in canonical form, the document
// admission checks (logging.StampCanonical).
func stampedCanonical(tb testing.TB, d []byte) occkit.Document {
	doc, err := occkit.ParseDocument(d)
	if err != nil {
		tb.Fatal(err)
	}
	canonical, err := logging.StampCanonical(doc, occkit.LevelInfo, occkit.OwnedByPlatform)
	if err != nil {
		tb.Fatal(err)
	}
	return canonical
}

// BenchmarkValidBeside measures ValidBeside as admission calls it: on the
// canonical stamped form of the bare document at one and 40 models, beside
// the DOC-5 schema's walk, where the walk's and the refinements' fixed
// cost decides.
func BenchmarkValidBeside(b *testing.B) {
	v, err := New()
	if err != nil {
		b.Fatal(err)
	}
	other := docSchema(b)
	for _, n := range []int{1, 40} {
		doc := stampedCanonical(b, bench.Bare(n))
		if !v.ValidBeside(doc, other) {
			b.Fatalf("bare=%d: refused: %v", n, v.Validate(doc))
		}
		b.Run(fmt.Sprintf("bare=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if !v.ValidBeside(doc, other) {
					b.Fatal("refused")
				}
			}
		})
	}
}
