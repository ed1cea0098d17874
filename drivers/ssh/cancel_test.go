package ssh

import (
	"context"
	"testing"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/drivers/drivertest"
)

// endingServices ends the caller's context inside the service manager
// and then answers what ret makes of it.
type endingServices struct {
	*procs
	cancel func()
	ret    func(ctx context.Context) error
}

func (e endingServices) Start(ctx context.Context, _ Runner, _ Unit) error {
	e.cancel()
	return e.ret(ctx)
}

func (e endingServices) Stop(ctx context.Context, _ Runner, _ string) error {
	e.cancel()
	return e.ret(ctx)
}

// TestContextEndsDuringAnOperation: DRV-6 — when the caller's context
// ends while Prepare or Retire works on the host, whatever the host then
// answers (a failed command, a refusal), the driver reports the
// context's error as 503 (issue 31). Each case costs a few seconds of
// SSH round trips, so two answers stand for the rest (package drivers
// tests the mapping itself on every kind of answer).
func TestContextEndsDuringAnOperation(t *testing.T) {
	s := needSSH(t)
	answers := map[string]func(ctx context.Context) error{
		"a failed command": func(context.Context) error { return &RunError{Status: 1} },
		"a refusal":        func(context.Context) error { return occkit.Conflict("DRV-6", occkit.Root(), "busy") },
	}
	for name, answer := range answers {
		t.Run(name, func(t *testing.T) {
			cfg, p := testConfig(t, s)
			rev := revision(t, "ending", 0)
			check := func(what string, run func(ctx context.Context, d *Driver) error) {
				ctx, cancel := context.WithCancel(ctxT(t))
				defer cancel()
				ended := false
				cfg := cfg
				cfg.Services = endingServices{procs: p, cancel: func() { ended = true; cancel() }, ret: answer}
				err := run(ctx, mustNew(t, cfg))
				if !ended {
					t.Fatalf("%s never reached the service manager: %v", what, err)
				}
				if err := drivertest.CheckEnded(err, context.Canceled); err != nil {
					t.Errorf("%s: %v", what, err)
				}
			}
			check("Prepare", func(ctx context.Context, d *Driver) error { return d.Prepare(ctx, rev) })
			if err := mustNew(t, cfg).Prepare(ctxT(t), rev); err != nil {
				t.Fatal(err)
			}
			check("Retire", func(ctx context.Context, d *Driver) error { return d.Retire(ctx, rev.AgentID(), rev.Digest()) })
			if err := mustNew(t, cfg).Retire(ctxT(t), rev.AgentID(), rev.Digest()); err != nil {
				t.Fatal(err)
			}
		})
	}
}
