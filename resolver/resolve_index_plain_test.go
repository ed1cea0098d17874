package resolver

import (
	"encoding/binary"
	"encoding/json"
	"math/bits"
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

// TestIndexTableMatchesMap: a catalog's and a provider's tables hold,
// for any keys put in any order, what a map holds, at every size: the
// catalog's lookup finds each key's indexes in order, and a provider's
// byID the last row of each ID, the rows before it chained.
func TestIndexTableMatchesMap(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		keys := rapid.SliceOf(rapid.StringMatching(`[ab/]{0,4}|[a-z/-]{0,40}`)).Draw(t, "keys")
		c := &catalogIndex{present: true}
		p := &providerConfig{}
		want := map[string][]int32{}
		for i, k := range keys {
			c.keys.push(catalogKey{key: c.strs.put(k), valid: true})
			p.rows.push(catalogRow{id: p.strs.put(k), idOK: true})
			want[k] = append(want[k], int32(i))
		}
		c.index()
		p.index(len(keys))
		for _, k := range append(keys, "zz", "a/b/a/b/", "anthropic/model-12345678901234567890") {
			var got []int32
			c.lookup(k, func(i int32) { got = append(got, i) })
			if !slices.Equal(got, want[k]) {
				t.Fatalf("catalog lookup %q: %v, want %v", k, got, want[k])
			}
			u, found := p.get(k)
			if w := want[k]; found != (len(w) > 0) || found && int32(u>>1) != w[len(w)-1] {
				t.Fatalf("provider get %q: %d %v, want the last of %v", k, u>>1, found, w)
			}
			var chain []int32
			for i, ok := int32(u>>1), found; ok; i, ok = p.prevs[uint32(i)<<1] {
				chain = append(chain, i)
			}
			slices.Reverse(chain)
			if !slices.Equal(chain, want[k]) {
				t.Fatalf("provider chain %q: %v, want %v", k, chain, want[k])
			}
		}
		if n := len(want); n > 0 && 3*n > len(c.byKey) {
			t.Fatalf("%d keys in %d slots: load above one third", n, len(c.byKey))
		}
	})
}

// TestTableHashMatchesWyhash: tableHash is the runtime's wyhash
// (runtime.memhashFallback, seeded with tableKeys[0] and keyed with
// tableKeys[1], one lane of sixteen bytes at a time where the runtime
// takes three over 48 bytes), here read from a byte slice as the runtime
// reads memory, on keys of every length up to 80 bytes.
func TestTableHashMatchesWyhash(t *testing.T) {
	mix := func(a, b uint64) uint64 {
		hi, lo := bits.Mul64(a, b)
		return hi ^ lo
	}
	r8 := func(p []byte) uint64 { return binary.LittleEndian.Uint64(p) }
	r4 := func(p []byte) uint64 { return uint64(binary.LittleEndian.Uint32(p)) }
	wyhash := func(p []byte) uint64 {
		const m5 = 0x1d8e4e27c47d124f
		s := len(p)
		seed := tableKeys[0]
		var a, b uint64
		switch {
		case s == 0:
			return seed
		case s < 4:
			a = uint64(p[0]) | uint64(p[s>>1])<<8 | uint64(p[s-1])<<16
		case s == 4:
			a = r4(p)
			b = a
		case s < 8:
			a, b = r4(p), r4(p[s-4:])
		case s == 8:
			a = r8(p)
			b = a
		case s <= 16:
			a, b = r8(p), r8(p[s-8:])
		default:
			l, at := s, 0
			for ; l > 16; l -= 16 {
				seed = mix(r8(p[at:])^tableKeys[1], r8(p[at+8:])^seed)
				at += 16
			}
			a, b = r8(p[at+l-16:]), r8(p[at+l-8:])
		}
		return mix(m5^uint64(s), mix(a^tableKeys[1], b^seed))
	}
	rapid.Check(t, func(t *rapid.T) {
		key := rapid.SliceOfN(rapid.Byte(), 0, 80).Draw(t, "key")
		if got, want := tableHash(string(key)), wyhash(key); got != want {
			t.Fatalf("tableHash(%q) = %#x, want %#x", key, got, want)
		}
	})
}
