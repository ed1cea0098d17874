package admission_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/admission"
	"github.com/occkit/occkit/compile/openclawschema"
)

// TestAdmitOpenClawSchema (DOC-5): the admitted document is checked
// against the pinned OpenClaw schema after the stamp, refusals name the
// key OpenClaw names, and the version checked is frozen into the digest.
func TestAdmitOpenClawSchema(t *testing.T) {
	a := newAdmitter(t, allow())
	for _, tt := range []struct {
		name, doc string
		path      occkit.Path
	}{
		{"typo under agents", `{"agents":{"defaults":{"model":"anthropic/a"},"defualts":{}}}`, occkit.NewPath("agents", "defualts")},
		{"fallback for fallbacks", `{"agents":{"defaults":{"model":{"primary":"anthropic/a","fallback":["anthropic/b"]}}}}`, occkit.NewPath("agents", "defaults", "model", "fallback")},
		{"value outside the enum", `{"agents":{"defaults":{"model":"anthropic/a"}},"tools":{"profile":"everything"}}`, occkit.NewPath("tools", "profile")},
		{"retired cron.store", `{"agents":{"defaults":{"model":"anthropic/a"}},"cron":{"store":"x"}}`, occkit.NewPath("cron", "store")},
		{"retired routing", `{"agents":{"defaults":{"model":"anthropic/a"}},"routing":{"allowFrom":[]}}`, occkit.NewPath("routing")},
		{"wrong type", `{"agents":{"defaults":{"model":"anthropic/a"}},"gateway":{"port":"18789"}}`, occkit.NewPath("gateway", "port")},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := a.Admit(context.Background(), embeddedRequest(tt.doc))
			if !errors.Is(err, &occkit.Error{Code: occkit.CodeInvalidRequest, Rule: "DOC-5", Path: tt.path}) {
				t.Fatalf("want DOC-5 at %s, got %v", tt.path, err)
			}
		})
	}

	rev, err := a.Admit(context.Background(), embeddedRequest(embeddedConfig))
	if err != nil {
		t.Fatal(err)
	}
	if rev.OpenClawSchemaVersion() != openclawschema.Release() {
		t.Errorf("frozen OpenClaw version %q, want %q", rev.OpenClawSchemaVersion(), openclawschema.Release())
	}
	rec, err := rev.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(rec), `"openclawSchema":"`+openclawschema.Release()+`"`) {
		t.Errorf("the record does not hold the OpenClaw version: %s", rec)
	}
	back, err := admission.ParseRevision(rec)
	if err != nil || back.OpenClawSchemaVersion() != rev.OpenClawSchemaVersion() || back.Digest() != rev.Digest() {
		t.Fatalf("round trip: %v", err)
	}

	// Disabled: the typo is admitted (occkit's own rules only) and no
	// version is frozen, so the digest differs from a checked revision.
	off, err := admission.New(admission.Options{Authorizer: allow(), DisableOpenClawSchema: true,
		HarnessVersions: map[occkit.Harness]string{occkit.HarnessOpenClaw: "2026.9.6"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := off.Admit(context.Background(), embeddedRequest(`{"agents":{"defaults":{"model":"anthropic/a"},"defualts":{}}}`)); err != nil {
		t.Fatalf("disabled check refused: %v", err)
	}
	unchecked, err := off.Admit(context.Background(), embeddedRequest(embeddedConfig))
	if err != nil {
		t.Fatal(err)
	}
	if unchecked.OpenClawSchemaVersion() != "" || unchecked.Digest() == rev.Digest() {
		t.Errorf("disabled: version %q, digest equal %v", unchecked.OpenClawSchemaVersion(), unchecked.Digest() == rev.Digest())
	}
}
