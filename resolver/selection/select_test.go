package selection

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/occkit/occkit"
)

// fakePlugin is a test plugin answering every route the same way.
type fakePlugin struct {
	id   string
	auto []string
	pri  int
	sup  Support
}

func (p fakePlugin) ID() string                  { return p.id }
func (p fakePlugin) AutoProviders() []string     { return p.auto }
func (p fakePlugin) Priority() int               { return p.pri }
func (p fakePlugin) Supports(RouteFacts) Support { return p.sup }

func testRegistry(t testing.TB, ps ...HarnessPlugin) *Registry {
	t.Helper()
	r, err := NewRegistry(ps...)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

type expect struct {
	Runtime    string
	Source     Source
	CLIBackend string
	Fallback   bool
}

type errWant struct {
	rule string
	path string
}

func TestSelect(t *testing.T) {
	codex := CodexHarness()
	yes := func(id string, auto ...string) HarnessPlugin { return fakePlugin{id: id, auto: auto, sup: Supported()} }
	tests := []struct {
		name    string
		cfg     string
		req     Request
		plugins []HarnessPlugin
		want    expect
		err     *errWant
	}{
		// SEL-1 lookup order.
		{name: "SEL-1 entry key beats defaults key",
			cfg: `{"agents":{"defaults":{"models":{"vllm/q":{"agentRuntime":{"id":"acme"}}}},"entries":{"main":{"models":{"vllm/q":{"agentRuntime":{"id":"openclaw"}}}}}}}`,
			req: Request{Provider: "vllm", Model: "q", AgentID: "main"}, plugins: []HarnessPlugin{yes("acme")},
			want: expect{Runtime: "openclaw", Source: SourceModel}},
		{name: "SEL-1 other agent's entry is not consulted",
			cfg: `{"agents":{"defaults":{"models":{"vllm/q":{"agentRuntime":{"id":"acme"}}}},"entries":{"main":{"models":{"vllm/q":{"agentRuntime":{"id":"openclaw"}}}}}}}`,
			req: Request{Provider: "vllm", Model: "q", AgentID: "other"}, plugins: []HarnessPlugin{yes("acme")},
			want: expect{Runtime: "acme", Source: SourceModel}},
		{name: "SEL-1 agents.list entry is consulted",
			cfg: `{"agents":{"list":[{"id":"Main","models":{"vllm/q":{"agentRuntime":{"id":"acme"}}}}]}}`,
			req: Request{Provider: "vllm", Model: "q", AgentID: "main"}, plugins: []HarnessPlugin{yes("acme")},
			want: expect{Runtime: "acme", Source: SourceModel}},
		{name: "SEL-1 blank policy id is skipped",
			cfg: `{"agents":{"defaults":{"models":{"vllm/q":{"agentRuntime":{"id":"  "}}}}},"models":{"providers":{"vllm":{"agentRuntime":{"id":"acme"}}}}}`,
			req: Request{Provider: "vllm", Model: "q"}, plugins: []HarnessPlugin{yes("acme")},
			want: expect{Runtime: "acme", Source: SourceProvider}},
		{name: "SEL-1 catalog row beats wildcard",
			cfg: `{"agents":{"defaults":{"models":{"vllm/*":{"agentRuntime":{"id":"openclaw"}}}}},"models":{"providers":{"vllm":{"models":[{"id":"q","agentRuntime":{"id":"acme"}}]}}}}`,
			req: Request{Provider: "vllm", Model: "q"}, plugins: []HarnessPlugin{yes("acme")},
			want: expect{Runtime: "acme", Source: SourceModel}},
		{name: "SEL-1 the first matching row wins, prefixed or not",
			cfg: `{"models":{"providers":{"vllm":{"models":[{"id":"vllm/q","agentRuntime":{"id":"acme"}},{"id":"q","agentRuntime":{"id":"openclaw"}}]}}}}`,
			req: Request{Provider: "vllm", Model: "q"}, plugins: []HarnessPlugin{yes("acme")},
			want: expect{Runtime: "acme", Source: SourceModel}},
		{name: "SEL-1 the first matching row wins, exact first",
			cfg: `{"models":{"providers":{"vllm":{"models":[{"id":"q","agentRuntime":{"id":"openclaw"}},{"id":"vllm/q","agentRuntime":{"id":"acme"}}]}}}}`,
			req: Request{Provider: "vllm", Model: "q"}, plugins: []HarnessPlugin{yes("acme")},
			want: expect{Runtime: "openclaw", Source: SourceModel}},
		{name: "SEL-1 a row after the last slash does not match",
			cfg: `{"models":{"providers":{"vllm":{"models":[{"id":"q","agentRuntime":{"id":"acme"}}]}}}}`,
			req: Request{Provider: "vllm", Model: "org/q"}, plugins: []HarnessPlugin{yes("acme")},
			want: expect{Runtime: "openclaw", Source: SourceImplicit}},
		{name: "SEL-1 row matched by id after first slash, never the last segment",
			cfg: `{"models":{"providers":{"nvidia":{"models":[{"id":"kimi","agentRuntime":{"id":"acme"}}]}}}}`,
			req: Request{Provider: "nvidia", Model: "moonshotai/kimi"}, plugins: []HarnessPlugin{yes("acme")},
			want: expect{Runtime: "openclaw", Source: SourceImplicit}},
		{name: "SEL-1 exact key beats catalog row",
			cfg: `{"agents":{"defaults":{"models":{"vllm/q":{"agentRuntime":{"id":"openclaw"}}}}},"models":{"providers":{"vllm":{"models":[{"id":"q","agentRuntime":{"id":"acme"}}]}}}}`,
			req: Request{Provider: "vllm", Model: "q"}, plugins: []HarnessPlugin{yes("acme")},
			want: expect{Runtime: "openclaw", Source: SourceModel}},
		{name: "SEL-1 wildcard entry scope beats defaults",
			cfg: `{"agents":{"defaults":{"models":{"vllm/*":{"agentRuntime":{"id":"acme"}}}},"entries":{"main":{"models":{"vllm/*":{"agentRuntime":{"id":"openclaw"}}}}}}}`,
			req: Request{Provider: "vllm", Model: "q", AgentID: "main"}, plugins: []HarnessPlugin{yes("acme")},
			want: expect{Runtime: "openclaw", Source: SourceModel}},
		{name: "SEL-1 provider key compared case-insensitively",
			cfg: `{"models":{"providers":{"VLLM":{"agentRuntime":{"id":"acme"}}}}}`,
			req: Request{Provider: "vllm", Model: "q"}, plugins: []HarnessPlugin{yes("acme")},
			want: expect{Runtime: "acme", Source: SourceProvider}},
		{name: "SEL-1 bare model id matching keys of two providers has no policy",
			cfg: `{"agents":{"defaults":{"models":{"a/m":{"agentRuntime":{"id":"acme"}},"b/m":{"agentRuntime":{"id":"acme"}}}}}}`,
			req: Request{Model: "m"}, plugins: []HarnessPlugin{yes("acme", "*")},
			want: expect{Runtime: "openclaw", Source: SourceImplicit}},
		{name: "SEL-1 bare model id matching one provider takes its policy",
			cfg: `{"agents":{"defaults":{"models":{"a/m":{"agentRuntime":{"id":"acme"}}}}}}`,
			req: Request{Model: "m"}, plugins: []HarnessPlugin{yes("acme")},
			want: expect{Runtime: "acme", Source: SourceModel}},
		{name: "SEL-1 bare model id takes the one provider wildcard key",
			cfg:  `{"agents":{"defaults":{"models":{"anthropic/*":{"agentRuntime":{"id":"claude-cli"}}}}}}`,
			req:  Request{Model: "claude-opus-4-7[1m]"},
			want: expect{Runtime: "openclaw", Source: SourceModel, CLIBackend: "claude-cli"}},
		{name: "SEL-1 bare model id: entry wildcard key before defaults",
			cfg: `{"agents":{"defaults":{"models":{"b/*":{"agentRuntime":{"id":"openclaw"}}}},"entries":{"main":{"models":{"a/*":{"agentRuntime":{"id":"acme"}}}}}}}`,
			req: Request{Model: "m", AgentID: "main"}, plugins: []HarnessPlugin{yes("acme")},
			want: expect{Runtime: "acme", Source: SourceModel}},
		{name: "SEL-1 bare model id matching wildcard keys of two providers has no policy",
			cfg: `{"agents":{"defaults":{"models":{"a/*":{"agentRuntime":{"id":"acme"}},"b/*":{"agentRuntime":{"id":"acme"}}}}}}`,
			req: Request{Model: "m"}, plugins: []HarnessPlugin{yes("acme", "*")},
			want: expect{Runtime: "openclaw", Source: SourceImplicit}},
		{name: "SEL-1 bare model id ambiguous on exact keys skips the wildcards",
			cfg: `{"agents":{"defaults":{"models":{"a/m":{"agentRuntime":{"id":"acme"}},"b/m":{"agentRuntime":{"id":"openclaw"}},"a/*":{"agentRuntime":{"id":"acme"}}}}}}`,
			req: Request{Model: "m"}, plugins: []HarnessPlugin{yes("acme")},
			want: expect{Runtime: "openclaw", Source: SourceImplicit}},
		{name: "SEL-1 bare model id: a wildcard key without policy does not count",
			cfg: `{"agents":{"defaults":{"models":{"a/*":{"agentRuntime":{"id":"acme"}},"b/*":{}}}}}`,
			req: Request{Model: "m"}, plugins: []HarnessPlugin{yes("acme")},
			want: expect{Runtime: "acme", Source: SourceModel}},
		{name: "SEL-1 provider without a model ID takes its wildcard key",
			cfg: `{"agents":{"defaults":{"models":{"vllm/*":{"agentRuntime":{"id":"openclaw"}},"vllm/q":{"agentRuntime":{"id":"acme"}}}}}}`,
			req: Request{Provider: "vllm"}, plugins: []HarnessPlugin{yes("acme")},
			want: expect{Runtime: "openclaw", Source: SourceModel}},
		{name: "SEL-1 provider without a model ID takes its provider policy",
			cfg: `{"models":{"providers":{"vllm":{"agentRuntime":{"id":"acme"},"models":[{"id":"q","agentRuntime":{"id":"openclaw"}}]}}}}`,
			req: Request{Provider: "vllm"}, plugins: []HarnessPlugin{yes("acme")},
			want: expect{Runtime: "acme", Source: SourceProvider}},
		{name: "SEL-5 provider without a model ID: a refusal names the provider",
			cfg: `{"models":{"providers":{"vllm":{"agentRuntime":{"id":"ghost"}}}}}`,
			req: Request{Provider: "vllm"},
			err: &errWant{rule: "SEL-5", path: "models.providers.vllm.agentRuntime.id"}},
		{name: "SEL-1 model given as a full ref",
			cfg: `{"models":{"providers":{"vllm":{"agentRuntime":{"id":"acme"}}}}}`,
			req: Request{Model: "vllm/q"}, plugins: []HarnessPlugin{yes("acme")},
			want: expect{Runtime: "acme", Source: SourceProvider}},
		{name: "SEL-1 explicit auto at model scope stops the lookup",
			cfg: `{"agents":{"defaults":{"models":{"vllm/q":{"agentRuntime":{"id":"auto"}}}}},"models":{"providers":{"vllm":{"agentRuntime":{"id":"acme"}}}}}`,
			req: Request{Provider: "vllm", Model: "q"}, plugins: []HarnessPlugin{fakePlugin{id: "acme", sup: Supported()}},
			want: expect{Runtime: "openclaw", Source: SourceImplicit}},

		// SEL-2.
		{name: "SEL-2 entry agentRuntime and embeddedHarness are ignored",
			cfg: `{"agents":{"defaults":{"embeddedHarness":{"runtime":"acme"}},"entries":{"main":{"agentRuntime":{"id":"acme"}}}}}`,
			req: Request{Provider: "vllm", Model: "q", AgentID: "main"}, plugins: []HarnessPlugin{fakePlugin{id: "acme", sup: Supported()}},
			want: expect{Runtime: "openclaw", Source: SourceImplicit}},

		// SEL-3.
		{name: "SEL-3 highest priority wins",
			cfg: `{}`, req: Request{Provider: "vllm", Model: "q"},
			plugins: []HarnessPlugin{fakePlugin{id: "a", auto: []string{"vllm"}, pri: 1, sup: Supported()}, fakePlugin{id: "b", auto: []string{"vllm"}, pri: 5, sup: Supported()}},
			want:    expect{Runtime: "b", Source: SourceImplicit}},
		{name: "SEL-3 tie goes to the lower id",
			cfg: `{}`, req: Request{Provider: "vllm", Model: "q"},
			plugins: []HarnessPlugin{fakePlugin{id: "zed", auto: []string{"vllm"}, pri: 3, sup: Supported()}, fakePlugin{id: "alpha", auto: []string{"VLLM"}, pri: 3, sup: Supported()}},
			want:    expect{Runtime: "alpha", Source: SourceImplicit}},
		{name: "SEL-3 fallback answers do not claim",
			cfg: `{}`, req: Request{Provider: "vllm", Model: "q"},
			plugins: []HarnessPlugin{fakePlugin{id: "a", auto: []string{"*"}, pri: 9, sup: FallbackToOpenClaw("x")}},
			want:    expect{Runtime: "openclaw", Source: SourceImplicit}},
		{name: "SEL-3 empty auto list is explicit-only",
			cfg: `{}`, req: Request{Provider: "vllm", Model: "q"},
			plugins: []HarnessPlugin{fakePlugin{id: "a", sup: Supported()}},
			want:    expect{Runtime: "openclaw", Source: SourceImplicit}},
		{name: "SEL-3 provider-level auto asks plugins, automatic with the implicit source",
			cfg: `{"models":{"providers":{"vllm":{"agentRuntime":{"id":"default"}}}}}`, req: Request{Provider: "vllm", Model: "q"},
			plugins: []HarnessPlugin{fakePlugin{id: "a", auto: []string{"vllm"}, sup: Supported()}},
			want:    expect{Runtime: "a", Source: SourceImplicit}},

		// SEL-4.
		{name: "SEL-4 official default route selects codex",
			cfg: `{}`, req: Request{Provider: "openai", Model: "gpt-5.5"}, plugins: []HarnessPlugin{codex},
			want: expect{Runtime: "codex", Source: SourceImplicit}},
		{name: "SEL-4 no codex registered becomes openclaw",
			cfg: `{}`, req: Request{Provider: "openai", Model: "gpt-5.5"},
			want: expect{Runtime: "openclaw", Source: SourceImplicit}},
		{name: "SEL-4 plain http stays on openclaw",
			cfg: `{"models":{"providers":{"openai":{"baseUrl":"http://api.openai.com/v1"}}}}`, req: Request{Provider: "openai", Model: "gpt-5.5"}, plugins: []HarnessPlugin{codex},
			want: expect{Runtime: "openclaw", Source: SourceImplicit}},
		{name: "SEL-4 chatgpt responses route selects codex",
			cfg: `{"models":{"providers":{"openai":{"baseUrl":"https://chatgpt.com/backend-api/codex","api":"openai-chatgpt-responses"}}}}`, req: Request{Provider: "openai", Model: "gpt-5.5"}, plugins: []HarnessPlugin{codex},
			want: expect{Runtime: "codex", Source: SourceImplicit}},
		{name: "SEL-4 row base URL wins over provider base URL",
			cfg: `{"models":{"providers":{"openai":{"baseUrl":"https://api.openai.com/v1","models":[{"id":"gpt-5.5","baseUrl":"https://proxy.example/v1"}]}}}}`, req: Request{Provider: "openai", Model: "gpt-5.5"}, plugins: []HarnessPlugin{codex},
			want: expect{Runtime: "openclaw", Source: SourceImplicit}},
		{name: "SEL-4 provider headers keep openai on openclaw",
			cfg: `{"models":{"providers":{"openai":{"headers":{"X-Org":"secret-org"}}}}}`, req: Request{Provider: "openai", Model: "gpt-5.5"}, plugins: []HarnessPlugin{codex},
			want: expect{Runtime: "openclaw", Source: SourceImplicit}},
		{name: "SEL-4 codex is not asked again under SEL-3 for openai",
			cfg: `{"models":{"providers":{"openai":{"baseUrl":"https://proxy.example/v1"}}}}`, req: Request{Provider: "openai", Model: "gpt-5.5"},
			plugins: []HarnessPlugin{fakePlugin{id: "codex", auto: []string{"*"}, sup: Supported()}},
			want:    expect{Runtime: "openclaw", Source: SourceImplicit}},
		{name: "SEL-4 a codex plugin declining the official route gives openclaw",
			cfg: `{}`, req: Request{Provider: "openai", Model: "gpt-5.5"},
			plugins: []HarnessPlugin{fakePlugin{id: "codex", sup: Unsupported("no")}},
			want:    expect{Runtime: "openclaw", Source: SourceImplicit}},
		{name: "SEL-4 a custom openai route stays on openclaw: no plugin is asked",
			cfg: `{"models":{"providers":{"openai":{"baseUrl":"http://localhost:8000/v1"}}}}`, req: Request{Provider: "openai", Model: "gpt-5.5"},
			plugins: []HarnessPlugin{codex, fakePlugin{id: "proxy", auto: []string{"openai"}, sup: Supported()}},
			want:    expect{Runtime: "openclaw", Source: SourceImplicit}},
		{name: "SEL-8 a locked owner is kept without a support check",
			cfg: `{}`, req: Request{Provider: "vllm", Model: "q", Session: Session{LockedOwner: "proxy"}},
			plugins: []HarnessPlugin{fakePlugin{id: "proxy", sup: Unsupported("no")}},
			want:    expect{Runtime: "proxy", Source: SourceSession}},
		{name: "SEL-8 an override whose harness declares the OpenClaw fallback runs openclaw",
			cfg: `{"models":{"providers":{"vllm":{"agentRuntime":{"id":"other"}}}}}`, req: Request{Provider: "vllm", Model: "q", Session: Session{Override: "proxy"}},
			plugins: []HarnessPlugin{fakePlugin{id: "proxy", sup: FallbackToOpenClaw("exact")}, fakePlugin{id: "other", sup: Supported()}},
			want:    expect{Runtime: "openclaw", Source: SourceSession, Fallback: true}},
		{name: "SEL-4 native codex provider auto-selects codex",
			cfg: `{}`, req: Request{Provider: "codex", Model: "gpt-5.5"}, plugins: []HarnessPlugin{codex},
			want: expect{Runtime: "codex", Source: SourceImplicit}},

		// SEL-5.
		{name: "SEL-5 explicit codex with overrides falls back to openclaw",
			cfg: `{"models":{"providers":{"openai":{"agentRuntime":{"id":"codex"},"timeoutSeconds":30}}}}`, req: Request{Provider: "openai", Model: "gpt-5.5"}, plugins: []HarnessPlugin{codex},
			want: expect{Runtime: "openclaw", Source: SourceProvider, Fallback: true}},
		{name: "SEL-5 explicit codex on a custom URL fails closed",
			cfg: `{"models":{"providers":{"openai":{"agentRuntime":{"id":"codex"},"baseUrl":"https://proxy.example/v1"}}}}`, req: Request{Provider: "openai", Model: "gpt-5.5"}, plugins: []HarnessPlugin{codex},
			err: &errWant{rule: "SEL-5", path: "models.providers.openai.agentRuntime.id"}},
		{name: "SEL-5 explicit codex on another provider fails closed",
			cfg: `{"agents":{"defaults":{"models":{"vllm/q":{"agentRuntime":{"id":"codex"}}}}}}`, req: Request{Provider: "vllm", Model: "q"}, plugins: []HarnessPlugin{codex},
			err: &errWant{rule: "SEL-5", path: `agents.defaults.models["vllm/q"].agentRuntime.id`}},
		{name: "SEL-5 explicit codex not registered fails closed",
			cfg: `{"models":{"providers":{"openai":{"agentRuntime":{"id":"codex"}}}}}`, req: Request{Provider: "openai", Model: "gpt-5.5"},
			err: &errWant{rule: "SEL-5", path: "models.providers.openai.agentRuntime.id"}},
		{name: "SEL-5 plugin declaring fallback",
			cfg: `{"models":{"providers":{"vllm":{"agentRuntime":{"id":"acme"}}}}}`, req: Request{Provider: "vllm", Model: "q"},
			plugins: []HarnessPlugin{fakePlugin{id: "acme", sup: FallbackToOpenClaw("x")}},
			want:    expect{Runtime: "openclaw", Source: SourceProvider, Fallback: true}},
		{name: "SEL-5 plugin returning the zero Support fails closed",
			cfg: `{"models":{"providers":{"vllm":{"agentRuntime":{"id":"acme"}}}}}`, req: Request{Provider: "vllm", Model: "q"},
			plugins: []HarnessPlugin{fakePlugin{id: "acme"}},
			err:     &errWant{rule: "SEL-5", path: "models.providers.vllm.agentRuntime.id"}},

		// SEL-6 / SEL-6a.
		{name: "SEL-6a runtime controls at every scope are not overrides",
			cfg: `{"agents":{"defaults":{"params":{"thinking":"high","fastMode":true},"models":{"openai/gpt-5.5":{"params":{"fast_mode":"auto","fastAutoOnSeconds":30,"thinking":false}}}}},"models":{"providers":{"openai":{"params":{"thinking":"low"},"models":[{"id":"gpt-5.5","params":{"thinking":"xhigh"}}]}}}}`,
			req: Request{Provider: "openai", Model: "gpt-5.5"}, plugins: []HarnessPlugin{codex},
			want: expect{Runtime: "codex", Source: SourceImplicit}},
		{name: "SEL-6a temperature in agents.defaults.params is an override",
			cfg: `{"agents":{"defaults":{"params":{"temperature":0.2}}}}`,
			req: Request{Provider: "openai", Model: "gpt-5.5"}, plugins: []HarnessPlugin{codex},
			want: expect{Runtime: "openclaw", Source: SourceImplicit}},
		{name: "SEL-6a serviceTier in entry params is an override",
			cfg: `{"agents":{"entries":{"main":{"params":{"serviceTier":"flex"}}}}}`,
			req: Request{Provider: "openai", Model: "gpt-5.5", AgentID: "main"}, plugins: []HarnessPlugin{codex},
			want: expect{Runtime: "openclaw", Source: SourceImplicit}},
		{name: "SEL-6a transport in model-map params is an override",
			cfg: `{"agents":{"defaults":{"models":{"openai/gpt-5.5":{"params":{"transport":"sse"}}}}}}`,
			req: Request{Provider: "openai", Model: "gpt-5.5"}, plugins: []HarnessPlugin{codex},
			want: expect{Runtime: "openclaw", Source: SourceImplicit}},
		{name: "SEL-6a zero fast seconds is not a valid control",
			cfg: `{"models":{"providers":{"openai":{"models":[{"id":"gpt-5.5","params":{"fast_seconds":0}}]}}}}`,
			req: Request{Provider: "openai", Model: "gpt-5.5"}, plugins: []HarnessPlugin{codex},
			want: expect{Runtime: "openclaw", Source: SourceImplicit}},
		// The SPEC names the controls, seed 003 wants valid values; the
		// values are OpenClaw's (isAgentRuntimeModelParam).
		{name: "SEL-6a fastMode words and fast seconds are controls",
			cfg: `{"agents":{"defaults":{"models":{"openai/gpt-5.5":{"params":{"fastMode":" Yes ","fast_auto_on_seconds":2.0,"thinking":"think-harder"}}}}}}`,
			req: Request{Provider: "openai", Model: "gpt-5.5"}, plugins: []HarnessPlugin{codex},
			want: expect{Runtime: "codex", Source: SourceImplicit}},
		{name: "SEL-6a fastMode given as seconds is an override",
			cfg: `{"agents":{"defaults":{"models":{"openai/gpt-5.5":{"params":{"fastMode":30}}}}}}`,
			req: Request{Provider: "openai", Model: "gpt-5.5"}, plugins: []HarnessPlugin{codex},
			want: expect{Runtime: "openclaw", Source: SourceImplicit}},
		{name: "SEL-6a thinking true is an override",
			cfg: `{"agents":{"defaults":{"params":{"thinking":true}}}}`,
			req: Request{Provider: "openai", Model: "gpt-5.5"}, plugins: []HarnessPlugin{codex},
			want: expect{Runtime: "openclaw", Source: SourceImplicit}},
		{name: "SEL-6a an unknown fastMode word is an override",
			cfg: `{"agents":{"defaults":{"models":{"openai/gpt-5.5":{"params":{"fastMode":"turbo"}}}}}}`,
			req: Request{Provider: "openai", Model: "gpt-5.5"}, plugins: []HarnessPlugin{codex},
			want: expect{Runtime: "openclaw", Source: SourceImplicit}},
		{name: "SEL-6a invalid thinking level is an override",
			cfg: `{"models":{"providers":{"openai":{"params":{"thinking":"galaxy-brain"}}}}}`,
			req: Request{Provider: "openai", Model: "gpt-5.5"}, plugins: []HarnessPlugin{codex},
			want: expect{Runtime: "openclaw", Source: SourceImplicit}},
		// Which models map entry's params count, and duplicate catalog
		// rows, are OpenClaw's (the SPEC is silent).
		{name: "SEL-6a only the model's own key carries its params",
			cfg: `{"agents":{"defaults":{"models":{"gpt-5.5":{"params":{"temperature":1}}," openai/gpt-5.5":{"params":{"temperature":1}},"OpenAI/gpt-5.5":{"params":{"temperature":1}}}}}}`,
			req: Request{Provider: "openai", Model: "gpt-5.5"}, plugins: []HarnessPlugin{codex},
			want: expect{Runtime: "codex", Source: SourceImplicit}},
		{name: "SEL-6a a model ID naming its provider reads its own key, then the provider-prefixed one",
			cfg: `{"agents":{"defaults":{"models":{"openai/openai/gpt-5.5":{"params":{"temperature":1}},"openai/gpt-5.5":{"alias":"x"}}}}}`,
			req: Request{Provider: "openai", Model: "openai/gpt-5.5"}, plugins: []HarnessPlugin{codex},
			want: expect{Runtime: "openclaw", Source: SourceImplicit}},
		{name: "SEL-6 catalog rows of one ID merge: a later row's params count",
			cfg: `{"models":{"providers":{"openai":{"models":[{"id":"gpt-5.5","compat":{"supportsReasoningEffort":true}},{"id":" gpt-5.5","params":{"serviceTier":"flex"},"compat":{"x":1}}]}}}}`,
			req: Request{Provider: "openai", Model: "gpt-5.5"}, plugins: []HarnessPlugin{codex},
			want: expect{Runtime: "openclaw", Source: SourceImplicit}},
		{name: "SEL-6 catalog rows of one ID merge: the first row's member wins",
			cfg: `{"models":{"providers":{"openai":{"models":[{"id":"gpt-5.5","compat":{"supportsReasoningEffort":true}},{"id":"gpt-5.5","compat":{"x":1}}]}}}}`,
			req: Request{Provider: "openai", Model: "gpt-5.5"}, plugins: []HarnessPlugin{codex},
			want: expect{Runtime: "codex", Source: SourceImplicit}},
		{name: "SEL-6 empty headers are not an override",
			cfg: `{"models":{"providers":{"openai":{"headers":{},"request":{},"params":{}}}}}`,
			req: Request{Provider: "openai", Model: "gpt-5.5"}, plugins: []HarnessPlugin{codex},
			want: expect{Runtime: "codex", Source: SourceImplicit}},
		{name: "SEL-6 authHeader false is an override",
			cfg: `{"models":{"providers":{"openai":{"authHeader":false}}}}`,
			req: Request{Provider: "openai", Model: "gpt-5.5"}, plugins: []HarnessPlugin{codex},
			want: expect{Runtime: "openclaw", Source: SourceImplicit}},
		{name: "SEL-6 custom reasoning effort label is an override",
			cfg: `{"models":{"providers":{"openai":{"models":[{"id":"gpt-5.5","compat":{"supportedReasoningEfforts":["turbo"]}}]}}}}`,
			req: Request{Provider: "openai", Model: "gpt-5.5"}, plugins: []HarnessPlugin{codex},
			want: expect{Runtime: "openclaw", Source: SourceImplicit}},
		{name: "SEL-6 disabling reasoning is an override",
			cfg: `{"models":{"providers":{"openai":{"models":[{"id":"gpt-5.5","compat":{"supportsReasoningEffort":false}}]}}}}`,
			req: Request{Provider: "openai", Model: "gpt-5.5"}, plugins: []HarnessPlugin{codex},
			want: expect{Runtime: "openclaw", Source: SourceImplicit}},

		// SEL-7.
		{name: "SEL-7 claude-cli on anthropic",
			cfg: `{"agents":{"defaults":{"models":{"anthropic/claude-opus-5":{"agentRuntime":{"id":"Claude-CLI"}}}}}}`, req: Request{Provider: "anthropic", Model: "claude-opus-5"},
			want: expect{Runtime: "openclaw", Source: SourceModel, CLIBackend: "claude-cli"}},
		{name: "SEL-7 claude-cli on another provider is refused",
			cfg: `{"models":{"providers":{"openai":{"agentRuntime":{"id":"claude-cli"}}}}}`, req: Request{Provider: "openai", Model: "gpt-5.5"},
			err: &errWant{rule: "SEL-7", path: "models.providers.openai.agentRuntime.id"}},

		// SEL-8.
		{name: "SEL-8 ACP session keeps its backend",
			cfg: `{"models":{"providers":{"vllm":{"agentRuntime":{"id":"missing"}}}}}`, req: Request{Provider: "vllm", Model: "q", Session: Session{ACPBackend: "acpx"}},
			want: expect{Runtime: "acpx", Source: SourceSession}},
		{name: "SEL-8 compatible override wins over configured policy",
			cfg: `{"models":{"providers":{"vllm":{"agentRuntime":{"id":"openclaw"}}}}}`, req: Request{Provider: "vllm", Model: "q", Session: Session{Override: "acme"}},
			plugins: []HarnessPlugin{fakePlugin{id: "acme", sup: Supported()}},
			want:    expect{Runtime: "acme", Source: SourceSession}},
		{name: "SEL-8 incompatible override is ignored",
			cfg: `{"models":{"providers":{"vllm":{"agentRuntime":{"id":"openclaw"}}}}}`, req: Request{Provider: "vllm", Model: "q", Session: Session{Override: "acme"}},
			plugins: []HarnessPlugin{fakePlugin{id: "acme", sup: Unsupported("no")}},
			want:    expect{Runtime: "openclaw", Source: SourceProvider}},
		{name: "SEL-8 foreign CLI override is ignored",
			cfg: `{}`, req: Request{Provider: "openai", Model: "gpt-5.5", Session: Session{Override: "claude-cli"}}, plugins: []HarnessPlugin{codex},
			want: expect{Runtime: "codex", Source: SourceImplicit}},
		{name: "SEL-8 unregistered override is ignored",
			cfg: `{}`, req: Request{Provider: "vllm", Model: "q", Session: Session{Override: "ghost"}},
			want: expect{Runtime: "openclaw", Source: SourceImplicit}},
		{name: "SEL-8 locked owner beats override",
			cfg: `{}`, req: Request{Provider: "vllm", Model: "q", Session: Session{LockedOwner: "acme", Override: "openclaw"}},
			plugins: []HarnessPlugin{fakePlugin{id: "acme", sup: Supported()}},
			want:    expect{Runtime: "acme", Source: SourceSession}},
		{name: "SEL-8 locked owner that cannot run the route fails closed",
			cfg: `{}`, req: Request{Provider: "vllm", Model: "q", Session: Session{LockedOwner: "acme"}},
			err: &errWant{rule: "SEL-8", path: ""}},
		{name: "SEL-8 historical harness id does not pin",
			cfg: `{}`, req: Request{Provider: "vllm", Model: "q", Session: Session{HistoricalHarnessID: "acme"}},
			plugins: []HarnessPlugin{fakePlugin{id: "acme", sup: Supported()}},
			want:    expect{Runtime: "openclaw", Source: SourceImplicit}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := occkit.MustParseDocument(tt.cfg)
			got, err := Select(doc, tt.req, testRegistry(t, tt.plugins...))
			if tt.err != nil {
				e := occkit.First(err)
				if e == nil {
					t.Fatalf("want error %+v, got %+v", *tt.err, got)
				}
				if e.Code != occkit.CodeInvalidRequest || e.Rule != tt.err.rule || e.Path.String() != tt.err.path {
					t.Fatalf("error = %v (rule %s path %q), want rule %s path %q", e, e.Rule, e.Path.String(), tt.err.rule, tt.err.path)
				}
				if !errors.Is(err, occkit.ErrInvalidRequest) {
					t.Fatalf("not an INVALID_REQUEST: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			gotW := expect{Runtime: got.Runtime, Source: got.Source, CLIBackend: got.CLIBackend, Fallback: got.Fallback}
			if diff := cmp.Diff(tt.want, gotW); diff != "" {
				var b strings.Builder
				_ = got.Explain(&b)
				t.Errorf("(-want +got):\n%s\nreasons:\n%s", diff, b.String())
			}
		})
	}
}

// TestSelectRefusalNamesRuntimeAndRoute checks SEL-7's message rule for
// every kind of refusal, and that no configured secret leaks.
func TestSelectRefusalNamesRuntimeAndRoute(t *testing.T) {
	tests := []struct {
		name, cfg, provider, model, runtime string
		plugins                             []HarnessPlugin
	}{
		{"missing harness", `{"agents":{"defaults":{"models":{"vllm/qwen":{"agentRuntime":{"id":"acme-agent"}}}}},"models":{"providers":{"vllm":{"headers":{"Authorization":"Bearer sk-live-123"}}}}}`, "vllm", "qwen", "acme-agent", nil},
		{"unsupported route", `{"models":{"providers":{"openai":{"agentRuntime":{"id":"codex"},"baseUrl":"https://user:sk-live-123@proxy.example/v1?key=sk-live-123"}}}}`, "openai", "gpt-5.5", "codex", []HarnessPlugin{CodexHarness()}},
		{"foreign CLI alias", `{"models":{"providers":{"google":{"agentRuntime":{"id":"claude-cli"},"apiKey":"sk-live-123"}}}}`, "google", "gemini-3", "claude-cli", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Select(occkit.MustParseDocument(tt.cfg), Request{Provider: tt.provider, Model: tt.model}, testRegistry(t, tt.plugins...))
			if err == nil {
				t.Fatal("want a refusal")
			}
			msg := err.Error()
			for _, s := range []string{tt.runtime, tt.provider + "/" + tt.model} {
				if !strings.Contains(msg, s) {
					t.Errorf("message %q lacks %q", msg, s)
				}
			}
			if strings.Contains(msg, "sk-live-123") {
				t.Errorf("message leaks a secret: %q", msg)
			}
		})
	}
}

func TestSelectReasons(t *testing.T) {
	doc := occkit.MustParseDocument(`{"agents":{"defaults":{"agentRuntime":{"id":"codex"}}},"models":{"providers":{"openai":{"headers":{"X":"secret-value"}}}}}`)
	got, err := Select(doc, Request{Provider: "openai", Model: "gpt-5.5", Session: Session{HistoricalHarnessID: "codex"}}, testRegistry(t, CodexHarness()))
	if err != nil {
		t.Fatal(err)
	}
	var rules []string
	for _, r := range got.Reasons() {
		rules = append(rules, r.Rule)
		if strings.Contains(r.Value+r.Note, "secret-value") {
			t.Errorf("reason leaks a header value: %+v", r)
		}
	}
	want := []string{"SEL-2", "SEL-8", "SEL-6", "SEL-4"}
	if diff := cmp.Diff(want, rules); diff != "" {
		t.Errorf("reason rules (-want +got):\n%s", diff)
	}
	if got.Runtime != "openclaw" {
		t.Errorf("runtime = %s", got.Runtime)
	}
}

func TestSelectBadRequest(t *testing.T) {
	for _, req := range []Request{{Provider: "  "}, {Provider: "a/b", Model: "m"}, {Model: "  "}} {
		_, err := Select(occkit.Document{}, req, nil)
		if e := occkit.First(err); e == nil || e.Code != occkit.CodeInvalidRequest || e.Rule != "SEL-1" {
			t.Errorf("Select(%+v) err = %v, want SEL-1 INVALID_REQUEST", req, err)
		}
	}
}

func TestSourcesDocumented(t *testing.T) {
	seen := map[Source]bool{}
	for _, s := range AllSources() {
		if s == "" || seen[s] {
			t.Errorf("bad or duplicate source %q", s)
		}
		seen[s] = true
	}
	if len(seen) != 4 {
		t.Errorf("want 4 sources, got %d", len(seen))
	}
}

// TestRosterAsOpenClawReadsIt covers which agent and provider config a
// decision reads (roster.go): the implicit owner agent, an entries roster
// ignoring agents.list, merged provider spellings, and an automatic
// locked owner beside an override.
func TestRosterAsOpenClawReadsIt(t *testing.T) {
	acme := fakePlugin{id: "acme", sup: Supported()}
	tests := []struct {
		name string
		cfg  string
		req  Request
		want expect
	}{
		{name: "no agent named reads the only entry",
			cfg: `{"agents":{"entries":{"work":{"models":{"vllm/q":{"agentRuntime":{"id":"acme"}}}}}}}`,
			req: Request{Provider: "vllm", Model: "q"}, want: expect{Runtime: "acme", Source: SourceModel}},
		{name: "no agent named reads the default entry",
			cfg: `{"agents":{"entries":{"main":{},"work":{"default":true,"models":{"vllm/q":{"agentRuntime":{"id":"acme"}}}}}}}`,
			req: Request{Provider: "vllm", Model: "q"}, want: expect{Runtime: "acme", Source: SourceModel}},
		{name: "no agent named in an explicit fleet reads the system agent",
			cfg: `{"agents":{"ownership":"explicit","defaults":{"systemAgent":{"agentId":"Work"}},"entries":{"main":{},"work":{"models":{"vllm/q":{"agentRuntime":{"id":"acme"}}}}}}}`,
			req: Request{Provider: "vllm", Model: "q"}, want: expect{Runtime: "acme", Source: SourceModel}},
		{name: "two entries and no default: defaults only",
			cfg: `{"agents":{"entries":{"main":{},"work":{"models":{"vllm/q":{"agentRuntime":{"id":"acme"}}}}}}}`,
			req: Request{Provider: "vllm", Model: "q"}, want: expect{Runtime: "openclaw", Source: SourceImplicit}},
		{name: "entries roster ignores agents.list",
			cfg: `{"agents":{"entries":{"main":{}},"list":[{"id":"work","models":{"vllm/q":{"agentRuntime":{"id":"acme"}}}}]}}`,
			req: Request{Provider: "vllm", Model: "q", AgentID: "work"}, want: expect{Runtime: "openclaw", Source: SourceImplicit}},
		{name: "padded provider key merges with its spelling",
			cfg: `{"models":{"providers":{"vllm":{"models":[{"id":"q"}]}," vllm":{"agentRuntime":{"id":"acme"}}}}}`,
			req: Request{Provider: "vllm", Model: "q"}, want: expect{Runtime: "acme", Source: SourceProvider}},
		{name: "automatic locked owner drops the override",
			cfg: `{}`, req: Request{Provider: "vllm", Model: "q", Session: Session{LockedOwner: "default", Override: "acme"}},
			want: expect{Runtime: "openclaw", Source: SourceImplicit}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			reg, err := NewRegistry(acme)
			if err != nil {
				t.Fatal(err)
			}
			got, err := Select(occkit.MustParseDocument(tc.cfg), tc.req, reg)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, expect{Runtime: got.Runtime, Source: got.Source, CLIBackend: got.CLIBackend, Fallback: got.Fallback}); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
