package logging_test

import (
	"fmt"
	"testing"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/compile"
	"github.com/occkit/occkit/internal/bench"
	"github.com/occkit/occkit/logging"
)

// BenchmarkStampLoaded is the stamp of the paired benchmarks' documents as
// admission takes them (loaded by compile.Load, no lookup made yet), and
// then with the canonical form admission takes of the stamped document.
func BenchmarkStampLoaded(b *testing.B) {
	for _, canonical := range []bool{false, true} {
		for _, d := range bench.Documents {
			for _, n := range bench.Sizes[:2] {
				src := d.Make(n)
				name := fmt.Sprintf("%s/models=%d", d.Name, n)
				if canonical {
					name = "canonical/" + name
				}
				b.Run(name, func(b *testing.B) {
					b.ReportAllocs()
					for i := 0; i < b.N; i++ {
						// A fresh Document each run: its root index is
						// not yet built, as in admission.
						b.StopTimer()
						doc, err := compile.Load(src, compile.LoadOptions{})
						if err != nil {
							b.Fatal(err)
						}
						b.StartTimer()
						out, err := logging.Stamp(doc, occkit.LevelInfo, occkit.OwnedByPlatform)
						if err != nil {
							b.Fatal(err)
						}
						if canonical {
							occkit.CanonicalDocument(out)
						}
					}
				})
			}
		}
	}
}

// BenchmarkStampCanonical is what admission freezes of a document loaded
// by compile.Load: the fixed cost of the stamp's canonical form on the
// small documents (bare and compact with one model, and bare with 40:
// the paired run's worst shape), and its cost per
// byte on the compact catalog. The document is loaded once: its root
// index, built by the first lookup, is a small part of the cost.
func BenchmarkStampCanonical(b *testing.B) {
	for _, c := range []struct {
		name string
		src  []byte
	}{
		{"bare/models=1", bench.Bare(1)},
		{"bare/models=40", bench.Bare(40)},
		{"compact/models=1", bench.Compact(1)},
		{"compact/models=40", bench.Compact(40)},
		{"compact/models=1000", bench.Compact(1000)},
	} {
		doc, err := compile.Load(c.src, compile.LoadOptions{})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.src)))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := logging.StampCanonical(doc, occkit.LevelInfo, occkit.OwnedByPlatform); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
