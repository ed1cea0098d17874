package drivertest

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/drivers"
)

var computeContracts = []contract{
	{"declaration-valid", "DRV-1", checkDeclarationValid},
	{"declaration-stable", "DRV-1", checkDeclarationStable},
	{"namespace-ensure-idempotent", "DRV-1", checkEnsureIdempotent},
	{"namespace-delete-idempotent", "DRV-1", checkDeleteIdempotent},
	{"prepare-idempotent", "DRV-1", checkPrepareIdempotent},
	{"prepare-refuses-undeclared-topology", "RES-11", checkPrepareRefusesUndeclared},
	{"retire-after-prepare", "DRV-1", checkRetireAfterPrepare},
	{"retire-unknown-revision", "DRV-1", checkRetireUnknown},
	{"harness-auth-structured-errors", "AUTH-7", checkHarnessAuthStructured},
	{"harness-auth-deterministic", "AUTH-7", checkHarnessAuthDeterministic},
	{"capabilities-through-wrapper", "DRV-1", checkComputeWrapper},
	{"context-cancellation", "DRV-1", checkComputeCancellation},
	{"runtime-logging-consistent", "LOG-3", checkRuntimeLogging},
	{"optional-capabilities", "DRV-1", checkOptionalCapabilities},
	{"lifecycle-hooks", "DRV-4", checkComputeHooks},
	{"concurrent-use", "DRV-1", checkComputeConcurrent},
}

func checkDeclarationValid(s *suite) {
	if err := drivers.ValidateDeclaration(s.compute.Declaration()); err != nil {
		for _, e := range occkit.Errors(err) {
			s.fail("the declaration is invalid at %s: %s", e.Path, e.Message())
		}
	}
}

func checkDeclarationStable(s *suite) {
	a, b := s.compute.Declaration(), s.compute.Declaration()
	if !reflect.DeepEqual(a, b) {
		s.fail("Declaration returned different values on two calls (%+v, then %+v); it must be constant", a, b)
	}
}

func checkEnsureIdempotent(s *suite) {
	ns := s.namespace()
	for i := 1; i <= 2; i++ {
		if err := s.call("EnsureNamespace", func(ctx context.Context) error { return s.compute.EnsureNamespace(ctx, ns) }); err != nil {
			s.fail("EnsureNamespace call %d failed with %s; ensuring an existing namespace must succeed", i, describe(err))
			return
		}
	}
	_ = s.call("DeleteNamespace", func(ctx context.Context) error { return s.compute.DeleteNamespace(ctx, ns) })
}

func checkDeleteIdempotent(s *suite) {
	ns := s.namespace()
	if err := s.call("DeleteNamespace", func(ctx context.Context) error { return s.compute.DeleteNamespace(ctx, ns) }); err != nil {
		s.fail("DeleteNamespace of a namespace that never existed failed with %s; it must succeed", describe(err))
	}
	if err := s.call("EnsureNamespace", func(ctx context.Context) error { return s.compute.EnsureNamespace(ctx, ns) }); err != nil {
		s.fail("EnsureNamespace failed with %s", describe(err))
		return
	}
	for i := 1; i <= 2; i++ {
		if err := s.call("DeleteNamespace", func(ctx context.Context) error { return s.compute.DeleteNamespace(ctx, ns) }); err != nil {
			s.fail("DeleteNamespace call %d failed with %s; deleting an absent namespace must succeed", i, describe(err))
			return
		}
	}
}

// withNamespace ensures the contract's namespace around fn.
func (s *suite) withNamespace(fn func(ns drivers.Namespace)) {
	ns := s.namespace()
	if err := s.call("EnsureNamespace", func(ctx context.Context) error { return s.compute.EnsureNamespace(ctx, ns) }); err != nil {
		s.fail("EnsureNamespace failed with %s", describe(err))
		return
	}
	fn(ns)
	_ = s.call("DeleteNamespace", func(ctx context.Context) error { return s.compute.DeleteNamespace(ctx, ns) })
}

func (s *suite) prepare(rev drivers.Revision) error {
	return s.call("Prepare", func(ctx context.Context) error { return s.compute.Prepare(ctx, rev) })
}

