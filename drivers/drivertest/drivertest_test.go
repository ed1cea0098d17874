package drivertest_test

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/drivers"
	"github.com/occkit/occkit/drivers/drivertest"
	"github.com/occkit/occkit/drivers/memdriver"
)

// broken violates most ComputeDriver contracts on purpose: the suite must
// be able to fail.
type broken struct {
	mu       sync.Mutex
	prepared map[string]bool
}

func (b *broken) Declaration() drivers.Declaration {
	return drivers.Declaration{
		Name:       "Broken Driver", // not a valid name
		Topologies: []occkit.Topology{{Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeEmbedded}},
	}
}

// Ignores ctx; fails the second time.
func (b *broken) EnsureNamespace(_ context.Context, ns drivers.Namespace) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.prepared == nil {
		b.prepared = map[string]bool{}
	}
	if b.prepared["ns/"+ns.ID] {
		return errors.New("namespace exists")
	}
	b.prepared["ns/"+ns.ID] = true
	return nil
}

func (b *broken) DeleteNamespace(_ context.Context, ns drivers.Namespace) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.prepared["ns/"+ns.ID] {
		return errors.New("no such namespace")
	}
	delete(b.prepared, "ns/"+ns.ID)
	return nil
}

// Accepts every topology, quotes the document in its error, not idempotent.
func (b *broken) Prepare(_ context.Context, rev drivers.Revision) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.prepared == nil {
		b.prepared = map[string]bool{}
	}
	if b.prepared[rev.Digest()] {
		return fmt.Errorf("already prepared: %s", rev.Document().String())
	}
	b.prepared[rev.Digest()] = true
	return nil
}

func (b *broken) Retire(_ context.Context, _, digest string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.prepared[digest] {
		return errors.New("unknown revision")
	}
	delete(b.prepared, digest)
	return nil
}

// Plain errors, and a gateway credential.
func (b *broken) ValidateHarnessAuth(_ context.Context, f drivers.AuthFacts) (occkit.Projection, error) {
	if f.Binding.Method == occkit.MethodRuntime {
		return occkit.Projection{}, errors.New("no")
	}
	return occkit.Projection{Gateway: []occkit.EnvVar{{Name: "OPENAI_API_KEY", From: f.Binding.Source}}}, nil
}

// Runtime-log reader whose context is ignored.
func (b *broken) ReadRuntimeLogs(context.Context, drivers.Revision, drivers.LogRequest) (drivers.LogChunk, error) {
	return drivers.LogChunk{Lines: make([]drivers.LogLine, 5)}, nil
}

func violated(vs []drivertest.Violation) []string {
	seen := map[string]bool{}
	var out []string
	for _, v := range vs {
		if !seen[v.Contract] {
			seen[v.Contract] = true
			out = append(out, v.Contract)
		}
	}
	sort.Strings(out)
	return out
}

func TestCheckCatchesBrokenDriver(t *testing.T) {
	vs := drivertest.Check(context.Background(), &broken{})
	want := []string{
		"context-cancellation",
		"declaration-valid",
		"harness-auth-structured-errors",
		"namespace-delete-idempotent",
		"namespace-ensure-idempotent",
		"optional-capabilities",
		"prepare-idempotent",
		"prepare-refuses-undeclared-topology",
		"retire-after-prepare",
		"retire-unknown-revision",
	}
	if diff := cmp.Diff(want, violated(vs)); diff != "" {
		t.Errorf("violated contracts (-want +got):\n%s\nall: %v", diff, vs)
	}
	for _, v := range vs {
		if v.Rule == "" || v.Explanation == "" || !strings.HasPrefix(v.String(), v.Contract+" [") {
			t.Errorf("violation lacks rule or explanation: %+v", v)
		}
	}
}

// leaky quotes the planted secret in every Prepare refusal.
type leaky struct{ *memdriver.Driver }

func (l leaky) Prepare(ctx context.Context, rev drivers.Revision) error {
	if err := l.Driver.Prepare(ctx, rev); err != nil {
		return fmt.Errorf("prepare failed for %s: %w", rev.Document().String(), err)
	}
	return nil
}

func (l leaky) Unwrap() drivers.ComputeDriver { return l.Driver }

func TestCheckCatchesSecretInErrors(t *testing.T) {
	d := leaky{memdriver.New(memdriver.Options{Topologies: []occkit.Topology{{Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeEmbedded}}})}
	vs := drivertest.CheckWith(context.Background(), d, drivertest.Options{Canary: "sk-live-canary-123"})
	found := false
	for _, v := range vs {
		if strings.Contains(v.Explanation, "secret value") {
			found = true
		}
		if strings.Contains(v.String(), "sk-live-canary-123") {
			t.Errorf("a violation repeats the canary: %s", v)
		}
	}
	if !found {
		t.Errorf("secret in error not reported: %v", vs)
	}
}

// hanging never returns from Prepare until released, whatever its
// context says: no grace the suite allows can outlast it.
type hanging struct {
	*memdriver.Driver
	release chan struct{}
}

func (h hanging) Prepare(ctx context.Context, _ drivers.Revision) error {
	<-h.release
	return ctx.Err()
}

