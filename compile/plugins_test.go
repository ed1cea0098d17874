package compile_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/compile"
)

// The plugins a document needs that its release does not bundle: what
// OpenClaw would fetch at start, and a Compute must provide.
func TestRequiredPlugins(t *testing.T) {
	tests := []struct {
		name, doc string
		want      []string
	}{
		{"none", `{"agents":{"defaults":{"model":"anthropic/claude-sonnet-4-5"}}}`, nil},
		{"bundled only", `{"channels":{"telegram":{}},"agents":{"defaults":{"model":"anthropic/claude"}}}`, nil},
		{"channels and entries", `{"channels":{"slack":{"enabled":true},"discord":{"token":"${T}"},"telegram":{}},"plugins":{"entries":{"codex":{"enabled":true}}}}`,
			[]string{"codex", "discord", "slack"}},
		{"disabled channel and entry", `{"channels":{"slack":{"enabled":false}},"plugins":{"entries":{"codex":{"enabled":false}}}}`, nil},
		{"a disabled channel beside another", `{"channels":{"slack":{"enabled":false},"discord":{}}}`, []string{"discord"}},
		{"a plugin entry", `{"plugins":{"entries":{"whatsapp":{"config":{}}}}}`, []string{"whatsapp"}},
		{"entry disabled, channel configured", `{"channels":{"slack":{},"discord":{}},"plugins":{"entries":{"slack":{"enabled":false}}}}`, []string{"discord"}},
		{"plugins off", `{"channels":{"slack":{}},"plugins":{"enabled":false}}`, nil},
		{"denied", `{"channels":{"slack":{},"discord":{}},"plugins":{"deny":["slack"]}}`, []string{"discord"}},
		{"denied as OpenClaw normalizes", `{"channels":{"slack":{}},"plugins":{"deny":[" Slack "]}}`, nil},
		{"allow list", `{"plugins":{"allow":["whatsapp","telegram"]}}`, []string{"whatsapp"}},
		{"padded allow id", `{"plugins":{"allow":[" slack "]}}`, []string{"slack"}},
		{"slot", `{"plugins":{"slots":{"memory":"memory-lancedb"}}}`, []string{"memory-lancedb"}},
		{"a model runtime", `{"agents":{"defaults":{"models":{"openai/gpt-5":{"agentRuntime":{"id":"codex"}}}}}}`, []string{"codex"}},
		{"a picker runtime of a listed agent", `{"agents":{"list":[{"id":"a","models":{"openai/gpt-5":{"pickerRuntimes":["codex"]}}}]}}`, []string{"codex"}},
		{"a runtime of an agent entry", `{"agents":{"entries":{"a":{"models":{"openai/gpt-5":{"agentRuntime":{"id":"codex"}}}}}}}`, []string{"codex"}},
		{"a provider runtime", `{"models":{"providers":{"openai":{"agentRuntime":{"id":"codex"}}}}}`, []string{"codex"}},
		{"a provider model runtime", `{"models":{"providers":{"openai":{"models":[{"id":"m","agentRuntime":{"id":"codex"}}]}}}}`, []string{"codex"}},
		{"the openclaw runtime", `{"agents":{"defaults":{"models":{"openai/gpt-5":{"agentRuntime":{"id":"openclaw"}}}}}}`, nil},
		{"model providers", `{"agents":{"defaults":{"model":{"primary":"groq/llama","fallbacks":["openai/gpt-5"]}},"entries":{"a":{"model":"Mistral/large"}}}}`,
			[]string{"groq", "mistral"}},
		{"a listed agent's model", `{"agents":{"list":[{"id":"a","model":"deepseek/chat"}]}}`, []string{"deepseek"}},
		{"a channel section that is not an object", `{"channels":{"slack":true}}`, nil},
		// An external channel's plugin has another id than the channel.
		{"an external channel", `{"channels":{"wecom":{}},"plugins":{"entries":{"wecom-openclaw-plugin":{}}}}`, []string{"wecom-openclaw-plugin"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, p := range compile.RequiredPlugins(occkit.MustParseDocument(tt.doc), "2026.9.6") {
				got = append(got, p.ID)
				if p.Package == "" || p.Spec() == "" {
					t.Errorf("%s has no package to install: %+v", p.ID, p)
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("plugins (-want +got):\n%s", diff)
			}
		})
	}
}

// Which plugins, and at which version, is each release's: the specs are
// what the release installs (compile/openclawschema, installs), an
// unpublished one has no version, and a release the library does not
// carry lists none.
func TestRequiredPluginsPerRelease(t *testing.T) {
	doc := occkit.MustParseDocument(`{"channels":{"discord":{},"openclaw-weixin":{}},` +
		`"plugins":{"entries":{"openclaw-weixin":{}}},"agents":{"defaults":{"models":{"openai/gpt-5":{"agentRuntime":{"id":"codex"}}}}}}`)
	tests := []struct {
		release string
		want    []compile.Plugin
	}{
		{"2026.9.6", []compile.Plugin{
			{ID: "codex", Package: "@openclaw/codex", Version: "2026.9.5"},
			{ID: "discord", Package: "@openclaw/discord", Version: "2026.9.6"},
			{ID: "openclaw-weixin", Package: "@tencent-weixin/openclaw-weixin", Version: "2.4.8"},
		}},
		{"2026.8.2", []compile.Plugin{
			{ID: "codex", Package: "@openclaw/codex"},
			{ID: "discord", Package: "@openclaw/discord", Version: "2026.7.35"},
			{ID: "openclaw-weixin", Package: "@tencent-weixin/openclaw-weixin", Version: "2.4.6"},
		}},
		{"1999.1.1", nil},
		{"", nil},
	}
	for _, tt := range tests {
		if d := cmp.Diff(tt.want, compile.RequiredPlugins(doc, tt.release)); d != "" {
			t.Errorf("%q (-want +got):\n%s", tt.release, d)
		}
	}
}
