package resolver

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/occkit/occkit"
)

// occkit.ErrorMatcher is one expected problem: code, dot path and rule.
func inv(rule, path string) occkit.ErrorMatcher {
	return occkit.ErrorMatcher{Code: occkit.CodeInvalidRequest, Path: path, Rule: rule}
}

const codexPluginJSON = `"plugins":{"entries":{"codex":{"enabled":true,"config":{"appServer":{"transport":"websocket"}}}}}`

var qualified = occkit.Installation{
	NativeWorkerSupport: occkit.NativeWorkersPinned,
	Sandbox:             &occkit.SandboxFacts{Facets: occkit.AllFacets(), ProvisionHarness: true},
}

func TestResolveDecisions(t *testing.T) {
	tests := []struct {
		name string
		doc  string
		req  Request
		want Decision // Reasons are not compared here
	}{
		{"RES-4 empty configuration selects openclaw", `{}`, Request{},
			Decision{Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeEmbedded, Fallbacks: []string{}}},
		{"RES-10 SSH deployment applies no agents.list rule", `{"agents":{"list":[{"id":"main"}]}}`, Request{Compute: occkit.ComputeSSH},
			Decision{Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeEmbedded, Fallbacks: []string{}}},
		{"RES-10 an empty agents.list beside entries is fine", `{"agents":{"list":[],"entries":{"main":{"model":"anthropic/a"}}}}`, Request{},
			Decision{Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeEmbedded, Primary: "anthropic/a", Fallbacks: []string{}}},
		{"RES-4 empty catalog without a primary is fine", `{"agents":{"defaults":{"models":{}},"entries":{}}}`, Request{},
			Decision{Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeEmbedded, Fallbacks: []string{}}},
		{"RES-6 built-in provider without policy", `{"agents":{"defaults":{"model":"anthropic/claude"}}}`, Request{},
			Decision{Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeEmbedded, Primary: "anthropic/claude", Fallbacks: []string{}}},
		{"RES-3 fallbacks keep author order", `{"agents":{"defaults":{"model":{"primary":"anthropic/a","fallbacks":["anthropic/c","anthropic/b"]}}}}`, Request{},
			Decision{Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeEmbedded, Primary: "anthropic/a", Fallbacks: []string{"anthropic/c", "anthropic/b"}}},
		{"RES-3 REF-2 refs are reported in canonical form", `{"agents":{"defaults":{"model":" Anthropic/Claude-X "}}}`, Request{},
			Decision{Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeEmbedded, Primary: "anthropic/Claude-X", Fallbacks: []string{}}},
		{"RES-3 entry inherits the default model", `{"agents":{"defaults":{"model":"anthropic/a"},"entries":{"main":{},"ops":{"model":"anthropic/a"}},"ownership":"explicit"}}`, Request{},
			Decision{Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeEmbedded, Primary: "anthropic/a", Fallbacks: []string{}}},
		{"RES-3 entry supplies the primary", `{"agents":{"entries":{"main":{"model":{"primary":"anthropic/a","fallbacks":["anthropic/b"]}}}}}`, Request{},
			Decision{Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeEmbedded, Primary: "anthropic/a", Fallbacks: []string{"anthropic/b"}}},
		{"RES-5 provider-level policy", `{"agents":{"defaults":{"model":"openai/gpt"}},"models":{"providers":{"openai":{"agentRuntime":{"id":"openclaw"}}}}}`, Request{},
			Decision{Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeEmbedded, Primary: "openai/gpt", Fallbacks: []string{}}},
		{"RES-5 agreeing policies from four places", `{"agents":{"defaults":{"model":"openai/gpt","models":{"openai/gpt":{"agentRuntime":{"id":"codex"}}}},"entries":{"main":{"models":{"openai/gpt":{"agentRuntime":{"id":"codex"}}}}}},"models":{"providers":{"openai":{"agentRuntime":{"id":"codex"},"models":[{"id":"gpt","agentRuntime":{"id":"codex"}}]}}},` + codexPluginJSON + `}`,
			Request{Mode: occkit.ModeDedicated},
			Decision{Harness: occkit.HarnessCodex, Mode: occkit.ModeDedicated, Primary: "openai/gpt", Fallbacks: []string{}}},
		{"RES-7 native codex provider through a catalog row", `{"agents":{"defaults":{"model":"codex/gpt-5"}},"models":{"providers":{"codex":{"models":[{"id":"codex/gpt-5","agentRuntime":{"id":"codex"}}]}}}}`,
			Request{Mode: occkit.ModeDedicated},
			Decision{Harness: occkit.HarnessCodex, Mode: occkit.ModeDedicated, Primary: "codex/gpt-5", Fallbacks: []string{}}},
		{"RES-9 rows may list primary and fallbacks", `{"agents":{"defaults":{"model":{"primary":"openai/vendor/a","fallbacks":["openai/b"]},"models":{"openai/vendor/a":{"agentRuntime":{"id":"openclaw"}},"openai/b":{"agentRuntime":{"id":"openclaw"}}}}},"models":{"providers":{"openai":{"models":[{"id":"vendor/a"},{"id":"openai/b"}]}}}}`, Request{},
			Decision{Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeEmbedded, Primary: "openai/vendor/a", Fallbacks: []string{"openai/b"}}},
		{"RES-11 SSH embedded openclaw", `{"agents":{"defaults":{"model":"anthropic/a"}}}`, Request{Compute: occkit.ComputeSSH},
			Decision{Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeEmbedded, Primary: "anthropic/a", Fallbacks: []string{}}},
		{"RES-11 Docker embedded openclaw", `{}`, Request{Compute: occkit.ComputeDocker},
			Decision{Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeEmbedded, Fallbacks: []string{}}},
		{"RES-11 custom Compute declares its pairs", `{"agents":{"defaults":{"model":"codex/x","models":{"codex/x":{"agentRuntime":{"id":"codex"}}}}}}`,
			Request{Compute: "acme", Mode: occkit.ModeDedicated, Topologies: []occkit.Topology{{Harness: occkit.HarnessCodex, Mode: occkit.ModeDedicated}}},
			Decision{Harness: occkit.HarnessCodex, Mode: occkit.ModeDedicated, Primary: "codex/x", Fallbacks: []string{}}},
		{"RES-13 dedicated openclaw with a qualifying driver", `{"agents":{"defaults":{"model":"anthropic/a"}}}`,
			Request{Mode: occkit.ModeDedicated, Installation: qualified},
			Decision{Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeDedicated, Primary: "anthropic/a", Fallbacks: []string{}}},
		{"RES-13 custom-image native-worker support", `{}`,
			Request{Mode: occkit.ModeDedicated, Installation: occkit.Installation{NativeWorkerSupport: occkit.NativeWorkersCustomImage, Sandbox: qualified.Sandbox}},
			Decision{Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeDedicated, Fallbacks: []string{}}},
		{"RES-1 whole-agent runtime keys are ignored (SEL-2)", `{"agents":{"defaults":{"model":"anthropic/a","agentRuntime":{"id":"bogus"}},"entries":{"main":{"agentRuntime":"x","embeddedHarness":"y"}}}}`, Request{},
			Decision{Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeEmbedded, Primary: "anthropic/a", Fallbacks: []string{}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Resolve(occkit.MustParseDocument(tt.doc), tt.req)
			if err != nil {
				t.Fatalf("Resolve: %v", err)
			}
			if len(got.Reasons) == 0 {
				t.Errorf("decision has no reasons")
			}
			got.Reasons = nil
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("decision (-want +got):\n%s", d)
			}
		})
	}
}

