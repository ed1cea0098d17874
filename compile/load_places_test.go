package compile

import (
	"fmt"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/internal/bench"
)

// TestLoadRootLookups: whichever way the loader made its Document (the
// transcoder's output as it is, with the places of its root members; a
// merge of includes normalized again; a substituted document read
// again), a lookup of each root member finds what a fresh read of the
// same bytes finds: no Document carries the places of other bytes.
func TestLoadRootLookups(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"root.json5": `{b: {x: '${V}', y: 0x10}, c: [1, "${V}"], z: 'inc'}`,
		"val.json":   `"included ${V} and $${V}"`,
	})
	env := map[string]string{"V": "a value longer than its reference"}
	lookup := func(n string) (string, bool) { v, ok := env[n]; return v, ok }
	keys := []string{"a", "b", "c", "logging", "gateway", "z"}
	values := []string{`"${V}"`, `'plain'`, `{"$include": "val.json"}`, `[1, "${V}", {x: 0x10}]`,
		`{"n": {"m": "$${V}"}}`, `16.0`, `{level: "info", // c
}`, `"é\u00e9"`}
	rapid.Check(t, func(t *rapid.T) {
		var b strings.Builder
		b.WriteString("{")
		if rapid.Bool().Draw(t, "root include") {
			b.WriteString(`"$include": "root.json5",`)
		}
		for i, k := range rapid.SliceOfNDistinct(rapid.SampledFrom(keys), 0, len(keys), func(s string) string { return s }).Draw(t, "keys") {
			if i > 0 {
				b.WriteString(rapid.SampledFrom([]string{",", ", ", ",\n  "}).Draw(t, "sep"))
			}
			b.WriteString(`"` + k + `": ` + rapid.SampledFrom(values).Draw(t, "value"))
		}
		b.WriteString("}")
		opts := LoadOptions{IncludeRoots: []string{dir}}
		if rapid.Bool().Draw(t, "substitute") {
			opts.Lookup = lookup
		}
		doc, err := Load([]byte(b.String()), opts)
		if err != nil {
			return
		}
		fresh, err := occkit.ParseDocument(doc.Bytes())
		if err != nil {
			t.Fatalf("Load(%s) = %s, which ParseDocument refuses: %v", b.String(), doc, err)
		}
		for _, k := range append(keys, "x") {
			for _, p := range []occkit.Path{occkit.NewPath(k), occkit.NewPath(k, "x")} {
				got, want := doc.Get(p), fresh.Get(p)
				if got.Raw() != want.Raw() || got.Exists() != want.Exists() || got.Kind() != want.Kind() {
					t.Fatalf("Load(%s) = %s: %s = %q, fresh %q", b.String(), doc, p, got.Raw(), want.Raw())
				}
			}
		}
	})
}

// BenchmarkLoadFirstLookup is Load and the first lookup of a root member
// (admission's logging stamp asks for logging first) on the paired
// benchmarks' documents, and that lookup alone: it builds the root index
// from the places Load carried, where it used to pass over the whole
// document to find them.
func BenchmarkLoadFirstLookup(b *testing.B) {
	logging := occkit.NewPath("logging")
	for _, d := range bench.Documents {
		for _, n := range []int{40, 10_000} {
			src := d.Make(n)
			b.Run(fmt.Sprintf("%s/models=%d/load+lookup", d.Name, n), func(b *testing.B) {
				b.SetBytes(int64(len(src)))
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					doc, err := Load(src, LoadOptions{})
					if err != nil {
						b.Fatal(err)
					}
					doc.Get(logging)
				}
			})
			b.Run(fmt.Sprintf("%s/models=%d/lookup", d.Name, n), func(b *testing.B) {
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					b.StopTimer()
					doc, err := Load(src, LoadOptions{})
					if err != nil {
						b.Fatal(err)
					}
					b.StartTimer()
					doc.Get(logging)
				}
			})
		}
	}
}