func (s *suite) retire(rev drivers.Revision) error {
	return s.call("Retire", func(ctx context.Context) error { return s.compute.Retire(ctx, rev.AgentID(), rev.Digest()) })
}

func checkPrepareIdempotent(s *suite) {
	tops := s.declaredTopologies()
	if len(tops) == 0 {
		s.fail("the driver declares no valid topology, so nothing can be prepared")
		return
	}
	s.withNamespace(func(drivers.Namespace) {
		for i, t := range tops {
			rev := s.revision(t, i)
			for n := 1; n <= 2; n++ {
				if err := s.prepare(rev); err != nil {
					s.fail("Prepare of a declared %s %s revision (call %d) failed with %s; preparing a declared topology, again, must succeed", t.Harness, t.Mode, n, describe(err))
					break
				}
			}
			_ = s.retire(rev)
		}
	})
}

func checkPrepareRefusesUndeclared(s *suite) {
	decl := s.compute.Declaration()
	s.withNamespace(func(drivers.Namespace) {
		for i, t := range allTopologies() {
			if decl.Supports(t) {
				continue
			}
			rev := s.revision(t, i)
			err := s.prepare(rev)
			switch oe, ok := structured(err); {
			case err == nil:
				s.fail("Prepare accepted a %s %s revision the driver does not declare; it must refuse with 400 INVALID_REQUEST (RES-11)", t.Harness, t.Mode)
				_ = s.retire(rev)
			case errors.Is(err, errHung):
			case !ok || oe.Code != occkit.CodeInvalidRequest:
				s.fail("Prepare refused an undeclared %s %s revision with %s; it must be 400 INVALID_REQUEST", t.Harness, t.Mode, describe(err))
			}
		}
	})
}

func checkRetireAfterPrepare(s *suite) {
	tops := s.declaredTopologies()
	if len(tops) == 0 {
		return
	}
	s.withNamespace(func(drivers.Namespace) {
		rev := s.revision(tops[0], 0)
		if err := s.prepare(rev); err != nil {
			s.fail("Prepare failed with %s", describe(err))
			return
		}
		for n := 1; n <= 2; n++ {
			if err := s.retire(rev); err != nil {
				s.fail("Retire after Prepare (call %d) failed with %s; retiring, again, must succeed", n, describe(err))
				return
			}
		}
		// A retired revision can be prepared again (a rollback redeploys it).
		if err := s.prepare(rev); err != nil {
			s.fail("Prepare after Retire failed with %s; a retired revision must be preparable again", describe(err))
		}
		_ = s.retire(rev)
	})
}

func checkRetireUnknown(s *suite) {
	s.withNamespace(func(drivers.Namespace) {
		if err := s.call("Retire", func(ctx context.Context) error {
			return s.compute.Retire(ctx, "dt-never-prepared", strings.Repeat("0", 64))
		}); err != nil {
			s.fail("Retire of a revision that was never prepared failed with %s; it must succeed", describe(err))
		}
	})
}

// authCase is one harness-auth question the suite asks.
type authCase struct {
	name string
	f    drivers.AuthFacts
}

func (s *suite) authCases() []authCase {
	decl := s.compute.Declaration()
	secret := occkit.SourceRef{Kind: occkit.SourceSecret, NamespaceID: "drivertest", ID: "model-key"}
	bindings := []struct {
		name string
		b    occkit.Binding
	}{
		{"api_key", occkit.Binding{Method: occkit.MethodAPIKey, Source: secret}},
		{"codex_pat secret", occkit.Binding{Method: occkit.MethodCodexPAT, Source: secret}},
		{"codex_pat service_account", occkit.Binding{Method: occkit.MethodCodexPAT,
			Source: occkit.SourceRef{Kind: occkit.SourceServiceAccount, NamespaceID: "drivertest", ID: "account"}}},
		{"credential_source api_key", occkit.Binding{Method: occkit.MethodCredentialSource, SourceID: "source", SourceType: occkit.SourceTypeAPIKey}},
		{"credential_source codex-oauth", occkit.Binding{Method: occkit.MethodCredentialSource, SourceID: "source", SourceType: occkit.SourceTypeCodexOAuth}},
		{"runtime", occkit.Binding{Method: occkit.MethodRuntime}},
	}
	sandbox := &occkit.SandboxFacts{Facets: occkit.AllFacets(), ProvisionHarness: true}
	var out []authCase
	for _, t := range s.declaredTopologies() {
		model := "openai/gpt-5"
		if t.Harness == occkit.HarnessCodex {
			model = "codex/gpt-5-codex"
		}
		for _, b := range bindings {
			for _, gw := range []bool{false, true} {
				out = append(out, authCase{
					name: fmt.Sprintf("%s %s, %s, credential gateway %v", t.Harness, t.Mode, b.name, gw),
					f: drivers.AuthFacts{
						Compute: decl.Name, Topologies: append([]occkit.Topology(nil), decl.Topologies...),
						Harness: t.Harness, Mode: t.Mode, Binding: b.b, CredentialGateway: gw,
						Sandbox: sandbox, NativeWorkerSupport: occkit.NativeWorkersPinned,
						Model: model, AgentID: "dt-harness-auth",
					},
				})
			}
		}
	}
	return out
}

