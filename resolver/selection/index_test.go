package selection

import (
	"testing"

	"pgregory.net/rapid"
)

// genSpellings adds what the indexes must resolve like a scan: agent
// entries and provider configs under other spellings, an agents.list, and
// catalog rows with provider-qualified, padded and duplicate IDs.
func genSpellings(t *rapid.T, cfg map[string]any) {
	agents := cfg["agents"].(map[string]any)
	entries := agents["entries"].(map[string]any)
	policy := func(label string) map[string]any {
		return map[string]any{"agentRuntime": map[string]any{"id": rapid.SampledFrom(genRuntimes).Draw(t, label)}}
	}
	for _, k := range []string{" Main", "MAIN", "Other"} {
		if rapid.Bool().Draw(t, "entry"+k) {
			entries[k] = map[string]any{"models": map[string]any{
				rapid.SampledFrom([]string{"q", "vllm/q", " openai / gpt-5.5 ", "anthropic/*"}).Draw(t, "ek"+k): policy("ert" + k),
			}}
		}
	}
	if rapid.Bool().Draw(t, "list") {
		agents["list"] = []any{
			"not an object",
			map[string]any{"id": " other ", "models": map[string]any{"openai/*": policy("lrt")}},
			map[string]any{"id": "OTHER", "agentRuntime": map[string]any{"id": "codex"}},
		}
	}
	providers := cfg["models"].(map[string]any)["providers"].(map[string]any)
	for _, k := range []string{" vllm", "VLLM", "Anthropic"} {
		if rapid.Bool().Draw(t, "prov"+k) {
			pc := policy("prt" + k)
			pc["models"] = []any{
				map[string]any{"id": rapid.SampledFrom([]string{"q", " q ", "VLLM/q", "vllm / q", "anthropic/claude-opus-5", "vendor/m"}).Draw(t, "rid"+k), "api": "openai-completions", "params": map[string]any{"temperature": 1}},
				map[string]any{"id": rapid.SampledFrom([]string{"q", "Vendor/m", "claude-opus-5"}).Draw(t, "rid2"+k), "agentRuntime": map[string]any{"id": "acme"}},
				7,
			}
			providers[k] = pc
		}
	}
}

// TestPrepareMatchesScan: the indexed decision equals the scanning
// one on every generated document and request, and one index answers
// every request.
func TestPrepareMatchesScan(t *testing.T) {
	reg := genRegistry(t)
	rapid.Check(t, func(t *rapid.T) {
		cfg := genConfig(t)
		genSpellings(t, cfg)
		doc := testDoc(t, cfg, nil)
		x, scan, indexed := Prepare(doc), oPrepare(doc, false), oPrepare(doc, true)
		for i := rapid.IntRange(1, 4).Draw(t, "n"); i > 0; i-- {
			req := genRequest(t)
			req.AgentID = rapid.SampledFrom([]string{"", "main", "MAIN", " main", "other", "Other ", "ghost"}).Draw(t, "agentid")
			want := oOutcome(scan.Select(req, reg))
			if got := oOutcome(indexed.Select(req, reg)); got != want {
				t.Fatalf("the reference's indexes differ from its scan for %+v:\n%s\nvs\n%s\n%s", req, got, want, doc)
			}
			if got := outcome(x.Select(req, reg)); got != want {
				t.Fatalf("prepared decision differs from the scan for %+v:\n%s\nvs\n%s\n%s", req, got, want, doc)
			}
			if got := outcome(Select(doc, req, reg)); got != want {
				t.Fatalf("Select differs from the scan for %+v:\n%s\nvs\n%s", req, got, want)
			}
		}
	})
}
