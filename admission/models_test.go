package admission_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/admission"
)

// pinnedAdmitter approves OpenClaw 2026.9.6, whose model catalog the
// library carries.
func pinnedAdmitter(t testing.TB) *admission.Admitter {
	t.Helper()
	a, err := admission.New(admission.Options{Authorizer: allow(),
		HarnessVersions: map[occkit.Harness]string{occkit.HarnessOpenClaw: "2026.9.6", occkit.HarnessCodex: "0.171.0"}})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// finding is what a test compares of a refusal or a warning.
type finding struct {
	Code       occkit.Code
	Rule       string
	Doc        occkit.Doc
	Path       string
	Suggestion string
}

func findingsOf(es []*occkit.Error) []finding {
	var out []finding
	for _, e := range es {
		out = append(out, finding{e.Code, e.Rule, e.Path.Doc(), e.Path.String(), e.Suggestion})
	}
	return out
}

// onCompute is embeddedRequest(doc) on compute ("" is Kubernetes) with
// binding (the zero Binding keeps its api_key).
func onCompute(doc string, compute occkit.Compute, binding occkit.Binding) admission.Request {
	req := embeddedRequest(doc)
	if compute != "" {
		req.Compute = admission.ComputeInfo{Kind: compute}
	}
	if !binding.IsZero() {
		req.Agent.HarnessAuth = binding
	}
	return req
}

// modelCase is a Configuration admitted on a Compute with a binding, the
// findings expected and what their messages say.
type modelCase struct {
	name    string
	doc     string
	compute occkit.Compute
	binding occkit.Binding
	want    []finding
	say     []string
}

// Every refusal names the field the author changes (#28): the model, not
// the binding, when the model is what is wrong.
func TestModelRefusalsBlameTheModel(t *testing.T) {
	a := pinnedAdmitter(t)
	runtime := occkit.Binding{Method: occkit.MethodRuntime}
	for _, tt := range []modelCase{
		{"RES-6 a provider typo is a 400 at the model", `{"agents":{"defaults":{"model":"antropic/claude-haiku-4-5"}}}`, "", occkit.Binding{},
			[]finding{{occkit.CodeInvalidRequest, "RES-6", occkit.DocConfiguration, "agents.defaults.model", "anthropic"}}, nil},
		{"RES-6 a provider typo in an entry's fallbacks", `{"agents":{"entries":{"main":{"model":{"primary":"anthropic/claude-haiku-4-5","fallbacks":["antropic/claude-haiku-4-5"]}}}}}`, "", occkit.Binding{},
			[]finding{{occkit.CodeInvalidRequest, "RES-3", occkit.DocConfiguration, "agents.entries.main.model.fallbacks[0]", ""}}, nil},
		{"RES-6 a provider typo on ssh", `{"agents":{"defaults":{"model":{"primary":"antropic/claude-haiku-4-5"}}}}`, occkit.ComputeSSH, runtime,
			[]finding{{occkit.CodeInvalidRequest, "RES-6", occkit.DocConfiguration, "agents.defaults.model.primary", "anthropic"}}, nil},
		{"AUTH-2 no primary model is a 409 at agents.defaults.model", `{}`, "", occkit.Binding{},
			[]finding{{occkit.CodeResourceConflict, "AUTH-2", occkit.DocConfiguration, "agents.defaults.model", ""}}, nil},
		{"AUTH-2 a provider without a Kubernetes key variable is a 409 at the model", `{"agents":{"defaults":{"model":{"primary":"google/gemini-2.5-pro"}}}}`, "", occkit.Binding{},
			[]finding{{occkit.CodeResourceConflict, "AUTH-2", occkit.DocConfiguration, "agents.defaults.model.primary", ""}}, nil},
		{"AUTH-4 the runtime method on kubernetes is the binding's fault", `{"agents":{"defaults":{"model":"anthropic/claude-haiku-4-5"}}}`, "", runtime,
			[]finding{{occkit.CodeResourceConflict, "AUTH-4", occkit.DocAgent, "harnessAuth.method", ""}}, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rev, err := a.Admit(context.Background(), onCompute(tt.doc, tt.compute, tt.binding))
			if rev != nil {
				t.Fatalf("admitted, want %v", tt.want)
			}
			if d := cmp.Diff(tt.want, findingsOf(occkit.Errors(err))); d != "" {
				t.Errorf("refusal (-want +got):\n%s\n%v", d, err)
			}
		})
	}
}