// authCodes are the codes a harness-auth refusal may carry (AUTH-7,
// AUTH-4): the Configuration's fault (400) or the installation's (409).
var authCodes = map[occkit.Code]bool{
	occkit.CodeInvalidRequest:                 true,
	occkit.CodeResourceConflict:               true,
	occkit.CodeCredentialGatewayNotConfigured: true,
}

func (s *suite) validateAuth(f drivers.AuthFacts) (occkit.Projection, error) {
	var p occkit.Projection
	err := s.call("ValidateHarnessAuth", func(ctx context.Context) error {
		var err error
		p, err = s.compute.ValidateHarnessAuth(ctx, f)
		return err
	})
	return p, err
}

func checkHarnessAuthStructured(s *suite) {
	for _, c := range s.authCases() {
		p, err := s.validateAuth(c.f)
		if errors.Is(err, errHung) {
			return
		}
		if err != nil {
			oe, ok := structured(err)
			switch {
			case !ok:
				s.fail("ValidateHarnessAuth (%s) refused with %s; refusals must be *occkit.Error so the code survives (a plain error becomes an opaque 409)", c.name, describe(err))
			case !authCodes[oe.Code]:
				s.fail("ValidateHarnessAuth (%s) refused with %s; a refusal is 400 INVALID_REQUEST (Configuration) or 409 (installation)", c.name, describe(err))
			}
			continue
		}
		for _, e := range p.Gateway {
			if e.From != (occkit.SourceRef{}) || e.Placeholder {
				s.fail("ValidateHarnessAuth (%s) projects the Harness credential %s into the gateway; dedicated gateways never receive it (AUTH-6)", c.name, e.Name)
			}
		}
	}
}

func checkHarnessAuthDeterministic(s *suite) {
	for _, c := range s.authCases() {
		p1, err1 := s.validateAuth(c.f)
		p2, err2 := s.validateAuth(c.f)
		if errors.Is(err1, errHung) || errors.Is(err2, errHung) {
			return
		}
		if (err1 == nil) != (err2 == nil) || err1 != nil && describe(err1) != describe(err2) {
			s.fail("ValidateHarnessAuth (%s) answered differently for the same facts: %v, then %v", c.name, err1, err2)
			continue
		}
		if err1 == nil && !reflect.DeepEqual(p1, p2) {
			s.fail("ValidateHarnessAuth (%s) planned different projections for the same facts", c.name)
		}
	}
}

// bare wraps a ComputeDriver, forwarding only the required methods: every
// optional capability must still be found through Unwrap.
type bare struct{ d drivers.ComputeDriver }

func (b bare) Declaration() drivers.Declaration { return b.d.Declaration() }
func (b bare) EnsureNamespace(ctx context.Context, ns drivers.Namespace) error {
	return b.d.EnsureNamespace(ctx, ns)
}
func (b bare) DeleteNamespace(ctx context.Context, ns drivers.Namespace) error {
	return b.d.DeleteNamespace(ctx, ns)
}
func (b bare) Prepare(ctx context.Context, rev drivers.Revision) error {
	return b.d.Prepare(ctx, rev)
}
func (b bare) Retire(ctx context.Context, agentID, digest string) error {
	return b.d.Retire(ctx, agentID, digest)
}
func (b bare) ValidateHarnessAuth(ctx context.Context, f drivers.AuthFacts) (occkit.Projection, error) {
	return b.d.ValidateHarnessAuth(ctx, f)
}
func (b bare) Unwrap() drivers.ComputeDriver { return b.d }

