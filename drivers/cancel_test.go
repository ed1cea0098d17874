package drivers_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/drivers"
	"github.com/occkit/occkit/drivers/drivertest"
)

// ending is a ComputeDriver, SandboxDriver and every optional capability
// whose calls end the caller's context and then return what ret makes of
// it: the context's error, wrapped or not, or anything else.
type ending struct {
	*stub
	cancel func()
	ret    func(ctx context.Context) error
}

func (e ending) end(ctx context.Context) error {
	e.cancel()
	return e.ret(ctx)
}

func (e ending) Activate(ctx context.Context, _ drivers.Revision) error { return e.end(ctx) }
func (e ending) Stop(ctx context.Context, _ drivers.Revision) error     { return e.end(ctx) }
func (e ending) Diagnose(ctx context.Context, _ drivers.Revision) (drivers.Diagnostics, error) {
	return drivers.Diagnostics{}, e.end(ctx)
}
func (e ending) ReadRuntimeLogs(ctx context.Context, _ drivers.Revision, _ drivers.LogRequest) (drivers.LogChunk, error) {
	return drivers.LogChunk{}, e.end(ctx)
}
func (e ending) DiscoverModels(ctx context.Context, _ drivers.ModelQuery) ([]drivers.Model, error) {
	return nil, e.end(ctx)
}
func (e ending) Preflight(ctx context.Context) error { return e.end(ctx) }
func (e ending) ValidateGatewaySettings(ctx context.Context, _ occkit.Document, _ occkit.Topology) error {
	return e.end(ctx)
}
func (e ending) AfterNamespacePrepared(ctx context.Context, _ drivers.Namespace) error {
	return e.end(ctx)
}
func (e ending) BeforeWorkloadStart(ctx context.Context, _ drivers.Revision, _ *drivers.Launch) error {
	return e.end(ctx)
}
func (e ending) BeforeWorkloadStop(ctx context.Context, _ drivers.Revision) error { return e.end(ctx) }
func (e ending) BeforeNamespaceDelete(ctx context.Context, _ drivers.Namespace) error {
	return e.end(ctx)
}

// sandboxEnding is a SandboxDriver whose log reader ends the context.
type sandboxEnding struct {
	recorder
	e ending
}

func (s sandboxEnding) ReadSandboxLogs(ctx context.Context, _ drivers.Namespace, _ drivers.Revision, _ drivers.LogRequest) (drivers.LogChunk, error) {
	return drivers.LogChunk{}, s.e.end(ctx)
}

// TestCallsEndedByTheContext: DRV-1, DRV-2, DRV-4, AUTH-7 — when the
// context ends during a driver call the helpers make (Activate, Stop and
// its Retire fallback, Diagnose, log reading, model discovery, Preflight,
// the gateway-settings check, every lifecycle hook), the answer is the
// context's error as 503, whatever the driver returned (issue 31).
func TestCallsEndedByTheContext(t *testing.T) {
	rev := fixture(t, embeddedOpenClaw)
	ns := drivers.Namespace{ID: "n"}
	returns := map[string]func(ctx context.Context) error{
		"ctx.Err()":     func(ctx context.Context) error { return ctx.Err() },
		"wrapped":       func(ctx context.Context) error { return fmt.Errorf("api: %w", ctx.Err()) },
		"a plain error": func(context.Context) error { return errors.New("boom") },
		"a 409":         func(context.Context) error { return occkit.Conflict("X-1", occkit.Root(), "busy") },
		"a 400":         func(context.Context) error { return occkit.Invalid("X-1", occkit.NewPath("gateway", "port"), "bad") },
	}
	calls := map[string]func(ctx context.Context, e ending) error{
		"Activate":            func(ctx context.Context, e ending) error { return drivers.Activate(ctx, e, rev) },
		"Stop":                func(ctx context.Context, e ending) error { return drivers.Stop(ctx, e, rev) },
		"Stop through Retire": func(ctx context.Context, e ending) error { return drivers.Stop(ctx, retiringOnly{e.stub, e}, rev) },
		"Diagnose":            func(ctx context.Context, e ending) error { _, err := drivers.Diagnose(ctx, e, rev); return err },
		"ReadRuntimeLogs": func(ctx context.Context, e ending) error {
			_, err := drivers.ReadRuntimeLogs(ctx, e, rev, drivers.LogRequest{})
			return err
		},
		"ReadSandboxLogs": func(ctx context.Context, e ending) error {
			_, err := drivers.ReadSandboxLogs(ctx, sandboxEnding{recorder{name: "s"}, e}, ns, rev, drivers.LogRequest{})
			return err
		},
		"DiscoverModels": func(ctx context.Context, e ending) error {
			_, err := drivers.DiscoverModels(ctx, e, drivers.ModelQuery{})
			return err
		},
		"Preflight": func(ctx context.Context, e ending) error { return drivers.Preflight(ctx, e) },
		"CheckGatewaySettings": func(ctx context.Context, e ending) error {
			return drivers.CheckGatewaySettings(ctx, e, occkit.MustParseDocument(`{}`), embeddedOpenClaw)
		},
		"AfterNamespacePrepared": func(ctx context.Context, e ending) error {
			return drivers.NewHooks(e).AfterNamespacePrepared(ctx, ns)
		},
		"BeforeWorkloadStart": func(ctx context.Context, e ending) error {
			_, err := drivers.NewHooks(e).BeforeWorkloadStart(ctx, rev)
			return err
		},
		"BeforeWorkloadStop": func(ctx context.Context, e ending) error {
			return drivers.NewHooks(e).BeforeWorkloadStop(ctx, rev)
		},
		"BeforeNamespaceDelete": func(ctx context.Context, e ending) error {
			return drivers.NewHooks(e).BeforeNamespaceDelete(ctx, ns)
		},
	}
	for call, run := range calls {
		for name, ret := range returns {
			t.Run(call+"/"+name, func(t *testing.T) {
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				ended := false
				e := ending{stub: newStub(), cancel: func() { ended = true; cancel() }, ret: ret}
				err := run(ctx, e)
				if !ended {
					t.Fatalf("%s never reached the driver: %v", call, err)
				}
				if err := drivertest.CheckEnded(err, context.Canceled); err != nil {
					t.Error(err)
				}
			})
		}
	}
}

// retiringOnly is a ComputeDriver without a Stopper whose Retire ends the
// context, so Stop falls back to it.
type retiringOnly struct {
	*stub
	e ending
}

func (r retiringOnly) Retire(ctx context.Context, _, _ string) error { return r.e.end(ctx) }
