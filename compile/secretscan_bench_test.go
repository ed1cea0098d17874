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

// TestScanSecretsAllocations bounds what a scan of the benchmark
// documents allocates, whatever their size: the scan, the runtime ids,
// the one place (the provider's baseUrl) and its path, and the selected
// model. The walks' steps and the known extents stay on the stack.
func TestScanSecretsAllocations(t *testing.T) {
	pol := SecretPolicyFor("")
	for _, d := range bench.Documents {
		for _, n := range []int{40, 1_000} {
			doc, err := Load(d.Make(n), LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if got, want := testing.AllocsPerRun(10, func() { ScanSecrets(doc, pol) }), float64(5+raceAllocs); got > want {
				t.Errorf("%s/models=%d: ScanSecrets allocates %v times, want at most %v", d.Name, n, got, want)
			}
		}
	}
}
