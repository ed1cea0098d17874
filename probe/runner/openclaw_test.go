package runner

import (
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/occkit/occkit/probe"
)

const probeConfig = `{"agents":{"defaults":{"model":"openai/gpt-4.1","workspace":"/nope"}},"models":{"providers":{"openai":{"api":"openai-responses"}}}}`

func openClawRunner(t *testing.T, rec *recorder, args ...string) OpenClaw {
	cg := t.TempDir()
	mustWrite(t, filepath.Join(cg, "cpu.max"), "max 100000\n")
	mustWrite(t, filepath.Join(cg, "cpu.pressure"), "some avg10=0.00 avg60=0.00 avg300=0.00 total=1000\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=500\n")
	return OpenClaw{
		Model: "openai/gpt-4.1", CredentialEnv: "OPENAI_API_KEY", ProbeConfig: []byte(probeConfig),
		Binary: testdataPath(t, "fake-openclaw.sh"), Args: args, Environ: secretEnv(), TempDir: t.TempDir(),
		CPU: CPUAccounting{Dir: cg}, Logger: rec.logger(), OnRecord: rec.add,
		// The cap passes only when a test advances the clock.
		Clock: newFakeClock(0),
	}
}

// PRB-2: the OpenClaw runner runs its probe command once and classifies it.
func TestOpenClaw_PRB2(t *testing.T) {
	tests := []struct {
		name   string
		output string
		exit   string
		want   probe.Outcome
	}{
		{"ready", "openclaw/ok.json", "0", probe.Outcome{Code: probe.Ready}},
		{"auth", "openclaw/auth.json", "0", probe.Outcome{Code: probe.AuthenticationFailed}},
		{"rate limit", "openclaw/rate-limit.json", "0", probe.Outcome{Code: probe.ModelProbeFailed, Cause: cause(probe.CauseProbeStatus, "rate_limit")}},
		{"exit wins", "openclaw/ok.json", "1", probe.Outcome{Code: probe.ModelProbeFailed, Cause: cause(probe.CauseProcessExit, "exit-1")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := &recorder{}
			var held probe.Held
			r := openClawRunner(t, rec, "print", recording(t, tt.output), tt.exit)
			r.Publish = held.Publish
			got, err := r.Run(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
			if h, _ := held.Status(); h != got {
				t.Errorf("held %+v", h)
			}
			if len(rec.records) != 1 || rec.records[0].Event != probe.EventOpenClaw || rec.records[0].CapMs != 65000 ||
				rec.records[0].CPUWaitMs != 0 || rec.records[0].Code != tt.want.Code {
				t.Errorf("records %+v", rec.records)
			}
			assertNoLeak(t, rec)
		})
	}
}

// PRB-2: reaching the cap is CPU-starved when the cgroup accounted more
// than a quarter of the elapsed time as CPU wait, a timeout otherwise.
func TestOpenClaw_Cap_PRB2(t *testing.T) {
	for _, tt := range []struct {
		name     string
		waitUsec string
		want     probe.Code
	}{
		{"starved", "5000000", probe.CPUStarved},
		{"not starved", "2000", probe.ModelProbeTimeout},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rec := &recorder{}
			r := openClawRunner(t, rec)
			r.Args = []string{"starve", r.CPU.Dir, tt.waitUsec}
			r.Cap = 300 * time.Millisecond
			clock := r.Clock.(*fakeClock)
			wait := inBackground(context.Background(), r.Run)
			// Once the probe has accounted its CPU wait, its cap passes.
			limit := clock.await(t, 1)
			waitFor(t, "the probe accounts its CPU wait", func() bool {
				return strings.Contains(readFile(t, filepath.Join(r.CPU.Dir, "cpu.pressure")), "total="+tt.waitUsec+"\n")
			})
			clock.Advance(limit)
			got := wait(t)
			if got.err != nil {
				t.Fatal(got.err)
			}
			if got.outcome.Code != tt.want || !got.outcome.Cause.IsZero() {
				t.Errorf("got %+v, want %s", got.outcome, tt.want)
			}
			if limit != r.Cap || len(rec.records) != 1 || rec.records[0].CapMs != 300 || rec.records[0].ElapsedMs != 300 {
				t.Errorf("cap %v, records %+v", limit, rec.records)
			}
		})
	}
}

// PRB-2, PRB-3: unmet preconditions are UNAVAILABLE without a process;
// the probe environment holds only what it needs; the configuration the
// probe reads is the probe configuration with its own workspace.
func TestOpenClaw_Preconditions_PRB3(t *testing.T) {
	for _, tt := range []struct {
		name   string
		change func(*OpenClaw)
	}{
		{"model outside provider", func(r *OpenClaw) { r.Provider = "anthropic" }},
		{"credential missing", func(r *OpenClaw) { r.CredentialEnv = "ANTHROPIC_API_KEY" }},
		{"config disagrees", func(r *OpenClaw) { r.ProbeConfig = []byte(`{"agents":{"defaults":{"model":"openai/gpt-4o"}}}`) }},
		{"config not json", func(r *OpenClaw) { r.ProbeConfig = []byte(`{`) }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			envFile := filepath.Join(t.TempDir(), "env")
			rec := &recorder{}
			r := openClawRunner(t, rec)
			r.Args = []string{"env", envFile, recording(t, "openclaw/ok.json")}
			tt.change(&r)
			got, err := r.Run(context.Background())
			if err != nil || got.Code != probe.Unavailable {
				t.Fatalf("got %+v %v", got, err)
			}
			if _, err := os.Stat(envFile); !os.IsNotExist(err) {
				t.Error("the probe ran")
			}
		})
	}
	envFile := filepath.Join(t.TempDir(), "env")
	rec := &recorder{}
	r := openClawRunner(t, rec, "env", envFile, recording(t, "openclaw/ok.json"))
	if got, err := r.Run(context.Background()); err != nil || got.Code != probe.Ready {
		t.Fatalf("got %+v %v", got, err)
	}
	env := readFile(t, envFile)
	for _, name := range []string{"APP_SERVER_TOKEN", "CODEX_HOME"} {
		if strings.Contains(env, name+"=") {
			t.Errorf("probe environment has %s", name)
		}
	}
	for _, want := range []string{"OPENAI_API_KEY=" + plantedKey, "OPENCLAW_CONFIG_PATH=", "TMPDIR=", `"workspace":"`} {
		if !strings.Contains(env, want) {
			t.Errorf("probe environment lacks %q", want)
		}
	}
	if strings.Contains(env, `"/nope"`) {
		t.Error("the probe workspace was not replaced")
	}
	assertNoLeak(t, rec)
}

