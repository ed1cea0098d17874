package openclawschema_test

import (
	"fmt"
	"testing"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/compile/openclawschema"
	"github.com/occkit/occkit/internal/bench"
)

// BenchmarkPairedDocuments measures the check Admit runs (DOC-5) on the
// documents of the paired benchmarks (internal/bench), compacted as
// compile.Load writes them.
func BenchmarkPairedDocuments(b *testing.B) {
	v, err := openclawschema.New()
	if err != nil {
		b.Fatal(err)
	}
	for _, d := range bench.Documents {
		for _, n := range []int{40, 1000} {
			doc, err := occkit.ParseDocument(d.Make(n))
			if err != nil {
				b.Fatal(err)
			}
			b.Run(fmt.Sprintf("%s/models=%d", d.Name, n), func(b *testing.B) {
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					if err := v.Validate(doc); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
