package resolver

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tidwall/gjson"
	"pgregory.net/rapid"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/internal/bench"
	"github.com/occkit/occkit/internal/docjson"
)

// This file checks what the index answers (a catalog key's ref and its
// lookup, a provider row's IDs and the rows naming a ref, a setting's
// fallbacks) against the plain computation over the document's values,
// whatever the index keeps per model to answer it (derived provider
// lengths, duplicates chained apart, hash tables of any size).

// plainLookup is every index of refs whose valid key is key, in order.
func plainLookup(keys []string, valid []bool, key string) []int32 {
	var out []int32
	for i, k := range keys {
		if valid[i] && k == key {
			out = append(out, int32(i))
		}
	}
	return out
}

// checkCatalogPlain compares the catalog c with its value in doc.
func checkCatalogPlain(t *rapid.T, doc occkit.Document, c *catalogIndex, queries []string) {
	if !c.present || c.bad {
		return
	}
	var raws, keys, provs []string
	var valid []bool
	docjson.Get(doc, c.path).ForEach(func(k, _ gjson.Result) bool {
		r, ok := ParseRef(k.String())
		raws, keys, provs, valid = append(raws, k.String()), append(keys, r.Key()), append(provs, r.Provider), append(valid, ok)
		return true
	})
	if c.keys.len() != len(raws) {
		t.Fatalf("%s: %d keys indexed, %d written", c.path, c.keys.len(), len(raws))
	}
	for i := range raws {
		if c.keyRaw(i) != raws[i] || c.keys.at(i).valid != valid[i] {
			t.Fatalf("%s key %d: %q valid %v, want %q valid %v", c.path, i, c.keyRaw(i), c.keys.at(i).valid, raws[i], valid[i])
		}
		if valid[i] && (c.key(i) != keys[i] || c.provider(i) != provs[i]) {
			t.Fatalf("%s key %d: ref key %q provider %q, want %q %q", c.path, i, c.key(i), c.provider(i), keys[i], provs[i])
		}
	}
	for _, q := range append(slices.Clone(keys), queries...) {
		var got []int32
		c.lookup(q, func(i int32) { got = append(got, i) })
		want := plainLookup(keys, valid, q)
		if d := cmp.Diff(want, got); d != "" {
			t.Fatalf("%s lookup %q (-plain +index):\n%s", c.path, q, d)
		}
		if c.has(q) != (len(want) > 0) {
			t.Fatalf("%s has %q = %v", c.path, q, c.has(q))
		}
	}
}

// checkProviderPlain compares the provider p's rows with its value in
// doc.
func checkProviderPlain(t *rapid.T, doc occkit.Document, p *providerConfig, queries []string) {
	if !p.rowsAt {
		return
	}
	var ids, alts []string
	docjson.Get(doc, p.path().Key("models")).ForEach(func(_, row gjson.Result) bool {
		id := ""
		if v := objectField(row, "id"); row.IsObject() && v.Type == gjson.String {
			id = strings.TrimSpace(v.Str)
		}
		alt := ""
		if pr, rest, ok := strings.Cut(id, "/"); ok && strings.EqualFold(strings.TrimSpace(pr), p.name) {
			alt = strings.TrimSpace(rest)
		}
		ids, alts = append(ids, id), append(alts, alt)
		return true
	})
	if p.rows.len() != len(ids) {
		t.Fatalf("%s: %d rows indexed, %d written", p.path(), p.rows.len(), len(ids))
	}
	for i := range ids {
		if p.rows.at(i).idOK != (ids[i] != "") {
			t.Fatalf("%s row %d: idOK %v, id %q", p.path(), i, p.rows.at(i).idOK, ids[i])
		}
		if ids[i] != "" && (p.id(i) != ids[i] || p.alt(i) != alts[i]) {
			t.Fatalf("%s row %d: id %q alt %q, want %q %q", p.path(), i, p.id(i), p.alt(i), ids[i], alts[i])
		}
	}
	for _, id := range append(append(slices.Clone(ids), alts...), queries...) {
		ref, ok := ParseRef(p.name + "/" + id)
		if !ok || ref.Provider != p.name {
			continue
		}
		var want []int32
		for i, rowID := range ids {
			if rowID != "" && MatchRow(ref, rowID) {
				want = append(want, int32(i))
			}
		}
		if d := cmp.Diff(want, p.rowsFor(ref, nil)); d != "" {
			t.Fatalf("%s rows for %v (-plain +index):\n%s", p.path(), ref, d)
		}
	}
}

// checkFallbacksPlain compares the fallbacks of the setting m, at path,
// with its value in doc.
func checkFallbacksPlain(t *rapid.T, doc occkit.Document, path occkit.Path, m *modelSetting) {
	type fb struct {
		ref Ref
		idx int32
	}
	var want []fb
	if v := docjson.Get(doc, path); v.IsObject() {
		fv := objectField(v, "fallbacks")
		if fv.IsArray() {
			for j, e := range fv.Array() {
				if r, ok := ParseRef(e.Str); ok && e.Type == gjson.String {
					want = append(want, fb{r, int32(j)})
				}
			}
		}
	}
	if !m.present {
		want = nil
	}
	var got []fb
	for i := range m.fallbacks() {
		f := m.fallback(i)
		got = append(got, fb{f.ref(), f.idx})
		if f.provider() != f.ref().Provider || !f.loc().Equal(m.fb.at.Index(int(f.idx))) {
			t.Fatalf("%s fallback %d: provider %q at %s", path, i, f.provider(), f.loc())
		}
	}
	if d := cmp.Diff(want, got, cmp.AllowUnexported(fb{})); d != "" {
		t.Fatalf("%s fallbacks (-plain +index):\n%s", path, d)
	}
}

