package admission_test

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/admission"
	"github.com/occkit/occkit/compile"
)

// AUTH-4a: a Binding built as a Go value is refused at Admit exactly as
// the same binding parsed from JSON is, before any Compute rule.
func TestAdmitRefusesTypedBindings(t *testing.T) {
	a := newAdmitter(t, allow())
	tests := []struct {
		name string
		b    occkit.Binding
		path string
	}{
		{"api_key without source", occkit.Binding{Method: occkit.MethodAPIKey}, "harnessAuth.source.kind"},
		{"source without namespace", occkit.Binding{Method: occkit.MethodAPIKey,
			Source: occkit.SourceRef{Kind: occkit.SourceSecret, ID: "s"}}, "harnessAuth.source.namespaceId"},
		{"source without id", occkit.Binding{Method: occkit.MethodAPIKey,
			Source: occkit.SourceRef{Kind: occkit.SourceSecret, NamespaceID: "ns_1"}}, "harnessAuth.source.id"},
		{"unknown source kind", occkit.Binding{Method: occkit.MethodAPIKey,
			Source: occkit.SourceRef{Kind: "vault", NamespaceID: "ns_1", ID: "s"}}, "harnessAuth.source.kind"},
		{"unknown method", occkit.Binding{Method: "oauth"}, "harnessAuth.method"},
		{"runtime with a source", occkit.Binding{Method: occkit.MethodRuntime, Source: secretRef}, "harnessAuth.source"},
		{"credential_source without type", occkit.Binding{Method: occkit.MethodCredentialSource, SourceID: "src"}, "harnessAuth.sourceType"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := embeddedRequest(embeddedConfig)
			req.Agent.HarnessAuth = tt.b
			_, err := a.Admit(context.Background(), req)
			e := occkit.First(err)
			if e == nil || e.Code != occkit.CodeInvalidRequest || e.Rule != "AUTH-4a" || e.Path.String() != tt.path {
				t.Fatalf("Admit = %v, want 400 AUTH-4a at %s", err, tt.path)
			}
			if tt.name == "unknown method" && !strings.Contains(e.Message(), "api_key, codex_pat, credential_source, runtime") {
				t.Errorf("the refusal does not name the accepted methods: %s", e.Message())
			}
		})
	}
}

// AUTH-4a: one validation for both paths. Whatever Validate accepts, the
// JSON snapshot parses back to the same Binding; whatever the JSON path
// refuses, Validate refuses.
func TestBindingValidateAgreesWithParse(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		str := rapid.SampledFrom([]string{"", "ns_1", "s", " s", "a\x01"})
		b := occkit.Binding{
			Method: occkit.Method(rapid.SampledFrom([]string{"api_key", "codex_pat", "credential_source", "runtime", "oauth"}).Draw(t, "method")),
			Source: occkit.SourceRef{
				Kind:        occkit.SourceKind(rapid.SampledFrom([]string{"", "secret", "service_account", "vault"}).Draw(t, "kind")),
				NamespaceID: str.Draw(t, "ns"), ID: str.Draw(t, "id"),
			},
			SourceID:   str.Draw(t, "sourceId"),
			SourceType: occkit.SourceType(rapid.SampledFrom([]string{"", "api_key", "codex-oauth", "x"}).Draw(t, "type")),
		}
		verr := b.Validate()
		parsed, perr := admission.ParseBinding(b.JSON(), admission.BindingPath())
		if verr == nil {
			if perr != nil || parsed != b {
				t.Fatalf("Validate accepts %+v but its JSON parses to %+v, %v", b, parsed, perr)
			}
		}
		if perr != nil && verr == nil {
			t.Fatalf("ParseBinding refuses %s (%v) but Validate accepts it", b.JSON(), perr)
		}
	})
}

