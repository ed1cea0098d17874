package admission_test

import (
	"strings"
	"testing"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/admission"
	"github.com/occkit/occkit/compile"
	"github.com/occkit/occkit/compile/openclawschema"
	"github.com/occkit/occkit/drivers"
	"github.com/occkit/occkit/resolver"
)

// The wording of refusals and explanations a person acts on: each names
// the right path, what is accepted and, for a typo, what was meant (issue
// 16's list). Conformance pins code, path and rule; this pins the words.
func TestRefusalWording(t *testing.T) {
	doc := occkit.MustParseDocument(`{"agents":{"defaults":{"model":"anthropic/claude-sonnet-4-6"}}}`)
	resolve := func(req resolver.Request) func() (string, error) {
		return func() (string, error) {
			_, err := resolver.Resolve(doc, req)
			return "", err
		}
	}
	auth := func(h occkit.Harness, m occkit.Mode) func() (string, error) {
		return func() (string, error) {
			_, err := admission.ValidateHarnessAuth(drivers.AuthFacts{
				Compute: occkit.ComputeKubernetes, Harness: h, Mode: m,
				Binding: occkit.Binding{Method: occkit.MethodRuntime}, Model: "openai/gpt-5",
			})
			return "", err
		}
	}
	explain := func(src string) func() (string, error) {
		return func() (string, error) {
			d, err := resolver.Resolve(occkit.MustParseDocument(src), resolver.Request{Compute: occkit.ComputeKubernetes})
			if err != nil {
				return "", err
			}
			var b strings.Builder
			err = d.Explain(&b)
			return b.String(), err
		}
	}
	openclaw, err := openclawschema.New()
	if err != nil {
		t.Fatal(err)
	}
	schema := func(src string, validate func(occkit.Document) error) func() (string, error) {
		return func() (string, error) { return "", validate(occkit.MustParseDocument(src)) }
	}
	for _, tc := range []struct {
		name    string
		run     func() (string, error)
		path    string // of the refusal; "" for an explanation
		want    []string
		notWant []string
	}{
		{"compute kind typo", resolve(resolver.Request{Compute: "kubernetse"}), "compute",
			[]string{`Compute "kubernetse" is not one of the bundled Computes (kubernetes, ssh, docker)`, "did you mean kubernetes?"},
			[]string{"supported: none"}},
		{"custom compute declaring nothing", resolve(resolver.Request{Compute: "acme"}), "executionMode",
			[]string{`Compute "acme" declares no Harness and execution mode pairs`, "kubernetes, ssh, docker"},
			[]string{"supported: none", "did you mean"}},
		{"custom compute declaring other pairs", resolve(resolver.Request{Compute: "acme",
			Topologies: []occkit.Topology{{Harness: occkit.HarnessCodex, Mode: occkit.ModeDedicated}}}), "executionMode",
			[]string{"(supported: codex/dedicated)"}, nil},
		{"harness typo", func() (string, error) {
			return "", occkit.Topology{Harness: "codx", Mode: occkit.ModeDedicated}.Check()
		}, "harness", []string{"openclaw or codex", "did you mean codex?"}, nil},
		{"mode typo", func() (string, error) {
			return "", occkit.Topology{Harness: occkit.HarnessCodex, Mode: "dedicaetd"}.Check()
		}, "executionMode", []string{`"embedded" or "dedicated"`, "did you mean dedicated?"}, nil},
		{"runtime method on kubernetes, embedded", auth(occkit.HarnessOpenClaw, occkit.ModeEmbedded), "harnessAuth.method",
			[]string{"does not accept the runtime harnessAuth method", "accepted for openclaw/embedded here: api_key"}, nil},
		{"runtime method on kubernetes, dedicated codex", auth(occkit.HarnessCodex, occkit.ModeDedicated), "harnessAuth.method",
			[]string{"accepted for codex/dedicated here: api_key, codex_pat, credential_source"}, nil},
		{"occkit schema bound", schema(`{"agents":{"defaults":{"maxConcurrent":0}}}`, compile.Validate),
			"agents.defaults.maxConcurrent", []string{"the schema wants at least 1"}, nil},
		{"occkit schema type", schema(`{"agents":{"defaults":{"maxConcurrent":"four"}}}`, compile.Validate),
			"agents.defaults.maxConcurrent", []string{"the schema wants integer, not string"}, nil},
		{"OpenClaw enum typo", schema(`{"agents":{"defaults":{"thinkingDefault":"medum"}}}`, openclaw.Validate),
			"agents.defaults.thinkingDefault", []string{`(did you mean "medium"?); accepted: "adaptive", "high"`}, nil},
		{"OpenClaw key typos", schema(`{"agents":{"defualts":{}}}`, openclaw.Validate),
			"agents.defualts", []string{"did you mean agents.defaults?"}, nil},
		{"OpenClaw nested key typo", schema(`{"agents":{"defaults":{"model":{"primary":"a/b","fallback":[]}}}}`, openclaw.Validate),
			"agents.defaults.model.fallback", []string{"did you mean agents.defaults.model.fallbacks?"}, nil},
		{"runtime id typo", schema(`{"agents":{"defaults":{"model":"anthropic/a","models":{"anthropic/a":{"agentRuntime":{"id":"opencalw"}}}}}}`,
			func(d occkit.Document) error { _, err := resolver.Resolve(d, resolver.Request{}); return err }),
			`agents.defaults.models["anthropic/a"].agentRuntime.id`, []string{`must be "openclaw" or "codex"; did you mean openclaw?`}, nil},
		{"unknown provider", explain(`{"agents":{"defaults":{"model":"acme/x-1"}}}`), "",
			[]string{`RES-6 agents.defaults.model = "acme": no runtime policy, models.providers entry or plugin routing names this provider, so the default openclaw Harness runs it`},
			[]string{"built-in"}},
		{"one fallback", explain(`{"agents":{"defaults":{"model":{"primary":"anthropic/a","fallbacks":["anthropic/b"]}}}}`), "",
			[]string{"RES-8 agents.defaults.model.fallbacks: the one fallback keeps the primary's provider"},
			[]string{`fallbacks = "`}},
		{"two fallbacks", explain(`{"agents":{"defaults":{"model":{"primary":"anthropic/a","fallbacks":["anthropic/b","anthropic/c"]}}}}`), "",
			[]string{"RES-8 agents.defaults.model.fallbacks: all 2 fallbacks keep the primary's provider"},
			[]string{`fallbacks = "`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := tc.run()
			if tc.path != "" {
				e := occkit.First(err)
				if e == nil {
					t.Fatalf("accepted")
				}
				if e.Path.String() != tc.path {
					t.Errorf("path %s, want %s", e.Path, tc.path)
				}
				out = e.Message()
			} else if err != nil {
				t.Fatal(err)
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("%q lacks %q", out, w)
				}
			}
			for _, w := range tc.notWant {
				if strings.Contains(out, w) {
					t.Errorf("%q still says %q", out, w)
				}
			}
		})
	}
}