// computeCapabilities reports, per optional capability, whether d has it.
func computeCapabilities(d drivers.ComputeDriver) map[string]bool {
	m := map[string]bool{}
	_, m["Activator"] = drivers.As[drivers.Activator](d)
	_, m["Stopper"] = drivers.As[drivers.Stopper](d)
	_, m["GatewaySettingsValidator"] = drivers.As[drivers.GatewaySettingsValidator](d)
	_, m["Diagnoser"] = drivers.As[drivers.Diagnoser](d)
	_, m["RuntimeLogReader"] = drivers.As[drivers.RuntimeLogReader](d)
	_, m["ModelDiscoverer"] = drivers.As[drivers.ModelDiscoverer](d)
	_, m["Preflighter"] = drivers.As[drivers.Preflighter](d)
	for _, p := range drivers.ComputeHookPhases(d) {
		m["hook "+string(p)] = true
	}
	return m
}

func checkComputeWrapper(s *suite) {
	direct := computeCapabilities(s.compute)
	wrapped := computeCapabilities(bare{s.compute})
	for name, ok := range direct {
		if ok && !wrapped[name] {
			s.fail("capability %s is lost behind a wrapper that forwards only the required methods; its Unwrap chain must reach it", name)
		}
	}
	if _, ok := drivers.As[drivers.HarnessAuthValidator](bare{s.compute}); !ok {
		s.fail("admission cannot find the harness-auth validator through a wrapper")
	}
	if w, ok := s.compute.(drivers.Wrapper); ok && isNilDriver(w.Unwrap(), nil) {
		s.fail("the driver is a Wrapper whose Unwrap returns nil: a wrapper must return the driver it wraps")
	}
}

// cancellable lists the driver's context-taking calls, for the
// cancellation contract.
func (s *suite) cancellable(ns drivers.Namespace, rev drivers.Revision) []struct {
	what string
	fn   func(ctx context.Context) error
} {
	d := s.compute
	calls := []struct {
		what string
		fn   func(ctx context.Context) error
	}{
		{"EnsureNamespace", func(ctx context.Context) error { return d.EnsureNamespace(ctx, ns) }},
		{"Prepare", func(ctx context.Context) error { return d.Prepare(ctx, rev) }},
		{"Retire", func(ctx context.Context) error { return d.Retire(ctx, rev.AgentID(), rev.Digest()) }},
		{"DeleteNamespace", func(ctx context.Context) error { return d.DeleteNamespace(ctx, ns) }},
	}
	add := func(what string, fn func(ctx context.Context) error) {
		calls = append(calls, struct {
			what string
			fn   func(ctx context.Context) error
		}{what, fn})
	}
	if a, ok := drivers.As[drivers.Activator](d); ok {
		add("Activate", func(ctx context.Context) error { return a.Activate(ctx, rev) })
	}
	if st, ok := drivers.As[drivers.Stopper](d); ok {
		add("Stop", func(ctx context.Context) error { return st.Stop(ctx, rev) })
	}
	if g, ok := drivers.As[drivers.Diagnoser](d); ok {
		add("Diagnose", func(ctx context.Context) error { _, err := g.Diagnose(ctx, rev); return err })
	}
	if r, ok := drivers.As[drivers.RuntimeLogReader](d); ok {
		add("ReadRuntimeLogs", func(ctx context.Context) error {
			_, err := r.ReadRuntimeLogs(ctx, rev, drivers.LogRequest{Source: "gateway", Lines: 10})
			return err
		})
	}
	if m, ok := drivers.As[drivers.ModelDiscoverer](d); ok {
		add("DiscoverModels", func(ctx context.Context) error {
			_, err := m.DiscoverModels(ctx, s.modelQuery())
			return err
		})
	}
	if p, ok := drivers.As[drivers.Preflighter](d); ok {
		add("Preflight", func(ctx context.Context) error { return p.Preflight(ctx) })
	}
	calls = append(calls, s.hookCalls(d, ns, rev)...)
	return calls
}

