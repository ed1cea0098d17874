package openclawschema_test

import (
	"runtime"
	"testing"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/compile/openclawschema"
	"github.com/occkit/occkit/internal/bench"
	"github.com/occkit/occkit/logging"
)

// fixedDocs are the documents of the fixed cost's measures: the first
// four those where it decides (BenchmarkValidFixed), the others larger
// ones whose validation allocates no more (TestValidFixedCost).
var fixedDocs = []struct {
	name string
	src  []byte
}{
	{"empty", []byte(`{}`)},
	{"bare=1", bench.Bare(1)},
	{"bare=40", bench.Bare(40)},
	{"compact=40", bench.Compact(40)},
	{"indented=40", bench.Configuration(40)},
	{"compact=1000", bench.Compact(1000)},
}

// BenchmarkValidFixed measures Valid where its fixed cost decides: on
// the empty document and a bare one-model document, where the walk and
// the refinements' setup are most of it, and at 40 models (bare and
// compact), where the whole path is held to one encoding/json Unmarshal
// of the same bytes.
func BenchmarkValidFixed(b *testing.B) {
	v, err := openclawschema.New()
	if err != nil {
		b.Fatal(err)
	}
	for _, d := range fixedDocs[:4] {
		doc, err := occkit.ParseDocument(d.src)
		if err != nil {
			b.Fatal(err)
		}
		if !v.Valid(doc) {
			b.Fatalf("%s: OpenClaw refuses the document: %v", d.name, v.Validate(doc))
		}
		b.Run(d.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if !v.Valid(doc) {
					b.Fatal("refused")
				}
			}
		})
	}
}

// TestValidFixedCost: a validation of a configuration without large
// rosters, as written or stamped, and Admit's check of its canonical
// stamped form beside another schema's walk (ValidBeside), allocate
// the schema walk's outline and the refiner, each with room for what
// such a configuration needs and no more, in one allocation of 2.6 KB
// (its size class), whatever the number of models.
func TestValidFixedCost(t *testing.T) {
	v, err := openclawschema.New()
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range fixedDocs {
		written, err := occkit.ParseDocument(d.src)
		if err != nil {
			t.Fatal(err)
		}
		// Admit checks the document stamped (LOG-1), with a logging and
		// a diagnostics section more, in canonical form.
		stamped, err := logging.Stamp(written, occkit.LevelInfo, occkit.OwnedByPlatform)
		if err != nil {
			t.Fatal(err)
		}
		canonical, err := logging.StampCanonical(written, occkit.LevelInfo, occkit.OwnedByPlatform)
		if err != nil {
			t.Fatal(err)
		}
		checks := []struct {
			name  string
			doc   occkit.Document
			valid func(occkit.Document) bool
		}{
			{"written", written, v.Valid},
			{"stamped", stamped, v.Valid},
			{"canonical beside", canonical, func(doc occkit.Document) bool { return v.ValidBeside(doc, nil) }},
		}
		for _, c := range checks {
			if !c.valid(c.doc) {
				t.Fatalf("%s, %s: OpenClaw refuses the document: %v", d.name, c.name, v.Validate(c.doc))
			}
			const runs = 1000
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			for i := 0; i < runs; i++ {
				if !c.valid(c.doc) {
					t.Fatalf("%s, %s: refused", d.name, c.name)
				}
			}
			runtime.ReadMemStats(&after)
			// The averages round down: another goroutine's stray
			// allocation adds less than a byte or an allocation per
			// validation.
			allocs, bytes := (after.Mallocs-before.Mallocs)/runs, (after.TotalAlloc-before.TotalAlloc)/runs
			if allocs > 1 || bytes > 2688 {
				t.Errorf("%s, %s (%d bytes): a validation allocates %d bytes in %d allocations, want at most 2688 in 1", d.name, c.name, len(c.doc.String()), bytes, allocs)
			}
		}
	}
}
