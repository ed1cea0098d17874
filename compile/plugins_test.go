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
		name, doc, release string
		want               []string
	}{
		{"channels and entries", `{"channels":{"slack":{"enabled":true},"discord":{},"telegram":{}},"plugins":{"entries":{"codex":{"enabled":true}}}}`,
			"2026.9.6", []string{"codex", "discord", "slack"}},
		{"disabled channel and entry", `{"channels":{"slack":{"enabled":false}},"plugins":{"entries":{"codex":{"enabled":false}}}}`, "2026.9.6", nil},
		{"plugins off", `{"channels":{"slack":{}},"plugins":{"enabled":false}}`, "2026.9.6", nil},
		{"denied", `{"channels":{"slack":{},"discord":{}},"plugins":{"deny":["slack"]}}`, "2026.9.6", []string{"discord"}},
		{"entry disabled, channel configured", `{"channels":{"slack":{},"discord":{}},"plugins":{"entries":{"slack":{"enabled":false}}}}`, "2026.9.6", []string{"discord"}},
		{"model providers", `{"agents":{"defaults":{"model":{"primary":"groq/llama","fallbacks":["openai/gpt-5"]}},"entries":{"a":{"model":"Mistral/large"}}}}`,
			"2026.9.6", []string{"groq", "mistral"}},
		{"bundled only", `{"channels":{"telegram":{}},"agents":{"defaults":{"model":"anthropic/claude"}}}`, "2026.9.6", nil},
		{"unknown release", `{"channels":{"slack":{}}}`, "1999.1.1", nil},
		{"not an object", `{"channels":{"slack":true}}`, "2026.9.6", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, p := range compile.RequiredPlugins(occkit.MustParseDocument(tt.doc), tt.release) {
				got = append(got, p.ID)
				if p.Package == "" {
					t.Errorf("%s has no package", p.ID)
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("plugins (-want +got):\n%s", diff)
			}
		})
	}
	ps := compile.RequiredPlugins(occkit.MustParseDocument(`{"channels":{"openclaw-weixin":{}}}`), "2026.9.6")
	if diff := cmp.Diff([]compile.Plugin{{ID: "openclaw-weixin", Package: "@tencent-weixin/openclaw-weixin", Version: "2.4.8"}}, ps); diff != "" {
		t.Errorf("a pinned catalog spec (-want +got):\n%s", diff)
	}
}
