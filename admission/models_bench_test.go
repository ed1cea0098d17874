package admission

import (
	"fmt"
	"strings"
	"testing"

	"github.com/occkit/occkit"
)

// rosterDoc selects n models across a configured provider and a built-in
// one: a primary and n-1 fallbacks of agents.defaults.model, beside an
// entry's own model.
func rosterDoc(n int) occkit.Document {
	var s strings.Builder
	s.WriteString(`{"models":{"providers":{"corp":{"baseUrl":"https://llm.corp","models":[]}}},"agents":{"defaults":{"model":{"primary":"corp/m0","fallbacks":[`)
	for i := 1; i < n; i++ {
		if i > 1 {
			s.WriteByte(',')
		}
		if i%2 == 0 {
			fmt.Fprintf(&s, `"corp/m%d"`, i)
		} else {
			s.WriteString(`"openai/gpt-5.5"`)
		}
	}
	s.WriteString(`]}},"entries":{"main":{"model":"openai/gpt-5.4"}}}}`)
	return occkit.MustParseDocument(s.String())
}

// TestCheckModelsAllocationsFlat: holding a roster against the catalog
// allocates as much for 2,000 selected models as for 20: a path is built
// only for a finding, and the configured providers are listed once.
func TestCheckModelsAllocationsFlat(t *testing.T) {
	allocs := func(n int) float64 {
		doc := rosterDoc(n)
		return testing.AllocsPerRun(5, func() {
			if w, err := checkModels(doc, "2026.9.6"); err != nil || len(w) != 0 {
				t.Fatalf("%d models: %v, %d warnings", n, err, len(w))
			}
		})
	}
	if small, large := allocs(20), allocs(2_000); large > small {
		t.Errorf("allocations grow with the roster: %v for 20 models, %v for 2,000", small, large)
	}
}

// BenchmarkCheckModelsRoster holds rosters of 1,000 and 10,000 selected
// models against the catalog: the time per model stays flat. Each ref's
// provider was once looked up from the document's root and each ref's
// path built (10,000 models: 0.81 s and 80,053 allocations before, 1.6 ms
// and 10 after; the compact benchmark document at 10,000 models was 5 s
// to Kubernetes objects, 0.08 s after).
func BenchmarkCheckModelsRoster(b *testing.B) {
	for _, n := range []int{1_000, 10_000} {
		doc := rosterDoc(n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := checkModels(doc, "2026.9.6"); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/model")
		})
	}
}
