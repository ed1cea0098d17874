package selection_test

import (
	"fmt"
	"testing"

	"github.com/occkit/occkit/compile"
	"github.com/occkit/occkit/internal/bench"
	"github.com/occkit/occkit/resolver/selection"
)

// BenchmarkPrepareFixed is selection.Prepare of the bare and compact
// documents, loaded, at the small sizes where the fixed cost of a
// preparation (its maps, tables and paths) weighs most: the paired
// program's prepare/U measure on the shapes it reports.
func BenchmarkPrepareFixed(b *testing.B) {
	for _, d := range []bench.Document{{Name: "bare", Make: bench.Bare}, {Name: "compact", Make: bench.Compact}} {
		for _, n := range []int{1, 2, 40} {
			doc, err := compile.Load(d.Make(n), compile.LoadOptions{})
			if err != nil {
				b.Fatal(err)
			}
			b.Run(fmt.Sprintf("%s/models=%d", d.Name, n), func(b *testing.B) {
				b.ReportAllocs()
				for range b.N {
					selection.Prepare(doc)
				}
			})
		}
	}
}

// BenchmarkPreparedFixed is the four decisions of the paired program's
// prepared-decision measure on a prepared Index of the documents of
// BenchmarkPrepareFixed: what a cheaper preparation must not make
// slower.
func BenchmarkPreparedFixed(b *testing.B) {
	for _, d := range []bench.Document{{Name: "bare", Make: bench.Bare}, {Name: "compact", Make: bench.Compact}} {
		for _, n := range []int{1, 40, 1000} {
			doc, err := compile.Load(d.Make(n), compile.LoadOptions{})
			if err != nil {
				b.Fatal(err)
			}
			x := selection.Prepare(doc)
			var reqs []selection.Request
			for _, q := range bench.Decisions(n) {
				reqs = append(reqs, selection.Request{Provider: q.Provider, Model: q.Model, AgentID: q.AgentID})
			}
			b.Run(fmt.Sprintf("%s/models=%d", d.Name, n), func(b *testing.B) {
				b.ReportAllocs()
				for range b.N {
					for _, r := range reqs {
						if _, err := x.Select(r, nil); err != nil {
							b.Fatal(err)
						}
					}
				}
			})
		}
	}
}
