package openclawschema_test

import (
	"testing"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/compile/openclawschema"
	"github.com/occkit/occkit/internal/bench"
)

// BenchmarkValidFixed measures Valid where its fixed cost decides: on
// the empty document and a bare one-model document, where the walk and
// the refinements' setup are most of it, and at 40 models (bare and
// compact), where the whole path is held to one encoding/json Unmarshal
// of the same bytes.
func BenchmarkValidFixed(b *testing.B) {
	v, err := openclawschema.New()
	if err != nil {
		b.Fatal(err)
	}
	for _, d := range []struct {
		name string
		src  []byte
	}{
		{"empty", []byte(`{}`)},
		{"bare=1", bench.Bare(1)},
		{"bare=40", bench.Bare(40)},
		{"compact=40", bench.Compact(40)},
	} {
		doc, err := occkit.ParseDocument(d.src)
		if err != nil {
			b.Fatal(err)
		}
		if !v.Valid(doc) {
			b.Fatalf("%s: OpenClaw refuses the document: %v", d.name, v.Validate(doc))
		}
		b.Run(d.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if !v.Valid(doc) {
					b.Fatal("refused")
				}
			}
		})
	}
}
