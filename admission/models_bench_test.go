package admission

import (
	"fmt"
	"strings"
	"testing"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/resolver"
)

// rosterDoc selects n models of one provider, a primary and n-1 fallbacks
// of agents.defaults.model beside an entry's own model, and resolves:
// with configured, the provider is configured under models.providers
// (every ref is the provider's business); without, it is the built-in
// anthropic, and every ref is looked up in the release's catalog.
func rosterDoc(n int, configured bool) occkit.Document {
	p, ids := "anthropic", []string{"claude-sonnet-4-6", "claude-haiku-4-5"}
	var s strings.Builder
	s.WriteString(`{`)
	if configured {
		p, ids = "corp", []string{"m0", "m1"}
		s.WriteString(`"models":{"providers":{"corp":{"baseUrl":"https://llm.corp","agentRuntime":{"id":"openclaw"},"models":[]}}},`)
	}
	fmt.Fprintf(&s, `"agents":{"defaults":{"model":{"primary":"%s/%s","fallbacks":[`, p, ids[0])
	for i := 1; i < n; i++ {
		if i > 1 {
			s.WriteByte(',')
		}
		fmt.Fprintf(&s, `"%s/%s"`, p, ids[i%2])
	}
	fmt.Fprintf(&s, `]}},"entries":{"main":{"model":"%s/%s"}}}}`, p, ids[0])
	return occkit.MustParseDocument(s.String())
}

// preparedRoster is rosterDoc's analysis, which resolves, and its primary.
func preparedRoster(tb testing.TB, n int, configured bool) (*resolver.Prepared, string) {
	res := resolver.Prepare(rosterDoc(n, configured))
	dec, err := res.Resolve(resolver.Request{})
	if err != nil {
		tb.Fatalf("%d models: %v", n, err)
	}
	return res, dec.Primary
}

// TestCheckModelsAllocationsFlat: holding a roster against the catalog
// allocates as much for 2,000 selected models as for 20: a path is built
// only for a finding (and the primary's place), and a provider is looked
// up once.
func TestCheckModelsAllocationsFlat(t *testing.T) {
	for _, configured := range []bool{true, false} {
		allocs := func(n int) float64 {
			res, primary := preparedRoster(t, n, configured)
			return testing.AllocsPerRun(5, func() {
				if w, _, err := checkModelsAt(res, "2026.9.6", primary); err != nil || len(w) != 0 {
					t.Fatalf("%d models: %v, %d warnings", n, err, len(w))
				}
			})
		}
		if small, large := allocs(20), allocs(2_000); large > small {
			t.Errorf("configured %v: allocations grow with the roster: %v for 20 models, %v for 2,000", configured, small, large)
		}
	}
}

// BenchmarkCheckModelsRoster holds rosters of 1,000 and 10,000 selected
// models against the catalog: the time per model stays flat. Each ref's
// provider was once looked up from the document's root and each ref's
// path built (10,000 models: 0.81 s and 80,053 allocations before, 1.6 ms
// and 10 after; the compact benchmark document at 10,000 models was 5 s
// to Kubernetes objects, 0.08 s after). The refs are now read from the
// resolver's index, not from the document again.
func BenchmarkCheckModelsRoster(b *testing.B) {
	for _, configured := range []bool{true, false} {
		for _, n := range []int{1_000, 10_000} {
			res, primary := preparedRoster(b, n, configured)
			b.Run(fmt.Sprintf("configured=%v/%d", configured, n), func(b *testing.B) {
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					if _, _, err := checkModelsAt(res, "2026.9.6", primary); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/model")
			})
		}
	}
}