func TestCheckReportsHungCalls(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for the suite's timeout")
	}
	d := hanging{memdriver.New(memdriver.Options{Topologies: []occkit.Topology{{Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeEmbedded}}}), make(chan struct{})}
	defer close(d.release)
	vs := drivertest.CheckWith(context.Background(), d, drivertest.Options{Timeout: 100 * time.Millisecond})
	for _, v := range vs {
		if strings.Contains(v.Explanation, "did not return") {
			return
		}
	}
	t.Errorf("hung Prepare not reported: %v", vs)
}

func TestCheckNilDriver(t *testing.T) {
	var d *memdriver.Driver
	vs := drivertest.Check(context.Background(), d)
	if len(vs) != len(drivertest.ComputeContracts()) {
		t.Errorf("a nil driver must violate every contract, got %v", vs)
	}
}

// sandbox is a small conforming SandboxDriver.
type sandbox struct {
	mu    sync.Mutex
	boxes map[string]bool
}

func (s *sandbox) SandboxDeclaration() drivers.SandboxDeclaration {
	return drivers.SandboxDeclaration{Name: "test-sandbox", Facets: occkit.AllFacets(), HarnessHome: "/sandbox/home"}
}

func (s *sandbox) Cleanup(ctx context.Context, ns drivers.Namespace, rev drivers.Revision) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for k := range s.boxes {
		if rev == nil && strings.HasPrefix(k, ns.ID+"/") || rev != nil && k == ns.ID+"/"+rev.Digest() {
			delete(s.boxes, k)
		}
	}
	return nil
}

func (s *sandbox) ProvisionHarness(ctx context.Context, ns drivers.Namespace, rev drivers.Revision) (drivers.SandboxRef, error) {
	if err := ctx.Err(); err != nil {
		return drivers.SandboxRef{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.boxes == nil {
		s.boxes = map[string]bool{}
	}
	s.boxes[ns.ID+"/"+rev.Digest()] = true
	return drivers.SandboxRef{Namespace: ns.Name, Name: "sbx-" + rev.Digest()[:12], AgentID: rev.AgentID(), RevisionDigest: rev.Digest()}, nil
}

func (s *sandbox) TransformConfiguration(ctx context.Context, doc occkit.Document) (occkit.Document, error) {
	if err := ctx.Err(); err != nil {
		return occkit.Document{}, err
	}
	return doc.Set(occkit.NewPath("tools", "sandbox"), "external")
}

func TestRunSandbox(t *testing.T) {
	drivertest.RunSandbox(t, func() drivers.SandboxDriver { return &sandbox{} })
}

// badSandbox declares an exec facet, a relative home, drops unknown keys
// and names its sandbox by time.
type badSandbox struct{ n int }

func (b *badSandbox) SandboxDeclaration() drivers.SandboxDeclaration {
	return drivers.SandboxDeclaration{Name: "bad", Facets: []occkit.Facet{"exec"}, HarnessHome: "home/../x"}
}

func (b *badSandbox) Cleanup(context.Context, drivers.Namespace, drivers.Revision) error {
	return nil
}

func (b *badSandbox) ProvisionHarness(_ context.Context, _ drivers.Namespace, _ drivers.Revision) (drivers.SandboxRef, error) {
	b.n++
	return drivers.SandboxRef{Name: fmt.Sprint("sbx-", b.n)}, nil
}

func (b *badSandbox) TransformConfiguration(context.Context, occkit.Document) (occkit.Document, error) {
	return occkit.MustParseDocument(`{}`), nil
}

func TestCheckSandboxCatchesBrokenDriver(t *testing.T) {
	vs := drivertest.CheckSandbox(context.Background(), &badSandbox{})
	want := []string{"provision-idempotent", "sandbox-context-cancellation", "sandbox-declaration-valid", "transform-pure"}
	if diff := cmp.Diff(want, violated(vs)); diff != "" {
		t.Errorf("violated contracts (-want +got):\n%s\nall: %v", diff, vs)
	}
}

func TestRevisionFixture(t *testing.T) {
	rev, err := drivertest.NewRevision(drivertest.RevisionOptions{Topology: occkit.Topology{Harness: occkit.HarnessCodex, Mode: occkit.ModeDedicated}})
	if err != nil {
		t.Fatal(err)
	}
	if rev.Harness() != occkit.HarnessCodex || rev.Mode() != occkit.ModeDedicated || rev.Primary() != "codex/gpt-5-codex" {
		t.Errorf("fixture = %s %s %s", rev.Harness(), rev.Mode(), rev.Primary())
	}
	if rev.DocumentDigest() != occkit.CanonicalDigest(rev.Document()) {
		t.Error("fixture document digest does not match its document")
	}
	again, err := drivertest.NewRevision(drivertest.RevisionOptions{Topology: occkit.Topology{Harness: occkit.HarnessCodex, Mode: occkit.ModeDedicated}})
	if err != nil || again.Digest() != rev.Digest() {
		t.Errorf("fixture digest is not deterministic: %v", err)
	}
	other, err := drivertest.NewRevision(drivertest.RevisionOptions{Topology: occkit.Topology{Harness: occkit.HarnessCodex, Mode: occkit.ModeDedicated}, Generation: 2})
	if err != nil || other.Digest() == rev.Digest() || other.DocumentDigest() != rev.DocumentDigest() {
		t.Errorf("a revision differing only outside its document must differ in Digest, not DocumentDigest: %v", err)
	}
}
