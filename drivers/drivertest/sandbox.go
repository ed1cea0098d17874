package drivertest

import (
	"bytes"
	"context"
	"errors"
	"reflect"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/drivers"
)

var sandboxContracts = []contract{
	{"sandbox-declaration-valid", "DRV-2", checkSandboxDeclaration},
	{"sandbox-declaration-stable", "DRV-2", checkSandboxStable},
	{"cleanup-idempotent", "DRV-2", checkCleanup},
	{"transform-pure", "DRV-2", checkTransform},
	{"provision-idempotent", "DRV-2", checkProvision},
	{"sandbox-capabilities-through-wrapper", "DRV-2", checkSandboxWrapper},
	{"sandbox-context-cancellation", "DRV-2", checkSandboxCancellation},
	{"sandbox-lifecycle-hooks", "DRV-4", checkSandboxHooks},
}

// sandboxRevision is a dedicated revision bound to the driver.
func (s *suite) sandboxRevision(i int) drivers.Revision {
	rev, err := NewRevision(RevisionOptions{
		AgentID:         "dt-" + s.c.name,
		Compute:         occkit.ComputeKubernetes,
		Topology:        occkit.Topology{Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeDedicated},
		Generation:      int64(i + 1),
		SandboxDriverID: s.sandbox.SandboxDeclaration().Name,
		Configuration: mustSet(DefaultConfiguration(occkit.Topology{Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeDedicated}),
			canaryPath, s.opts.Canary),
	})
	if err != nil {
		panic("drivertest: fixture revision: " + err.Error())
	}
	return rev
}

func mustSet(d occkit.Document, p occkit.Path, v any) occkit.Document {
	out, err := d.Set(p, v)
	if err != nil {
		panic("drivertest: fixture document: " + err.Error())
	}
	return out
}

func checkSandboxDeclaration(s *suite) {
	var r drivers.Registry
	if err := r.RegisterSandbox(s.sandbox); err != nil {
		for _, e := range occkit.Errors(err) {
			s.fail("registration refuses the declaration at %s: %s", e.Path, e.Message())
		}
	}
}

func checkSandboxStable(s *suite) {
	a, b := s.sandbox.SandboxDeclaration(), s.sandbox.SandboxDeclaration()
	if !reflect.DeepEqual(a, b) {
		s.fail("SandboxDeclaration returned different values on two calls; it must be constant")
	}
}

func (s *suite) cleanup(ns drivers.Namespace, rev drivers.Revision) error {
	return s.call("Cleanup", func(ctx context.Context) error { return s.sandbox.Cleanup(ctx, ns, rev) })
}

func checkCleanup(s *suite) {
	ns := s.namespace()
	rev := s.sandboxRevision(0)
	for n := 1; n <= 2; n++ {
		if err := s.cleanup(ns, rev); err != nil {
			s.fail("Cleanup of a revision (call %d) failed with %s; cleaning what is gone must succeed", n, describe(err))
			break
		}
	}
	for n := 1; n <= 2; n++ {
		if err := s.cleanup(ns, nil); err != nil {
			s.fail("Cleanup of the namespace (call %d) failed with %s; cleaning what is gone must succeed", n, describe(err))
			break
		}
	}
}

func checkTransform(s *suite) {
	tr, ok := drivers.AsSandbox[drivers.ConfigurationTransformer](s.sandbox)
	if !ok {
		return
	}
	in := occkit.MustParseDocument(`{"zUnknown":{"b":1,"a":[true,null]},"agents":{"defaults":{"model":"openai/gpt-5"}},"channels":{"drivertest":{"token":"` + s.opts.Canary + `"}}}`)
	before := in.Bytes()
	var out1, out2 occkit.Document
	err1 := s.call("TransformConfiguration", func(ctx context.Context) error {
		var err error
		out1, err = tr.TransformConfiguration(ctx, in)
		return err
	})
	err2 := s.call("TransformConfiguration", func(ctx context.Context) error {
		var err error
		out2, err = tr.TransformConfiguration(ctx, in)
		return err
	})
	if !bytes.Equal(in.Bytes(), before) {
		s.fail("TransformConfiguration changed its input; it must work on a copy")
	}
	if errors.Is(err1, errHung) || errors.Is(err2, errHung) {
		return
	}
	if err1 != nil {
		if _, ok := structured(err1); !ok {
			s.fail("TransformConfiguration refused with %s; refusals must be *occkit.Error", describe(err1))
		}
		return
	}
	if err2 != nil || !out1.Equal(out2) {
		s.fail("TransformConfiguration gave different results for the same document; it must be pure")
		return
	}
	if !out1.Get(occkit.NewPath("zUnknown")).Exists() {
		s.fail("TransformConfiguration dropped an unknown key; unknown keys must survive (DOC-3)")
	}
}

