package admission_test

import (
	"context"
	"testing"

	"github.com/occkit/occkit"
)

// TestAdmitRefusalPrecedence holds ADM-1's order where one document
// breaks two rules: admission resolves before it validates (so that the
// analysis is let go before the schema walk), but a resolution refusal
// still comes after the secret scan's and the schema's.
func TestAdmitRefusalPrecedence(t *testing.T) {
	const (
		typo    = `"agents":{"defaults":{"model":"antropic/claude-sonnet-4-6"}}`
		roster  = `"agents":{"defaults":{"model":"anthropic/claude-sonnet-4-6"},"entries":{"a":{"default":true},"b":{"default":true}}}`
		badPort = `"gateway":{"port":"not a port"}`
		literal = `"models":{"providers":{"anthropic":{"apiKey":"sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789"}}}`
	)
	tests := []struct {
		name, doc string
		rule      string
	}{
		{"provider typo alone", `{` + typo + `}`, "RES-6"},
		{"schema before the provider typo", `{` + typo + `,` + badPort + `}`, "DOC-5"},
		{"literal credential before the provider typo", `{` + typo + `,` + literal + `}`, "ADM-7"},
		{"roster alone", `{` + roster + `}`, "RES-10"},
		{"schema before the roster", `{` + roster + `,` + badPort + `}`, "DOC-5"},
	}
	a := newAdmitter(t, allow())
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rev, err := a.Admit(context.Background(), embeddedRequest(tt.doc))
			e := occkit.First(err)
			if rev != nil || e == nil || e.Rule != tt.rule {
				t.Fatalf("got %v, want a refusal under %s", err, tt.rule)
			}
		})
	}
}
