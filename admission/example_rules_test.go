package admission_test

import (
	"context"
	"fmt"
	"os"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/admission"
	"github.com/occkit/occkit/compile"
)

// A platform team's own rule: no Codex in production namespaces. Its
// refusal names the rule, the setting it points at and where that is
// written; an admission it allows explains it.
func ExampleRuleFunc() {
	noCodexInProd := admission.RuleFunc("company/no-codex-in-prod", func(_ context.Context, v *admission.View) error {
		if v.Harness() == occkit.HarnessCodex && v.Agent().Labels["env"] == "production" {
			return occkit.Invalid("", v.Primary().Path, "Codex does not run in production")
		}
		return nil
	})
	a, err := admission.New(admission.Options{
		Authorizer:      admission.AuthorizerFunc(func(context.Context, admission.AuthorizeRequest) error { return nil }),
		HarnessVersions: map[occkit.Harness]string{occkit.HarnessOpenClaw: "2026.9.6", occkit.HarnessCodex: "0.171.0"},
		Rules:           []admission.Rule{noCodexInProd},
	})
	if err != nil {
		panic(err)
	}
	admit := func(src string, auth occkit.Binding, mode occkit.Mode) (*admission.Revision, error) {
		doc, err := compile.Load([]byte(src), compile.LoadOptions{Filename: "agent.json5"})
		if err != nil {
			return nil, err
		}
		return a.Admit(context.Background(), admission.Request{
			Agent: admission.Agent{ID: "main", ConfigurationID: "cfg_1", ExecutionMode: mode, HarnessAuth: auth,
				Labels: map[string]string{"env": "production"}},
			Configuration: admission.StaticConfiguration{ID: "cfg_1", Generation: 1, Document: doc},
			Compute:       admission.ComputeInfo{Kind: occkit.ComputeKubernetes},
		})
	}
	key := occkit.Binding{Method: occkit.MethodAPIKey, Source: occkit.SourceRef{Kind: occkit.SourceSecret, NamespaceID: "ns_1", ID: "sec_1"}}
	_, err = admit(`{
  agents: {
    defaults: {model: "openai/gpt-5", models: {"openai/gpt-5": {agentRuntime: {id: "codex"}}}},
    entries: {main: {}},
  },
  plugins: {entries: {codex: {enabled: true, config: {appServer: {transport: "websocket"}}}}},
}`, key, occkit.ModeDedicated)
	e := occkit.First(err)
	fmt.Printf("%s: %v\n", e.Position, e)

	rev, err := admit(`{agents: {defaults: {model: "anthropic/claude-sonnet-4-6"}}}`, key, occkit.ModeEmbedded)
	if err != nil {
		panic(err)
	}
	_ = rev.Explain(os.Stdout)
	// Output:
	// agent.json5:3:16: INVALID_REQUEST agents.defaults.model: Codex does not run in production [company/no-codex-in-prod]
	// harness openclaw, mode embedded, primary anthropic/claude-sonnet-4-6
	//   RES-3 agents.defaults.model = "anthropic/claude-sonnet-4-6": primary model
	//   RES-6 agents.defaults.model = "anthropic": no runtime policy, models.providers entry or plugin routing names this provider, so the default openclaw Harness runs it
	//   RES-11 (request) = "openclaw/embedded on kubernetes": the Compute supports this Harness and execution mode
	//   company/no-codex-in-prod (request): held
}
