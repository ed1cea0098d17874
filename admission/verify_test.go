package admission_test

import (
	"context"
	"errors"
	"testing"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/admission"
)

// TestVerify: ADM-5 re-checks before any runtime effect and fails closed.
func TestVerify(t *testing.T) {
	a := newAdmitter(t, allow())
	dedicated := admission.Request{
		Agent:         admission.Agent{ID: "main", ConfigurationID: "c", ExecutionMode: occkit.ModeDedicated, HarnessAuth: apiKey},
		Configuration: admission.StaticConfiguration{ID: "c", Document: occkit.MustParseDocument(codexConfig)},
		Compute:       admission.ComputeInfo{Kind: occkit.ComputeKubernetes, ID: "k8s"},
		Sandbox:       &admission.SandboxInfo{ID: "openshell", Facts: *fullSandbox},
	}
	rev, err := a.Admit(context.Background(), dedicated)
	if err != nil {
		t.Fatal(err)
	}
	good := admission.VerifyFacts{
		Principal: "worker", AgentID: "main", Authorizer: allow(),
		Compute: admission.ComputeInfo{Kind: occkit.ComputeKubernetes, ID: "k8s"},
		Sandbox: &admission.SandboxInfo{ID: "openshell", Facts: *fullSandbox},
	}
	tests := []struct {
		name     string
		edit     func(*admission.VerifyFacts)
		wantCode occkit.Code
	}{
		{name: "unchanged installation", edit: func(*admission.VerifyFacts) {}},
		{name: "another Agent", edit: func(f *admission.VerifyFacts) { f.AgentID = "other" }, wantCode: occkit.CodeResourceConflict},
		{name: "another Compute", edit: func(f *admission.VerifyFacts) { f.Compute.ID = "k8s-2" }, wantCode: occkit.CodeResourceConflict},
		{name: "revoked authority", edit: func(f *admission.VerifyFacts) { f.Authorizer = authz{deny: errors.New("revoked")} }, wantCode: occkit.CodeForbidden},
		{name: "no authorizer", edit: func(f *admission.VerifyFacts) { f.Authorizer = nil }, wantCode: occkit.CodeDependencyUnavailable},
		{name: "bound SandboxDriver missing", edit: func(f *admission.VerifyFacts) { f.Sandbox = nil }, wantCode: occkit.CodeResourceConflict},
		{name: "another SandboxDriver", edit: func(f *admission.VerifyFacts) { f.Sandbox = &admission.SandboxInfo{ID: "other", Facts: *fullSandbox} },
			wantCode: occkit.CodeResourceConflict},
		{name: "a Credential Gateway is now selected", edit: func(f *admission.VerifyFacts) { f.CredentialGateway = true }, wantCode: occkit.CodeResourceConflict},
		{name: "logging ownership changed", edit: func(f *admission.VerifyFacts) { f.Compute.RuntimeLogging = occkit.OwnedByDriver },
			wantCode: occkit.CodeResourceConflict},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := good
			tt.edit(&f)
			err := admission.Verify(context.Background(), rev, f)
			if tt.wantCode == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if e := occkit.First(err); e == nil || e.Code != tt.wantCode {
				t.Fatalf("got %v, want %s", err, tt.wantCode)
			}
		})
	}
	t.Run("managed account is frozen (ADM-7)", func(t *testing.T) {
		acct := admission.Account{BackendID: "chatgpt", DriverID: "d", WorkspaceID: "ws_1",
			Credential: occkit.SourceRef{Kind: occkit.SourceServiceAccount, NamespaceID: "ns_1", ID: "sa_1"}}
		req := dedicated
		req.Agent.HarnessAuth = saPAT
		req.Account = acct
		rev, err := a.Admit(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		if rev.Account() != acct {
			t.Fatalf("account %+v", rev.Account())
		}
		f := good
		f.Account = acct
		if err := admission.Verify(context.Background(), rev, f); err != nil {
			t.Fatal(err)
		}
		f.Account.Credential.ID = "sa_2"
		if err := admission.Verify(context.Background(), rev, f); !errors.Is(err, occkit.ErrResourceConflict) {
			t.Fatalf("substituted credential: %v", err)
		}
	})
	t.Run("nil revision", func(t *testing.T) {
		if err := admission.Verify(context.Background(), nil, good); !errors.Is(err, occkit.ErrResourceConflict) {
			t.Fatal(err)
		}
	})
	t.Run("restored record verifies", func(t *testing.T) {
		b, _ := rev.MarshalJSON()
		back, err := admission.ParseRevision(b)
		if err != nil {
			t.Fatal(err)
		}
		if err := admission.Verify(context.Background(), back, good); err != nil {
			t.Fatal(err)
		}
	})
}
