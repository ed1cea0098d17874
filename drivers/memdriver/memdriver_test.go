package memdriver_test

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/drivers"
	"github.com/occkit/occkit/drivers/drivertest"
	"github.com/occkit/occkit/drivers/memdriver"
)

// The reference driver passes the whole conformance suite (DRV-1).
func TestConformance(t *testing.T) {
	drivertest.Run(t, func() drivers.ComputeDriver {
		return memdriver.New(memdriver.Options{Models: []drivers.Model{{ID: "openai/gpt-5", Name: "GPT-5"}}})
	})
}

func TestConformanceRestrictedTopologies(t *testing.T) {
	drivertest.Run(t, func() drivers.ComputeDriver {
		return memdriver.New(memdriver.Options{
			Name:       "docker",
			Topologies: []occkit.Topology{{Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeEmbedded}},
		})
	})
}

func TestConformanceBehindWrapper(t *testing.T) {
	if v := drivertest.Check(context.Background(), wrapped{memdriver.New(memdriver.Options{})}); len(v) > 0 {
		t.Fatalf("violations: %v", v)
	}
}

// wrapped forwards the required methods only.
type wrapped struct{ drivers.ComputeDriver }

func (w wrapped) Unwrap() drivers.ComputeDriver { return w.ComputeDriver }

func TestLifecycleRecords(t *testing.T) {
	ctx := context.Background()
	d := memdriver.New(memdriver.Options{})
	rev, err := drivertest.NewRevision(drivertest.RevisionOptions{AgentID: "main", Compute: memdriver.DefaultName})
	if err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		name string
		run  func() error
	}{
		{"prepare", func() error { return d.Prepare(ctx, rev) }},
		{"activate", func() error { return drivers.Activate(ctx, d, rev) }},
		{"stop", func() error { return drivers.Stop(ctx, d, rev) }},
	}
	for _, s := range steps {
		if err := s.run(); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
	}
	if diff := cmp.Diff([]string{rev.Digest()}, d.Prepared("main")); diff != "" {
		t.Errorf("prepared (-want +got):\n%s", diff)
	}
	if got, _ := d.Active("main"); got != rev.Digest() {
		t.Errorf("active = %q, want the revision", got)
	}
	if !d.Stopped("main", rev.Digest()) {
		t.Error("revision not recorded as stopped")
	}
	chunk, err := drivers.ReadRuntimeLogs(ctx, d, rev, drivers.LogRequest{Lines: 2})
	if err != nil {
		t.Fatal(err)
	}
	var raw []string
	for _, l := range chunk.Lines {
		raw = append(raw, l.Raw)
	}
	if diff := cmp.Diff([]string{`{"event":"activated"}`, `{"event":"stopped"}`}, raw); diff != "" {
		t.Errorf("log lines (-want +got):\n%s", diff)
	}
	if !chunk.Truncated {
		t.Error("a 2-line read of 3 events must report truncation")
	}
	diag, err := drivers.Diagnose(ctx, d, rev)
	if err != nil || len(diag.Checks) != 1 || diag.Checks[0].Code != "STOPPED" {
		t.Errorf("diagnostics = %+v, %v; want one failed STOPPED check", diag, err)
	}
	if err := d.Retire(ctx, "main", rev.Digest()); err != nil {
		t.Fatal(err)
	}
	if _, ok := d.Active("main"); ok {
		t.Error("retiring the active revision must clear the selection")
	}
	if err := d.Activate(ctx, rev); !errors.Is(err, occkit.ErrResourceConflict) {
		t.Errorf("activating a retired revision: %v, want 409", err)
	}
}

func TestPrepareRefusesUndeclaredTopology(t *testing.T) {
	d := memdriver.New(memdriver.Options{Topologies: []occkit.Topology{{Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeEmbedded}}})
	rev, err := drivertest.NewRevision(drivertest.RevisionOptions{Topology: occkit.Topology{Harness: occkit.HarnessCodex, Mode: occkit.ModeDedicated}})
	if err != nil {
		t.Fatal(err)
	}
	err = d.Prepare(context.Background(), rev)
	if e := occkit.First(err); e == nil || e.Code != occkit.CodeInvalidRequest || e.Rule != "RES-11" {
		t.Fatalf("Prepare = %v, want 400 RES-11", err)
	}
	if len(d.Prepared(rev.AgentID())) != 0 {
		t.Error("a refused revision must leave nothing behind")
	}
}
