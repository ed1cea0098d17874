package compile

import (
	"fmt"
	"testing"

	"github.com/occkit/occkit/internal/bench"
)

// BenchmarkScanSecrets is one credential scan of the benchmark documents,
// the walk admission makes once per deployment.
func BenchmarkScanSecrets(b *testing.B) {
	pol := SecretPolicyFor("")
	for _, d := range bench.Documents {
		for _, n := range bench.Sizes {
			doc, err := Load(d.Make(n), LoadOptions{})
			if err != nil {
				b.Fatal(err)
			}
			b.Run(fmt.Sprintf("%s/models=%d", d.Name, n), func(b *testing.B) {
				b.SetBytes(int64(len(doc.String())))
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					ScanSecrets(doc, pol)
				}
			})
		}
	}
}