func TestResolveProblems(t *testing.T) {
	tests := []struct {
		name string
		doc  string
		req  Request
		want []occkit.ErrorMatcher
	}{
		{"RES-2 configuration not an object", `[]`, Request{}, []occkit.ErrorMatcher{inv("RES-2", "")}},
		{"RES-2 agents not an object", `{"agents":[]}`, Request{}, []occkit.ErrorMatcher{inv("RES-2", "agents")}},
		{"RES-2 defaults not an object", `{"agents":{"defaults":"x"}}`, Request{}, []occkit.ErrorMatcher{inv("RES-2", "agents.defaults")}},
		{"RES-2 a broken shape is all that is reported", `{"agents":{"entries":{"aaa":{"model":"unqualified"},"helper":null}},"models":{"providers":{"openai":"x"}}}`, Request{},
			[]occkit.ErrorMatcher{inv("RES-2", "agents.entries.helper")}},
		{"RES-10 a non-empty agents.list is refused at deployment", `{"agents":{"list":[{"id":"main"}],"defaults":{"model":"anthropic/a"}}}`, Request{},
			[]occkit.ErrorMatcher{inv("RES-10", "agents.list")}},
		{"RES-10 agents.list given as an object", `{"agents":{"list":{}}}`, Request{}, []occkit.ErrorMatcher{inv("RES-10", "agents.list")}},
		{"RES-10 agents.list given as null on docker", `{"agents":{"list":null}}`, Request{Compute: occkit.ComputeDocker}, []occkit.ErrorMatcher{inv("RES-10", "agents.list")}},
		{"RES-10 agents.list beside a Configuration problem", `{"agents":{"list":[null],"defaults":{"model":"openai/a"}}}`, Request{},
			[]occkit.ErrorMatcher{inv("RES-6", "agents.defaults.model"), inv("RES-10", "agents.list")}},
		{"RES-10 agents.list beside a broken shape", `{"agents":{"list":[{"id":"main"}],"entries":[]}}`, Request{},
			[]occkit.ErrorMatcher{inv("RES-2", "agents.entries"), inv("RES-10", "agents.list")}},
		{"RES-10 agents.list beside a broken entry", `{"agents":{"list":{},"entries":{"main":null}}}`, Request{},
			[]occkit.ErrorMatcher{inv("RES-2", "agents.entries.main"), inv("RES-10", "agents.list")}},
		{"RES-10 SSH ignores agents.list beside a broken shape", `{"agents":{"list":[{"id":"main"}],"defaults":[]}}`, Request{Compute: occkit.ComputeSSH},
			[]occkit.ErrorMatcher{inv("RES-2", "agents.defaults")}},
		{"RES-2 entries not an object", `{"agents":{"entries":[]}}`, Request{}, []occkit.ErrorMatcher{inv("RES-2", "agents.entries")}},
		{"RES-2 entry not an object", `{"agents":{"defaults":{"model":"anthropic/a"},"entries":{"main":{},"helper":null}}}`, Request{},
			[]occkit.ErrorMatcher{inv("RES-2", "agents.entries.helper")}},
		{"RES-1 unsupported runtime id", `{"agents":{"defaults":{"model":"anthropic/a","models":{"anthropic/a":{"agentRuntime":{"id":"pi"}}}}}}`, Request{},
			[]occkit.ErrorMatcher{inv("RES-1", `agents.defaults.models["anthropic/a"].agentRuntime.id`)}},
		{"RES-1 runtime not an object", `{"agents":{"defaults":{"model":"anthropic/a"}},"models":{"providers":{"anthropic":{"agentRuntime":"codex"}}}}`, Request{},
			[]occkit.ErrorMatcher{inv("RES-1", "models.providers.anthropic.agentRuntime")}},
		{"RES-1 row runtime without id", `{"agents":{"defaults":{"model":"anthropic/a"}},"models":{"providers":{"anthropic":{"models":[{"id":"a","agentRuntime":{}}]}}}}`, Request{},
			[]occkit.ErrorMatcher{inv("RES-1", "models.providers.anthropic.models[0].agentRuntime.id")}},
		{"RES-3 model of the wrong type", `{"agents":{"defaults":{"model":42}}}`, Request{}, []occkit.ErrorMatcher{inv("RES-3", "agents.defaults.model")}},
		{"RES-3 model without provider", `{"agents":{"defaults":{"model":"gpt-5"}}}`, Request{}, []occkit.ErrorMatcher{inv("RES-3", "agents.defaults.model")}},
		{"RES-3 object model without primary", `{"agents":{"defaults":{"model":{"fallbacks":[]}}}}`, Request{}, []occkit.ErrorMatcher{inv("RES-3", "agents.defaults.model.primary")}},
		{"RES-3 null fallbacks", `{"agents":{"defaults":{"model":{"primary":"anthropic/a","fallbacks":null}}}}`, Request{},
			[]occkit.ErrorMatcher{inv("RES-3", "agents.defaults.model.fallbacks")}},
		{"RES-3 string fallbacks", `{"agents":{"defaults":{"model":{"primary":"anthropic/a","fallbacks":"anthropic/b"}}}}`, Request{},
			[]occkit.ErrorMatcher{inv("RES-3", "agents.defaults.model.fallbacks")}},
		{"RES-3 invalid fallback ref", `{"agents":{"defaults":{"model":{"primary":"anthropic/a","fallbacks":["anthropic/b","/x",7]}}}}`, Request{},
			[]occkit.ErrorMatcher{inv("RES-3", "agents.defaults.model.fallbacks[1]"), inv("RES-3", "agents.defaults.model.fallbacks[2]")}},
		{"RES-3 fallback on another provider", `{"agents":{"defaults":{"model":{"primary":"anthropic/a","fallbacks":["google/b"]}}}}`, Request{},
			[]occkit.ErrorMatcher{inv("RES-3", "agents.defaults.model.fallbacks[0]")}},
		{"RES-3 entry without a model and no default", `{"agents":{"entries":{"main":{}}}}`, Request{},
			[]occkit.ErrorMatcher{inv("RES-3", "agents.entries.main.model")}},
		{"RES-3 entries on different primaries", `{"agents":{"entries":{"main":{"model":"anthropic/a"},"helper":{"model":"anthropic/b"}}}}`, Request{},
			[]occkit.ErrorMatcher{inv("RES-3", "agents.entries.helper.model"), inv("RES-3", "agents.entries.main.model")}},
		{"RES-3 three entries, one off: every disagreeing entry is named", `{"agents":{"ownership":"explicit","entries":{"c":{"model":"anthropic/a"},"b":{"model":"anthropic/b"},"a":{"model":"anthropic/a"}}}}`, Request{},
			[]occkit.ErrorMatcher{inv("RES-3", "agents.entries.a.model"), inv("RES-3", "agents.entries.b.model")}},
		{"RES-3 entry differs from the default primary", `{"agents":{"defaults":{"model":"anthropic/a"},"entries":{"main":{"model":{"primary":"anthropic/b"}}}}}`, Request{},
			[]occkit.ErrorMatcher{inv("RES-3", "agents.entries.main.model.primary")}},
		{"RES-3 entries resolve to different Harnesses", `{"agents":{"defaults":{"model":"openai/gpt","models":{"openai/gpt":{"agentRuntime":{"id":"openclaw"}}}},"entries":{"main":{"models":{"openai/gpt":{"agentRuntime":{"id":"codex"}}}}}},` + codexPluginJSON + `}`,
			Request{}, []occkit.ErrorMatcher{inv("RES-5", `agents.defaults.models["openai/gpt"].agentRuntime.id`)}},
		{"RES-3 entries on one primary resolve to different Harnesses", `{"agents":{"ownership":"explicit","entries":{"b":{"model":"openai/gpt","models":{"openai/gpt":{"agentRuntime":{"id":"openclaw"}}}},"a":{"model":"openai/gpt","models":{"openai/gpt":{"agentRuntime":{"id":"codex"}}}}}},` + codexPluginJSON + `}`,
			Request{Mode: occkit.ModeDedicated}, []occkit.ErrorMatcher{inv("RES-3", "agents.entries.a.model"), inv("RES-3", "agents.entries.b.model")}},
		{"RES-4 catalog without any primary", `{"agents":{"defaults":{"models":{"anthropic/a":{}}}}}`, Request{},
			[]occkit.ErrorMatcher{inv("RES-4", "agents.defaults.models")}},
		{"RES-4 catalog not an object", `{"agents":{"defaults":{"model":"anthropic/a","models":[]}}}`, Request{},
			[]occkit.ErrorMatcher{inv("RES-4", "agents.defaults.models")}},
		{"RES-4 catalog value not an object", `{"agents":{"defaults":{"model":"anthropic/a","models":{"anthropic/a":"openclaw"}}}}`, Request{},
			[]occkit.ErrorMatcher{inv("RES-4", `agents.defaults.models["anthropic/a"]`)}},
		{"RES-4 provider not an object", `{"agents":{"defaults":{"model":"anthropic/a"}},"models":{"providers":{"anthropic":"x"}}}`, Request{},
			[]occkit.ErrorMatcher{inv("RES-4", "models.providers.anthropic")}},
		{"RES-5 catalog and row conflict", `{"agents":{"defaults":{"model":"openai/vendor/model","models":{"openai/vendor/model":{"agentRuntime":{"id":"openclaw"}}}}},"models":{"providers":{"openai":{"models":[{"id":"vendor/model","agentRuntime":{"id":"codex"}}]}}}}`, Request{},
			[]occkit.ErrorMatcher{inv("RES-5", "models.providers.openai.models[0].agentRuntime.id")}},
		{"RES-5 keys spelled differently name one model", `{"agents":{"defaults":{"model":"anthropic/a","models":{"anthropic/a":{"agentRuntime":{"id":"openclaw"}}," Anthropic/a":{"agentRuntime":{"id":"codex"}}}}}}`, Request{},
			[]occkit.ErrorMatcher{inv("RES-5", `agents.defaults.models[" Anthropic/a"].agentRuntime.id`)}},
		{"RES-9 the same row twice", `{"agents":{"defaults":{"model":"anthropic/a"}},"models":{"providers":{"anthropic":{"agentRuntime":{"id":"openclaw"},"models":[{"id":"a"},{"id":"b"},{"id":" a "}]}}}}`, Request{},
			[]occkit.ErrorMatcher{inv("RES-9", "models.providers.anthropic.models[1]"), inv("RES-9", "models.providers.anthropic.models[2]")}},
		{"RES-9 prefixed row spelled otherwise", `{"agents":{"defaults":{"model":"anthropic/a"}},"models":{"providers":{"anthropic":{"agentRuntime":{"id":"openclaw"},"models":[{"id":"Anthropic / a"},{"id":"a"}]}}}}`, Request{},
			[]occkit.ErrorMatcher{inv("RES-9", "models.providers.anthropic.models[1]")}},
		{"RES-6 openai needs a policy", `{"agents":{"defaults":{"model":"openai/gpt"}}}`, Request{}, []occkit.ErrorMatcher{inv("RES-6", "agents.defaults.model")}},
		{"RES-6 codex needs a policy", `{"agents":{"defaults":{"model":"codex/gpt"}}}`, Request{Mode: occkit.ModeDedicated}, []occkit.ErrorMatcher{inv("RES-6", "agents.defaults.model")}},
		{"RES-6 configured provider needs a policy", `{"agents":{"defaults":{"model":"anthropic/a"}},"models":{"providers":{"anthropic":{"baseUrl":"https://x.test"}}}}`, Request{},
			[]occkit.ErrorMatcher{inv("RES-6", "agents.defaults.model")}},
		{"RES-6 plugin-routed provider needs a policy", `{"agents":{"defaults":{"model":"ollama/a"}},"plugins":{"entries":{"ollama":{}}}}`, Request{},
			[]occkit.ErrorMatcher{inv("RES-6", "agents.defaults.model")}},
		{"RES-6 fallback without a policy", `{"agents":{"defaults":{"model":{"primary":"openai/a","fallbacks":["openai/b"]},"models":{"openai/a":{"agentRuntime":{"id":"openclaw"}}}}}}`, Request{},
			[]occkit.ErrorMatcher{inv("RES-6", "agents.defaults.model.fallbacks[0]")}},
		{"RES-7 codex runtime on another provider", `{"agents":{"defaults":{"model":"anthropic/a","models":{"anthropic/a":{"agentRuntime":{"id":"codex"}}}}}}`, Request{Mode: occkit.ModeDedicated},
			[]occkit.ErrorMatcher{inv("RES-7", `agents.defaults.models["anthropic/a"].agentRuntime.id`)}},
		{"RES-7 openai on codex without the plugin", `{"agents":{"defaults":{"model":"openai/a","models":{"openai/a":{"agentRuntime":{"id":"codex"}}}}}}`, Request{Mode: occkit.ModeDedicated},
			[]occkit.ErrorMatcher{inv("RES-7", "plugins.entries.codex")}},
		{"RES-7 openai on codex with the plugin disabled", `{"agents":{"defaults":{"model":"openai/a","models":{"openai/a":{"agentRuntime":{"id":"codex"}}}}},"plugins":{"entries":{"codex":{"enabled":"true","config":{"appServer":{"transport":"websocket"}}}}}}`, Request{Mode: occkit.ModeDedicated},
			[]occkit.ErrorMatcher{inv("RES-7", "plugins.entries.codex.enabled")}},
		{"RES-7 openai on codex over stdio", `{"agents":{"defaults":{"model":"openai/a","models":{"openai/a":{"agentRuntime":{"id":"codex"}}}}},"plugins":{"entries":{"codex":{"enabled":true,"config":{"appServer":{"transport":"stdio"}}}}}}`, Request{Mode: occkit.ModeDedicated},
			[]occkit.ErrorMatcher{inv("RES-7", "plugins.entries.codex.config.appServer.transport")}},
		{"RES-8 catalog on another provider", `{"agents":{"defaults":{"model":"openai/a","models":{"openai/a":{"agentRuntime":{"id":"openclaw"}},"codex/a":{"agentRuntime":{"id":"openclaw"}}}}}}`, Request{},
			[]occkit.ErrorMatcher{inv("RES-8", `agents.defaults.models["codex/a"]`)}},
		{"RES-8 catalog key without provider", `{"agents":{"defaults":{"model":"anthropic/a","models":{"sonnet":{}}}}}`, Request{},
			[]occkit.ErrorMatcher{inv("RES-8", "agents.defaults.models.sonnet")}},
		{"RES-8 extra catalog model without runtime", `{"agents":{"defaults":{"model":"anthropic/a","models":{"anthropic/a":{"agentRuntime":{"id":"openclaw"}},"anthropic/b":{}}}}}`, Request{},
			[]occkit.ErrorMatcher{inv("RES-8", `agents.defaults.models["anthropic/b"].agentRuntime`)}},
		{"RES-8 primary key without runtime beside another model", `{"agents":{"defaults":{"model":"anthropic/a","models":{"anthropic/a":{},"anthropic/b":{"agentRuntime":{"id":"openclaw"}}}}}}`, Request{},
			[]occkit.ErrorMatcher{inv("RES-8", `agents.defaults.models["anthropic/a"].agentRuntime`)}},
		{"RES-8 catalog lacks the primary", `{"agents":{"defaults":{"model":"anthropic/a","models":{"anthropic/b":{"agentRuntime":{"id":"openclaw"}}}}}}`, Request{},
			[]occkit.ErrorMatcher{inv("RES-8", "agents.defaults.models")}},
		{"RES-8 entry catalog on another provider", `{"agents":{"defaults":{"model":"anthropic/a"},"entries":{"main":{"models":{"google/b":{}}}}}}`, Request{},
			[]occkit.ErrorMatcher{inv("RES-8", `agents.entries.main.models["google/b"]`)}},
		{"RES-8 fallback on another Harness", `{"agents":{"defaults":{"model":{"primary":"openai/a","fallbacks":["openai/b"]}}},"models":{"providers":{"openai":{"models":[{"id":"a","agentRuntime":{"id":"codex"}},{"id":"b","agentRuntime":{"id":"openclaw"}}]}}},` + codexPluginJSON + `}`,
			Request{Mode: occkit.ModeDedicated}, []occkit.ErrorMatcher{inv("RES-8", "agents.defaults.model.fallbacks[0]")}},
		{"RES-9 unselected row", `{"agents":{"defaults":{"model":"anthropic/a"}},"models":{"providers":{"anthropic":{"agentRuntime":{"id":"openclaw"},"models":[{"id":"a"},{"id":"b"}]}}}}`, Request{},
			[]occkit.ErrorMatcher{inv("RES-9", "models.providers.anthropic.models[1]")}},
		{"RES-9 row of an unselected provider", `{"agents":{"defaults":{"model":"anthropic/a"}},"models":{"providers":{"google":{"agentRuntime":{"id":"openclaw"},"models":[{"id":"a"}]}}}}`, Request{},
			[]occkit.ErrorMatcher{inv("RES-9", "models.providers.google.models[0]")}},
		{"RES-9 the last segment never matches", `{"agents":{"defaults":{"model":"openai/vendor/model"}},"models":{"providers":{"openai":{"agentRuntime":{"id":"openclaw"},"models":[{"id":"model"}]}}}}`, Request{},
			[]occkit.ErrorMatcher{inv("RES-9", "models.providers.openai.models[0]")}},
		{"RES-9 bare string row", `{"agents":{"defaults":{"model":"anthropic/a"}},"models":{"providers":{"anthropic":{"agentRuntime":{"id":"openclaw"},"models":["a"]}}}}`, Request{},
			[]occkit.ErrorMatcher{inv("RES-9", "models.providers.anthropic.models[0]")}},
		{"RES-9 models not an array", `{"agents":{"defaults":{"model":"anthropic/a"}},"models":{"providers":{"anthropic":{"agentRuntime":{"id":"openclaw"},"models":{}}}}}`, Request{},
			[]occkit.ErrorMatcher{inv("RES-9", "models.providers.anthropic.models")}},
		{"RES-9 row without id", `{"agents":{"defaults":{"model":"anthropic/a"}},"models":{"providers":{"anthropic":{"agentRuntime":{"id":"openclaw"},"models":[{"name":"a"}]}}}}`, Request{},
			[]occkit.ErrorMatcher{inv("RES-9", "models.providers.anthropic.models[0].id")}},
		{"RES-9 two rows for one model", `{"agents":{"defaults":{"model":"anthropic/a"}},"models":{"providers":{"anthropic":{"agentRuntime":{"id":"openclaw"},"models":[{"id":"a"},{"id":"anthropic/a"}]}}}}`, Request{},
			[]occkit.ErrorMatcher{inv("RES-9", "models.providers.anthropic.models[1]")}},
		{"RES-9 rows with no candidate at all", `{"models":{"providers":{"anthropic":{"models":[{"id":"a"}]}}}}`, Request{},
			[]occkit.ErrorMatcher{inv("RES-9", "models.providers.anthropic.models[0]")}},
		{"RES-11 invalid mode", `{}`, Request{Mode: "hybrid"}, []occkit.ErrorMatcher{inv("RES-11", "executionMode")}},
		{"RES-11 codex embedded", `{"agents":{"defaults":{"model":"codex/a","models":{"codex/a":{"agentRuntime":{"id":"codex"}}}}}}`, Request{},
			[]occkit.ErrorMatcher{inv("RES-11", "executionMode")}},
		{"RES-11 SSH dedicated codex", `{"agents":{"defaults":{"model":"codex/a","models":{"codex/a":{"agentRuntime":{"id":"codex"}}}}}}`, Request{Compute: occkit.ComputeSSH, Mode: occkit.ModeDedicated},
			[]occkit.ErrorMatcher{inv("RES-11", "executionMode")}},
		{"RES-11 SSH dedicated openclaw", `{}`, Request{Compute: occkit.ComputeSSH, Mode: occkit.ModeDedicated, Installation: qualified},
			[]occkit.ErrorMatcher{inv("RES-11", "executionMode")}},
		{"RES-11 Docker dedicated codex", `{"agents":{"defaults":{"model":"codex/a","models":{"codex/a":{"agentRuntime":{"id":"codex"}}}}}}`, Request{Compute: occkit.ComputeDocker, Mode: occkit.ModeDedicated},
			[]occkit.ErrorMatcher{inv("RES-11", "executionMode")}},
		{"RES-11 Docker ignores declared topologies", `{}`, Request{Compute: occkit.ComputeDocker, Mode: occkit.ModeDedicated, Topologies: []occkit.Topology{{Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeDedicated}}},
			[]occkit.ErrorMatcher{inv("RES-11", "executionMode")}},
		{"RES-11 custom Compute outside its set", `{}`, Request{Compute: "acme", Topologies: []occkit.Topology{{Harness: occkit.HarnessCodex, Mode: occkit.ModeDedicated}}},
			[]occkit.ErrorMatcher{inv("RES-11", "executionMode")}},
		{"RES-11 custom Compute without a set", `{}`, Request{Compute: "acme"}, []occkit.ErrorMatcher{inv("RES-11", "executionMode")}},
		{"RES-13 no native-worker support", `{}`, Request{Mode: occkit.ModeDedicated, Installation: occkit.Installation{Sandbox: qualified.Sandbox}},
			[]occkit.ErrorMatcher{inv("RES-13", "executionMode")}},
		{"RES-13 no SandboxDriver", `{}`, Request{Mode: occkit.ModeDedicated, Installation: occkit.Installation{NativeWorkerSupport: occkit.NativeWorkersPinned}},
			[]occkit.ErrorMatcher{{Code: occkit.CodeResourceConflict, Path: "executionMode", Rule: "RES-13"}}},
		{"RES-13 driver lacking a facet", `{}`, Request{Mode: occkit.ModeDedicated, Installation: occkit.Installation{NativeWorkerSupport: occkit.NativeWorkersPinned,
			Sandbox: &occkit.SandboxFacts{Facets: []occkit.Facet{occkit.FacetNetworking, occkit.FacetProcess}, ProvisionHarness: true}}},
			[]occkit.ErrorMatcher{{Code: occkit.CodeResourceConflict, Path: "executionMode", Rule: "RES-13"}}},
		{"RES-13 both missing: the 400 comes first", `{}`, Request{Mode: occkit.ModeDedicated},
			[]occkit.ErrorMatcher{inv("RES-13", "executionMode"), {Code: occkit.CodeResourceConflict, Path: "executionMode", Rule: "RES-13"}}},
		{"precedence: Configuration problems before the topology", `{"agents":{"defaults":{"model":"openai/a"}}}`, Request{Compute: occkit.ComputeSSH, Mode: occkit.ModeDedicated},
			[]occkit.ErrorMatcher{inv("RES-6", "agents.defaults.model")}},
		{"all problems of one document come back together", `{"agents":{"defaults":{"model":{"primary":"anthropic/a","fallbacks":["google/b"]},"models":{"anthropic/a":{"agentRuntime":{"id":"nope"}}}}},"models":{"providers":{"x":"y"}}}`, Request{},
			[]occkit.ErrorMatcher{inv("RES-3", "agents.defaults.model.fallbacks[0]"), inv("RES-1", `agents.defaults.models["anthropic/a"].agentRuntime.id`), inv("RES-4", "models.providers.x")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Resolve(occkit.MustParseDocument(tt.doc), tt.req)
			if err == nil {
				t.Fatalf("Resolve succeeded, want %v", tt.want)
			}
			got := occkit.MatchersOf(err)
			want := occkit.MatchersOf(occkit.Join(wantErrs(tt.want)...)) // same order as Join
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("problems (-want +got):\n%s\n%v", d, err)
			}
			if !errors.Is(err, &occkit.Error{Code: tt.want[0].Code}) && len(tt.want) == 1 {
				t.Errorf("errors.Is(%v, %s) = false", err, tt.want[0].Code)
			}
		})
	}
}

