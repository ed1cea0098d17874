package resolver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/internal/bench"
)

// BenchmarkPrepareUser measures Prepare alone on the documents of the
// paired benchmarks (internal/bench), compacted as compile.Load leaves
// them, so its profile is the share of the user's path Prepare takes.
func BenchmarkPrepareUser(b *testing.B) {
	eachUserDoc(b, func(b *testing.B, doc occkit.Document) {
		for i := 0; i < b.N; i++ {
			Prepare(doc)
		}
	})
}

// eachUserDoc runs bench on each document of the paired benchmarks
// (internal/bench), at each size, compacted as compile.Load leaves it.
func eachUserDoc(b *testing.B, bench1 func(*testing.B, occkit.Document)) {
	for _, d := range bench.Documents {
		for _, n := range bench.Sizes {
			var buf bytes.Buffer
			if err := json.Compact(&buf, d.Make(n)); err != nil {
				b.Fatal(err)
			}
			doc := occkit.MustParseDocument(buf.String())
			if err := Prepare(doc).Err(); err != nil {
				b.Fatalf("%s/%d does not prepare: %v", d.Name, n, err)
			}
			b.Run(fmt.Sprintf("%s/models=%d", d.Name, n), func(b *testing.B) {
				b.SetBytes(int64(buf.Len()))
				b.ReportAllocs()
				bench1(b, doc)
			})
		}
	}
}

// BenchmarkPreparedUser measures what admission asks of a Prepared on the
// user's path (internal/bench documents): one Resolve and one
// deployment-stage CheckRoster.
func BenchmarkPreparedUser(b *testing.B) {
	for _, d := range bench.Documents {
		for _, n := range []int{40, 1000} {
			var buf bytes.Buffer
			if err := json.Compact(&buf, d.Make(n)); err != nil {
				b.Fatal(err)
			}
			p := Prepare(occkit.MustParseDocument(buf.String()))
			req := Request{Mode: occkit.ModeEmbedded, Compute: occkit.ComputeKubernetes}
			roster := RosterRequest{Stage: StageDeploy, Compute: occkit.ComputeKubernetes, Mode: occkit.ModeEmbedded}
			b.Run(fmt.Sprintf("%s/models=%d", d.Name, n), func(b *testing.B) {
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					if _, err := p.Resolve(req); err != nil {
						b.Fatal(err)
					}
					if err := p.CheckRoster(roster); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkPrepareResolveUser measures what admission does with a
// document on the user's path (internal/bench documents): one Prepare
// and one Resolve of it.
func BenchmarkPrepareResolveUser(b *testing.B) {
	req := Request{Mode: occkit.ModeEmbedded, Compute: occkit.ComputeKubernetes}
	eachUserDoc(b, func(b *testing.B, doc occkit.Document) {
		for i := 0; i < b.N; i++ {
			if _, err := Prepare(doc).Resolve(req); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkPrepareResolveShapes is [BenchmarkPrepareResolveUser] on the
// shapes whose Prepare differs most: the compact document, the indented
// one and the agents one (an Agent entry for every other model, each with
// its own model setting) and the bare one (what the rules ask of each
// model and nothing else, so the per-model cost of the indexing weighs
// most), compacted as compile.Load leaves them, so an A/B of Prepare's
// indexing reads the entries' cost beside the catalog's.
func BenchmarkPrepareResolveShapes(b *testing.B) {
	req := Request{Mode: occkit.ModeEmbedded, Compute: occkit.ComputeKubernetes}
	docs := []bench.Document{bench.Documents[0], {Name: "agents", Make: bench.Agents}, bench.Documents[1], {Name: "bare", Make: bench.Bare}}
	for _, d := range docs {
		for _, n := range bench.Sizes {
			// The document is made inside the sub-benchmark, so a run of
			// one of them (timed whole, as an A/B reads CPU time) makes
			// no other.
			b.Run(fmt.Sprintf("%s/models=%d", d.Name, n), func(b *testing.B) {
				var buf bytes.Buffer
				if err := json.Compact(&buf, d.Make(n)); err != nil {
					b.Fatal(err)
				}
				doc := occkit.MustParseDocument(buf.String())
				b.SetBytes(int64(buf.Len()))
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					if _, err := Prepare(doc).Resolve(req); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
