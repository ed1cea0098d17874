package selection

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/occkit/occkit"
)

var (
	genProviders = []string{"openai", "vllm", "anthropic", "google", "codex", "OpenAI"}
	genModels    = []string{"gpt-5.5", "q", "claude-opus-5", "vendor/m"}
	genRuntimes  = []string{"openclaw", "codex", "auto", "default", "PI", "claude-cli", "google-gemini-cli", "acme", "fb", "ghost", " "}
)

// genConfig draws an OpenClaw configuration touching every input of
// selection, as a plain Go value.
func genConfig(t *rapid.T) map[string]any {
	policy := func(label string) map[string]any {
		return map[string]any{"agentRuntime": map[string]any{"id": rapid.SampledFrom(genRuntimes).Draw(t, label)}}
	}
	maybe := func(label string) bool { return rapid.Bool().Draw(t, label) }
	modelMap := func(label string) map[string]any {
		m := map[string]any{}
		for i := rapid.IntRange(0, 3).Draw(t, label+"n"); i > 0; i-- {
			p := rapid.SampledFrom(genProviders).Draw(t, label+"p")
			key := p + "/" + rapid.SampledFrom(append([]string{"*"}, genModels...)).Draw(t, label+"m")
			if maybe(label + "bare") {
				key = rapid.SampledFrom(genModels).Draw(t, label+"b")
			}
			e := policy(label + "rt")
			if maybe(label + "params") {
				e["params"] = map[string]any{rapid.SampledFrom([]string{"thinking", "temperature", "fastMode"}).Draw(t, label+"pk"): "high"}
			}
			m[key] = e
		}
		return m
	}
	providers := map[string]any{}
	for i := rapid.IntRange(0, 3).Draw(t, "np"); i > 0; i-- {
		pc := map[string]any{}
		if maybe("pp") {
			pc = policy("prt")
		}
		if maybe("url") {
			pc["baseUrl"] = rapid.SampledFrom([]string{"https://api.openai.com/v1", "https://proxy.example", "http://api.openai.com", "https://chatgpt.com/backend-api/codex"}).Draw(t, "u")
		}
		if maybe("api") {
			pc["api"] = rapid.SampledFrom([]string{"openai-responses", "openai-completions", "openai-chatgpt-responses"}).Draw(t, "a")
		}
		if maybe("hdr") {
			pc["headers"] = map[string]any{"X-Key": "sk-secret"}
		}
		var rows []any
		for j := rapid.IntRange(0, 2).Draw(t, "nr"); j > 0; j-- {
			row := map[string]any{"id": rapid.SampledFrom(genModels).Draw(t, "rid")}
			if maybe("rp") {
				row = policy("rrt")
				row["id"] = rapid.SampledFrom(genModels).Draw(t, "rid2")
			}
			if maybe("compat") {
				row["compat"] = map[string]any{rapid.SampledFrom([]string{"supportsReasoningEffort", "supportsStore"}).Draw(t, "ck"): true}
			}
			if maybe("rfacts") { // a row's own route facts, else its provider's
				row[rapid.SampledFrom([]string{"baseUrl", "api"}).Draw(t, "rfk")] = rapid.SampledFrom([]string{"https://api.openai.com/v1",
					"https://proxy.example", "openai-responses", "openai-completions"}).Draw(t, "rfv")
			}
			rows = append(rows, row)
		}
		if rows != nil {
			pc["models"] = rows
		}
		providers[rapid.SampledFrom(genProviders).Draw(t, "pk")] = pc
	}
	defaults := map[string]any{"models": modelMap("d")}
	if maybe("whole") {
		defaults["agentRuntime"] = map[string]any{"id": "codex"}
	}
	if maybe("dparams") {
		defaults["params"] = map[string]any{"temperature": 0.1}
	}
	return map[string]any{
		"agents": map[string]any{
			"defaults": defaults,
			"entries":  map[string]any{"main": map[string]any{"models": modelMap("e")}},
		},
		"models": map[string]any{"providers": providers},
	}
}

