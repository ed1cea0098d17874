package compile_test

import (
	"fmt"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/compile"
)

// Repair rewrites a legacy Codex ref to its canonical form and keeps the
// Codex route as model-scoped policy; a second pass finds nothing to do.
func ExampleRepair() {
	doc := occkit.MustParseDocument(`{"agents":{"defaults":{"agentRuntime":{"id":"auto"},"model":"codex/gpt-5.5"}}}`)
	out, changes, err := compile.Repair(doc)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(out)
	for _, c := range changes {
		fmt.Println(c)
	}
	_, again, _ := compile.Repair(out)
	fmt.Println("second pass:", len(again), "changes")
	// Output:
	// {"agents":{"defaults":{"model":"openai/gpt-5.5","models":{"openai/gpt-5.5":{"agentRuntime":{"id":"codex"}}}}}}
	// ref-rewritten agents.defaults.model codex/gpt-5.5 → openai/gpt-5.5
	// policy-set agents.defaults.models["openai/gpt-5.5"].agentRuntime.id → codex
	// pin-removed agents.defaults.agentRuntime
	// second pass: 0 changes
}

// CompileEndpoint turns a dedicated Codex selection into the private gateway
// document for a custom endpoint; RenderCodexConfig renders the matching
// Codex app-server configuration.
func ExampleCompileEndpoint() {
	doc := occkit.MustParseDocument(`{"agents":{"defaults":{"model":{"primary":"codex/vendor/org/model","fallbacks":["codex/vendor/org/small"]},"subagents":{"model":"fast"}}},` +
		`"models":{"providers":{"codex":{"models":[{"id":"vendor/org/model","name":"Team model"}]}}}}`)
	ep := compile.Endpoint{BaseURL: "https://llm.example.test/v1", ModelProvider: "openai-compatible"}
	gateway, err := compile.CompileEndpoint(doc, ep)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(gateway.Get(occkit.NewPath("agents", "defaults", "model")).Raw())
	fmt.Println(gateway.Get(occkit.NewPath("agents", "defaults", "subagents", "model")).Raw())
	fmt.Println(gateway.Get(occkit.NewPath("models", "providers", "codex", "models")).Raw())
	toml, err := compile.RenderCodexConfig(gateway, compile.CodexOptions{Endpoint: &ep, CredentialEnv: "OPENAI_API_KEY"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(string(toml))
	// Output:
	// {"primary":"codex/openai-compatible/vendor/org/model","fallbacks":["codex/openai-compatible/vendor/org/small"]}
	// "fast"
	// [{"id":"openai-compatible/vendor/org/model","name":"Team model"},{"name":"vendor/org/small","id":"openai-compatible/vendor/org/small"}]
	// model = 'vendor/org/model'
	// model_provider = 'openai-compatible'
	// approval_policy = 'never'
	//
	// [features]
	// apps = false
	// plugins = false
	// remote_plugin = false
	//
	// [apps]
	// [apps._default]
	// enabled = false
	//
	// [otel]
	// exporter = 'none'
	// log_user_prompt = false
	//
	// [model_providers]
	// [model_providers.openai-compatible]
	// name = 'OpenAI-compatible'
	// base_url = 'https://llm.example.test/v1'
	// wire_api = 'responses'
	// env_key = 'OPENAI_API_KEY'
	// requires_openai_auth = false
	// supports_websockets = false
}
