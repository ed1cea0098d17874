package localproc_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/drivers"
	"github.com/occkit/occkit/drivers/drivertest"
	"github.com/occkit/occkit/examples/customdriver/localproc"
)

func newDriver(t *testing.T) *localproc.Driver {
	t.Helper()
	d, err := localproc.New(localproc.Options{Root: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestConformance runs occkit's driver conformance suite: every contract of
// a ComputeDriver, each against a fresh driver.
func TestConformance(t *testing.T) {
	drivertest.Run(t, func() drivers.ComputeDriver { return newDriver(t) })
}

func TestCapabilities(t *testing.T) {
	d := newDriver(t)
	checks := map[string]bool{}
	_, checks["Activator"] = drivers.As[drivers.Activator](d)
	_, checks["Stopper"] = drivers.As[drivers.Stopper](d)
	_, checks["Diagnoser"] = drivers.As[drivers.Diagnoser](d)
	_, checks["RuntimeLogReader"] = drivers.As[drivers.RuntimeLogReader](d)
	_, checks["Preflighter"] = drivers.As[drivers.Preflighter](d)
	_, checks["ModelDiscoverer"] = drivers.As[drivers.ModelDiscoverer](d)
	want := map[string]bool{"Activator": true, "Stopper": true, "Diagnoser": true, "RuntimeLogReader": true,
		"Preflighter": true, "ModelDiscoverer": false}
	if diff := cmp.Diff(want, checks); diff != "" {
		t.Errorf("capabilities (-want +got):\n%s", diff)
	}
	// Absent capabilities fall back as documented.
	_, err := drivers.DiscoverModels(context.Background(), d, drivers.ModelQuery{})
	if e := occkit.First(err); e == nil || e.Code != occkit.CodeNotImplemented {
		t.Errorf("DiscoverModels without the capability = %v, want 501", err)
	}
}

// A revision's files are written where the process description says, the
// document on disk is the admitted one, and activation is diagnosed.
func TestPrepareWritesProcessDescription(t *testing.T) {
	ctx := context.Background()
	d := newDriver(t)
	rev, err := drivertest.NewRevision(drivertest.RevisionOptions{
		AgentID: "support", Compute: localproc.Name,
		Binding: occkit.Binding{Method: occkit.MethodRuntime},
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Prepare(ctx, rev); err != nil {
		t.Fatal(err)
	}
	matches, _ := filepath.Glob(filepath.Join(d.Root(), "agents", "*", rev.Digest(), "process.json"))
	if len(matches) != 1 {
		t.Fatalf("process.json: %v", matches)
	}
	var p struct {
		Argv            []string
		Env             map[string]string
		Unset           []string
		HostCredentials bool
	}
	b, err := os.ReadFile(matches[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &p); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"openclaw", "gateway", "run", "--port", "18789"}, p.Argv); diff != "" {
		t.Errorf("argv (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"OPENCLAW_LOG_LEVEL"}, p.Unset); diff != "" {
		t.Errorf("unset (-want +got):\n%s", diff)
	}
	if !p.HostCredentials {
		t.Error("hostCredentials = false for a runtime binding")
	}
	cfg, err := os.ReadFile(p.Env["OPENCLAW_CONFIG_PATH"])
	if err != nil {
		t.Fatal(err)
	}
	// The planned document: the admitted one plus the gateway section
	// the control plane supplies (token by reference only).
	doc, err := occkit.ParseDocument(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if got := doc.Get(occkit.NewPath("gateway")).Raw(); got != `{"mode":"local","bind":"loopback","auth":{"mode":"token","token":"${OPENCLAW_GATEWAY_TOKEN}"}}` {
		t.Errorf("gateway section = %s", got)
	}
	if d, err := doc.Delete(occkit.NewPath("gateway")); err != nil || occkit.CanonicalDigest(d) != rev.DocumentDigest() {
		t.Errorf("the document on disk is not the admitted one plus the gateway section (%v)", err)
	}
	if st, err := os.Stat(p.Env["OPENCLAW_CONFIG_PATH"]); err != nil || st.Mode().Perm() != 0o444 {
		t.Errorf("config mode = %v, %v; want read-only", st.Mode(), err)
	}

	diagnose := func() []string {
		t.Helper()
		diag, err := drivers.Diagnose(ctx, d, rev)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, c := range diag.Checks {
			out = append(out, c.Check+"="+string(c.State)+"/"+c.Code)
		}
		return out
	}
	if diff := cmp.Diff([]string{"admitted-document=succeeded/", "running=failed/NOT_ACTIVE"}, diagnose()); diff != "" {
		t.Errorf("before activation (-want +got):\n%s", diff)
	}
	if err := drivers.Activate(ctx, d, rev); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"admitted-document=succeeded/", "running=succeeded/"}, diagnose()); diff != "" {
		t.Errorf("after activation (-want +got):\n%s", diff)
	}
	if err := drivers.Stop(ctx, d, rev); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"admitted-document=succeeded/", "running=failed/STOPPED"}, diagnose()); diff != "" {
		t.Errorf("after stop (-want +got):\n%s", diff)
	}
	logs, err := drivers.ReadRuntimeLogs(ctx, d, rev, drivers.LogRequest{Source: "gateway", Lines: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(logs.Lines) != 2 || !logs.Truncated {
		t.Errorf("logs = %+v, want the last 2 of 3 lines, truncated", logs)
	}
}

// Two Agents get two ports; an Agent keeps its port across revisions.
func TestPorts(t *testing.T) {
	ctx := context.Background()
	d := newDriver(t)
	port := func(agent string, gen int64) string {
		t.Helper()
		doc, err := occkit.MustParseDocument(`{"agents":{"defaults":{"model":"anthropic/claude-haiku-4-5"}}}`).Set(occkit.NewPath("agents", "defaults", "maxConcurrent"), gen)
		if err != nil {
			t.Fatal(err)
		}
		rev, err := drivertest.NewRevision(drivertest.RevisionOptions{AgentID: agent, Compute: localproc.Name, Generation: gen, Configuration: doc})
		if err != nil {
			t.Fatal(err)
		}
		if err := d.Prepare(ctx, rev); err != nil {
			t.Fatal(err)
		}
		m, _ := filepath.Glob(filepath.Join(d.Root(), "agents", "*", rev.Digest(), "process.json"))
		for _, f := range m {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			var p struct {
				Agent string
				Argv  []string
			}
			if err := json.Unmarshal(b, &p); err != nil {
				t.Fatal(err)
			}
			if p.Agent == agent {
				return p.Argv[4]
			}
		}
		t.Fatalf("no process.json for %s", agent)
		return ""
	}
	got := []string{port("a", 1), port("b", 1), port("a", 2)}
	if diff := cmp.Diff([]string{"18789", "18790", "18789"}, got); diff != "" {
		t.Errorf("ports (-want +got):\n%s", diff)
	}
}

func TestValidateHarnessAuth(t *testing.T) {
	ctx := context.Background()
	d := newDriver(t)
	embedded := drivers.AuthFacts{Compute: localproc.Name, Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeEmbedded}
	secret := occkit.SourceRef{Kind: occkit.SourceSecret, NamespaceID: "ns", ID: "sec"}
	tests := []struct {
		name string
		f    func(drivers.AuthFacts) drivers.AuthFacts
		code occkit.Code // "" = accepted
	}{
		{"runtime", func(f drivers.AuthFacts) drivers.AuthFacts {
			f.Binding = occkit.Binding{Method: occkit.MethodRuntime}
			return f
		}, ""},
		{"api_key", func(f drivers.AuthFacts) drivers.AuthFacts {
			f.Binding = occkit.Binding{Method: occkit.MethodAPIKey, Source: secret}
			return f
		}, occkit.CodeResourceConflict},
		{"no binding", func(f drivers.AuthFacts) drivers.AuthFacts { return f }, occkit.CodeResourceConflict},
		{"dedicated codex", func(f drivers.AuthFacts) drivers.AuthFacts {
			f.Harness, f.Mode = occkit.HarnessCodex, occkit.ModeDedicated
			f.Binding = occkit.Binding{Method: occkit.MethodRuntime}
			return f
		}, occkit.CodeInvalidRequest},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := d.ValidateHarnessAuth(ctx, tt.f(embedded))
			if tt.code == "" {
				if err != nil || !p.HostManaged {
					t.Fatalf("= %+v, %v; want a host-managed projection", p, err)
				}
				return
			}
			if e := occkit.First(err); e == nil || e.Code != tt.code {
				t.Fatalf("error = %v, want %s", err, tt.code)
			}
		})
	}
}

func TestRetireRefusesBadDigest(t *testing.T) {
	err := newDriver(t).Retire(context.Background(), "a", "../../etc")
	if e := occkit.First(err); e == nil || e.Code != occkit.CodeInvalidRequest {
		t.Fatalf("Retire(../../etc) = %v, want 400", err)
	}
}

func TestCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := newDriver(t).EnsureNamespace(ctx, drivers.Namespace{ID: "x"}); !errors.Is(err, context.Canceled) {
		t.Fatalf("EnsureNamespace = %v, want context.Canceled", err)
	}
}
