package admission_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/admission"
	"github.com/occkit/occkit/drivers"
)

var (
	fullSandbox = &occkit.SandboxFacts{Facets: occkit.AllFacets(), ProvisionHarness: true}
	secretRef   = occkit.SourceRef{Kind: occkit.SourceSecret, NamespaceID: "ns_1", ID: "sec_1"}
	apiKey      = occkit.Binding{Method: occkit.MethodAPIKey, Source: secretRef}
	codexPAT    = occkit.Binding{Method: occkit.MethodCodexPAT, Source: secretRef}
	saPAT       = occkit.Binding{Method: occkit.MethodCodexPAT, Source: occkit.SourceRef{Kind: occkit.SourceServiceAccount, NamespaceID: "ns_1", ID: "sa_1"}}
	runtimeAuth = occkit.Binding{Method: occkit.MethodRuntime}
	credSource  = occkit.Binding{Method: occkit.MethodCredentialSource, SourceID: "cs_1", SourceType: occkit.SourceTypeAPIKey}
	oauthSource = occkit.Binding{Method: occkit.MethodCredentialSource, SourceID: "cs_1", SourceType: occkit.SourceTypeCodexOAuth}
)

func kube(h occkit.Harness, m occkit.Mode, b occkit.Binding) drivers.AuthFacts {
	f := drivers.AuthFacts{Compute: occkit.ComputeKubernetes, Harness: h, Mode: m, Binding: b, Model: "openai/gpt-5"}
	if h == occkit.HarnessCodex {
		f.Model = "codex/gpt-5"
	}
	if h == occkit.HarnessOpenClaw && m == occkit.ModeDedicated {
		f.Sandbox, f.NativeWorkerSupport = fullSandbox, occkit.NativeWorkersPinned
	}
	return f
}

func with(f drivers.AuthFacts, edit func(*drivers.AuthFacts)) drivers.AuthFacts {
	edit(&f)
	return f
}