func (s *suite) modelQuery() drivers.ModelQuery {
	return drivers.ModelQuery{Harness: occkit.HarnessOpenClaw, Provider: "openai", AuthMethod: occkit.MethodAPIKey, Credential: s.opts.Canary}
}

// hookCalls lists d's lifecycle hooks as calls.
func (s *suite) hookCalls(d any, ns drivers.Namespace, rev drivers.Revision) []struct {
	what string
	fn   func(ctx context.Context) error
} {
	var calls []struct {
		what string
		fn   func(ctx context.Context) error
	}
	add := func(what string, fn func(ctx context.Context) error) {
		calls = append(calls, struct {
			what string
			fn   func(ctx context.Context) error
		}{what, fn})
	}
	if h, ok := hook[drivers.NamespacePreparedHook](d); ok {
		add("AfterNamespacePrepared", func(ctx context.Context) error { return h.AfterNamespacePrepared(ctx, ns) })
	}
	if h, ok := hook[drivers.WorkloadStartHook](d); ok {
		add("BeforeWorkloadStart", func(ctx context.Context) error { return h.BeforeWorkloadStart(ctx, rev, &drivers.Launch{}) })
	}
	if h, ok := hook[drivers.WorkloadStopHook](d); ok {
		add("BeforeWorkloadStop", func(ctx context.Context) error { return h.BeforeWorkloadStop(ctx, rev) })
	}
	if h, ok := hook[drivers.NamespaceDeleteHook](d); ok {
		add("BeforeNamespaceDelete", func(ctx context.Context) error { return h.BeforeNamespaceDelete(ctx, ns) })
	}
	return calls
}

// hook finds a hook on a compute or sandbox driver.
func hook[T any](d any) (T, bool) {
	switch x := d.(type) {
	case drivers.ComputeDriver:
		return drivers.As[T](x)
	case drivers.SandboxDriver:
		return drivers.AsSandbox[T](x)
	}
	var zero T
	return zero, false
}

func checkComputeCancellation(s *suite) {
	tops := s.declaredTopologies()
	if len(tops) == 0 {
		return
	}
	ns := s.namespace()
	rev := s.revision(tops[0], 0)
	for _, c := range s.cancellable(ns, rev) {
		err := s.callCancelled(c.what, c.fn)
		switch {
		case errors.Is(err, errHung):
		case err == nil:
			s.fail("%s succeeded with a cancelled context; it must return the context's error without doing the work", c.what)
		case !errors.Is(err, context.Canceled):
			s.fail("%s with a cancelled context returned %s, which does not wrap context.Canceled; callers cannot tell cancellation from failure", c.what, describe(err))
		}
	}
	// Clean up anything a non-conforming driver did anyway.
	_ = s.retire(rev)
	_ = s.call("DeleteNamespace", func(ctx context.Context) error { return s.compute.DeleteNamespace(ctx, ns) })
}

func checkRuntimeLogging(s *suite) {
	decl := s.compute.Declaration()
	if _, ok := drivers.As[drivers.RuntimeLogReader](s.compute); ok && decl.Logging() == occkit.OwnedByDriver {
		s.fail("the driver declares driver-owned runtime logging but implements RuntimeLogReader; under driver-owned logging runtime-log reads answer 501 and the reader is never called")
	}
}