func wantErrs(ws []occkit.ErrorMatcher) []error {
	var out []error
	for _, w := range ws {
		p, err := occkit.ParsePath(w.Path)
		if err != nil {
			panic(err)
		}
		out = append(out, occkit.New(w.Code, w.Rule, p, ""))
	}
	return out
}

func TestResolveMessages(t *testing.T) {
	tests := []struct {
		name    string
		doc     string
		req     Request
		mention []string
		never   []string
	}{
		{"RES-6 names the provider", `{"agents":{"defaults":{"model":"codex/gpt-secret-id"}}}`, Request{Mode: occkit.ModeDedicated},
			[]string{`"codex"`}, []string{"gpt-secret-id"}},
		{"RES-11 names both modes", `{"agents":{"defaults":{"model":"codex/a","models":{"codex/a":{"agentRuntime":{"id":"codex"}}}}}}`, Request{},
			[]string{"embedded", "dedicated"}, nil},
		{"RES-13 names the missing Driver", `{}`, Request{Mode: occkit.ModeDedicated, Installation: occkit.Installation{NativeWorkerSupport: occkit.NativeWorkersPinned}},
			[]string{"SandboxDriver"}, nil},
		{"RES-2 a control character in a key is named as ?", `{"agents":{"entries":{"a\u0007b":1}}}`, Request{},
			[]string{`agents.entries["a?b"] must be an object`}, nil},
		{"RES-2 a long key keeps the rule text", `{"agents":{"entries":{"` + strings.Repeat("x.", 200) + `":false}}}`, Request{},
			[]string{"… must be an object"}, nil},
		{"RES-13 names the worker placement setting", `{}`, Request{Mode: occkit.ModeDedicated, Installation: occkit.Installation{Sandbox: qualified.Sandbox}},
			[]string{"cloudWorkers.requiredProfile", "runtime.nativeWorkerSupport"}, nil},
		{"RES-9 names the setting", `{"agents":{"defaults":{"model":"anthropic/a"}},"models":{"providers":{"anthropic":{"agentRuntime":{"id":"openclaw"},"models":[{"id":"a"},{"id":"b-secret"}]}}}}`, Request{},
			[]string{"models.providers.anthropic.models"}, []string{"b-secret"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Resolve(occkit.MustParseDocument(tt.doc), tt.req)
			if err == nil {
				t.Fatal("Resolve succeeded")
			}
			for _, m := range tt.mention {
				if !strings.Contains(err.Error(), m) {
					t.Errorf("%v does not mention %q", err, m)
				}
			}
			for _, m := range tt.never {
				if strings.Contains(err.Error(), m) {
					t.Errorf("%v mentions %q", err, m)
				}
			}
		})
	}
}

