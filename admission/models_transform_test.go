package admission_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/admission"
)

// codexFallback is a dedicated Codex Configuration whose primary the
// catalog lists, with a fallback when fallback is not "".
func codexFallback(fallback string) string {
	model, policy := `"openai/gpt-5.4"`, ""
	if fallback != "" {
		model = `{"primary":"openai/gpt-5.4","fallbacks":["` + fallback + `"]}`
		policy = `,"` + fallback + `":{"agentRuntime":{"id":"codex"}}`
	}
	return `{"agents":{"defaults":{"model":` + model + `,` +
		`"models":{"openai/gpt-5.4":{"agentRuntime":{"id":"codex"}}` + policy + `}},"entries":{"main":{}}},` +
		`"plugins":{"entries":{"codex":{"enabled":true,"config":{"appServer":{"transport":"websocket"}}}}}}`
}

// TestAdmitChecksTheTransformedModels: after a SandboxDriver's transform,
// the selected models checked against the release's catalog are the
// transformed document's, whether or not the caller handed in the
// analysis of the document as read.
func TestAdmitChecksTheTransformedModels(t *testing.T) {
	a := pinnedAdmitter(t)
	typo := []finding{{"", "RES-3", occkit.DocConfiguration, "agents.defaults.model.fallbacks[0]", ""}}
	for _, c := range []struct {
		name          string
		read, written string
		want          []finding
	}{
		{"the transform adds a model the catalog does not list", codexFallback(""), codexFallback("openai/zzz-model-x"), typo},
		{"the transform removes it", codexFallback("openai/zzz-model-x"), codexFallback(""), nil},
	} {
		for _, prepared := range []bool{false, true} {
			doc := occkit.MustParseDocument(c.read)
			req := admission.Request{
				Agent: admission.Agent{ID: "main", ConfigurationID: "cfg_1", ExecutionMode: occkit.ModeDedicated,
					HarnessAuth: occkit.Binding{Method: occkit.MethodAPIKey, Source: secretRef}},
				Configuration: admission.StaticConfiguration{ID: "cfg_1", Document: doc},
				Compute:       admission.ComputeInfo{Kind: occkit.ComputeKubernetes, ID: "k8s"},
				Sandbox: &admission.SandboxInfo{ID: "openshell", Facts: *fullSandbox,
					Driver: replacingSandbox{doc: occkit.MustParseDocument(c.written)}},
			}
			if prepared {
				req.Prepared = admission.Prepare(doc)
			}
			rev, err := a.Admit(context.Background(), req)
			if err != nil {
				t.Fatalf("%s (prepared %v): %v", c.name, prepared, err)
			}
			var got []*occkit.Error
			for _, w := range rev.Warnings() {
				if w.Rule == "RES-3" || w.Rule == "RES-6" {
					got = append(got, w)
				}
			}
			if d := cmp.Diff(c.want, findingsOf(got)); d != "" {
				t.Errorf("%s (prepared %v): model warnings (-want +got):\n%s", c.name, prepared, d)
			}
		}
	}
}
