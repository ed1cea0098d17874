package json5

import (
	"fmt"
	"testing"

	"github.com/occkit/occkit/internal/bench"
	"github.com/occkit/occkit/internal/json5/internal/reference"
)

// BenchmarkNormalize normalizes the paired benchmarks' documents
// (internal/bench), with the frozen transcoder beside for comparison
// (benchstat -col /impl).
func BenchmarkNormalize(b *testing.B) {
	for _, d := range bench.Documents {
		for _, n := range bench.Sizes {
			src := d.Make(n)
			b.Run(fmt.Sprintf("%s/models=%d/impl=ours", d.Name, n), func(b *testing.B) {
				b.SetBytes(int64(len(src)))
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					if _, err := Normalize(src, Options{MaxDepth: 64}); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run(fmt.Sprintf("%s/models=%d/impl=reference", d.Name, n), func(b *testing.B) {
				b.SetBytes(int64(len(src)))
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					if _, err := reference.Normalize(src, reference.Options{MaxDepth: 64}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
