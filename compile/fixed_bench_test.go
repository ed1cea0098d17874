package compile_test

import (
	"fmt"
	"testing"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/compile"
	"github.com/occkit/occkit/compile/openclawschema"
	"github.com/occkit/occkit/internal/bench"
	"github.com/occkit/occkit/logging"
)

// BenchmarkFixedCost is the three stages of the user's path whose fixed
// cost weighs most on a small document, on the bare documents of one and
// 40 models: Load of the source bytes, then ScanSecrets of the canonical
// stamped document as admission scans it (and CheckLiterals of the scan).
// PreparePlan and PreparedPlan.Plan are BenchmarkPreparePlan's.
func BenchmarkFixedCost(b *testing.B) {
	pol := compile.SecretPolicyFor(openclawschema.Release())
	for _, n := range []int{1, 40} {
		src := bench.Bare(n)
		b.Run(fmt.Sprintf("load/bare/models=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := compile.Load(src, compile.LoadOptions{}); err != nil {
					b.Fatal(err)
				}
			}
		})
		doc, err := compile.Load(src, compile.LoadOptions{})
		if err != nil {
			b.Fatal(err)
		}
		canonical, err := logging.StampCanonical(doc, occkit.LevelInfo, occkit.OwnedByPlatform)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("scan/bare/models=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if err := compile.ScanSecrets(canonical, pol).CheckLiterals(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
