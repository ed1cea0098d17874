package kubernetes

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/admission"
	"github.com/occkit/occkit/drivers"
	"github.com/occkit/occkit/drivers/kubernetes/render"
)

// tenant is the tenant namespace of the test revisions.
var tenant = drivers.Namespace{ID: "team-a", Name: "team-a"}

// testSandbox is a qualifying SandboxDriver configuration.
func testSandbox() *render.Sandbox {
	return &render.Sandbox{
		ID:               "openshell",
		Facts:            occkit.SandboxFacts{Facets: occkit.AllFacets(), ProvisionHarness: true},
		RuntimeClassName: "gvisor",
		HarnessHome:      "/sandbox/home",
	}
}

// topologyCase is one RES-11 row with an Agent that admits on it.
type topologyCase struct {
	name    string
	mode    occkit.Mode
	harness occkit.Harness
	auth    string
	doc     string
	// bindings are the Configuration's secretBindings.
	bindings []occkit.SecretBinding
}

var (
	embeddedOpenClaw = topologyCase{
		name: "embedded-openclaw", mode: occkit.ModeEmbedded, harness: occkit.HarnessOpenClaw,
		auth: `{"method":"api_key","source":{"kind":"secret","namespaceId":"team-a","id":"openai-key"}}`,
		doc:  `{"agents":{"defaults":{"model":"openai/gpt-5","models":{"openai/gpt-5":{"agentRuntime":{"id":"openclaw"}}}}},"channels":{"slack":{"enabled":true}}}`,
	}
	dedicatedCodex = topologyCase{
		name: "dedicated-codex", mode: occkit.ModeDedicated, harness: occkit.HarnessCodex,
		auth: `{"method":"api_key","source":{"kind":"secret","namespaceId":"team-a","id":"openai-key"}}`,
		doc:  `{"agents":{"defaults":{"model":"codex/gpt-5-codex","models":{"codex/gpt-5-codex":{"agentRuntime":{"id":"codex"}}}},"entries":{"main":{}}}}`,
	}
	dedicatedOpenClaw = topologyCase{
		name: "dedicated-openclaw", mode: occkit.ModeDedicated, harness: occkit.HarnessOpenClaw,
		auth: `{"method":"api_key","source":{"kind":"secret","namespaceId":"team-a","id":"openai-key"}}`,
		doc:  `{"agents":{"defaults":{"model":"openai/gpt-5","models":{"openai/gpt-5":{"agentRuntime":{"id":"openclaw"}}}},"entries":{"main":{}}},"channels":{"slack":{"enabled":true}}}`,
	}
	allTopologyCases = []topologyCase{embeddedOpenClaw, dedicatedCodex, dedicatedOpenClaw}
)

// admitOn admits c through package admission against driver d, so the
// projection plan is d's own (AUTH-7).
func admitOn(t testing.TB, d *Driver, agentID string, c topologyCase, generation int64) *admission.Revision {
	t.Helper()
	return admitDoc(t, d, agentID, c, occkit.MustParseDocument(c.doc), generation)
}

func admitDoc(t testing.TB, d *Driver, agentID string, c topologyCase, doc occkit.Document, generation int64) *admission.Revision {
	t.Helper()
	return admitWith(t, d, agentID, c, doc, generation, occkit.LevelWarn)
}

// admitLevel admits c at the admitted level.
func admitLevel(t testing.TB, d *Driver, agentID string, c topologyCase, level occkit.LogLevel) *admission.Revision {
	t.Helper()
	return admitWith(t, d, agentID, c, occkit.MustParseDocument(c.doc), 1, level)
}

func admitWith(t testing.TB, d *Driver, agentID string, c topologyCase, doc occkit.Document, generation int64, level occkit.LogLevel) *admission.Revision {
	t.Helper()
	a, err := admission.New(admission.Options{
		Authorizer:      admission.AuthorizerFunc(func(context.Context, admission.AuthorizeRequest) error { return nil }),
		HarnessVersions: map[occkit.Harness]string{occkit.HarnessOpenClaw: "2026.9.6", occkit.HarnessCodex: "0.171.0"},
	})
	if err != nil {
		t.Fatal(err)
	}
	b, err := admission.CreateHarnessAuth([]byte(c.auth))
	if err != nil {
		t.Fatal(err)
	}
	req := admission.Request{
		Agent:          admission.Agent{ID: agentID, ConfigurationID: "cfg-" + c.name, ExecutionMode: c.mode, HarnessAuth: b},
		Configuration:  admission.StaticConfiguration{ID: "cfg-" + c.name, Generation: generation, Document: doc},
		Compute:        admission.ComputeOf(d, "kubernetes"),
		Level:          level,
		SecretBindings: c.bindings,
	}
	if sb := d.cfg.Sandbox; sb != nil {
		req.Sandbox = &admission.SandboxInfo{ID: sb.ID, Facts: sb.Facts}
		req.NativeWorkerSupport = occkit.NativeWorkersPinned
	}
	rev, err := a.Admit(context.Background(), req)
	if err != nil {
		t.Fatalf("admit %s: %v", c.name, err)
	}
	if rev.Topology() != (occkit.Topology{Harness: c.harness, Mode: c.mode}) {
		t.Fatalf("admit %s: topology %v", c.name, rev.Topology())
	}
	return rev
}

// record edits a revision's persisted record and restores it, for
// revisions admission would never freeze (defence in depth).
func record(t fataler, rev *admission.Revision, edit func(map[string]any)) *admission.Revision {
	t.Helper()
	b, err := json.Marshal(rev)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	edit(m)
	// Reseal: the digest is the SHA-256 of the canonical record without it.
	delete(m, "digest")
	if b, err = json.Marshal(m); err != nil {
		t.Fatal(err)
	}
	unsealed, err := occkit.ParseDocument(b)
	if err != nil {
		t.Fatal(err)
	}
	m["digest"] = occkit.CanonicalDigest(unsealed)
	b, err = json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	out, err := admission.ParseRevision(b)
	if err != nil {
		t.Fatalf("restore edited record: %v", err)
	}
	return out
}

// withDocument replaces a record's document with doc ([record] reseals it).
func withDocument(doc occkit.Document) func(map[string]any) {
	return func(m map[string]any) {
		m["configuration"] = json.RawMessage(occkit.Canonical(doc))
	}
}

// fataler is the part of testing.TB (and *rapid.T) the helpers use.
type fataler interface {
	Helper()
	Fatal(args ...any)
	Fatalf(format string, args ...any)
}

// keyOf is err's first refusal by code, path and rule (zero for nil).
func keyOf(err error) occkit.ErrorMatcher {
	if m := occkit.MatchersOf(err); len(m) > 0 {
		return m[0]
	}
	return occkit.ErrorMatcher{}
}

func ptr[T any](v T) *T { return &v }
