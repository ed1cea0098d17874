package compile

import (
	"fmt"
	"testing"

	"github.com/occkit/occkit/compile/openclawschema"
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
// documents allocates, whatever their size: the scan, which holds the
// one runtime id, the one place (the provider's baseUrl) and the
// selected model, and the place's path. The walks' steps and the known
// extents stay on the stack.
func TestScanSecretsAllocations(t *testing.T) {
	pol := SecretPolicyFor("")
	for _, d := range bench.Documents {
		for _, n := range []int{40, 1_000} {
			doc, err := Load(d.Make(n), LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if got, want := testing.AllocsPerRun(10, func() { ScanSecrets(doc, pol) }), float64(2+raceAllocs); got > want {
				t.Errorf("%s/models=%d: ScanSecrets allocates %v times, want at most %v", d.Name, n, got, want)
			}
		}
	}
}

// BenchmarkScanSecretsShapes is one credential scan, under the policy
// admission uses (the pinned release's), of the documents whose scan
// admission's path pays most for: the bare document at one model, where
// the scan's fixed cost is nearly all of it, the compact one and the one
// with many agents at 40 models, and the compact one at 1,000.
func BenchmarkScanSecretsShapes(b *testing.B) {
	pol := SecretPolicyFor(openclawschema.Release())
	for _, c := range []struct {
		name string
		make func(int) []byte
		n    int
	}{{"bare", bench.Bare, 1}, {"compact", bench.Compact, 40}, {"agents", bench.Agents, 40}, {"compact", bench.Compact, 1_000}} {
		doc, err := Load(c.make(c.n), LoadOptions{})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("%s/models=%d", c.name, c.n), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				ScanSecrets(doc, pol)
			}
		})
	}
}