func TestValidateHarnessAuth(t *testing.T) {
	oc, cx := occkit.HarnessOpenClaw, occkit.HarnessCodex
	emb, ded := occkit.ModeEmbedded, occkit.ModeDedicated
	tests := []struct {
		name        string
		facts       drivers.AuthFacts
		harness     []string
		wantCode    occkit.Code
		wantRule    string
		stdin, egrs bool
	}{
		// AUTH-2 Kubernetes table.
		{name: "embedded openclaw openai key", facts: kube(oc, emb, apiKey), harness: []string{"OPENAI_API_KEY"}},
		{name: "embedded openclaw anthropic key", facts: with(kube(oc, emb, apiKey), func(f *drivers.AuthFacts) { f.Model = "anthropic/claude" }),
			harness: []string{"ANTHROPIC_API_KEY"}},
		{name: "embedded openclaw other provider has no projection", facts: with(kube(oc, emb, apiKey), func(f *drivers.AuthFacts) { f.Model = "google/gemini" }),
			wantCode: occkit.CodeResourceConflict, wantRule: "AUTH-2"},
		{name: "embedded openclaw without a model", facts: with(kube(oc, emb, apiKey), func(f *drivers.AuthFacts) { f.Model = "" }),
			wantCode: occkit.CodeResourceConflict, wantRule: "AUTH-2"},
		{name: "dedicated openclaw key goes to the harness only", facts: kube(oc, ded, apiKey), harness: []string{"OPENAI_API_KEY"}},
		{name: "dedicated openclaw key cannot serve an anthropic model", facts: with(kube(oc, ded, apiKey), func(f *drivers.AuthFacts) { f.Model = "anthropic/claude" }),
			wantCode: occkit.CodeResourceConflict, wantRule: "AUTH-2"},
		{name: "dedicated openclaw key without a model", facts: with(kube(oc, ded, apiKey), func(f *drivers.AuthFacts) { f.Model = "" }),
			wantCode: occkit.CodeResourceConflict, wantRule: "AUTH-2"},
		{name: "dedicated openclaw credential source cannot serve an anthropic model", facts: with(kube(oc, ded, credSource), func(f *drivers.AuthFacts) {
			f.CredentialGateway, f.Model = true, "anthropic/claude"
		}), wantCode: occkit.CodeResourceConflict, wantRule: "AUTH-3"},
		{name: "dedicated codex on another provider is RES-12", facts: with(kube(cx, ded, apiKey), func(f *drivers.AuthFacts) { f.Model = "anthropic/claude" }),
			wantCode: occkit.CodeInvalidRequest, wantRule: "RES-12"},
		{name: "dedicated codex over openai", facts: with(kube(cx, ded, codexPAT), func(f *drivers.AuthFacts) { f.Model = "openai/gpt-5" }),
			harness: []string{"CODEX_ACCESS_TOKEN", "CODEX_LOGIN_MODE"}},
		{name: "dedicated codex api key logs in through stdin", facts: kube(cx, ded, apiKey),
			harness: []string{"CODEX_LOGIN_MODE", "OPENAI_API_KEY"}, stdin: true},
		{name: "dedicated codex pat from a secret", facts: kube(cx, ded, codexPAT), harness: []string{"CODEX_ACCESS_TOKEN", "CODEX_LOGIN_MODE"}},
		{name: "dedicated codex pat from a service account", facts: kube(cx, ded, saPAT), harness: []string{"CODEX_ACCESS_TOKEN", "CODEX_LOGIN_MODE"}},
		{name: "codex_pat on openclaw", facts: kube(oc, emb, codexPAT), wantCode: occkit.CodeResourceConflict, wantRule: "AUTH-2"},
		{name: "credential source for dedicated codex", facts: with(kube(cx, ded, credSource), func(f *drivers.AuthFacts) {
			f.CredentialGateway, f.Sandbox = true, fullSandbox
		}), harness: []string{"CODEX_LOGIN_MODE", "OPENAI_API_KEY"}, egrs: true},
		{name: "credential source for dedicated openclaw", facts: with(kube(oc, ded, credSource), func(f *drivers.AuthFacts) { f.CredentialGateway = true }),
			harness: []string{"OPENAI_API_KEY"}, egrs: true},
		{name: "codex-oauth source for dedicated codex", facts: with(kube(cx, ded, oauthSource), func(f *drivers.AuthFacts) {
			f.CredentialGateway, f.Sandbox = true, fullSandbox
		}), harness: []string{"CODEX_ACCESS_TOKEN", "CODEX_LOGIN_MODE"}, egrs: true},

		// AUTH-3 / AUTH-4.
		{name: "codex-oauth source for openclaw is a shape error", facts: with(kube(oc, ded, oauthSource), func(f *drivers.AuthFacts) { f.CredentialGateway = true }),
			wantCode: occkit.CodeInvalidRequest, wantRule: "AUTH-4a"},
		{name: "credential source without a gateway", facts: with(kube(cx, ded, credSource), func(f *drivers.AuthFacts) { f.Sandbox = fullSandbox }),
			wantCode: occkit.CodeCredentialGatewayNotConfigured, wantRule: "AUTH-3"},
		{name: "credential source without the paired sandbox", facts: with(kube(cx, ded, credSource), func(f *drivers.AuthFacts) { f.CredentialGateway = true }),
			wantCode: occkit.CodeResourceConflict, wantRule: "AUTH-3"},
		{name: "credential source on embedded openclaw", facts: with(kube(oc, emb, credSource), func(f *drivers.AuthFacts) {
			f.CredentialGateway, f.Sandbox = true, fullSandbox
		}), wantCode: occkit.CodeResourceConflict, wantRule: "AUTH-3"},
		{name: "api key while a gateway is selected", facts: with(kube(oc, emb, apiKey), func(f *drivers.AuthFacts) { f.CredentialGateway = true }),
			wantCode: occkit.CodeResourceConflict, wantRule: "AUTH-4"},
		{name: "service account pat while a gateway is selected", facts: with(kube(cx, ded, saPAT), func(f *drivers.AuthFacts) { f.CredentialGateway = true }),
			wantCode: occkit.CodeResourceConflict, wantRule: "AUTH-4"},
		{name: "kubernetes refuses runtime", facts: kube(oc, emb, runtimeAuth), wantCode: occkit.CodeResourceConflict, wantRule: "AUTH-4"},
		{name: "docker refuses every binding", facts: with(kube(oc, emb, runtimeAuth), func(f *drivers.AuthFacts) { f.Compute = occkit.ComputeDocker }),
			wantCode: occkit.CodeResourceConflict, wantRule: "AUTH-4"},
		{name: "no binding", facts: kube(oc, emb, occkit.Binding{}), wantCode: occkit.CodeResourceConflict, wantRule: "AUTH-1"},

		// AUTH-5.
		{name: "ssh runtime", facts: with(kube(oc, emb, runtimeAuth), func(f *drivers.AuthFacts) { f.Compute = occkit.ComputeSSH }), harness: []string{}},
		{name: "ssh refuses api key", facts: with(kube(oc, emb, apiKey), func(f *drivers.AuthFacts) { f.Compute = occkit.ComputeSSH }),
			wantCode: occkit.CodeResourceConflict, wantRule: "AUTH-5"},
		{name: "ssh refuses a credential source with a gateway", facts: with(kube(oc, emb, credSource), func(f *drivers.AuthFacts) {
			f.Compute, f.CredentialGateway = occkit.ComputeSSH, true
		}), wantCode: occkit.CodeResourceConflict, wantRule: "AUTH-5"},

		// AUTH-4: a credential source without a gateway names the gateway on every Compute.
		{name: "ssh credential source without a gateway", facts: with(kube(oc, emb, credSource), func(f *drivers.AuthFacts) { f.Compute = occkit.ComputeSSH }),
			wantCode: occkit.CodeCredentialGatewayNotConfigured, wantRule: "AUTH-3"},
		{name: "docker credential source without a gateway", facts: with(kube(oc, emb, credSource), func(f *drivers.AuthFacts) { f.Compute = occkit.ComputeDocker }),
			wantCode: occkit.CodeCredentialGatewayNotConfigured, wantRule: "AUTH-3"},
		{name: "embedded kubernetes credential source without a gateway", facts: kube(oc, emb, credSource),
			wantCode: occkit.CodeCredentialGatewayNotConfigured, wantRule: "AUTH-3"},
		{name: "docker credential source with a gateway", facts: with(kube(oc, emb, credSource), func(f *drivers.AuthFacts) {
			f.Compute, f.CredentialGateway = occkit.ComputeDocker, true
		}), wantCode: occkit.CodeResourceConflict, wantRule: "AUTH-4"},

		// RES-11 first.
		{name: "ssh dedicated codex is refused by RES-11 first", facts: with(kube(cx, ded, apiKey), func(f *drivers.AuthFacts) { f.Compute = occkit.ComputeSSH }),
			wantCode: occkit.CodeInvalidRequest, wantRule: "RES-11"},
		{name: "embedded codex", facts: kube(cx, emb, apiKey), wantCode: occkit.CodeInvalidRequest, wantRule: "RES-11"},
		{name: "embedded codex without a binding is still RES-11", facts: kube(cx, emb, occkit.Binding{}), wantCode: occkit.CodeInvalidRequest, wantRule: "RES-11"},
		{name: "dedicated openclaw without native workers", facts: with(kube(oc, ded, apiKey), func(f *drivers.AuthFacts) { f.NativeWorkerSupport = "" }),
			wantCode: occkit.CodeInvalidRequest, wantRule: "RES-13"},
		{name: "dedicated openclaw without a qualifying sandbox", facts: with(kube(oc, ded, apiKey), func(f *drivers.AuthFacts) {
			f.Sandbox = &occkit.SandboxFacts{Facets: []occkit.Facet{occkit.FacetNetworking}, ProvisionHarness: true}
		}), wantCode: occkit.CodeResourceConflict, wantRule: "RES-13"},
		{name: "custom compute has no built-in validator", facts: with(kube(oc, emb, apiKey), func(f *drivers.AuthFacts) {
			f.Compute = "nomad"
			f.Topologies = []occkit.Topology{{Harness: oc, Mode: emb}}
		}), wantCode: occkit.CodeDependencyUnavailable, wantRule: "AUTH-7"},
		{name: "custom compute outside its topologies", facts: with(kube(oc, emb, apiKey), func(f *drivers.AuthFacts) { f.Compute = "nomad" }),
			wantCode: occkit.CodeInvalidRequest, wantRule: "RES-11"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := admission.ValidateHarnessAuth(tt.facts)
			if tt.wantCode != "" {
				e := occkit.First(err)
				if e == nil || e.Code != tt.wantCode || e.Rule != tt.wantRule {
					t.Fatalf("got %v, want %s [%s]", err, tt.wantCode, tt.wantRule)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			// AUTH-6: the gateway never gets the inference credential.
			if diff := cmp.Diff([]string{}, p.Names(occkit.ProcessGateway)); diff != "" {
				t.Fatalf("gateway env: %s", diff)
			}
			if diff := cmp.Diff(tt.harness, p.Names(occkit.ProcessHarness)); diff != "" {
				t.Fatalf("harness env: %s", diff)
			}
			if p.StdinLogin != tt.stdin || p.EgressProxy != tt.egrs {
				t.Fatalf("stdin %v egress %v", p.StdinLogin, p.EgressProxy)
			}
			for _, v := range p.Harness {
				if v.Placeholder && v.From != (occkit.SourceRef{}) {
					t.Fatalf("placeholder %s also reads a secret", v.Name)
				}
				if tt.egrs && v.From != (occkit.SourceRef{}) {
					t.Fatalf("credential_source projected a model Secret into %s", v.Name)
				}
			}
		})
	}
}

type fakeValidator struct {
	p   occkit.Projection
	err error
}

func (v fakeValidator) ValidateHarnessAuth(context.Context, drivers.AuthFacts) (occkit.Projection, error) {
	return v.p, v.err
}

// TestValidateWith checks the AUTH-7 refusal mapping of a custom Compute.
func TestValidateWith(t *testing.T) {
	f := drivers.AuthFacts{
		Compute: "nomad", Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeEmbedded, Binding: runtimeAuth,
		Topologies: []occkit.Topology{{Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeEmbedded}},
	}
	leak := occkit.Projection{Gateway: []occkit.EnvVar{{Name: "OPENAI_API_KEY", From: secretRef}}}
	tests := []struct {
		name     string
		v        drivers.HarnessAuthValidator
		binding  *occkit.Binding
		wantCode occkit.Code
	}{
		{name: "no validator", v: nil, wantCode: occkit.CodeDependencyUnavailable},
		{name: "configuration refusal stays 400", v: fakeValidator{err: occkit.Invalid("X", occkit.NewPath("models"), "bad")}, wantCode: occkit.CodeInvalidRequest},
		{name: "other structured refusal is 409", v: fakeValidator{err: occkit.New(occkit.CodeDependencyUnavailable, "X", occkit.Root(), "down")}, wantCode: occkit.CodeResourceConflict},
		{name: "plain refusal is 409", v: fakeValidator{err: errors.New("sk-live-secret refused")}, wantCode: occkit.CodeResourceConflict},
		{name: "gateway credential is refused (AUTH-6)", v: fakeValidator{p: leak}, wantCode: occkit.CodeResourceConflict},
		{name: "accepted", v: fakeValidator{p: occkit.Projection{Harness: []occkit.EnvVar{{Name: "X_KEY", From: secretRef}}}}},
		{name: "credential source without a gateway names the gateway before the driver", v: fakeValidator{},
			binding: &credSource, wantCode: occkit.CodeCredentialGatewayNotConfigured},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := f
			if tt.binding != nil {
				f.Binding = *tt.binding
			}
			_, err := admission.ValidateWith(context.Background(), tt.v, f)
			if tt.wantCode == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			e := occkit.First(err)
			if e == nil || e.Code != tt.wantCode {
				t.Fatalf("got %v, want %s", err, tt.wantCode)
			}
			if e != nil && strings.Contains(err.Error(), "sk-live-secret") {
				t.Fatalf("driver text leaked: %v", err)
			}
		})
	}
}