func genRequest(t *rapid.T) Request {
	req := Request{
		Provider: rapid.SampledFrom(append([]string{""}, genProviders...)).Draw(t, "provider"),
		Model:    rapid.SampledFrom(genModels).Draw(t, "model"),
		AgentID:  rapid.SampledFrom([]string{"", "main", "MAIN", "other"}).Draw(t, "agent"),
	}
	if rapid.Bool().Draw(t, "session") {
		req.Session = Session{
			LockedOwner:         rapid.SampledFrom(append([]string{"", "", ""}, genRuntimes...)).Draw(t, "locked"),
			Override:            rapid.SampledFrom(append([]string{"", ""}, genRuntimes...)).Draw(t, "override"),
			ACPBackend:          rapid.SampledFrom([]string{"", "", "", "acpx"}).Draw(t, "acp"),
			HistoricalHarnessID: rapid.SampledFrom([]string{"", "codex"}).Draw(t, "hist"),
		}
	}
	return req
}

func genRegistry(t testing.TB) *Registry {
	return testRegistry(t,
		CodexHarness(),
		fakePlugin{id: "acme", auto: []string{"vllm", "openai"}, pri: 2, sup: Supported()},
		fakePlugin{id: "fb", auto: []string{"*"}, pri: 5, sup: FallbackToOpenClaw("reproducible")},
	)
}

// render writes v as JSON with object keys in an order drawn from rng.
func render(b *bytes.Buffer, v any, rng *rand.Rand) {
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		if rng != nil {
			rng.Shuffle(len(keys), func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
		}
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			kb, _ := json.Marshal(k)
			b.Write(kb)
			b.WriteByte(':')
			render(b, x[k], rng)
		}
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			render(b, e, rng)
		}
		b.WriteByte(']')
	default:
		eb, _ := json.Marshal(x)
		b.Write(eb)
	}
}

func testDoc(t interface{ Fatalf(string, ...any) }, v any, rng *rand.Rand) occkit.Document {
	var b bytes.Buffer
	render(&b, v, rng)
	d, err := occkit.ParseDocument(b.Bytes())
	if err != nil {
		t.Fatalf("generated config does not parse: %v\n%s", err, b.String())
	}
	return d
}