func checkOptionalCapabilities(s *suite) {
	tops := s.declaredTopologies()
	if len(tops) == 0 {
		return
	}
	s.withNamespace(func(drivers.Namespace) {
		rev := s.revision(tops[0], 0)
		if err := s.prepare(rev); err != nil {
			s.fail("Prepare failed with %s", describe(err))
			return
		}
		defer func() { _ = s.retire(rev) }()
		if r, ok := drivers.As[drivers.RuntimeLogReader](s.compute); ok {
			var chunk drivers.LogChunk
			err := s.call("ReadRuntimeLogs", func(ctx context.Context) error {
				var err error
				chunk, err = r.ReadRuntimeLogs(ctx, rev, drivers.LogRequest{Source: "gateway", Lines: 3})
				return err
			})
			if err == nil && len(chunk.Lines) > 3 {
				s.fail("ReadRuntimeLogs returned %d lines for a request of 3; reads must be bounded", len(chunk.Lines))
			}
			if err == nil {
				for _, l := range chunk.Lines {
					if strings.Contains(l.Raw, s.opts.Canary) {
						s.fail("ReadRuntimeLogs returned a line containing a secret value of the revision's document")
						break
					}
				}
			}
		}
		if g, ok := drivers.As[drivers.Diagnoser](s.compute); ok {
			var diag drivers.Diagnostics
			err := s.call("Diagnose", func(ctx context.Context) error {
				var err error
				diag, err = g.Diagnose(ctx, rev)
				return err
			})
			if err == nil {
				for _, c := range diag.Checks {
					if !knownState(c.State) {
						s.fail("Diagnose reported check %s/%s in state %q; states are succeeded, failed, unknown", c.Component, c.Check, c.State)
					}
				}
			}
		}
		if m, ok := drivers.As[drivers.ModelDiscoverer](s.compute); ok {
			var models []drivers.Model
			err := s.call("DiscoverModels", func(ctx context.Context) error {
				var err error
				models, err = m.DiscoverModels(ctx, s.modelQuery())
				return err
			})
			if err == nil {
				for _, mo := range models {
					if mo.ID == "" {
						s.fail("DiscoverModels returned a model without an ID")
					}
					if strings.Contains(mo.ID+mo.Name, s.opts.Canary) {
						s.fail("DiscoverModels returned the transient credential in a model; it must never be reported")
					}
				}
			}
		}
		if a, ok := drivers.As[drivers.Activator](s.compute); ok {
			for n := 1; n <= 2; n++ {
				if err := s.call("Activate", func(ctx context.Context) error { return a.Activate(ctx, rev) }); err != nil {
					s.fail("Activate of a prepared revision (call %d) failed with %s; activation must be repeatable", n, describe(err))
					break
				}
			}
		}
		if st, ok := drivers.As[drivers.Stopper](s.compute); ok {
			for n := 1; n <= 2; n++ {
				if err := s.call("Stop", func(ctx context.Context) error { return st.Stop(ctx, rev) }); err != nil {
					s.fail("Stop of a prepared revision (call %d) failed with %s; stopping must be repeatable", n, describe(err))
					break
				}
			}
		}
	})
}

func knownState(st drivers.DiagnosticState) bool {
	for _, k := range drivers.AllDiagnosticStates() {
		if st == k {
			return true
		}
	}
	return false
}

func checkComputeHooks(s *suite) {
	for _, p := range drivers.ComputeHookPhases(s.compute) {
		if !p.Valid() {
			s.fail("the driver hooks unknown phase %q", p)
		}
	}
	tops := s.declaredTopologies()
	if len(tops) == 0 {
		return
	}
	s.withNamespace(func(ns drivers.Namespace) {
		s.runHooks(s.compute, ns, s.revision(tops[0], 0))
	})
}

// runHooks calls every hook of d twice; each must succeed both times.
func (s *suite) runHooks(d any, ns drivers.Namespace, rev drivers.Revision) {
	for _, c := range s.hookCalls(d, ns, rev) {
		for n := 1; n <= 2; n++ {
			if err := s.call(c.what, c.fn); err != nil {
				s.fail("hook %s (call %d) failed with %s; hooks must succeed and be safe to repeat", c.what, n, describe(err))
				break
			}
		}
	}
}

func checkComputeConcurrent(s *suite) {
	tops := s.declaredTopologies()
	if len(tops) == 0 {
		return
	}
	s.withNamespace(func(drivers.Namespace) {
		const n = 8
		revs := make([]drivers.Revision, n)
		for i := range revs {
			revs[i] = s.revision(tops[i%len(tops)], i)
		}
		var wg sync.WaitGroup
		errs := make([]error, n)
		for i, rev := range revs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				errs[i] = s.prepare(rev)
				if errs[i] == nil {
					errs[i] = s.retire(rev)
				}
			}()
		}
		wg.Wait()
		for i, err := range errs {
			if err != nil && !errors.Is(err, errHung) {
				s.fail("concurrent Prepare/Retire of revision %d failed with %s; a driver must be safe for concurrent use", i, describe(err))
			}
		}
	})
}
