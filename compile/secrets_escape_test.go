package compile_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/compile"
)

// TestReferencedEnvEscaped: a reference written with JSON escapes is the
// same reference (OpenClaw substitutes and reads SecretRefs after
// decoding): a Document parsed as written, not loaded (compile.Load
// writes strings unescaped), names the variables its decoded form does.
func TestReferencedEnvEscaped(t *testing.T) {
	for _, tc := range []struct {
		name, doc string
		want      []string
	}{
		{"escaped dollar", `{"agents":{"defaults":{"workspace":"\u0024{GATEWAY_TOKEN}"}}}`, []string{"GATEWAY_TOKEN"}},
		{"escaped brace and name", `{"agents":{"defaults":{"workspace":"$\u007bA_B\u007d"}}}`, []string{"A_B"}},
		{"escaped source key", `{"models":{"providers":{"p":{"apiKey":{"sourc\u0065":"env","provider":"default","id":"SECRET_X"}}}}}`, []string{"SECRET_X"}},
		{"escaped env value", `{"models":{"providers":{"p":{"apiKey":{"source":"\u0065nv","provider":"default","id":"SECRET_Y"}}}}}`, []string{"SECRET_Y"}},
		{"escaped id", `{"models":{"providers":{"p":{"apiKey":{"source":"env","provider":"default","id":"SECRET_\u005a"}}}}}`, []string{"SECRET_Z"}},
		{"escape without a dollar", `{"agents":{"defaults":{"workspace":"\u0041{B}"}}}`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc, err := occkit.ParseDocument([]byte(tc.doc))
			if err != nil {
				t.Fatal(err)
			}
			got := compile.ReferencedEnv(doc, pinnedSecrets)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("ReferencedEnv (-want +got):\n%s", diff)
			}
			// The loaded (unescaped) form names the same variables.
			loaded, err := compile.Load([]byte(tc.doc), compile.LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, compile.ReferencedEnv(loaded, pinnedSecrets)); diff != "" {
				t.Errorf("loaded form (-want +got):\n%s", diff)
			}
		})
	}
}
