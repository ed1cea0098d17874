package selection_test

import (
	"fmt"
	"os"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/resolver/selection"
)

func ExampleSelect() {
	doc := occkit.MustParseDocument(`{
	  "agents": {"defaults": {
	    "agentRuntime": {"id": "codex"},
	    "models": {
	      "vllm/*": {"agentRuntime": {"id": "openclaw"}},
	      "anthropic/claude-opus-5": {"agentRuntime": {"id": "claude-cli"}}
	    }
	  }},
	  "models": {"providers": {"openai": {"baseUrl": "https://api.openai.com/v1"}}}
	}`)
	reg, err := selection.NewRegistry(selection.CodexHarness())
	if err != nil {
		panic(err)
	}
	for _, req := range []selection.Request{
		{Provider: "openai", Model: "gpt-5.5"},
		{Provider: "vllm", Model: "qwen-local"},
		{Provider: "anthropic", Model: "claude-opus-5"},
	} {
		sel, err := selection.Select(doc, req, reg)
		if err != nil {
			panic(err)
		}
		fmt.Printf("%s/%s:\n", req.Provider, req.Model)
		_ = sel.Explain(os.Stdout)
	}
	_, err = selection.Select(doc, selection.Request{Provider: "vllm", Model: "qwen-local",
		Session: selection.Session{LockedOwner: "acme-agent"}}, reg)
	fmt.Println(err)
	// Output:
	// openai/gpt-5.5:
	// 1. SEL-2 agents.defaults.agentRuntime = codex: whole-agent runtime key is ignored
	// 2. SEL-4 = codex: official OpenAI Responses route without request overrides
	// runtime codex (source implicit)
	// vllm/qwen-local:
	// 1. SEL-2 agents.defaults.agentRuntime = codex: whole-agent runtime key is ignored
	// 2. SEL-1 agents.defaults.models["vllm/*"].agentRuntime.id = openclaw: provider wildcard policy
	// runtime openclaw (source model)
	// anthropic/claude-opus-5:
	// 1. SEL-2 agents.defaults.agentRuntime = codex: whole-agent runtime key is ignored
	// 2. SEL-1 agents.defaults.models["anthropic/claude-opus-5"].agentRuntime.id = claude-cli: model policy
	// 3. SEL-7 agents.defaults.models["anthropic/claude-opus-5"].agentRuntime.id = claude-cli: CLI backend runs through the built-in openclaw harness
	// runtime openclaw (source model) via CLI backend claude-cli
	// INVALID_REQUEST: runtime "acme-agent" is not a registered harness for vllm/qwen-local [SEL-8]
}

func ExamplePrepare() {
	doc := occkit.MustParseDocument(`{
	  "agents": {"defaults": {"models": {"vllm/*": {"agentRuntime": {"id": "openclaw"}}}}},
	  "models": {"providers": {
	    "openai": {"baseUrl": "https://api.openai.com/v1"},
	    "anthropic": {"models": [{"id": "claude-opus-5", "agentRuntime": {"id": "claude-cli"}}]}
	  }}
	}`)
	reg, err := selection.NewRegistry(selection.CodexHarness())
	if err != nil {
		panic(err)
	}
	x := selection.Prepare(doc) // once per document
	for _, req := range []selection.Request{
		{Provider: "openai", Model: "gpt-5.5"},
		{Provider: "vllm", Model: "qwen-local"},
		{Model: "anthropic/claude-opus-5"},
	} {
		sel, err := x.Select(req, reg)
		if err != nil {
			panic(err)
		}
		fmt.Printf("%s/%s: %s (%s) cli=%q\n", sel.Provider, sel.Model, sel.Runtime, sel.Source, sel.CLIBackend)
	}
	// Output:
	// openai/gpt-5.5: codex (implicit) cli=""
	// vllm/qwen-local: openclaw (model) cli=""
	// anthropic/claude-opus-5: openclaw (model) cli="claude-cli"
}
