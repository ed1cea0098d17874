package resolver

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/internal/bench"
	"github.com/occkit/occkit/internal/jsonwalk"
)

// This file holds the oracles of the index's fast paths: each is
// checked against the general reading it stands for, directly (a
// literal read in one pass against
// StringEnd, decodeJS and ParseRef, …) and through Prepare with every
// fast path off (TestFastPathsPrepareAlike).

// fastPaths are the switches of the fast paths: with all of them off,
// Prepare takes the general reading everywhere.
var fastPaths = []*bool{&refLitOn, &runtimeLitOn, &holderLitOn, &keyLitOn, &quickEvalOn, &catalogOnceOn, &fallbacksOnceOn}

// withFastPaths runs f with every fast path on (on) or off.
func withFastPaths(on bool, f func()) {
	was := make([]bool, len(fastPaths))
	for i, p := range fastPaths {
		was[i], *p = *p, on
	}
	defer func() {
		for i, p := range fastPaths {
			*p = was[i]
		}
	}()
	f()
}

// genLiteral draws the text of a JSON string literal and what follows
// it: refs as they are written, with their near misses (spaces,
// controls, `!`, `@`, upper-case letters before and after the slash,
// slashes first, last and doubled, escapes, bytes of wider runes), of
// every length around the eight bytes refLitScan reads at a time, then
// the rest of the text, which may end within eight bytes.
func genLiteral(t *rapid.T) string {
	parts := []string{"anthropic", "model-1", "/", "/", "a", "A", "Z", "@", " ", "!", "#", "\"", "\\\"", "\\u0041",
		"\\/", "\\\\", "é", "日", "\t", "\x7f", "~", "q4_k_m", "2025", "-", "_", ".", ":", "[", "{", "`", "'", "0"}
	var b strings.Builder
	for n := rapid.IntRange(0, 8).Draw(t, "parts"); n > 0; n-- {
		b.WriteString(rapid.SampledFrom(parts).Draw(t, "part"))
	}
	body := b.String()
	if rapid.Bool().Draw(t, "pad") {
		body = strings.Repeat("x", rapid.IntRange(0, 20).Draw(t, "pad-n")) + body
	}
	rest := rapid.SampledFrom([]string{"", "]", ",", `,"b/c"]}`, `:{}}`, `"]}}}}}}}}}`, `]}` + strings.Repeat(" ", 9)}).Draw(t, "rest")
	if rapid.IntRange(0, 9).Draw(t, "unclosed") == 0 {
		return `"` + body + rest
	}
	return `"` + body + `"` + rest
}

// TestRefLitMatchesGeneral: a literal refLitScan reads is what the
// general reading makes of it (StringEnd, decodeJS, ParseRef, refKey,
// trimSpace): it ends where it says, holds no escape, and its text is a
// valid ref without a profile, its own key and String, split at the
// slash it names. refLitScan reads the plain refs as they are written.
func TestRefLitMatchesGeneral(t *testing.T) {
	check := func(t interface{ Fatalf(string, ...any) }, s string, i int) bool {
		end, slash := refLitScan(s, i)
		if end < 0 {
			if slash != -1 {
				t.Fatalf("%q: not read, but slash %d", s, slash)
			}
			return false
		}
		wantEnd, escaped := jsonwalk.StringEnd(s, i)
		if end != wantEnd || escaped {
			t.Fatalf("%q: ends at %d, want %d (escaped %v)", s, end, wantEnd, escaped)
		}
		raw := decodeJS(s[i:end], escaped)
		r, ok := ParseRef(raw)
		if !ok || r.Profile != "" || r.Provider != raw[:slash] || r.ID != raw[slash+1:] {
			t.Fatalf("%q: read as %q/%q, ParseRef %+v %v", s, raw[:slash], raw[slash+1:], r, ok)
		}
		if refKey(trimSpace(raw), r) != raw || trimSpace(raw) != raw || r.Key() != raw || r.String() != raw {
			t.Fatalf("%q: its text is not its own key", s)
		}
		return true
	}
	rapid.Check(t, func(t *rapid.T) {
		prefix := rapid.SampledFrom([]string{"", "[", `{"a":`, "  "}).Draw(t, "prefix")
		s := prefix + genLiteral(t)
		check(t, s, len(prefix))
	})
	for _, s := range []string{`"anthropic/model-1","anthropic/model-3"]`, `"a/b"]}}}}}}`, `"p/Model-X/y"]}}}}}}`, `"openrouter/preset/kimi"}}}}}}`} {
		if !check(t, s, 0) {
			t.Errorf("%q: a plain ref is not read", s)
		}
	}
	for _, s := range []string{`"Anthropic/a"]}}}}}}`, `"a/b@work"]}}}}}`, `" a/b"]}}}}}}}}`, `"/a"]}}}}}}}}`, `"a/"]}}}}}}}}`,
		`"a\/b"]}}}}}}}`, `"ab"]}}}}}}}}`, `"a/b"]}`, `"openrouter/@preset/kimi"]}}}}}`} {
		if check(t, s, 0) {
			t.Errorf("%q: read, but not a plain ref far enough from the end", s)
		}
	}
}

