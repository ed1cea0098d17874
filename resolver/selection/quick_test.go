package selection

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/internal/bench"
)

// genText draws a request's provider or model ID: mostly the plain
// spellings Index.target reads in place, then every byte that takes a
// string off that path (a space, a control or a wider rune at either
// end, an upper-case letter, a slash, an `@`, a wide rune's bytes
// inside), at every length around the word boundaries (0-24 bytes).
func genText(t *rapid.T, label string) string {
	pieces := []string{"a", "z", "0", "-", ".", "_", "m", "A", "Z", "/", " ", "\t", "\x00", "\x7f", "@", "é", "\u00a0", "\u0085", "日"}
	plain := pieces[:7]
	n := rapid.IntRange(0, 24).Draw(t, label+"n")
	var b strings.Builder
	for i := 0; i < n; i++ {
		from := plain
		if rapid.IntRange(0, 4).Draw(t, label+"odd") == 0 {
			from = pieces
		}
		b.WriteString(rapid.SampledFrom(from).Draw(t, label+"c"))
	}
	s := b.String()
	// White space at either end, which targetOf trims (a wider rune's
	// too).
	pads := []string{"", "", " ", "\t", "\n", "\u00a0", "\u0085", "\u2009", "\u3000", "é"}
	s = rapid.SampledFrom(pads).Draw(t, label+"lead") + s + rapid.SampledFrom(pads).Draw(t, label+"trail")
	if rapid.Bool().Draw(t, label+"known") {
		s = rapid.SampledFrom([]string{"anthropic", "openai", "OpenAI", " vllm", "vllm ", "model-0", "model-39", "model-unlisted",
			"anthropic/model-20", "Anthropic/model-20", "anthropic/Model-20", " anthropic/model-20", "anthropic/", "/model", "a/b",
			"anthropic/model@prof", "anthropic / model-1", "claude-opus-4-6@20251001", "x/y/z", "abcdefghijklmnop", "abcdefghijklmnopq"}).Draw(t, label+"k")
	}
	return s
}

// TestPlainTargetMatchesTargetOf: Index.target, which reads a plain
// provider and model ID (plainTarget) and a plain model ref (plainRef)
// where they are, normalizes every request as targetOf does, and as
// the reference (target) does.
func TestPlainTargetMatchesTargetOf(t *testing.T) {
	x := Prepare(occkit.MustParseDocument(`{"models":{"providers":{"anthropic":{},"OpenAI":{},"vllm":{}}}}`))
	rapid.Check(t, func(t *rapid.T) {
		provider, model := genText(t, "p"), genText(t, "m")
		if rapid.Bool().Draw(t, "bare") {
			provider = ""
		}
		p, m, trimmed, err := x.target(provider, model)
		wp, wm, wt, werr := targetOf(x.lower(provider), model)
		got, want := fmt.Sprintf("%q %q %q %v", p, m, trimmed, err), fmt.Sprintf("%q %q %q %v", wp, wm, wt, werr)
		if got != want {
			t.Fatalf("target(%q, %q) = %s, targetOf %s", provider, model, got, want)
		}
		rp, rm, rerr := target(provider, model)
		if ref := fmt.Sprintf("%q %q %v", rp, rm, rerr); ref != fmt.Sprintf("%q %q %v", p, m, err) {
			t.Fatalf("target(%q, %q) = %s, the reference %s", provider, model, got, ref)
		}
	})
}

// TestPlainTargetSpellings is TestPlainTargetMatchesTargetOf on every
// pair of a provider and a model ID spelled from a base of every length
// around the word boundaries, with each byte or rune that target trims
// or reads off its path at its start, at its end, or at both.
func TestPlainTargetSpellings(t *testing.T) {
	x := Prepare(occkit.MustParseDocument(`{"models":{"providers":{"anthropic":{},"OpenAI":{},"vllm":{}}}}`))
	odd := []string{" ", "\t", "\x00", "\x7f", "/", "@", "A", "Z", "[", "é", "\u00a0", "\u0085", "\u3000"}
	texts := []string{""}
	for _, base := range []string{"a", "ab", "abc", "vllm", "model", "openai", "model-0", "model-39", "anthropic", "model-unlisted",
		"abcdefghijklmnop", "abcdefghijklmnopq", "a/b", "anthropic/model-20", "x/y/z", "anthropic/model-2/0", "Anthropic/m", "anthropic/M",
		"anthropic/model@prof", "anthropic/claude-opus-4-6@20251001", "vllm/q@Prof@x", "anthropic/model-Zz", "anthro pic/model", "anthropic/mo del"} {
		texts = append(texts, base)
		for _, c := range odd {
			texts = append(texts, c+base, base+c, c+base+c)
		}
	}
	for _, provider := range texts {
		for _, model := range texts {
			p, m, trimmed, err := x.target(provider, model)
			wp, wm, wt, werr := targetOf(x.lower(provider), model)
			if p != wp || m != wm || trimmed != wt || (err == nil) != (werr == nil) || err != nil && err.Error() != werr.Error() {
				t.Fatalf("target(%q, %q) = %q %q %q %v, targetOf %q %q %q %v", provider, model, p, m, trimmed, err, wp, wm, wt, werr)
			}
		}
	}
}