// Warnings never block: unknown model IDs (with what they probably mean),
// unknown providers without a near miss, and settings the render
// overrides, each with the value that replaces it.
func TestAdmitWarnings(t *testing.T) {
	a := pinnedAdmitter(t)
	runtime := occkit.Binding{Method: occkit.MethodRuntime}
	for _, tt := range []modelCase{
		{"nothing to say", `{"agents":{"defaults":{"model":{"primary":"anthropic/claude-sonnet-4-6","fallbacks":["anthropic/sonnet-4.6"]}}},"gateway":{"bind":"lan","mode":"local"},"logging":{"level":"warn","consoleStyle":"json"}}`, "", occkit.Binding{},
			nil, nil},
		{"RES-3 a model ID typo", `{"agents":{"defaults":{"model":"anthropic/claude-sonet-4-6"}}}`, "", occkit.Binding{},
			[]finding{{"", "RES-3", occkit.DocConfiguration, "agents.defaults.model", "anthropic/claude-sonnet-4-6"}}, []string{"built-in catalog of OpenClaw 2026.9.6"}},
		{"RES-3 a fallback the catalog does not list, no near miss", `{"agents":{"defaults":{"model":{"primary":"anthropic/claude-haiku-4-5","fallbacks":["anthropic/zzz-model-x"]}}}}`, "", occkit.Binding{},
			[]finding{{"", "RES-3", occkit.DocConfiguration, "agents.defaults.model.fallbacks[0]", ""}}, nil},
		{"RES-6 an unknown provider far from any", `{"agents":{"defaults":{"model":"acmecorp/m1"}}}`, occkit.ComputeSSH, runtime,
			[]finding{{"", "RES-6", occkit.DocConfiguration, "agents.defaults.model", ""}}, []string{"neither built into OpenClaw 2026.9.6"}},
		{"a provider discovered at run time is not judged", `{"agents":{"defaults":{"model":"openrouter/anything/goes"}}}`, occkit.ComputeSSH, runtime,
			nil, nil},
		{"CMP-4 the gateway section the render owns", `{"agents":{"defaults":{"model":"anthropic/claude-haiku-4-5"}},"gateway":{"port":1234,"bind":"loopback","mode":"remote","auth":{"mode":"none"}}}`, "", occkit.Binding{},
			[]finding{
				{"", "CMP-4", occkit.DocConfiguration, "gateway.auth", ""},
				{"", "CMP-4", occkit.DocConfiguration, "gateway.bind", ""},
				{"", "CMP-4", occkit.DocConfiguration, "gateway.mode", ""},
				{"", "CMP-4", occkit.DocConfiguration, "gateway.port", ""},
			}, []string{"--port 18789", `gateway.bind to "lan"`}},
		{"CMP-4 ssh binds loopback", `{"agents":{"defaults":{"model":"anthropic/claude-haiku-4-5"}},"gateway":{"bind":"lan"}}`, occkit.ComputeSSH, runtime,
			[]finding{{"", "CMP-4", occkit.DocConfiguration, "gateway.bind", ""}}, []string{`"loopback"`}},
		{"LOG-1 what the stamp rewrites", `{"agents":{"defaults":{"model":"anthropic/claude-haiku-4-5"}},"logging":{"level":"debug","consoleLevel":"warn","consoleStyle":"pretty","redactSensitive":"off"},"diagnostics":{"otel":{"logs":true}}}`, "", occkit.Binding{},
			[]finding{
				{"", "LOG-1", occkit.DocConfiguration, "diagnostics.otel.logs", ""},
				{"", "LOG-1", occkit.DocConfiguration, "logging.consoleStyle", ""},
				{"", "LOG-1", occkit.DocConfiguration, "logging.level", ""},
				{"", "LOG-1", occkit.DocConfiguration, "logging.redactSensitive", ""},
			}, []string{`logging.level to "warn"`}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rev, err := a.Admit(context.Background(), onCompute(tt.doc, tt.compute, tt.binding))
			if err != nil {
				t.Fatalf("refused: %v", err)
			}
			ws := rev.Warnings()
			if d := cmp.Diff(tt.want, findingsOf(ws)); d != "" {
				t.Errorf("warnings (-want +got):\n%s", d)
			}
			var all strings.Builder
			for _, w := range ws {
				if !w.IsWarning() || w.HTTPStatus() != 0 || errors.Is(w, occkit.ErrInvalidRequest) {
					t.Errorf("%v is not a warning", w)
				}
				all.WriteString(w.Message() + "\n")
			}
			for _, s := range tt.say {
				if !strings.Contains(all.String(), s) {
					t.Errorf("no warning says %q:\n%s", s, all.String())
				}
			}
			var ex bytes.Buffer
			if err := rev.Explain(&ex); err != nil {
				t.Fatal(err)
			}
			if got := strings.Count(ex.String(), "\n  warning "); got != len(ws) {
				t.Errorf("Explain prints %d warnings, want %d:\n%s", got, len(ws), ex.String())
			}
			// A record read back carries no warnings: they are advice of
			// the admission, not part of the revision.
			b, _ := rev.MarshalJSON()
			back, err := admission.ParseRevision(b)
			if err != nil || len(back.Warnings()) != 0 || back.Digest() != rev.Digest() {
				t.Errorf("ParseRevision: %v, %d warnings", err, len(back.Warnings()))
			}
		})
	}
}