// checkIndexPlain compares every catalog, provider and model setting
// the index of doc holds with the document's values.
func checkIndexPlain(t *rapid.T, doc occkit.Document) {
	x := buildIndex(doc)
	queries := []string{"anthropic/a", "anthropic/zz", "a", "b", "c", "x/y", "Anthropic/a", ""}
	checkCatalogPlain(t, doc, &x.catalog, queries)
	checkFallbacksPlain(t, doc, pathDefaultModel, &x.defaults)
	for _, e := range x.entries {
		if e.models != nil {
			checkCatalogPlain(t, doc, e.models, queries)
		}
		checkFallbacksPlain(t, doc, e.path.Key("model"), &e.sel)
	}
	for _, p := range x.provOrder {
		checkProviderPlain(t, doc, p, queries)
	}
}

// TestIndexMatchesPlain: on drawn documents of every shape the rules
// read (duplicate refs among catalog keys, rows one ID names twice,
// fallbacks beside elements that are no refs), on the property tests'
// configurations and on the benchmark documents, the index answers what
// the plain computation over the document's values answers.
func TestIndexMatchesPlain(t *testing.T) {
	checkDrawnIndexes(t, checkIndexPlain)
	rapid.Check(t, func(t *rapid.T) {
		checkIndexPlain(t, occkit.MustParseDocument(genCollisions(t)))
	})
	rapid.Check(t, func(t *rapid.T) {
		d := rapid.SampledFrom(bench.Documents).Draw(t, "document")
		n := rapid.IntRange(1, 300).Draw(t, "models")
		checkIndexPlain(t, occkit.MustParseDocument(string(d.Make(n))))
	})
}

// genCollisions draws a document whose catalog keys, provider rows and
// fallbacks name few models many ways: long chains of keys with one ref
// and of rows under one ID, fallbacks among elements that are no refs.
func genCollisions(t *rapid.T) string {
	refs := []string{"anthropic/a", "Anthropic/a", " anthropic/a", "ANTHROPIC/a ", "anthropic/ a", "anthropic/a@p",
		"anthropic/b", "openai/a", "a", "", "anthropic/a/b"}
	quote := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	var b strings.Builder
	b.WriteString(`{"agents":{"defaults":{"model":{"primary":"anthropic/a","fallbacks":[`)
	for i, n := 0, rapid.IntRange(0, 40).Draw(t, "fallbacks"); i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		if rapid.IntRange(0, 5).Draw(t, "fallback-kind") == 0 {
			b.WriteString("3")
		} else {
			b.WriteString(quote(rapid.SampledFrom(refs).Draw(t, "fallback")))
		}
	}
	b.WriteString(`]},"models":{`)
	seen := map[string]bool{}
	for i, n := 0, rapid.IntRange(0, 40).Draw(t, "keys"); i < n; i++ {
		k := rapid.SampledFrom(refs).Draw(t, "key") + strings.Repeat(" ", rapid.IntRange(0, 3).Draw(t, "pad"))
		if seen[k] {
			continue
		}
		if len(seen) > 0 {
			b.WriteByte(',')
		}
		seen[k] = true
		b.WriteString(quote(k) + `:{"agentRuntime":{"id":"openclaw"}}`)
	}
	b.WriteString(`}}},"models":{"providers":{"anthropic":{"models":[`)
	ids := []string{"a", " a", "anthropic/a", "Anthropic/ a", "ANTHROPIC /a", "openai/a", "anthropic/", "b", "anthropic/b/a"}
	for i, n := 0, rapid.IntRange(0, 40).Draw(t, "rows"); i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"id":` + quote(rapid.SampledFrom(ids).Draw(t, "row")) + `}`)
	}
	b.WriteString(`]}}}}`)
	return b.String()
}

// TestIndexTableMatchesMap: an indexTable holds, for any keys put in any
// order, what a map holds, at every size.
func TestIndexTableMatchesMap(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		keys := rapid.SliceOf(rapid.StringMatching(`[ab/]{0,4}`)).Draw(t, "keys")
		distinct := map[string]bool{}
		for _, k := range keys {
			distinct[k] = true
		}
		tab := newIndexTable(max(len(distinct), 1))
		keyOf := func(ks []string, v uint32) string { return ks[v] }
		want := map[string]uint32{}
		for i, k := range keys {
			prev, found := tablePut(tab, k, uint32(i), keys, keyOf)
			if w, ok := want[k]; ok != found || ok && w != prev {
				t.Fatalf("put %q: replaced %d %v, want %d %v", k, prev, found, w, ok)
			}
			want[k] = uint32(i)
		}
		for _, k := range append(keys, "zz", "a/b/a/b/") {
			got, found := tableGet(tab, k, keys, keyOf)
			if w, ok := want[k]; ok != found || ok && w != got {
				t.Fatalf("get %q: %d %v, want %d %v", k, got, found, w, ok)
			}
		}
		if len(keys) > 0 && 3*len(distinct) > len(tab) {
			t.Fatalf("%d keys in %d slots: load above one third", len(distinct), len(tab))
		}
	})
}