// TestRuntimeLitMatchesGeneral: an agentRuntime written as runtimeLit
// reads it is what the general reading (readRuntime without it) makes of
// it, on the literals and their near misses.
func TestRuntimeLitMatchesGeneral(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		base := rapid.SampledFrom([]string{runtimeLitOpenClaw, runtimeLitCodex, `{"id":"auto"}`, `{"id":"openclaw","x":1}`}).Draw(t, "base")
		s := base
		switch rapid.IntRange(0, 3).Draw(t, "edit") {
		case 0: // a byte changed
			i := rapid.IntRange(0, len(s)-1).Draw(t, "at")
			s = s[:i] + rapid.SampledFrom([]string{" ", "\"", "}", "x", "I", "\\u0069"}).Draw(t, "byte") + s[i+1:]
		case 1: // cut short
			s = s[:rapid.IntRange(1, len(s)).Draw(t, "cut")]
		}
		s += rapid.SampledFrom([]string{"", "}", `,"agentRuntime":{"id":"codex"}}`, "]"}).Draw(t, "rest")
		id, end, ok := runtimeLit(s, 0)
		runtimeLitOn = false
		defer func() { runtimeLitOn = true }()
		wid, wst, wshape, wend := readRuntime(s, 0)
		if ok && (id != wid || wst != runtimeOK || wshape || end != wend) {
			t.Fatalf("%q: runtimeLit %q %d, general %q %v %v %d", s, id, end, wid, wst, wshape, wend)
		}
		if s == runtimeLitOpenClaw || s == runtimeLitCodex {
			if !ok {
				t.Fatalf("%q: not read", s)
			}
		}
	})
}

// TestHolderLitMatchesReadHolder: a catalog entry holderLit reads is
// what readHolder makes of it with every fast path off (one member at a
// time, jsonwalk.Key's reading of each key), on the literals a compacted
// catalog writes and their near misses, and it reads those literals.
func TestHolderLitMatchesReadHolder(t *testing.T) {
	lits := []string{`{"agentRuntime":` + runtimeLitOpenClaw + `}`, `{"agentRuntime":` + runtimeLitCodex + `}`}
	rapid.Check(t, func(t *rapid.T) {
		base := rapid.SampledFrom(append([]string{`{"agentRuntime":{"id":"auto"}}`, `{"agentRuntime":{"id":"openclaw"},"x":1}`,
			`{"x":1,"agentRuntime":{"id":"codex"}}`, `{"agentRuntime":"openclaw"}`}, lits...)).Draw(t, "base")
		s := base
		switch rapid.IntRange(0, 3).Draw(t, "edit") {
		case 0: // a byte changed
			i := rapid.IntRange(0, len(s)-1).Draw(t, "at")
			s = s[:i] + rapid.SampledFrom([]string{" ", "\"", "}", "{", "x", "I", "\\u0069", ","}).Draw(t, "byte") + s[i+1:]
		case 1: // cut short
			s = s[:rapid.IntRange(1, len(s)).Draw(t, "cut")]
		}
		s += rapid.SampledFrom([]string{"", "}", `,"b/c":{}}`, "]", " "}).Draw(t, "rest")
		i := rapid.IntRange(-1, 1).Draw(t, "at")
		if i > len(s) {
			i = len(s)
		}
		id, end, ok := holderLit(s, i)
		var wid string
		var wst runtimeState
		var wshape bool
		wend := -1
		withFastPaths(false, func() {
			if i >= 0 && i < len(s) {
				wid, wst, wshape, wend = readHolder(s, i, "", nil)
			}
		})
		if ok && (id != wid || wst != runtimeOK || wshape || end != wend) {
			t.Fatalf("%q at %d: holderLit %q %d, readHolder %q %v %v %d", s, i, id, end, wid, wst, wshape, wend)
		}
		if i == 0 && slices.Contains(lits, base) && strings.HasPrefix(s, base) && !ok {
			t.Fatalf("%q: not read", s)
		}
	})
}