// ADM-3 LOG-6: a Harness without an approved version is refused at Admit
// (every render would need it), naming the approved ones.
func TestAdmitRefusesMissingHarnessVersion(t *testing.T) {
	a, err := admission.New(admission.Options{Authorizer: allow(),
		HarnessVersions: map[occkit.Harness]string{occkit.HarnessCodex: "0.171.0"}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = a.Admit(context.Background(), embeddedRequest(embeddedConfig))
	e := occkit.First(err)
	if e == nil || e.Code != occkit.CodeResourceConflict || e.Rule != "ADM-3" || e.Path.String() != "harnessVersions.openclaw" ||
		!strings.Contains(e.Message(), "approved: codex") {
		t.Fatalf("Admit = %v", err)
	}
}

// AUTH-2: the credential must live in the Agent's tenant namespace; the
// refusal names it, and the revision freezes the namespace so a Compute
// running the Agent elsewhere refuses to render it.
func TestAdmitTenantNamespace(t *testing.T) {
	a := newAdmitter(t, allow())
	req := embeddedRequest(embeddedConfig)
	req.Agent.NamespaceID = "ns_2"
	_, err := a.Admit(context.Background(), req)
	e := occkit.First(err)
	if e == nil || e.Code != occkit.CodeResourceConflict || e.Rule != "AUTH-2" ||
		e.Path.String() != "harnessAuth.source.namespaceId" || !strings.Contains(e.Message(), "ns_2") {
		t.Fatalf("Admit = %v", err)
	}
	req.Agent.NamespaceID = "ns_1"
	rev, err := a.Admit(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if rev.Namespace() != "ns_1" {
		t.Errorf("namespace = %q", rev.Namespace())
	}
	if _, err := rev.Plan(compile.PlanOptions{Namespace: "ns_9"}); occkit.First(err) == nil || occkit.First(err).Rule != "AUTH-2" {
		t.Errorf("Plan on another namespace = %v", err)
	}
	b, err := rev.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	back, err := admission.ParseRevision(b)
	if err != nil || back.Namespace() != "ns_1" || back.Digest() != rev.Digest() {
		t.Fatalf("round trip: %v", err)
	}
}

// AUTH-6: secretBindings are frozen, survive the record, and reach the
// gateway only; a binding the render would refuse is refused at Admit.
func TestAdmitSecretBindings(t *testing.T) {
	a := newAdmitter(t, allow())
	req := embeddedRequest(strings.Replace(embeddedConfig, `"slack":{"enabled":true}`,
		`"slack":{"enabled":true},"telegram":{"botToken":"${TELEGRAM_BOT_TOKEN}"}`, 1))
	tg := occkit.SecretBinding{Env: "TELEGRAM_BOT_TOKEN", Source: occkit.SourceRef{Kind: occkit.SourceSecret, NamespaceID: "ns_1", ID: "tg"}}
	req.SecretBindings = []occkit.SecretBinding{tg}
	rev, err := a.Admit(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := rev.MarshalJSON()
	back, err := admission.ParseRevision(b)
	if err != nil || len(back.SecretBindings()) != 1 || back.SecretBindings()[0] != tg {
		t.Fatalf("round trip: %v %v", back.SecretBindings(), err)
	}
	plan, err := back.Plan(compile.PlanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	gw, _ := plan.Process(occkit.ProcessGateway)
	if e, ok := gw.Lookup("TELEGRAM_BOT_TOKEN"); !ok || e.Secret.ID != "tg" {
		t.Errorf("gateway lacks the secretBinding: %+v", gw.Env)
	}
	req.SecretBindings = []occkit.SecretBinding{{Env: "ANTHROPIC_API_KEY", Source: tg.Source}}
	_, err = a.Admit(context.Background(), req)
	if e := occkit.First(err); e == nil || e.Code != occkit.CodeInvalidRequest || e.Rule != "AUTH-6" {
		t.Fatalf("Admit with a binding shadowing the Harness credential = %v", err)
	}
}

// CMP-4: an admitted revision plans from what admission's check kept; the
// same revision restored from its record keeps nothing and builds the
// plan from its document (compile.BuildPlan). Both plan the same for
// every placement, the same plan or the same refusal, and a caller that
// writes a plan changes neither revision's next plan.
func TestPlanKeptIsRestoredPlan(t *testing.T) {
	a := newAdmitter(t, allow())
	embedded := embeddedRequest(strings.Replace(embeddedConfig, `"slack":{"enabled":true}`,
		`"slack":{"enabled":true},"discord":{},"telegram":{"botToken":"${TELEGRAM_BOT_TOKEN}"}`, 1))
	embedded.SecretBindings = []occkit.SecretBinding{{Env: "TELEGRAM_BOT_TOKEN",
		Source: occkit.SourceRef{Kind: occkit.SourceSecret, NamespaceID: "ns_1", ID: "tg"}}}
	tenant := embedded
	tenant.Agent.NamespaceID = "ns_1"
	dedicated := admission.Request{
		Agent:         admission.Agent{ID: "main", ConfigurationID: "c", ExecutionMode: occkit.ModeDedicated, HarnessAuth: apiKey},
		Configuration: admission.StaticConfiguration{ID: "c", Document: occkit.MustParseDocument(codexConfig)},
		Compute:       admission.ComputeInfo{Kind: occkit.ComputeKubernetes},
		Sandbox:       &admission.SandboxInfo{ID: "s", Facts: *fullSandbox, Driver: sandboxDriver{rec: &recorder{}}},
	}
	type pair struct{ admitted, restored *admission.Revision }
	var revs []pair
	for _, req := range []admission.Request{embedded, tenant, dedicated} {
		rev, err := a.Admit(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := rev.MarshalJSON()
		back, err := admission.ParseRevision(b)
		if err != nil {
			t.Fatal(err)
		}
		revs = append(revs, pair{rev, back})
	}
	type outcome struct {
		Plan    compile.Plan
		Refusal []occkit.ErrorMatcher
	}
	plan := func(r *admission.Revision, opts compile.PlanOptions) outcome {
		p, err := r.Plan(opts)
		return outcome{p, occkit.MatchersOf(err)}
	}
	rapid.Check(t, func(t *rapid.T) {
		r := rapid.SampledFrom(revs).Draw(t, "revision")
		str := func(name string, vs ...string) string { return rapid.SampledFrom(vs).Draw(t, name) }
		opts := compile.PlanOptions{
			Bind:               str("bind", "", compile.BindLoopback, compile.BindLAN, "public"),
			GatewayPort:        rapid.SampledFrom([]int{0, 8080}).Draw(t, "gatewayPort"),
			GatewayHost:        str("gatewayHost", "", "gw.tenant.svc"),
			AppServerHost:      str("appServerHost", "", "app.tenant.svc"),
			AppServerListen:    str("appServerListen", "", "0.0.0.0"),
			AppServerTokenFile: str("appServerTokenFile", "", "/run/token"),
			Namespace:          str("namespace", "", "ns_1", "ns_2"),
		}
		for range 2 {
			kept, restored := plan(r.admitted, opts), plan(r.restored, opts)
			if d := cmp.Diff(restored, kept); d != "" {
				t.Fatalf("Plan(%+v) (-restored +admitted):\n%s", opts, d)
			}
			for _, o := range []outcome{kept, restored} {
				for _, p := range o.Plan.Processes {
					for _, f := range p.Files {
						clear(f.Data)
					}
					clear(p.Env)
					clear(p.Plugins)
				}
			}
		}
	})
}
