package compile_test

import (
	"testing"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/compile"
)

// TestRepairAsDoctor pins the behaviours the differential tier
// (internal/openclawdiff) found doctor has: explicit "default" pins stay,
// retired model IDs of migrated refs are renamed.
func TestRepairAsDoctor(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"CMP-3 explicit default pin kept",
			`{"agents":{"defaults":{"model":"claude-cli/claude-opus-4-6","models":{"claude-cli/claude-opus-4-6":{"agentRuntime":{"id":"default"}}}}}}`,
			`{"agents":{"defaults":{"model":"anthropic/claude-opus-4-6","models":{"anthropic/claude-opus-4-6":{"agentRuntime":{"id":"default"}}}}}}`},
		{"CMP-3 blank pin replaced",
			`{"agents":{"defaults":{"model":"codex/gpt-5","models":{"codex/gpt-5":{"agentRuntime":{"id":" "}}}}}}`,
			`{"agents":{"defaults":{"model":"openai/gpt-5","models":{"openai/gpt-5":{"agentRuntime":{"id":"codex"}}}}}}`},
		{"CMP-3 claude-cli/opus is anthropic/claude-opus-5",
			`{"agents":{"defaults":{"model":"claude-cli/opus"}}}`,
			`{"agents":{"defaults":{"model":"anthropic/claude-opus-5","models":{"anthropic/claude-opus-5":{"agentRuntime":{"id":"claude-cli"}}}}}}`},
		{"CMP-3 short names compare case-insensitively, self prefix dropped",
			`{"agents":{"defaults":{"model":"anthropic-cli/anthropic/Sonnet-4.6"}}}`,
			`{"agents":{"defaults":{"model":"anthropic/claude-sonnet-4-6","models":{"anthropic/claude-sonnet-4-6":{"agentRuntime":{"id":"claude-cli"}}}}}}`},
		{"CMP-3 gemini preview IDs",
			`{"agents":{"defaults":{"model":"google-gemini-cli/gemini-3-flash"}}}`,
			`{"agents":{"defaults":{"model":"google/gemini-3-flash-preview","models":{"google/gemini-3-flash-preview":{"agentRuntime":{"id":"google-gemini-cli"}}}}}}`},
		{"CMP-3 a ref with a profile keeps its ID",
			`{"agents":{"defaults":{"model":"claude-cli/opus@work"}}}`,
			`{"agents":{"defaults":{"model":"anthropic/opus@work","models":{"anthropic/opus":{"agentRuntime":{"id":"claude-cli"}}}}}}`},
		{"CMP-3 canonical refs are not renamed",
			`{"agents":{"defaults":{"model":"anthropic/opus"}}}`,
			`{"agents":{"defaults":{"model":"anthropic/opus"}}}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, _, err := compile.Repair(occkit.MustParseDocument(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			if string(got.Bytes()) != tc.want {
				t.Errorf("got  %s\nwant %s", got.Bytes(), tc.want)
			}
			again, changes, err := compile.Repair(got)
			if err != nil || len(changes) != 0 || string(again.Bytes()) != string(got.Bytes()) {
				t.Errorf("not idempotent: %v %v", changes, err)
			}
		})
	}
}