// TestKeyLitMatchesKeyAt: a member whose key keyLitID or keyLitRuntime
// matches is the member jsonwalk.Key reads there, with the same key and value
// offset; and each matches its key as a compacted document writes it.
func TestKeyLitMatchesKeyAt(t *testing.T) {
	lits := map[string]func(string, int) (int, bool){`"id":`: keyLitID, `"agentRuntime":`: keyLitRuntime}
	rapid.Check(t, func(t *rapid.T) {
		key := rapid.SampledFrom([]string{`"id":`, `"agentRuntime":`}).Draw(t, "key")
		s := rapid.SampledFrom([]string{key, `"id" :`, `"i\u0064":`, `"idx":`, `"agentRuntime" :`, `"agentruntime":`, `"id`, `"agentRuntime`}).Draw(t, "written")
		s = rapid.SampledFrom([]string{"", " ", "{", `"x":1,`}).Draw(t, "before") + s
		s += rapid.SampledFrom([]string{"", " ", "\n\"x\"", `"model-1"}`, `{"id":"openclaw"}}`}).Draw(t, "value")
		i := rapid.IntRange(-1, len(s)).Draw(t, "at")
		v, ok := lits[key](s, i)
		if !ok {
			if i >= 0 && strings.HasPrefix(s[i:], key) {
				t.Fatalf("%q at %d: %s not matched", s, i, key)
			}
			return
		}
		lit, escaped, wv := jsonwalk.Key(s, i)
		if lit != key[:len(key)-1] || escaped || v != wv {
			t.Fatalf("%q at %d: %s matched, value at %d; jsonwalk.Key %q %v %d", s, i, key, v, lit, escaped, wv)
		}
	})
}

// TestQuickHarnessMatchesEvaluate: where quickHarness decides a
// candidate, evaluate decides the same Harness without a problem and
// marks the same rows used, for every selected ref in the scope of the
// defaults and of each entry, on drawn documents of every shape the
// rules read, on the property tests' configurations and on the
// benchmark documents; and it decides the refs of the benchmark
// documents.
func TestQuickHarnessMatchesEvaluate(t *testing.T) {
	quick := 0
	check := func(t interface{ Fatalf(string, ...any) }, doc occkit.Document) {
		x, y := buildIndex(doc), buildIndex(doc)
		if !x.shapeOK {
			return
		}
		type scope struct {
			sel *modelSetting
			e   *agentEntry
		}
		scopes := func(x *docIndex) []scope {
			out := []scope{{&x.defaults, nil}}
			for _, e := range x.entries {
				out = append(out, scope{&e.sel, e}, scope{&x.defaults, e})
			}
			return out
		}
		used := func(x *docIndex) string {
			var b strings.Builder
			for _, p := range x.provOrder {
				for i := range p.rows.len() {
					fmt.Fprintf(&b, "%v", p.rows.at(i).used)
				}
				b.WriteByte('|')
			}
			return b.String()
		}
		sx, sy := scopes(x), scopes(y)
		for k := range sx {
			s := sx[k].sel
			if !s.ok {
				continue
			}
			for i := range s.fallbacks() {
				var errs []error
				f := sy[k].sel.fallback(i)
				want := y.evaluate(&f, sy[k].e, nil, &errs)
				got, ok := x.quickHarness(s.fallbackKey(i), int(s.fb.refs.at(i).pl), sx[k].e)
				if !ok {
					// Undecided: evaluate decides it, and marks the rows.
					f := s.fallback(i)
					x.evaluate(&f, sx[k].e, nil, &errs)
					continue
				}
				quick++
				if got != want || len(errs) > 0 {
					t.Fatalf("%s: fallback %d in scope %d: quick %q, evaluate %q (%v)", doc.String(), i, k, got, want, errs)
				}
				if used(x) != used(y) {
					t.Fatalf("%s: fallback %d in scope %d: rows marked %s, evaluate %s", doc.String(), i, k, used(x), used(y))
				}
			}
		}
	}
	checkDrawnIndexes(t, func(t *rapid.T, doc occkit.Document) { check(t, doc) })
	for _, d := range append(bench.Documents, bench.Others...) {
		doc := occkit.MustParseDocument(string(d.Make(40)))
		before := quick
		check(t, doc)
		if quick == before {
			t.Errorf("%s: no fallback decided quickly", d.Name)
		}
	}
}