// outcome is a comparable rendering of a Select result.
func outcome(s Result, err error) string {
	if err != nil {
		e := occkit.First(err)
		return fmt.Sprintf("error %s %s %s", e.Code, e.Rule, e.Path.String())
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s %s fb=%v acp=%v req=%s %s/%s\n", s.Runtime, s.Source, s.CLIBackend, s.Fallback, s.ACP, s.Requested, s.Provider, s.Model)
	_ = s.Explain(&b)
	return b.String()
}

func TestSelectProperties(t *testing.T) {
	reg := genRegistry(t)
	rapid.Check(t, func(t *rapid.T) {
		cfg := genConfig(t)
		req := genRequest(t)
		doc := testDoc(t, cfg, nil)
		got, err := Select(doc, req, reg)
		first := outcome(got, err)

		// Determinism.
		if again := outcome(Select(doc, req, reg)); again != first {
			t.Fatalf("not deterministic:\n%s\nvs\n%s", first, again)
		}
		// Key order never changes a selection.
		seed := rapid.Int64().Draw(t, "seed")
		shuffled := testDoc(t, cfg, rand.New(rand.NewSource(seed)))
		if other := outcome(Select(shuffled, req, reg)); other != first {
			t.Fatalf("key order changed the selection:\n%s\nvs\n%s\n%s\n%s", first, other, doc, shuffled)
		}
		if err != nil {
			// Refusals are structured SEL errors.
			var e *occkit.Error
			if !errors.As(err, &e) || e.Code != occkit.CodeInvalidRequest || !strings.HasPrefix(e.Rule, "SEL-") {
				t.Fatalf("unstructured refusal: %v", err)
			}
			if strings.Contains(err.Error(), "sk-secret") {
				t.Fatalf("refusal leaks a secret: %v", err)
			}
			return
		}
		for _, r := range got.Reasons() {
			// Reason paths exist in the document.
			if !r.Path.IsRoot() && !doc.Has(r.Path) {
				t.Fatalf("reason path %s is not in the document", r.Path.String())
			}
			if strings.Contains(r.Value+r.Note, "sk-secret") {
				t.Fatalf("reason leaks a secret: %+v", r)
			}
		}
		if got.Runtime == "" || !cmp.Equal(true, knownSource(got.Source)) {
			t.Fatalf("incomplete selection %+v", got)
		}
		if got.CLIBackend != "" && got.Runtime != string(occkit.HarnessOpenClaw) {
			t.Fatalf("SEL-7: CLI backend %s runs on %s", got.CLIBackend, got.Runtime)
		}
	})
}

func knownSource(s Source) bool {
	for _, k := range AllSources() {
		if k == s {
			return true
		}
	}
	return false
}

func FuzzSelect(f *testing.F) {
	f.Add(`{"agents":{"defaults":{"models":{"vllm/*":{"agentRuntime":{"id":"acme"}}}}}}`, "vllm", "q", "")
	f.Add(`{"models":{"providers":{"openai":{"baseUrl":"https://api.openai.com/v1","headers":{"a":"b"},"agentRuntime":{"id":"codex"}}}}}`, "openai", "gpt-5.5", "")
	f.Add(`{"models":{"providers":{"openai":{"models":[{"id":"gpt","compat":{"supportsReasoningEffort":true}}]}}}}`, "openai", "gpt", "claude-cli")
	f.Add(`{"agents":{"entries":{"main":{"models":{"m":{"agentRuntime":{"id":"fb"}}}}}}}`, "", "m", "acme")
	f.Add(`[]`, "x", "y", "z")
	reg := genRegistry(f)
	f.Fuzz(func(t *testing.T, cfg, provider, model, override string) {
		doc, err := occkit.ParseDocument([]byte(cfg))
		if err != nil {
			return
		}
		req := Request{Provider: provider, Model: model, AgentID: "main", Session: Session{Override: override}}
		got, err := Select(doc, req, reg)
		if o, want := outcome(got, err), oOutcome(oPrepare(doc, false).Select(req, reg)); o != want {
			t.Fatalf("prepared decision differs from the reference:\n%s\nvs\n%s", o, want)
		}
		if err != nil {
			var e *occkit.Error
			if !errors.As(err, &e) || e.Code != occkit.CodeInvalidRequest || !strings.HasPrefix(e.Rule, "SEL-") {
				t.Fatalf("unstructured refusal: %v", err)
			}
			return
		}
		if got.Runtime == "" || !knownSource(got.Source) {
			t.Fatalf("incomplete selection %+v", got)
		}
		for _, r := range got.Reasons() {
			if !r.Path.IsRoot() && !doc.Has(r.Path) {
				t.Fatalf("reason path %s is not in the document", r.Path.String())
			}
		}
		var b bytes.Buffer
		if err := got.Explain(&b); err != nil {
			t.Fatal(err)
		}
	})
}

func BenchmarkSelect(b *testing.B) {
	doc := occkit.MustParseDocument(`{
	  "agents": {
	    "defaults": {"params": {"thinking": "high"}, "models": {
	      "anthropic/claude-opus-5": {"agentRuntime": {"id": "claude-cli"}},
	      "vllm/*": {"agentRuntime": {"id": "openclaw"}},
	      "openai/gpt-5.4": {"params": {"fastMode": true}}
	    }},
	    "entries": {"main": {"models": {"openai/gpt-5.5": {"params": {"thinking": "low"}}}}}
	  },
	  "models": {"providers": {
	    "openai": {"baseUrl": "https://api.openai.com/v1", "models": [
	      {"id": "gpt-5.4"}, {"id": "gpt-5.5", "compat": {"supportsReasoningEffort": true}}]},
	    "vllm": {"baseUrl": "http://127.0.0.1:8000/v1", "agentRuntime": {"id": "acme"}, "models": []}
	  }}
	}`)
	reg := genRegistry(b)
	reqs := []Request{
		{Provider: "openai", Model: "gpt-5.5", AgentID: "main"},
		{Provider: "vllm", Model: "qwen"},
		{Provider: "anthropic", Model: "claude-opus-5"},
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Select(doc, reqs[i%len(reqs)], reg); err != nil {
			b.Fatal(err)
		}
	}
}
