package drivers_test

import (
	"context"
	"errors"
	"github.com/occkit/occkit"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/occkit/occkit/drivers"
)

// recorder hooks every phase and logs the calls into a shared journal.
type recorder struct {
	name    string
	journal *[]string
	fail    drivers.HookPhase
	env     string
}

func (r recorder) SandboxDeclaration() drivers.SandboxDeclaration {
	return drivers.SandboxDeclaration{Name: r.name, Facets: []occkit.Facet{"networking"}}
}
func (r recorder) Cleanup(context.Context, drivers.Namespace, drivers.Revision) error { return nil }

func (r recorder) note(p drivers.HookPhase) error {
	*r.journal = append(*r.journal, r.name+" "+string(p))
	if r.fail == p {
		return errors.New("hook broke while holding token sk-live-xyz")
	}
	return nil
}
func (r recorder) AfterNamespacePrepared(context.Context, drivers.Namespace) error {
	return r.note(drivers.PhaseAfterNamespacePrepared)
}
func (r recorder) BeforeWorkloadStart(_ context.Context, _ drivers.Revision, l *drivers.Launch) error {
	if r.env != "" {
		if err := l.Setenv(r.env, "opaque-"+r.name); err != nil {
			return err
		}
	}
	return r.note(drivers.PhaseBeforeWorkloadStart)
}
func (r recorder) BeforeWorkloadStop(context.Context, drivers.Revision) error {
	return r.note(drivers.PhaseBeforeWorkloadStop)
}
func (r recorder) BeforeNamespaceDelete(context.Context, drivers.Namespace) error {
	return r.note(drivers.PhaseBeforeNamespaceDelete)
}

func TestHooksDispatch(t *testing.T) {
	ctx := context.Background()
	ns := drivers.Namespace{ID: "n"}
	tests := []struct {
		name    string
		fail    drivers.HookPhase // of driver "b"
		run     func(h drivers.Hooks) error
		journal []string
		phase   drivers.HookPhase
	}{
		{"prepared in order", "", func(h drivers.Hooks) error { return h.AfterNamespacePrepared(ctx, ns) },
			[]string{"a afterNamespacePrepared", "b afterNamespacePrepared", "c afterNamespacePrepared"}, ""},
		{"prepared failure rolls back the completed", drivers.PhaseAfterNamespacePrepared,
			func(h drivers.Hooks) error { return h.AfterNamespacePrepared(ctx, ns) },
			[]string{"a afterNamespacePrepared", "b afterNamespacePrepared", "a beforeNamespaceDelete"}, drivers.PhaseAfterNamespacePrepared},
		{"start failure stops the completed", drivers.PhaseBeforeWorkloadStart,
			func(h drivers.Hooks) error { _, err := h.BeforeWorkloadStart(ctx, nil); return err },
			[]string{"a beforeWorkloadStart", "b beforeWorkloadStart", "a beforeWorkloadStop"}, drivers.PhaseBeforeWorkloadStart},
		{"stop in reverse", "", func(h drivers.Hooks) error { return h.BeforeWorkloadStop(ctx, nil) },
			[]string{"c beforeWorkloadStop", "b beforeWorkloadStop", "a beforeWorkloadStop"}, ""},
		{"delete in reverse, stopping at a failure", drivers.PhaseBeforeNamespaceDelete,
			func(h drivers.Hooks) error { return h.BeforeNamespaceDelete(ctx, ns) },
			[]string{"c beforeNamespaceDelete", "b beforeNamespaceDelete"}, drivers.PhaseBeforeNamespaceDelete},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var journal []string
			h := drivers.NewHooks(nil, recorder{"a", &journal, "", ""}, nil, boxWrapper{recorder{"b", &journal, tt.fail, ""}},
				minimalBox{}, recorder{"c", &journal, "", ""})
			err := tt.run(h)
			if diff := cmp.Diff(tt.journal, journal); diff != "" {
				t.Errorf("journal (-want +got):\n%s", diff)
			}
			var he *drivers.HookError
			if tt.phase == "" {
				if err != nil {
					t.Fatalf("unexpected %v", err)
				}
				return
			}
			if !errors.As(err, &he) || he.Phase != tt.phase || he.Driver != "sandbox driver b" {
				t.Fatalf("error = %#v, want a HookError for b at %s", err, tt.phase)
			}
			if strings.Contains(err.Error(), "sk-live") {
				t.Errorf("the error repeats the hook's text: %v", err)
			}
		})
	}
}

func TestHooksLaunchAndCancellation(t *testing.T) {
	var journal []string
	h := drivers.NewHooks(nil, recorder{"a", &journal, "", "A_TOKEN"}, recorder{"b", &journal, "", "B_TOKEN"})
	env, err := h.BeforeWorkloadStart(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]string{"A_TOKEN": "opaque-a", "B_TOKEN": "opaque-b"}, env); diff != "" {
		t.Errorf("launch environment (-want +got):\n%s", diff)
	}

	journal = nil
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err = h.AfterNamespacePrepared(ctx, drivers.Namespace{})
	if !errors.Is(err, context.Canceled) || len(journal) != 0 {
		t.Errorf("cancelled dispatch = %v, journal %v; want context.Canceled and no hook run", err, journal)
	}
	bad := drivers.NewHooks(nil, recorder{"a", &journal, "", "lower"})
	if _, err := bad.BeforeWorkloadStart(context.Background(), nil); err == nil {
		t.Error("an invalid launch contribution must fail the phase")
	}
}