// genCatalogCheck draws a selectable catalog for checkCatalog: keys on
// the primary's provider and off it, the primary among them or not,
// each with no runtime, a supported one or a refused one.
func genCatalogCheck(t *rapid.T) string {
	keys := []string{"p/a", "p/b", "p/c", "p/d", "q/a", "alias", " p/a"}
	runtimes := []string{`{}`, `{"agentRuntime":{"id":"openclaw"}}`, `{"agentRuntime":{"id":"codex"}}`, `{"agentRuntime":{"id":"x"}}`}
	var parts []string
	seen := map[string]bool{}
	for n := rapid.IntRange(0, 6).Draw(t, "keys"); n > 0; n-- {
		k := rapid.SampledFrom(keys).Draw(t, "key")
		if seen[k] {
			continue
		}
		seen[k] = true
		q, _ := json.Marshal(k)
		parts = append(parts, string(q)+":"+rapid.SampledFrom(runtimes).Draw(t, "runtime"))
	}
	primary := rapid.SampledFrom([]string{"p/a", "p/b"}).Draw(t, "primary")
	return `{"agents":{"defaults":{"model":"` + primary + `","models":{` + strings.Join(parts, ",") + `}}}}`
}

// TestCheckCatalogOnce: a catalog whose other models all agree with the
// primary's runtime is read once (catalogOnceOn), and checkCatalog
// refuses what reading it twice refuses, in the same order.
func TestCheckCatalogOnce(t *testing.T) {
	skipped := 0
	rapid.Check(t, func(t *rapid.T) {
		x := buildIndex(occkit.MustParseDocument(genCatalogCheck(t)))
		if !x.defaults.ok {
			return
		}
		var want, got []error
		catalogOnceOn = false
		checkCatalog(&x.catalog, &x.defaults.primary, &want)
		catalogOnceOn = true
		checkCatalog(&x.catalog, &x.defaults.primary, &got)
		if d := cmp.Diff(fmt.Sprint(want), fmt.Sprint(got)); d != "" {
			t.Fatalf("catalog read once (+) refuses otherwise than read twice (-):\n%s", d)
		}
		if len(want) == 0 {
			skipped++
		}
	})
	if skipped == 0 {
		t.Errorf("no catalog passed: the second pass was never skipped")
	}
}

// TestFastPathsPrepareAlike: with every fast path on, Prepare makes what
// it makes with all of them off (the general reading everywhere): the
// same index, field by field, and the same problems, decision, reasons,
// roster verdict and selections, on drawn documents of every shape the
// rules read, on the property tests' configurations, on documents whose
// refs are written in many ways and on the benchmark documents of every
// shape at several sizes.
func TestFastPathsPrepareAlike(t *testing.T) {
	check := func(t interface{ Fatalf(string, ...any) }, doc occkit.Document) {
		var want, got string
		var wantX, gotX *docIndex
		withFastPaths(false, func() { want, wantX = preparedView(Prepare(doc)), buildIndex(doc) })
		withFastPaths(true, func() { got, gotX = preparedView(Prepare(doc)), buildIndex(doc) })
		if d := cmp.Diff(want, got); d != "" {
			t.Fatalf("%s: fast paths (+) prepare otherwise than the general reading (-):\n%s", doc.String(), d)
		}
		if d := cmp.Diff(wantX, gotX, indexOpts); d != "" {
			t.Fatalf("%s: fast paths (+) index otherwise than the general reading (-):\n%s", doc.String(), d)
		}
	}
	checkDrawnIndexes(t, func(t *rapid.T, doc occkit.Document) { check(t, doc) })
	rapid.Check(t, func(t *rapid.T) { check(t, occkit.MustParseDocument(genCollisions(t))) })
	rapid.Check(t, func(t *rapid.T) { check(t, occkit.MustParseDocument(genCatalogCheck(t))) })
	for _, d := range append(bench.Documents, bench.Others...) {
		for _, n := range []int{1, 2, 40, 300} {
			check(t, occkit.MustParseDocument(string(d.Make(n))))
		}
	}
}