func checkProvision(s *suite) {
	p, ok := drivers.AsSandbox[drivers.HarnessProvisioner](s.sandbox)
	if !ok {
		return
	}
	ns := s.namespace()
	if prep, ok := drivers.AsSandbox[drivers.SandboxNamespacePreparer](s.sandbox); ok {
		if err := s.call("EnsureSandboxNamespace", func(ctx context.Context) error { return prep.EnsureSandboxNamespace(ctx, ns) }); err != nil {
			s.fail("EnsureSandboxNamespace failed with %s", describe(err))
			return
		}
	}
	rev := s.sandboxRevision(0)
	var refs [2]drivers.SandboxRef
	for n := range refs {
		if err := s.call("ProvisionHarness", func(ctx context.Context) error {
			var err error
			refs[n], err = p.ProvisionHarness(ctx, ns, rev)
			return err
		}); err != nil {
			s.fail("ProvisionHarness (call %d) failed with %s; provisioning the same revision again must succeed", n+1, describe(err))
			_ = s.cleanup(ns, nil)
			return
		}
	}
	if refs[0] != refs[1] {
		s.fail("ProvisionHarness named different sandboxes for the same revision (%q, then %q); the name must derive from the revision", refs[0].Name, refs[1].Name)
	}
	if refs[0].Name == "" {
		s.fail("ProvisionHarness returned a SandboxRef without a name")
	}
	if err := s.cleanup(ns, rev); err != nil {
		s.fail("Cleanup of a provisioned revision failed with %s", describe(err))
	}
	_ = s.cleanup(ns, nil)
}

// bareSandbox forwards only the required SandboxDriver methods.
type bareSandbox struct{ d drivers.SandboxDriver }

func (b bareSandbox) SandboxDeclaration() drivers.SandboxDeclaration {
	return b.d.SandboxDeclaration()
}
func (b bareSandbox) Cleanup(ctx context.Context, ns drivers.Namespace, rev drivers.Revision) error {
	return b.d.Cleanup(ctx, ns, rev)
}
func (b bareSandbox) Unwrap() drivers.SandboxDriver { return b.d }

func checkSandboxWrapper(s *suite) {
	direct, wrapped := drivers.SandboxManifestOf(s.sandbox), drivers.SandboxManifestOf(bareSandbox{s.sandbox})
	if !reflect.DeepEqual(direct, wrapped) {
		s.fail("a wrapper that forwards only the required methods describes differently (%+v vs %+v); capabilities must be reachable through Unwrap", direct, wrapped)
	}
	if _, ok := drivers.AsSandbox[drivers.SandboxLogReader](s.sandbox); ok {
		if _, ok := drivers.AsSandbox[drivers.SandboxLogReader](bareSandbox{s.sandbox}); !ok {
			s.fail("SandboxLogReader is lost behind a wrapper")
		}
	}
	if _, ok := drivers.AsSandbox[drivers.ConfigurationTransformer](s.sandbox); ok {
		if _, ok := drivers.AsSandbox[drivers.ConfigurationTransformer](bareSandbox{s.sandbox}); !ok {
			s.fail("admission cannot find the configuration transform through a wrapper")
		}
	}
}

func checkSandboxCancellation(s *suite) {
	ns := s.namespace()
	rev := s.sandboxRevision(0)
	calls := []struct {
		what string
		fn   func(ctx context.Context) error
	}{
		{"Cleanup", func(ctx context.Context) error { return s.sandbox.Cleanup(ctx, ns, rev) }},
	}
	if p, ok := drivers.AsSandbox[drivers.HarnessProvisioner](s.sandbox); ok {
		calls = append(calls, struct {
			what string
			fn   func(ctx context.Context) error
		}{"ProvisionHarness", func(ctx context.Context) error { _, err := p.ProvisionHarness(ctx, ns, rev); return err }})
	}
	if p, ok := drivers.AsSandbox[drivers.SandboxNamespacePreparer](s.sandbox); ok {
		calls = append(calls, struct {
			what string
			fn   func(ctx context.Context) error
		}{"EnsureSandboxNamespace", func(ctx context.Context) error { return p.EnsureSandboxNamespace(ctx, ns) }})
	}
	if r, ok := drivers.AsSandbox[drivers.SandboxLogReader](s.sandbox); ok {
		calls = append(calls, struct {
			what string
			fn   func(ctx context.Context) error
		}{"ReadSandboxLogs", func(ctx context.Context) error {
			_, err := r.ReadSandboxLogs(ctx, ns, rev, drivers.LogRequest{Lines: 10})
			return err
		}})
	}
	calls = append(calls, s.hookCalls(s.sandbox, ns, rev)...)
	for _, c := range calls {
		err := s.callCancelled(c.what, c.fn)
		switch {
		case errors.Is(err, errHung):
		case err == nil:
			s.fail("%s succeeded with a cancelled context; it must return the context's error", c.what)
		case !errors.Is(err, context.Canceled):
			s.fail("%s with a cancelled context returned %s, which does not wrap context.Canceled", c.what, describe(err))
		}
	}
	_ = s.cleanup(ns, nil)
}

func checkSandboxHooks(s *suite) {
	ns := s.namespace()
	s.runHooks(s.sandbox, ns, s.sandboxRevision(0))
	_ = s.cleanup(ns, nil)
}
