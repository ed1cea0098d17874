package drivers_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/admission"
	"github.com/occkit/occkit/drivers"
	"github.com/occkit/occkit/drivers/drivertest"
)

var (
	embeddedOpenClaw  = occkit.Topology{Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeEmbedded}
	dedicatedCodex    = occkit.Topology{Harness: occkit.HarnessCodex, Mode: occkit.ModeDedicated}
	dedicatedOpenClaw = occkit.Topology{Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeDedicated}
)

func TestValidateDeclaration(t *testing.T) {
	tests := []struct {
		name string
		d    drivers.Declaration
		want []occkit.ErrorMatcher
	}{
		{"custom driver, all pairs", drivers.Declaration{Name: "nomad", Topologies: []occkit.Topology{embeddedOpenClaw, dedicatedCodex, dedicatedOpenClaw}}, nil},
		{"every field set", drivers.Declaration{Name: "k8s.v2", RuntimeLogging: occkit.OwnedByDriver, Activation: drivers.ActivateBeforeCommit,
			StopPredecessors: true, Topologies: []occkit.Topology{embeddedOpenClaw}}, nil},
		{"kubernetes rows", drivers.Declaration{Name: "kubernetes", Topologies: []occkit.Topology{embeddedOpenClaw, dedicatedCodex, dedicatedOpenClaw}}, nil},
		{"bad name", drivers.Declaration{Name: "My Driver", Topologies: []occkit.Topology{embeddedOpenClaw}}, []occkit.ErrorMatcher{invalid("name", "DRV-1")}},
		{"empty name", drivers.Declaration{Topologies: []occkit.Topology{embeddedOpenClaw}}, []occkit.ErrorMatcher{invalid("name", "DRV-1")}},
		{"bad runtime logging", drivers.Declaration{Name: "x", RuntimeLogging: "both", Topologies: []occkit.Topology{embeddedOpenClaw}}, []occkit.ErrorMatcher{invalid("runtimeLogging", "DRV-1")}},
		{"bad activation", drivers.Declaration{Name: "x", Activation: "whenever", Topologies: []occkit.Topology{embeddedOpenClaw}}, []occkit.ErrorMatcher{invalid("activationOrder", "DRV-1")}},
		{"no topology", drivers.Declaration{Name: "x"}, []occkit.ErrorMatcher{invalid("topologies", "RES-11")}},
		{"codex embedded", drivers.Declaration{Name: "x", Topologies: []occkit.Topology{{Harness: occkit.HarnessCodex, Mode: occkit.ModeEmbedded}}}, []occkit.ErrorMatcher{invalid("topologies[0]", "RES-11")}},
		{"unknown harness", drivers.Declaration{Name: "x", Topologies: []occkit.Topology{{Harness: "claude", Mode: occkit.ModeEmbedded}}}, []occkit.ErrorMatcher{invalid("topologies[0].harness", "RES-1")}},
		{"unknown mode", drivers.Declaration{Name: "x", Topologies: []occkit.Topology{{Harness: occkit.HarnessOpenClaw, Mode: "remote"}}}, []occkit.ErrorMatcher{invalid("topologies[0].mode", "RES-11")}},
		{"repeated pair", drivers.Declaration{Name: "x", Topologies: []occkit.Topology{embeddedOpenClaw, embeddedOpenClaw}}, []occkit.ErrorMatcher{invalid("topologies[1]", "RES-11")}},
		{"docker runs embedded openclaw only", drivers.Declaration{Name: "docker", Topologies: []occkit.Topology{embeddedOpenClaw, dedicatedCodex}}, []occkit.ErrorMatcher{invalid("topologies[1]", "RES-11")}},
		{"ssh runs embedded openclaw only", drivers.Declaration{Name: "ssh", Topologies: []occkit.Topology{dedicatedOpenClaw}}, []occkit.ErrorMatcher{invalid("topologies[0]", "RES-11")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, occkit.MatchersOf(drivers.ValidateDeclaration(tt.d))); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}

func TestDeclarationDefaults(t *testing.T) {
	var d drivers.Declaration
	if d.Logging() != occkit.OwnedByPlatform || d.ActivationOrder() != drivers.ActivateAfterCommit {
		t.Errorf("zero declaration: logging %q, activation %q", d.Logging(), d.ActivationOrder())
	}
	if got := drivers.AllActivationOrders(); got[0] != drivers.ActivateAfterCommit || len(got) != 2 {
		t.Errorf("AllActivationOrders = %v, want the default first", got)
	}
}

// stub is a complete ComputeDriver whose behaviour the tests steer.
type stub struct {
	decl    drivers.Declaration
	retired []string
	authErr error
}

func newStub() *stub {
	return &stub{decl: drivers.Declaration{Name: "stub", Topologies: []occkit.Topology{embeddedOpenClaw, dedicatedCodex}}}
}

func (s *stub) Declaration() drivers.Declaration                         { return s.decl }
func (s *stub) EnsureNamespace(context.Context, drivers.Namespace) error { return nil }
func (s *stub) DeleteNamespace(context.Context, drivers.Namespace) error { return nil }
func (s *stub) Prepare(ctx context.Context, rev drivers.Revision) error {
	return occkit.CheckTopology(s.decl.Name, s.decl.Topologies, rev.Topology())
}
func (s *stub) Retire(_ context.Context, agent, digest string) error {
	s.retired = append(s.retired, agent+"/"+digest)
	return nil
}
func (s *stub) ValidateHarnessAuth(context.Context, drivers.AuthFacts) (occkit.Projection, error) {
	return occkit.Projection{Gateway: []occkit.EnvVar{}, Harness: []occkit.EnvVar{{Name: "OPENAI_API_KEY"}}}, s.authErr
}

// capable adds optional capabilities to a stub.
type capable struct {
	*stub
	logsErr error
	models  []drivers.Model
	gwErr   error
}

func (c capable) ReadRuntimeLogs(_ context.Context, _ drivers.Revision, req drivers.LogRequest) (drivers.LogChunk, error) {
	return drivers.LogChunk{Lines: make([]drivers.LogLine, req.Lines)}, c.logsErr
}
func (c capable) DiscoverModels(context.Context, drivers.ModelQuery) ([]drivers.Model, error) {
	return c.models, c.logsErr
}
func (c capable) ValidateGatewaySettings(context.Context, occkit.Document, occkit.Topology) error {
	return c.gwErr
}
func (c capable) Stop(context.Context, drivers.Revision) error { return errors.New("stopped") }

// wrapper forwards the required methods only.
type wrapper struct{ drivers.ComputeDriver }

func (w wrapper) Unwrap() drivers.ComputeDriver { return w.ComputeDriver }

// interceptor wraps and implements one capability itself.
type interceptor struct{ wrapper }

func (interceptor) Stop(context.Context, drivers.Revision) error { return errors.New("intercepted") }

// loop is a wrapper whose chain never ends.
type loop struct{ *stub }

func (l loop) Unwrap() drivers.ComputeDriver { return l }

func TestAs(t *testing.T) {
	c := capable{stub: newStub()}
	tests := []struct {
		name     string
		d        drivers.ComputeDriver
		wantLogs bool
		wantStop string
	}{
		{"direct", c, true, "stopped"},
		{"one wrapper", wrapper{c}, true, "stopped"},
		{"three wrappers", wrapper{wrapper{wrapper{c}}}, true, "stopped"},
		{"outermost implementation wins", interceptor{wrapper{c}}, true, "intercepted"},
		{"no capability", newStub(), false, ""},
		{"wrapper around nothing", wrapper{}, false, ""},
		{"typed nil", (*stub)(nil), false, ""},
		{"nil", nil, false, ""},
		{"cycle", loop{newStub()}, false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, ok := drivers.As[drivers.RuntimeLogReader](tt.d)
			if ok != tt.wantLogs {
				t.Errorf("As[RuntimeLogReader] = %v, want %v", ok, tt.wantLogs)
			}
			st, ok := drivers.As[drivers.Stopper](tt.d)
			got := ""
			if ok {
				got = st.Stop(context.Background(), nil).Error()
			}
			if got != tt.wantStop {
				t.Errorf("Stopper = %q, want %q", got, tt.wantStop)
			}
		})
	}
}

func fixture(t *testing.T, top occkit.Topology) drivers.Revision {
	t.Helper()
	rev, err := drivertest.NewRevision(drivertest.RevisionOptions{AgentID: "main", Compute: "stub", Topology: top})
	if err != nil {
		t.Fatal(err)
	}
	return rev
}

func TestFallbacks(t *testing.T) {
	ctx := context.Background()
	rev := fixture(t, embeddedOpenClaw)
	s := newStub()

	if err := drivers.Activate(ctx, s, rev); err != nil {
		t.Errorf("Activate without an Activator = %v, want a no-op", err)
	}
	if err := drivers.Stop(ctx, s, rev); err != nil || len(s.retired) != 1 || s.retired[0] != "main/"+rev.Digest() {
		t.Errorf("Stop without a Stopper = %v, retired %v; want the revision retired", err, s.retired)
	}
	if err := drivers.Stop(ctx, wrapper{capable{stub: s}}, rev); err == nil || err.Error() != "stopped" {
		t.Errorf("Stop with a Stopper behind a wrapper = %v, want the Stopper's answer", err)
	}
	if err := drivers.CheckGatewaySettings(ctx, s, occkit.MustParseDocument(`{}`), embeddedOpenClaw); err != nil {
		t.Errorf("CheckGatewaySettings without a validator = %v, want no check", err)
	}
	if err := drivers.Preflight(ctx, s); err != nil {
		t.Errorf("Preflight without a Preflighter = %v", err)
	}
	if got := drivers.MustStopPredecessors(s, rev); got {
		t.Error("an embedded revision on a non-exclusive driver need not stop predecessors")
	}
	if got := drivers.MustStopPredecessors(s, fixture(t, dedicatedCodex)); !got {
		t.Error("a dedicated revision always stops predecessors (ADM-6)")
	}
	s.decl.StopPredecessors = true
	if got := drivers.MustStopPredecessors(s, rev); !got {
		t.Error("an exclusive driver stops predecessors")
	}

	refusals := []struct {
		name string
		call func() error
		want occkit.ErrorMatcher
	}{
		{"diagnose absent", func() error { _, err := drivers.Diagnose(ctx, s, rev); return err },
			occkit.ErrorMatcher{Code: occkit.CodeNotImplemented, Path: "", Rule: "DRV-1"}},
		{"logs absent", func() error { _, err := drivers.ReadRuntimeLogs(ctx, s, rev, drivers.LogRequest{}); return err },
			occkit.ErrorMatcher{Code: occkit.CodeNotImplemented, Path: "", Rule: "DRV-1"}},
		{"logs under driver-owned logging", func() error {
			d := capable{stub: &stub{decl: drivers.Declaration{Name: "x", RuntimeLogging: occkit.OwnedByDriver, Topologies: []occkit.Topology{embeddedOpenClaw}}}}
			_, err := drivers.ReadRuntimeLogs(ctx, d, rev, drivers.LogRequest{})
			return err
		}, occkit.ErrorMatcher{Code: occkit.CodeNotImplemented, Path: "", Rule: "LOG-3"}},
		{"logs over the bound", func() error {
			_, err := drivers.ReadRuntimeLogs(ctx, capable{stub: s}, rev, drivers.LogRequest{Lines: drivers.MaxLogLines + 1})
			return err
		}, invalid("lines", "DRV-1")},
		{"models absent", func() error { _, err := drivers.DiscoverModels(ctx, s, drivers.ModelQuery{}); return err },
			occkit.ErrorMatcher{Code: occkit.CodeNotImplemented, Path: "", Rule: "DRV-1"}},
		{"sandbox logs absent", func() error {
			_, err := drivers.ReadSandboxLogs(ctx, minimalBox{}, drivers.Namespace{}, rev, drivers.LogRequest{})
			return err
		}, occkit.ErrorMatcher{Code: occkit.CodeNotImplemented, Path: "", Rule: "DRV-2"}},
		{"gateway setting refused", func() error {
			d := capable{stub: s, gwErr: errors.New("gateway.bind 0.0.0.0 is public")}
			return drivers.CheckGatewaySettings(ctx, d, occkit.MustParseDocument(`{}`), embeddedOpenClaw)
		}, occkit.ErrorMatcher{Code: occkit.CodeResourceConflict, Path: "", Rule: "AUTH-7"}},
		{"gateway setting refused with a path", func() error {
			d := capable{stub: s, gwErr: occkit.Invalid("X", occkit.NewPath("gateway", "bind"), "bind 0.0.0.0 is public")}
			return drivers.CheckGatewaySettings(ctx, d, occkit.MustParseDocument(`{}`), embeddedOpenClaw)
		}, occkit.ErrorMatcher{Code: occkit.CodeResourceConflict, Path: "gateway.bind", Rule: "AUTH-7"}},
		{"harness auth without a driver", func() error {
			_, err := admission.ValidateWith(ctx, nil, drivers.AuthFacts{Compute: "custom", Topologies: []occkit.Topology{embeddedOpenClaw},
				Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeEmbedded, Binding: occkit.Binding{Method: occkit.MethodRuntime}})
			return err
		}, occkit.ErrorMatcher{Code: occkit.CodeDependencyUnavailable, Path: "", Rule: "AUTH-7"}},
		{"harness auth refused with a plain error", func() error {
			_, err := admission.ValidateWith(ctx, &stub{decl: s.decl, authErr: errors.New("nope")}, drivers.AuthFacts{
				Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeEmbedded, Binding: occkit.Binding{Method: occkit.MethodRuntime}})
			return err
		}, occkit.ErrorMatcher{Code: occkit.CodeResourceConflict, Path: "harnessAuth", Rule: "AUTH-7"}},
		{"harness auth on an undeclared topology", func() error {
			_, err := admission.ValidateWith(ctx, s, drivers.AuthFacts{
				Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeDedicated, Binding: occkit.Binding{Method: occkit.MethodRuntime}})
			return err
		}, invalid("executionMode", "RES-11")},
		{"nil driver", func() error { return drivers.Activate(ctx, nil, rev) },
			occkit.ErrorMatcher{Code: occkit.CodeDependencyUnavailable, Path: "", Rule: "DRV-1"}},
	}
	for _, tt := range refusals {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.call()
			if diff := cmp.Diff([]occkit.ErrorMatcher{tt.want}, occkit.MatchersOf(err)); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
			if err != nil && (contains(err, "0.0.0.0") || contains(err, "nope")) {
				t.Errorf("the refusal repeats the driver's text: %v", err)
			}
		})
	}

	p, err := admission.ValidateWith(ctx, wrapper{s}, drivers.AuthFacts{
		Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeEmbedded, Binding: occkit.Binding{Method: occkit.MethodRuntime}})
	if err != nil || len(p.Harness) != 1 {
		t.Errorf("ValidateWith through a wrapper = %+v, %v", p, err)
	}
	chunk, err := drivers.ReadRuntimeLogs(ctx, capable{stub: s}, rev, drivers.LogRequest{})
	if err != nil || len(chunk.Lines) != drivers.DefaultLogLines {
		t.Errorf("a zero line count must default to %d, got %d (%v)", drivers.DefaultLogLines, len(chunk.Lines), err)
	}
}