// TestPlainTargetReadsInPlace: the requests of the benchmarks, and
// others as nearly every request is written, take target's paths in
// place (a fast path that declines them falls back on a right answer,
// which the other tests cannot tell from its own).
func TestPlainTargetReadsInPlace(t *testing.T) {
	targets := [][2]string{{"anthropic", "Model-0"}, {"openai", "gpt-5.5"}, {"vllm", "q"}, {"google", "gemini-3-pro-preview"},
		{"openrouter", "claude-opus-4-6@20251001"}, {"a", ""}, {"x", "m日本語m"}}
	refs := []string{"anthropic/Model-20", "vllm/Qwen/Qwen3-8B", "openai/gpt-5.5", "openrouter/anthropic/claude-opus-4-6", "abc/defgH"}
	for _, q := range bench.Decisions(40) {
		if q.Provider != "" {
			targets = append(targets, [2]string{q.Provider, q.Model})
		} else {
			refs = append(refs, q.Model)
		}
	}
	for _, pm := range targets {
		if !plainTarget(pm[0], pm[1]) {
			t.Errorf("%q %q is not a plain target", pm[0], pm[1])
		}
	}
	for _, r := range refs {
		if plainRef(r) <= 0 {
			t.Errorf("%q is not a plain ref", r)
		}
	}
}

// decideWhole is Select's Result and error, then decide's (every field,
// the trail's too).
func decideWhole(x *Index, req Request, reg *Registry) (quick, slow [2]any) {
	r, err := x.Select(req, reg)
	quick = [2]any{r, err}
	quickOn = false
	defer func() { quickOn = true }()
	r, err = x.Select(req, reg)
	return quick, [2]any{r, err}
}

// TestQuickDecisionsMatchDecide: the decisions Select sets in place (a
// policy naming openclaw; automatic selection without a registry) are
// decide's, Result and reasons, on drawn documents and requests, with
// and without a registry, and on the benchmark documents; and they are
// the reference's.
func TestQuickDecisionsMatchDecide(t *testing.T) {
	reg := genRegistry(t)
	decide := func(x *Index, req Request, reg *Registry) string {
		quickOn = false
		defer func() { quickOn = true }()
		return outcome(x.Select(req, reg))
	}
	rapid.Check(t, func(t *rapid.T) {
		cfg := genConfig(t)
		genSpellings(t, cfg)
		if rapid.Bool().Draw(t, "nomodels") { // an entry without a model map
			cfg["agents"].(map[string]any)["entries"].(map[string]any)["main"] = map[string]any{"tools": map[string]any{"allow": []any{"read"}}}
		}
		doc := testDoc(t, cfg, nil)
		x, ref := Prepare(doc), oPrepare(doc, false)
		for i := rapid.IntRange(1, 4).Draw(t, "n"); i > 0; i-- {
			req := genRequest(t)
			req.AgentID = rapid.SampledFrom([]string{"", " ", "\t", "main", "MAIN", " main", "other", "ghost", "!!"}).Draw(t, "agentid")
			r := reg
			if rapid.Bool().Draw(t, "noreg") {
				r = nil
			}
			got, want := outcome(x.Select(req, r)), decide(x, req, r)
			if got != want {
				t.Fatalf("quick decision differs from decide's for %+v:\n%s\nvs\n%s\n%s", req, got, want, doc)
			}
			if a, b := decideWhole(x, req, r); !reflect.DeepEqual(a, b) {
				t.Fatalf("quick decision's Result differs from decide's for %+v:\n%+v\nvs\n%+v\n%s", req, a, b, doc)
			}
			if o := oOutcome(ref.Select(req, r)); got != o {
				t.Fatalf("quick decision differs from the reference for %+v:\n%s\nvs\n%s\n%s", req, got, o, doc)
			}
		}
	})
	for _, d := range append(append([]bench.Document{}, bench.Documents...), bench.Others...) {
		doc := occkit.MustParseDocument(string(d.Make(40)))
		x, ref := Prepare(doc), oPrepare(doc, false)
		for _, q := range bench.Decisions(40) {
			req := Request{Provider: q.Provider, Model: q.Model, AgentID: q.AgentID}
			if got, want := outcome(x.Select(req, nil)), oOutcome(ref.Select(req, nil)); got != want {
				t.Errorf("%s: decision differs from the reference for %+v:\n%s\nvs\n%s", d.Name, req, got, want)
			}
			if got, want := outcome(x.Select(req, nil)), decide(x, req, nil); got != want {
				t.Errorf("%s: quick decision differs from decide's for %+v:\n%s\nvs\n%s", d.Name, req, got, want)
			}
			if a, b := decideWhole(x, req, nil); !reflect.DeepEqual(a, b) {
				t.Errorf("%s: quick decision's Result differs from decide's for %+v:\n%+v\nvs\n%+v", d.Name, req, a, b)
			}
		}
	}
}

// FuzzTargetMatchesTargetOf is TestPlainTargetMatchesTargetOf on any
// provider and model ID.
func FuzzTargetMatchesTargetOf(f *testing.F) {
	for _, pm := range [][2]string{{"anthropic", "model-0"}, {"", "anthropic/model-20"}, {"OpenAI", " gpt-5.5 "}, {"", "a/b@c"},
		{"vllm", "x/y"}, {"", "Anthropic/m\u00a0"}, {"abcdefghijklmnopq", "é"}} {
		f.Add(pm[0], pm[1])
	}
	x := Prepare(occkit.MustParseDocument(`{"models":{"providers":{"anthropic":{},"OpenAI":{},"vllm":{}}}}`))
	f.Fuzz(func(t *testing.T, provider, model string) {
		p, m, trimmed, err := x.target(provider, model)
		wp, wm, wt, werr := targetOf(x.lower(provider), model)
		if p != wp || m != wm || trimmed != wt || (err == nil) != (werr == nil) || err != nil && err.Error() != werr.Error() {
			t.Fatalf("target(%q, %q) = %q %q %q %v, targetOf %q %q %q %v", provider, model, p, m, trimmed, err, wp, wm, wt, werr)
		}
	})
}
