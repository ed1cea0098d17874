package kubernetes

import (
	"context"
	"errors"
	"fmt"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"

	"github.com/occkit/occkit/drivers"
	"github.com/occkit/occkit/drivers/drivertest"
)

// TestContextEndsDuringACall: DRV-5 — when the caller's context ends
// while the driver talks to the API, whatever the API then answers (a
// conflict, a refusal, a denial, a wrapped context error, not found),
// Prepare, Activate, Stop, Retire, the namespace calls, Preflight,
// Diagnose and Ready that fail report the context's error as 503 (issue
// 31).
func TestContextEndsDuringACall(t *testing.T) {
	gr := schema.GroupResource{Resource: "x"}
	answers := map[string]func(ctx context.Context) error{
		"a conflict":    func(context.Context) error { return apierrors.NewConflict(gr, "x", errors.New("changed")) },
		"invalid":       func(context.Context) error { return apierrors.NewBadRequest("bad") },
		"forbidden":     func(context.Context) error { return apierrors.NewForbidden(gr, "x", errors.New("no")) },
		"not found":     func(context.Context) error { return apierrors.NewNotFound(gr, "x") },
		"a wrapped ctx": func(ctx context.Context) error { return fmt.Errorf("Post: %w", ctx.Err()) },
		"a plain error": func(context.Context) error { return errors.New("connection reset") },
	}
	calls := map[string]func(ctx context.Context, d *Driver, rev drivers.Revision) error{
		"Prepare":  func(ctx context.Context, d *Driver, rev drivers.Revision) error { return d.Prepare(ctx, rev) },
		"Activate": func(ctx context.Context, d *Driver, rev drivers.Revision) error { return d.Activate(ctx, rev) },
		"Stop":     func(ctx context.Context, d *Driver, rev drivers.Revision) error { return d.Stop(ctx, rev) },
		"Retire": func(ctx context.Context, d *Driver, rev drivers.Revision) error {
			return d.Retire(ctx, rev.AgentID(), rev.Digest())
		},
		"EnsureNamespace": func(ctx context.Context, d *Driver, _ drivers.Revision) error { return d.EnsureNamespace(ctx, tenant) },
		"DeleteNamespace": func(ctx context.Context, d *Driver, _ drivers.Revision) error { return d.DeleteNamespace(ctx, tenant) },
		"Preflight":       func(ctx context.Context, d *Driver, _ drivers.Revision) error { return d.Preflight(ctx) },
		"Diagnose": func(ctx context.Context, d *Driver, rev drivers.Revision) error {
			_, err := d.Diagnose(ctx, rev)
			return err
		},
		"Ready": func(ctx context.Context, d *Driver, rev drivers.Revision) error {
			_, err := d.Ready(ctx, rev)
			return err
		},
	}
	for call, run := range calls {
		for name, answer := range answers {
			t.Run(call+"/"+name, func(t *testing.T) {
				cs := fake.NewClientset()
				d := fakeDriver(t, cs, nil)
				rev := admitOn(t, d, "main", embeddedOpenClaw, 1)
				if call != "Prepare" {
					if err := d.Prepare(context.Background(), rev); err != nil {
						t.Fatal(err)
					}
				}
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				reached := false
				cs.PrependReactor("*", "*", func(k8stesting.Action) (bool, runtime.Object, error) {
					reached = true
					cancel()
					return true, nil, answer(ctx)
				})
				err := run(ctx, d, rev)
				if !reached {
					t.Skipf("%s made no API call: %v", call, err)
				}
				if err == nil && name == "not found" {
					// An answer that the object is gone completes a
					// Stop, a deletion or a diagnosis: a success stays one.
					return
				}
				if err := drivertest.CheckEnded(err, context.Canceled); err != nil {
					t.Error(err)
				}
			})
		}
	}
}