func contains(err error, s string) bool {
	return err != nil && len(s) > 0 && strings.Contains(err.Error(), s)
}

func TestDiscoverModelsNeverLeaksTheCredential(t *testing.T) {
	ctx := context.Background()
	const secret = "sk-live-0123456789"
	q := drivers.ModelQuery{Provider: "openai", AuthMethod: occkit.MethodAPIKey, Credential: secret}
	for _, leak := range []error{
		errors.New("401 for key " + secret),
		occkit.Conflict("DRV-1", occkit.Root(), "bad key %s", secret),
	} {
		_, err := drivers.DiscoverModels(ctx, capable{stub: newStub(), logsErr: leak}, q)
		if err == nil || contains(err, secret) {
			t.Errorf("DiscoverModels = %v, want a refusal without the credential", err)
		}
	}
	if s := fmt.Sprintf("%v %+v %#v %s", q, q, q, q); strings.Contains(s, secret) {
		t.Errorf("formatting a ModelQuery shows its credential: %s", s)
	}
	want := occkit.Invalid("DRV-1", occkit.NewPath("provider"), "unknown provider")
	if _, err := drivers.DiscoverModels(ctx, capable{stub: newStub(), logsErr: want}, q); !errors.Is(err, want) {
		t.Errorf("a structured refusal must pass through, got %v", err)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := drivers.DiscoverModels(cancelled, capable{stub: newStub(), logsErr: cancelled.Err()}, q); !errors.Is(err, context.Canceled) {
		t.Errorf("cancellation must pass through, got %v", err)
	}
}

func TestComputeInfo(t *testing.T) {
	s := newStub()
	s.decl.RuntimeLogging = occkit.OwnedByDriver
	info := admission.ComputeOf(wrapper{s}, "stub-1")
	want := admission.ComputeInfo{Kind: "stub", ID: "stub-1", RuntimeLogging: occkit.OwnedByDriver,
		Topologies: []occkit.Topology{embeddedOpenClaw, dedicatedCodex}}
	info.Driver = nil
	if diff := cmp.Diff(want, info); diff != "" {
		t.Errorf("ComputeInfo (-want +got):\n%s", diff)
	}
	if _, ok := drivers.As[drivers.HarnessAuthValidator](admission.ComputeOf(wrapper{s}, "x").Driver); !ok {
		t.Error("admission cannot find the validator")
	}
	if got := admission.ComputeOf(nil, "x"); got.Kind != "" || got.Driver != nil {
		t.Errorf("ComputeInfo(nil) = %+v, want zero", got)
	}
}

func TestRegistry(t *testing.T) {
	var r drivers.Registry
	if _, ok := r.Compute("stub"); ok {
		t.Fatal("the zero Registry must be empty")
	}
	if err := r.RegisterCompute(newStub()); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]occkit.ErrorMatcher{{Code: occkit.CodeResourceConflict, Path: "name", Rule: "DRV-1"}}, occkit.MatchersOf(r.RegisterCompute(newStub()))); diff != "" {
		t.Errorf("duplicate compute (-want +got):\n%s", diff)
	}
	bad := &stub{decl: drivers.Declaration{Name: "bad"}}
	if diff := cmp.Diff([]occkit.ErrorMatcher{invalid("topologies", "RES-11")}, occkit.MatchersOf(r.RegisterCompute(bad))); diff != "" {
		t.Errorf("invalid compute (-want +got):\n%s", diff)
	}
	if _, ok := r.Compute("bad"); ok {
		t.Error("an invalid driver must not be registered")
	}
	if d, err := r.LookupCompute("stub"); err != nil || d == nil {
		t.Errorf("LookupCompute(stub) = %v, %v", d, err)
	}
	_, err := r.LookupCompute("sutb")
	want := &occkit.Error{Code: occkit.CodeInvalidRequest, Rule: "RES-11", Path: occkit.AgentPath("compute")}
	if e := occkit.First(err); !errors.Is(err, want) || e.Suggestion != "stub" {
		t.Errorf("LookupCompute(sutb) = %v (suggestion %q)", err, e.Suggestion)
	}
	if err := r.RegisterCompute(nil); err == nil {
		t.Error("a nil driver must be refused")
	}

	for _, d := range []drivers.SandboxDriver{box{"openshell"}, minimalBox{}} {
		if err := r.RegisterSandbox(d); err != nil {
			t.Fatal(err)
		}
	}
	if diff := cmp.Diff([]occkit.ErrorMatcher{{Code: occkit.CodeResourceConflict, Path: "name", Rule: "DRV-2"}}, occkit.MatchersOf(r.RegisterSandbox(boxWrapper{box{"openshell"}}))); diff != "" {
		t.Errorf("duplicate sandbox (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]occkit.ErrorMatcher{invalid("name", "DRV-2")}, occkit.MatchersOf(r.RegisterSandbox(box{""}))); diff != "" {
		t.Errorf("nameless sandbox (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"minimal", "openshell"}, r.SandboxNames()); diff != "" {
		t.Errorf("sandbox names (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"stub"}, r.ComputeNames()); diff != "" {
		t.Errorf("compute names (-want +got):\n%s", diff)
	}
	if f, ok := r.SandboxFacts("openshell"); !ok || !f.Qualifies() {
		t.Errorf("openshell facts = %+v, want qualifying", f)
	}
	if f, ok := r.SandboxFacts("minimal"); !ok || f.Qualifies() {
		t.Errorf("minimal facts = %+v, want registered but not qualifying", f)
	}
	if _, ok := r.Sandbox("openshell"); !ok {
		t.Error("lookup failed")
	}
}

func TestRegistryConcurrent(t *testing.T) {
	var r drivers.Registry
	var wg sync.WaitGroup
	errs := make([]error, 16)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = r.RegisterSandbox(box{fmt.Sprintf("box-%d", i%4)})
			r.SandboxNames()
		}()
	}
	wg.Wait()
	failed := 0
	for _, err := range errs {
		if err != nil {
			failed++
		}
	}
	if failed != 12 || len(r.SandboxNames()) != 4 {
		t.Errorf("%d refusals and %d drivers, want 12 and 4", failed, len(r.SandboxNames()))
	}
}
