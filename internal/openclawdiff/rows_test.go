package openclawdiff

import (
	"context"
	"testing"
)

// TestCatalogRowsRoute asks the real OpenClaw which catalog rows give a
// model its route: rows that name it by its exact ID (merged) carry the
// base URL, API and request overrides; a row that names it with a
// provider prefix gives it a policy only. The generators draw few such
// rows, so these are asked directly; OpenClaw's answer is the expected one.
func TestCatalogRowsRoute(t *testing.T) {
	o := oracle(t)
	compat := Obj{{"supportsStore", false}}
	proxy := "https://proxy.example.com/v1"
	pin := func(id string) Obj { return Obj{{"id", id}} }
	rowsets := [][]any{
		{Obj{{"id", "openai/kimi-k2.5"}}, Obj{{"id", "kimi-k2.5"}, {"compat", compat}}},
		{Obj{{"id", "openai/kimi-k2.5"}, {"compat", compat}}, Obj{{"id", "kimi-k2.5"}}},
		{Obj{{"id", "openai/kimi-k2.5"}, {"agentRuntime", pin("")}}, Obj{{"id", "kimi-k2.5"}, {"compat", compat}}},
		{Obj{{"id", "kimi-k2.5"}}, Obj{{"id", "openai/kimi-k2.5"}, {"compat", compat}}},
		{Obj{{"id", "openai/kimi-k2.5"}, {"agentRuntime", pin("codex")}}, Obj{{"id", "kimi-k2.5"}, {"compat", compat}}},
		{Obj{{"id", "kimi-k2.5"}, {"agentRuntime", pin("codex")}}, Obj{{"id", "openai/kimi-k2.5"}, {"agentRuntime", pin("openclaw")}}},
		{Obj{{"id", "openai/kimi-k2.5"}, {"agentRuntime", pin("openclaw")}}, Obj{{"id", "kimi-k2.5"}, {"agentRuntime", pin("codex")}}},
		{Obj{{"id", "openai/kimi-k2.5"}, {"baseUrl", proxy}}, Obj{{"id", "kimi-k2.5"}}},
		{Obj{{"id", "kimi-k2.5"}}, Obj{{"id", "openai/kimi-k2.5"}, {"baseUrl", proxy}}},
		{Obj{{"id", "openai/kimi-k2.5"}}, Obj{{"id", "kimi-k2.5"}, {"baseUrl", proxy}}},
		{Obj{{"id", "openai/kimi-k2.5"}, {"baseUrl", proxy}}},
		{Obj{{"id", "OpenAI/kimi-k2.5"}, {"compat", compat}}, Obj{{"id", " kimi-k2.5 "}}},
		{Obj{{"id", "openai/kimi-k2.5"}, {"params", Obj{{"x", 1}}}}, Obj{{"id", "kimi-k2.5"}}, Obj{{"id", "kimi-k2.5"}, {"headers", Obj{{"x", "1"}}}}},
		{Obj{{"id", "openai/kimi-k2.5"}, {"compat", compat}}},
		{Obj{{"id", "openai/kimi-k2.5"}, {"headers", Obj{{"x", "1"}}}}},
		{Obj{{"id", "openai/kimi-k2.5"}, {"agentRuntime", pin("openclaw")}}},
		{Obj{{"id", "openai/kimi-k2.5"}, {"params", Obj{{"temperature", 1}}}}},
		{Obj{{"id", "OPENAI/kimi-k2.5"}, {"api", "anthropic-messages"}}},
		{Obj{{"id", "kimi-k2.5"}, {"api", "anthropic-messages"}}},
	}
	codex := HarnessSpec{ID: "codex", AutoProviders: []string{"openai", "codex"}, SupportsProviders: []string{"openai", "codex"}, RefusePrefixes: []string{}}
	var items []any
	var occ []SelectOut
	for _, rows := range rowsets {
		in := SelectInput{PolicyInput: PolicyInput{Provider: "openai", ModelID: "kimi-k2.5", AgentID: "main",
			Config: Obj{{"models", Obj{{"providers", Obj{{"openai", Obj{{"baseUrl", "https://api.openai.com/v1"}, {"models", rows}}}}}}}}},
			Harnesses: []HarnessSpec{codex}}
		it, out, err := SelectItem(in)
		if err != nil {
			t.Fatal(err)
		}
		items = append(items, it)
		occ = append(occ, out)
	}
	answers, err := o.Run(context.Background(), items)
	if err != nil {
		t.Fatal(err)
	}
	for i, raw := range answers {
		a, err := DecodeSelect(raw)
		if err != nil {
			t.Fatal(err)
		}
		if !occ[i].Same(a.R) {
			t.Errorf("rows %v: occkit %+v, openclaw %+v (%s)", rowsets[i], occ[i], a.R, a.Reason)
		}
	}
}
