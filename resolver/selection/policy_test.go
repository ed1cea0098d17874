package selection

import (
	"fmt"
	"testing"

	"github.com/occkit/occkit"
)

func TestLookupPolicy(t *testing.T) {
	tests := []struct {
		name, doc, provider, model, agent string
		want                              string // runtime/source
	}{
		{"SEL-1 key naming the caller's provider wins", `{"agents":{"defaults":{"models":{
			"moonshotai/kimi-k2.5":{"agentRuntime":{"id":"a"}},
			"nvidia/moonshotai/kimi-k2.5":{"agentRuntime":{"id":"b"}}}}}}`, "nvidia", "moonshotai/kimi-k2.5", "", "b/model"},
		{"SEL-1 same, keys in the other order", `{"agents":{"defaults":{"models":{
			"nvidia/moonshotai/kimi-k2.5":{"agentRuntime":{"id":"b"}},
			"moonshotai/kimi-k2.5":{"agentRuntime":{"id":"a"}}}}}}`, "nvidia", "moonshotai/kimi-k2.5", "", "b/model"},
		{"SEL-1 provider policy", `{"models":{"providers":{"vllm":{"agentRuntime":{"id":"Codex"}}}}}`, "vllm", "q", "", "codex/provider"},
		{"SEL-1 nothing", `{}`, "vllm", "q", "", "auto/implicit"},
		{"SEL-1 bare ID, keys of two providers", `{"agents":{"defaults":{"models":{
			"a/q":{"agentRuntime":{"id":"x"}},"b/q":{"agentRuntime":{"id":"y"}}}}}}`, "", "q", "", "auto/implicit"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := LookupPolicy(occkit.MustParseDocument(tc.doc), Request{Provider: tc.provider, Model: tc.model, AgentID: tc.agent})
			if err != nil {
				t.Fatal(err)
			}
			if got := p.Runtime + "/" + string(p.Source); got != tc.want {
				t.Errorf("got %s, want %s", got, tc.want)
			}
		})
	}
	if _, err := LookupPolicy(occkit.MustParseDocument(`{}`), Request{}); err == nil {
		t.Error("empty request: want an error")
	}
}

func ExampleLookupPolicy() {
	doc := occkit.MustParseDocument(`{"agents":{"defaults":{"models":{
		"moonshotai/kimi-k2.5":{"agentRuntime":{"id":"openclaw"}},
		"nvidia/moonshotai/kimi-k2.5":{"agentRuntime":{"id":"codex"}}}}}}`)
	p, _ := LookupPolicy(doc, Request{Provider: "nvidia", Model: "moonshotai/kimi-k2.5"})
	fmt.Println(p.Runtime, p.Source, p.Path)
	// Output: codex model agents.defaults.models["nvidia/moonshotai/kimi-k2.5"].agentRuntime.id
}