func TestResolveReasons(t *testing.T) {
	doc := occkit.MustParseDocument(`{"agents":{"defaults":{"model":{"primary":"openai/a","fallbacks":["openai/b"]},"models":{"openai/a":{"agentRuntime":{"id":"codex"}},"openai/b":{"agentRuntime":{"id":"codex"}}}},"entries":{"main":{}}},` + codexPluginJSON + `}`)
	d, err := Resolve(doc, Request{Mode: occkit.ModeDedicated})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range d.Reasons {
		got = append(got, r.Rule+" "+r.Path.String())
	}
	want := []string{
		"RES-3 agents.defaults.model.primary",
		`RES-5 agents.defaults.models["openai/a"].agentRuntime.id`,
		"RES-7 plugins.entries.codex.config.appServer.transport",
		"RES-8 agents.defaults.model.fallbacks",
		"RES-3 agents.entries.main",
		"RES-12 agents.defaults.model.primary",
		"RES-11 ",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("reasons (-want +got):\n%s", diff)
	}
}

func TestPreparedEvaluatesMany(t *testing.T) {
	p := Prepare(occkit.MustParseDocument(`{"agents":{"defaults":{"model":"anthropic/a"}}}`))
	if p.Err() != nil {
		t.Fatal(p.Err())
	}
	a, err := p.Resolve(Request{})
	if err != nil {
		t.Fatal(err)
	}
	a.Fallbacks = append(a.Fallbacks, "mutated")
	a.Reasons[0].Value = "mutated"
	b, err := p.Resolve(Request{Compute: occkit.ComputeSSH})
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Fallbacks) != 0 || b.Reasons[0].Value == "mutated" {
		t.Errorf("a decision shares state with the Prepared: %+v", b)
	}
	if _, err := p.Resolve(Request{Mode: occkit.ModeDedicated}); !errors.Is(err, occkit.ErrInvalidRequest) {
		t.Errorf("dedicated without support: %v", err)
	}
}