// TestFallbackStrs: a setting's fallbacks spelled chunk by chunk (what
// a Decision lists) are each fallback's String, in order, never nil.
func TestFallbackStrs(t *testing.T) {
	checkDrawnIndexes(t, func(t *rapid.T, doc occkit.Document) {
		x := buildIndex(doc)
		sels := []*modelSetting{&x.defaults}
		for _, e := range x.entries {
			sels = append(sels, &e.sel)
		}
		for _, m := range sels {
			want := []string{}
			for i := range m.fallbacks() {
				f := m.fallback(i)
				want = append(want, f.ref().String())
			}
			got := m.fallbackStrs()
			if got == nil || !slices.Equal(want, got) {
				t.Fatalf("%s: fallbacks %q, want %q", doc.String(), got, want)
			}
		}
	})
}

// FuzzFastPathsPrepareAlike: on any document, Prepare with every fast
// path on prepares what it prepares with all of them off.
func FuzzFastPathsPrepareAlike(f *testing.F) {
	for _, d := range append(bench.Documents, bench.Others...) {
		f.Add(string(d.Make(4)))
	}
	f.Add(`{"agents":{"defaults":{"model":{"primary":"p/a","fallbacks":["p/b","P/c","p/d@x"," p/e"]},` +
		`"models":{"p/a":{"agentRuntime":{"id":"codex"}},"p/b":{"agentRuntime":{"id":"openclaw"},"x":1}}}},` +
		`"models":{"providers":{"p":{"models":[{"id":"b","agentRuntime":{"id":"codex"}},{"id":"p/c"},{"name":"x","id":"a"}]}}}}`)
	f.Fuzz(func(t *testing.T, s string) {
		doc, err := occkit.ParseDocument([]byte(s))
		if err != nil {
			return
		}
		var want, got string
		withFastPaths(false, func() { want = preparedView(Prepare(doc)) })
		withFastPaths(true, func() { got = preparedView(Prepare(doc)) })
		if want != got {
			t.Fatalf("%s: fast paths (+) prepare otherwise than the general reading (-):\n%s", s, cmp.Diff(want, got))
		}
	})
}

// TestSelectedPrimaries: SelectedPrimaries lists what SelectedModels
// lists of the primaries, in the same order, stopping when told, on
// drawn documents; and every fallback SelectedModels lists has the
// provider of the primary before it (RES-3), which is what lets a caller
// judge a setting by its primary.
func TestSelectedPrimaries(t *testing.T) {
	checkDrawnIndexes(t, func(t *rapid.T, doc occkit.Document) {
		p := Prepare(doc)
		var want []string
		provider := ""
		wantOK := p.SelectedModels(func(m SelectedModel) bool {
			if m.Primary() {
				want = append(want, fmt.Sprintf("%v %s", m.Ref(), m.Path()))
				provider = m.Ref().Provider
			} else if m.Ref().Provider != provider {
				t.Fatalf("%s: fallback %v at %s is not on its primary's provider %q", doc.String(), m.Ref(), m.Path(), provider)
			}
			return true
		})
		var got []string
		gotOK := p.SelectedPrimaries(func(m SelectedModel) bool {
			if !m.Primary() {
				t.Fatalf("%s: SelectedPrimaries lists the fallback %v", doc.String(), m.Ref())
			}
			got = append(got, fmt.Sprintf("%v %s", m.Ref(), m.Path()))
			return true
		})
		if gotOK != wantOK || !slices.Equal(got, want) {
			t.Fatalf("%s: SelectedPrimaries %v %q, SelectedModels' primaries %v %q", doc.String(), gotOK, got, wantOK, want)
		}
		if len(want) > 1 {
			n := 0
			p.SelectedPrimaries(func(SelectedModel) bool { n++; return false })
			if n != 1 {
				t.Fatalf("%s: SelectedPrimaries went on after false (%d calls)", doc.String(), n)
			}
		}
	})
}