// PRB-3: the upfront 401 ends the probe before the full run.
func TestOpenClaw_UpfrontRejects_PRB3(t *testing.T) {
	fake := &fakeProvider{status: 401, answer: `{"error":{"code":"invalid_api_key","type":"invalid_request_error"}}`}
	srv := httptest.NewServer(fake)
	defer srv.Close()
	envFile := filepath.Join(t.TempDir(), "env")
	rec := &recorder{}
	r := openClawRunner(t, rec, "env", envFile, recording(t, "openclaw/ok.json"))
	r.Upfront = &Upfront{OpenAIBase: srv.URL + "/v1"}
	got, err := r.Run(context.Background())
	if err != nil || got.Code != probe.AuthenticationFailed {
		t.Fatalf("got %+v %v", got, err)
	}
	if _, err := os.Stat(envFile); !os.IsNotExist(err) {
		t.Error("the full probe ran after a 401")
	}
	fake.mu.Lock()
	path := fake.path
	fake.mu.Unlock()
	if path != "/v1/responses" {
		t.Errorf("upfront path %q", path)
	}
	fake.mu.Lock()
	fake.status = 400
	fake.mu.Unlock()
	if got, err := r.Run(context.Background()); err != nil || got.Code != probe.Ready {
		t.Fatalf("after a 400 the full probe decides: %+v %v", got, err)
	}
	assertNoLeak(t, rec)
}

// PRB-2: cancellation stops the OpenClaw probe and publishes nothing. The
// cap never passes (the clock is not advanced), so only the cancellation
// can end the run; how long that takes is measured by
// BenchmarkOpenClawCancel, never asserted.
func TestOpenClaw_Cancel_PRB2(t *testing.T) {
	rec := &recorder{}
	r := openClawRunner(t, rec)
	r.Args = []string{"starve", r.CPU.Dir, "1"}
	published := false
	r.Publish = func(probe.Outcome) { published = true }
	ctx, cancel := context.WithCancel(context.Background())
	wait := inBackground(ctx, r.Run)
	waitFor(t, "the probe runs", func() bool {
		return strings.Contains(readFile(t, filepath.Join(r.CPU.Dir, "cpu.pressure")), "total=1\n")
	})
	cancel()
	if got := wait(t); got.err != context.Canceled {
		t.Fatalf("err = %v", got.err)
	}
	if published || len(rec.records) != 0 {
		t.Errorf("cancelled run published %v, records %+v", published, rec.records)
	}
}

// PRB-2: CPU accounting from this machine's own cgroup. With a cgroup v2
// cpu.max the cap lies between the share-of-one cap and the maximum;
// without one (cgroup v1, or no limit file) the probe runs with a share of
// one, which is what the runner must read here then: either way the test
// checks what this machine gives, and never skips.
func TestCPUAccounting_RealCgroup_PRB2(t *testing.T) {
	acct := CPUAccounting{}
	c := acct.Cap()
	if acct.CPUMax() == "" {
		if c != probe.CapForShare(1) {
			t.Errorf("no cpu.max here: cap %v, want the share-of-one cap %v", c, probe.CapForShare(1))
		}
	} else if c < 65*time.Second || c > 600*time.Second {
		t.Errorf("cpu.max %q: cap %v out of range", acct.CPUMax(), c)
	}
	m := acct.Start()
	if _, known := m.Wait(); !known {
		t.Log("no CPU wait accounting on this kernel")
	}
}

// PRB-2: cpu.stat throttling is the fallback metric.
func TestCPUAccounting_Fallback_PRB2(t *testing.T) {
	dir := t.TempDir()
	mustWrite(t, filepath.Join(dir, "cpu.stat"), "usage_usec 100\nnr_throttled 1\nthrottled_usec 5000\n")
	m := CPUAccounting{Dir: dir}.Start()
	mustWrite(t, filepath.Join(dir, "cpu.stat"), "usage_usec 200\nnr_throttled 2\nthrottled_usec 2505000\n")
	if w, ok := m.Wait(); !ok || w != 2500*time.Millisecond {
		t.Errorf("wait %v %v", w, ok)
	}
	mustWrite(t, filepath.Join(dir, "cpu.stat"), "throttled_usec 1\n")
	if _, ok := m.Wait(); ok {
		t.Error("a decreasing counter is known")
	}
	if _, ok := (CPUAccounting{Dir: t.TempDir()}).Start().Wait(); ok {
		t.Error("no accounting is known")
	}
}
