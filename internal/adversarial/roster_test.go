package adversarial_test

import (
	"testing"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/resolver"
)

func entries(inner string) string {
	return `{"agents":{"defaults":{"model":"anthropic/m"},"ownership":"explicit","entries":` + inner + `}}`
}

// TestCheckRosterRefuses_RES10: Agent IDs that carry control or bidi
// characters, path syntax or too many characters are refused at save and
// at deployment, and the message never carries the raw characters.
func TestCheckRosterRefuses_RES10(t *testing.T) {
	tests := []struct {
		name, doc string
		want      want
	}{
		{"right-to-left override", entries("{\"ma\u202ein\":{}}"), want{400, bad, "agents.entries[\"ma\u202ein\"]", "RES-10"}},
		{"left-to-right isolate", entries("{\"\u2066main\":{}}"), want{400, bad, "agents.entries[\"\u2066main\"]", "RES-10"}},
		{"terminal escape", entries(`{"ma\u001b[2Jin":{}}`), want{400, bad, entryPath("ma\x1b[2Jin"), "RES-10"}},
		{"NUL", entries(`{"main\u0000":{}}`), want{400, bad, entryPath("main\x00"), "RES-10"}},
		{"path traversal", entries(`{"../etc":{}}`), want{400, bad, `agents.entries["../etc"]`, "RES-10"}},
		{"slash", entries(`{"a/b":{}}`), want{400, bad, `agents.entries["a/b"]`, "RES-10"}},
		{"65 characters", entries(`{"a` + nest("b", "", 64) + `":{}}`), want{400, bad, "agents.entries.a" + nest("b", "", 64), "RES-10"}},
		{"non-empty agents.list", `{"agents":{"defaults":{"model":"anthropic/m"},"list":[{"id":"main"}]}}`, want{400, bad, "agents.list", "RES-10"}},
	}
	for _, tt := range tests {
		for _, stage := range []resolver.Stage{resolver.StageSave, resolver.StageDeploy} {
			t.Run(tt.name+"/"+string(stage), func(t *testing.T) {
				doc := occkit.MustParseDocument(tt.doc)
				before := doc.Bytes()
				err := resolver.CheckRoster(doc, resolver.RosterRequest{Stage: stage})
				refused(t, err, tt.want)
				unchanged(t, "Configuration", before, doc)
			})
		}
	}
	// An ID escaping a lone surrogate never reaches the roster check: it
	// has no canonical form, so it is not a Document (DOC-1).
	_, err := occkit.ParseDocument([]byte(entries(`{"ma\ud800in":{}}`)))
	refused(t, err, want{400, bad, "agents.entries", "DOC-1"})
}

// entryPath is the dot path of an Agent entry, however its ID is escaped.
func entryPath(id string) string { return occkit.NewPath("agents", "entries", id).String() }
