package memdriver_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/admission"
	"github.com/occkit/occkit/drivers/memdriver"
)

// A memdriver plugs into admission through admission.ComputeOf, and the
// admitted revision prepares on it: the method sets fit admission's
// structural interfaces.
func TestAdmitAndPrepare(t *testing.T) {
	ctx := context.Background()
	adm, err := admission.New(admission.Options{HarnessVersions: map[occkit.Harness]string{occkit.HarnessOpenClaw: "2026.9.6", occkit.HarnessCodex: "0.171.0"}, Authorizer: admission.AuthorizerFunc(func(context.Context, admission.AuthorizeRequest) error { return nil })})
	if err != nil {
		t.Fatal(err)
	}
	d := memdriver.New(memdriver.Options{})
	rev, err := adm.Admit(ctx, admission.Request{
		Agent: admission.Agent{ID: "main", ConfigurationID: "cfg", HarnessAuth: occkit.Binding{
			Method: occkit.MethodAPIKey,
			Source: occkit.SourceRef{Kind: occkit.SourceSecret, NamespaceID: "ns", ID: "anthropic-key"},
		}},
		Configuration: admission.StaticConfiguration{ID: "cfg", Generation: 3,
			Document: occkit.MustParseDocument(`{"agents":{"defaults":{"model":"anthropic/claude-sonnet-4-5"}}}`)},
		Compute: admission.ComputeOf(d, "mem-1"),
	})
	if err != nil {
		t.Fatalf("Admit: %v", err)
	}
	if rev.Compute() != memdriver.DefaultName || rev.Mode() != occkit.ModeEmbedded {
		t.Errorf("revision runs %s %s", rev.Compute(), rev.Mode())
	}
	if diff := cmp.Diff([]string{"ANTHROPIC_API_KEY"}, rev.Projection().Names(occkit.ProcessHarness)); diff != "" {
		t.Errorf("projection (-want +got):\n%s", diff)
	}
	if err := d.Prepare(ctx, rev); err != nil {
		t.Fatal(err)
	}
	if got := d.Prepared("main"); len(got) != 1 || got[0] != rev.Digest() {
		t.Errorf("prepared = %v", got)
	}
}
