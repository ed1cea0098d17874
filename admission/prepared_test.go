package admission_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/admission"
	"github.com/occkit/occkit/drivers"
	"github.com/occkit/occkit/logging"
	"github.com/occkit/occkit/resolver"
)

// conformanceDocuments are the Configurations of the in-repository
// conformance cases: every object under a "configuration" or "document"
// key.
func conformanceDocuments(t *testing.T) []occkit.Document {
	t.Helper()
	var docs []occkit.Document
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, e := range v {
				if m, ok := e.(map[string]any); ok && (k == "configuration" || k == "document") {
					b, _ := json.Marshal(m)
					if d, err := occkit.ParseDocument(b); err == nil {
						docs = append(docs, d)
					}
				}
				walk(e)
			}
		case []any:
			for _, e := range v {
				walk(e)
			}
		}
	}
	files, _ := filepath.Glob("../internal/conformance/testdata/*/*.json")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var v any
		if json.Unmarshal(b, &v) == nil {
			walk(v)
		}
	}
	if len(docs) < 100 {
		t.Fatalf("found %d conformance documents in %d files", len(docs), len(files))
	}
	return docs
}

// TestStampKeepsResolution is what lets Admit resolve with an analysis of
// the unstamped document: on every conformance Configuration, resolution of
// the stamped document decides exactly as of the document as read.
func TestStampKeepsResolution(t *testing.T) {
	reqs := []resolver.Request{
		{Mode: occkit.ModeEmbedded, Compute: occkit.ComputeKubernetes},
		{Mode: occkit.ModeDedicated, Compute: occkit.ComputeKubernetes},
		{Mode: occkit.ModeEmbedded, Compute: occkit.ComputeSSH},
	}
	for _, doc := range conformanceDocuments(t) {
		stamped, err := logging.Stamp(doc, occkit.LevelWarn, occkit.OwnedByPlatform)
		if err != nil {
			continue
		}
		before, after := resolver.Prepare(doc), resolver.Prepare(stamped)
		for _, req := range reqs {
			d1, err1 := before.Resolve(req)
			d2, err2 := after.Resolve(req)
			if diff := cmp.Diff(d1, d2); diff != "" || errText(err1) != errText(err2) {
				t.Fatalf("%s %s on %s: stamping changed the decision:\n%s\n%v\n%v", req.Mode, req.Compute, doc, diff, err1, err2)
			}
			// Admit applies the roster rules to the stamped document
			// through the analysis of the one as read.
			roster := resolver.RosterRequest{Stage: resolver.StageDeploy, Compute: req.Compute, Mode: req.Mode}
			if r1, r2 := before.CheckRoster(roster), resolver.CheckRoster(stamped, roster); errText(r1) != errText(r2) {
				t.Fatalf("%s %s on %s: stamping changed the roster verdict:\n%v\n%v", req.Mode, req.Compute, doc, r1, r2)
			}
		}
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestAdmitPrepared: a caller's analysis of the same document gives the
// revision Admit makes alone; one of another document is refused; a
// SandboxDriver's transform makes Admit analyse the result itself.
func TestAdmitPrepared(t *testing.T) {
	a := newAdmitter(t, allow())
	ctx := context.Background()
	for _, src := range []string{embeddedConfig, codexConfig, string(modelsConfig(40)),
		`{"agents":{"defaults":{"model":"anthropic/claude-sonnet-4-6"}},"logging":"x","diagnostics":{"otel":1}}`} {
		req := embeddedRequest(src)
		if src == codexConfig {
			req.Agent.ExecutionMode = occkit.ModeDedicated
		}
		alone, err := a.Admit(ctx, req)
		doc, _, _ := req.Configuration.ReadConfiguration(ctx, "cfg_1")
		req.Prepared = admission.Prepare(doc)
		with, err2 := a.Admit(ctx, req)
		if errText(err) != errText(err2) {
			t.Fatalf("%s: alone %v, prepared %v", src, err, err2)
		}
		if err == nil && (alone.Digest() != with.Digest() || !cmp.Equal(alone.Reasons(), with.Reasons())) {
			t.Fatalf("%s: the prepared admission differs", src)
		}
	}

	req := embeddedRequest(embeddedConfig)
	req.Prepared = admission.Prepare(occkit.MustParseDocument(codexConfig))
	_, err := a.Admit(ctx, req)
	if err := (occkit.ErrorMatcher{Code: occkit.CodeResourceConflict, Path: "prepared", Rule: "ADM-1"}).Check(err); err != nil {
		t.Fatalf("a resolution of another document: %v", err)
	}
}

// replacingSandbox transforms every Configuration into doc.
type replacingSandbox struct {
	drivers.SandboxDriver // only the transform is exercised
	doc                   occkit.Document
}

func (s replacingSandbox) TransformConfiguration(context.Context, occkit.Document) (occkit.Document, error) {
	return s.doc, nil
}

// TestAdmitPreparedTransformed: the caller's analysis is of the document as
// read; after a SandboxDriver's transform Admit resolves the transformed
// document, here one that resolution refuses.
func TestAdmitPreparedTransformed(t *testing.T) {
	doc := occkit.MustParseDocument(codexConfig)
	req := admission.Request{
		Agent: admission.Agent{ID: "main", ConfigurationID: "cfg_1", ExecutionMode: occkit.ModeDedicated,
			HarnessAuth: occkit.Binding{Method: occkit.MethodAPIKey, Source: secretRef}},
		Configuration: admission.StaticConfiguration{ID: "cfg_1", Document: doc},
		Compute:       admission.ComputeInfo{Kind: occkit.ComputeKubernetes, ID: "k8s"},
		Sandbox: &admission.SandboxInfo{ID: "openshell", Facts: *fullSandbox,
			Driver: replacingSandbox{doc: occkit.MustParseDocument(`{"agents":{"defaults":{"model":"openai/gpt-5"}}}`)}},
		Prepared: admission.Prepare(doc),
	}
	if d, err := req.Prepared.Resolve(resolver.Request{Mode: occkit.ModeDedicated}); err != nil || d.Harness != occkit.HarnessCodex {
		t.Fatalf("the document as read resolves to %v, %v", d.Harness, err)
	}
	rev, err := newAdmitter(t, allow()).Admit(context.Background(), req)
	if e := occkit.First(err); rev != nil || e == nil || e.Code != occkit.CodeInvalidRequest {
		t.Fatalf("the transformed document was admitted with the stale analysis: %v", err)
	}
}

// TestNewSharesTheSchema: the Configuration schema is compiled once per
// process, so a second Admitter costs a few allocations, not a compile.
func TestNewSharesTheSchema(t *testing.T) {
	opts := admission.Options{Authorizer: allow(), HarnessVersions: map[occkit.Harness]string{occkit.HarnessOpenClaw: "2026.9.6"}}
	if _, err := admission.New(opts); err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(10, func() { _, _ = admission.New(opts) }); n > 20 {
		t.Errorf("New made %v allocations: the schema is compiled again", n)
	}
}
