package occkit_test

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/compile"
	"github.com/occkit/occkit/internal/bench"
)

// BenchmarkCanonicalDocument is the canonical form of the paired
// benchmarks' documents as admission takes it: loaded by compile.Load.
func BenchmarkCanonicalDocument(b *testing.B) {
	for _, d := range bench.Documents {
		for _, n := range bench.Sizes[:2] {
			doc, err := compile.Load(d.Make(n), compile.LoadOptions{})
			if err != nil {
				b.Fatal(err)
			}
			b.Run(fmt.Sprintf("%s/models=%d", d.Name, n), func(b *testing.B) {
				b.SetBytes(int64(len(doc.String())))
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					occkit.CanonicalDocument(doc)
				}
			})
		}
	}
}

// TestCanonicalDocumentAllocates: the canonical form of a loaded
// benchmark document allocates its output and not much more (the
// members' bookkeeping and the few members moved through scratch), where
// copying each object out and back took a second document and more
// (3.0× the compact document, 3.3× the indented one).
func TestCanonicalDocumentAllocates(t *testing.T) {
	for _, d := range bench.Documents {
		doc, err := compile.Load(d.Make(1000), compile.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		const runs = 20
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for i := 0; i < runs; i++ {
			occkit.CanonicalDocument(doc)
		}
		runtime.ReadMemStats(&after)
		perDoc := float64(after.TotalAlloc-before.TotalAlloc) / runs / float64(len(doc.String()))
		if perDoc > 2.25 {
			t.Errorf("%s: CanonicalDocument allocates %.2f× the document, want at most 2.25×", d.Name, perDoc)
		}
	}
}

// BenchmarkCanonicalApply is the canonical form admission freezes: the
// compact benchmark document, loaded by compile.Load, with the edits
// logging.StampCanonical makes of it (its logging holds a level and
// redactSensitive, and it has no diagnostics).
func BenchmarkCanonicalApply(b *testing.B) {
	edits := []occkit.Edit{
		{Path: occkit.NewPath("logging", "redactSensitive"), Delete: true},
		{Path: occkit.NewPath("logging", "level"), Raw: []byte(`"info"`)},
		{Path: occkit.NewPath("logging", "consoleLevel"), Raw: []byte(`"info"`)},
		{Path: occkit.NewPath("logging", "consoleStyle"), Raw: []byte(`"json"`)},
		{Path: occkit.NewPath("diagnostics"), Raw: []byte(`{"otel":{"logs":false}}`)},
	}
	for _, n := range []int{bench.Sizes[0], bench.Sizes[2]} {
		doc, err := compile.Load(bench.Compact(n), compile.LoadOptions{})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("compact/models=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(doc.String())))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := occkit.CanonicalApply(doc, edits...); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
