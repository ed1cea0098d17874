package kubernetes

import (
	"bytes"
	"regexp"
	"testing"

	"github.com/occkit/occkit"

	"k8s.io/apimachinery/pkg/util/validation"
	"pgregory.net/rapid"

	"github.com/occkit/occkit/drivers"
	"github.com/occkit/occkit/drivers/kubernetes/render"
)

// DRV-5: whatever the IDs hold, every derived name is a DNS-1123 label
// and hides the ID.
func TestNamesProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		agent := rapid.String().Draw(t, "agent")
		digest := rapid.StringMatching(`[0-9a-f]{64}`).Draw(t, "digest")
		ref := occkit.SourceRef{
			Kind: rapid.SampledFrom(occkit.AllSourceKinds()).Draw(t, "kind"),
			ID:   rapid.String().Draw(t, "id"),
		}
		names := []string{render.CredentialSecretName(ref)}
		for _, c := range occkit.AllProcesses() {
			names = append(names, render.WorkloadName(agent, c), render.DataName(agent, c), render.ConfigName(agent, digest, c))
		}
		for _, n := range names {
			if errs := validation.IsDNS1123Label(n); len(errs) > 0 {
				t.Fatalf("%q: %v", n, errs)
			}
		}
		if len(agent) >= 4 && bytes.Contains([]byte(render.WorkloadName(agent, occkit.ProcessGateway)), []byte(agent)) {
			t.Fatalf("the name reveals the Agent ID")
		}
	})
}

// Render is deterministic and valid for any Agent ID and credential
// reference a record can hold; credentials stay references.
func TestRenderProperty(t *testing.T) {
	d := testDriver(t)
	base := admitOn(t, d, "main", dedicatedCodex, 1)
	rapid.Check(t, func(t *rapid.T) {
		agent := rapid.StringMatching(`[A-Za-z0-9_.@ -]{1,80}`).Draw(t, "agent")
		secretID := rapid.StringMatching(`[A-Za-z0-9_./-]{1,80}`).Draw(t, "secret")
		rev := record(t, base, func(m map[string]any) {
			m["agentId"] = agent
			m["projection"] = map[string]any{"gateway": []any{}, "harness": []any{
				map[string]any{"name": "OPENAI_API_KEY", "from": map[string]any{"kind": "secret", "namespaceId": tenant.ID, "id": secretID}},
				map[string]any{"name": "CODEX_LOGIN_MODE", "value": "api_key"},
			}}
		})
		opts := render.Options{Namespace: drivers.Namespace{ID: tenant.ID}}
		a, err := render.Render(rev, opts)
		if err != nil {
			t.Fatal(err)
		}
		b, err := render.Render(rev, opts)
		if err != nil {
			t.Fatal(err)
		}
		ya, _ := a.YAML()
		yb, _ := b.YAML()
		if !bytes.Equal(ya, yb) {
			t.Fatal("two renders differ")
		}
		strictDecode(t, ya)
		for _, o := range a.List() {
			for k, v := range o.GetLabels() {
				if len(validation.IsValidLabelValue(v)) > 0 || len(validation.IsQualifiedName(k)) > 0 {
					t.Fatalf("%s label %s=%q is invalid", o.GetName(), k, v)
				}
			}
		}
		for _, dep := range a.Deployments {
			for _, e := range dep.Spec.Template.Spec.Containers[0].Env {
				if e.Name == "OPENAI_API_KEY" && (e.Value != "" || e.ValueFrom == nil || e.ValueFrom.SecretKeyRef == nil) {
					t.Fatalf("the credential is not a Secret reference: %+v", e)
				}
			}
		}
	})
}

var codeRE = regexp.MustCompile(`^[A-Z][A-Z0-9_]{0,63}$`)

// The diagnostic codes are a closed, well-formed, duplicate-free set.
func TestDiagnosticCodes(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range AllDiagnosticCodes() {
		if !codeRE.MatchString(c) || seen[c] {
			t.Errorf("code %q", c)
		}
		seen[c] = true
	}
	if got := len(occkit.AllProcesses()); got != 2 {
		t.Errorf("%d components", got)
	}
}

func BenchmarkRender(b *testing.B) {
	d := testDriver(b)
	for _, c := range allTopologyCases {
		rev := admitOn(b, d, "main", c, 1)
		opts := render.Options{Namespace: tenant, Sandbox: testSandbox()}
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := render.Render(rev, opts); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
