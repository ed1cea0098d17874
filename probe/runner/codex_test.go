package runner

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/occkit/occkit/probe"
)

// recorder collects records and the JSON log lines of a slog logger.
type recorder struct {
	mu      sync.Mutex
	records []probe.Record
	logs    bytes.Buffer
}

func (r *recorder) add(rec probe.Record) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.records = append(r.records, rec)
}

func (r *recorder) logger() *slog.Logger {
	return slog.New(slog.NewJSONHandler(lockedWriter{r}, nil))
}

type lockedWriter struct{ r *recorder }

func (w lockedWriter) Write(p []byte) (int, error) {
	w.r.mu.Lock()
	defer w.r.mu.Unlock()
	return w.r.logs.Write(p)
}

// everything renders all records and logs, for leak checks.
func (r *recorder) everything(t *testing.T) string {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	b, err := json.Marshal(r.records)
	if err != nil {
		t.Fatal(err)
	}
	return string(b) + r.logs.String()
}

// testdataPath is the absolute path of this package's test file name
// (the fake codex and openclaw scripts).
func testdataPath(t *testing.T, name string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// recording is the absolute path of a recorded probe output the
// classifiers of package probe are tested on (probe/testdata), which the
// fake scripts replay as real processes.
func recording(t *testing.T, name string) string {
	t.Helper()
	return testdataPath(t, filepath.Join("..", "..", "testdata", name))
}

func cause(kind probe.CauseKind, detail string) probe.Cause {
	return probe.Cause{Kind: kind, Detail: detail}
}

// secretEnv is a parent environment with planted credentials.
func secretEnv() []string {
	return append(os.Environ(), "OPENAI_API_KEY="+plantedKey, "APP_SERVER_TOKEN=tok-PLANTED", "CODEX_HOME=/tmp/codex-home",
		"SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt", "SSL_CERT_DIR=/etc/ssl/certs")
}

// Every runner of these tests runs the SPEC's policy on a fakeClock: the
// delay passes at once, a cap only when the test advances the clock past it.
// The policy's numbers, as PRB-5 states them:
const (
	specCap      = 30 * time.Second
	specBudget   = 61 * time.Second
	specMinDelay = time.Second
	specMaxDelay = 1500 * time.Millisecond
)

func codexRunner(t *testing.T, rec *recorder, args ...string) Codex {
	return Codex{
		Model: "openai/gpt-5", Binary: testdataPath(t, "fake-codex.sh"), Args: args,
		Environ: secretEnv(), TempDir: t.TempDir(), Clock: newFakeClock(specMaxDelay),
		Logger: rec.logger(), OnRecord: rec.add,
	}
}

func assertNoLeak(t *testing.T, rec *recorder) {
	t.Helper()
	all := rec.everything(t)
	for _, s := range []string{plantedKey, "PLANTED", "Incorrect API key", "READY."} {
		if strings.Contains(all, s) {
			t.Errorf("records leak %q: %s", s, all)
		}
	}
}

// PRB-4, PRB-6: a recorded stream replayed by a real process.
func TestCodex_Replays_PRB4(t *testing.T) {
	tests := []struct {
		name    string
		stream  string
		exit    string
		want    probe.Outcome
		records int
	}{
		{"ready", "codex/ready.jsonl", "0", probe.Outcome{Code: probe.Ready}, 1},
		{"rejected credential is not retried", "codex/unauthorized.jsonl", "1", probe.Outcome{Code: probe.AuthenticationFailed, FailureClass: probe.ClassCredential}, 1},
		{"server error retried once", "codex/server-error.jsonl", "1", probe.Outcome{Code: probe.ModelProbeFailed, Cause: cause(probe.CauseProbeStatus, "error-event"), FailureClass: probe.ClassHTTP5xx}, 2},
		{"tool event", "codex/tool.jsonl", "0", probe.Outcome{Code: probe.ModelProbeFailed, Cause: cause(probe.CauseProbeStatus, "tool-event"), FailureClass: probe.ClassOther}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := &recorder{}
			var held probe.Held
			r := codexRunner(t, rec, "replay", recording(t, tt.stream), tt.exit)
			r.Publish = held.Publish
			got, err := r.Run(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Run (-want +got):\n%s", diff)
			}
			if h, ok := held.Status(); !ok || h != got {
				t.Errorf("held %+v %v, want %+v", h, ok, got)
			}
			if len(rec.records) != tt.records {
				t.Fatalf("%d records, want %d", len(rec.records), tt.records)
			}
			for i, r := range rec.records {
				if r.Event != probe.EventCodex || r.Attempt != i+1 {
					t.Errorf("record %d: %+v", i, r)
				}
			}
			last := rec.records[len(rec.records)-1]
			if last.Code != tt.want.Code || last.ExitCode != atoi(t, tt.exit) || last.Signal != "" {
				t.Errorf("last record %+v", last)
			}
			assertNoLeak(t, rec)
		})
	}
}

func atoi(t *testing.T, s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// PRB-5: a timeout is retried; the second attempt's cap and the final
// status follow; one record per attempt; the status is published once.
func TestCodex_RetriesTimeoutThenReady_PRB5(t *testing.T) {
	dir := t.TempDir()
	mustWrite(t, filepath.Join(dir, "1.sleep"), "300")
	mustCopy(t, recording(t, "codex/ready.jsonl"), filepath.Join(dir, "2.jsonl"))
	rec := &recorder{}
	var publishes []probe.Outcome
	r := codexRunner(t, rec, "sequence", dir)
	r.Publish = func(o probe.Outcome) { publishes = append(publishes, o) }
	clock := r.Clock.(*fakeClock)
	started := clock.Now()
	wait := inBackground(context.Background(), r.Run)
	// The first attempt hangs: once it runs, its cap passes.
	firstCap := clock.await(t, 1)
	waitFor(t, "the first attempt runs", fileHolds(filepath.Join(dir, "count"), "1"))
	clock.Advance(firstCap)
	got := wait(t)
	if got.err != nil {
		t.Fatal(got.err)
	}
	if got.outcome.Code != probe.Ready || len(publishes) != 1 || publishes[0].Code != probe.Ready {
		t.Fatalf("got %+v, publishes %+v", got.outcome, publishes)
	}
	if len(rec.records) != 2 || rec.records[0].Code != probe.ModelProbeTimeout || rec.records[0].Signal != "SIGKILL" ||
		rec.records[0].ExitCode != -1 || rec.records[0].FailureClass != probe.ClassTimeout {
		t.Fatalf("records %+v", rec.records)
	}
	// The waits: the first cap, the jittered delay, the second cap (what
	// the budget leaves after both, at most a whole cap).
	waits := clock.waitsAsked()
	if len(waits) != 3 || waits[0] != specCap || waits[1] < specMinDelay || waits[1] > specMaxDelay ||
		waits[2] != min(specCap, (specBudget-specCap-waits[1]).Truncate(time.Millisecond)) {
		t.Errorf("waits %v: want the cap %v, a delay in [%v, %v], the cap the %v budget leaves", waits, specCap, specMinDelay, specMaxDelay, specBudget)
	}
	if e := rec.records[0].ElapsedMs; e != firstCap.Milliseconds() {
		t.Errorf("first attempt ran %d ms, cap %v", e, firstCap)
	}
	if e := clock.Now().Sub(started); e != waits[0]+waits[1] {
		t.Errorf("the probe spent %v, want its first cap and the delay", e)
	}
	if n := strings.TrimSpace(readFile(t, filepath.Join(dir, "count"))); n != "2" {
		t.Errorf("%s runs, want 2", n)
	}
}

// PRB-5: readiness polling reads the held result and never starts another
// model call.
func TestCodex_HeldResultStartsNoCall_PRB5(t *testing.T) {
	dir := t.TempDir()
	mustCopy(t, recording(t, "codex/usage-limit.jsonl"), filepath.Join(dir, "1.jsonl"))
	mustWrite(t, filepath.Join(dir, "1.exit"), "1")
	var held probe.Held
	rec := &recorder{}
	r := codexRunner(t, rec, "sequence", dir)
	r.Publish = held.Publish
	if _, err := r.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 100; i++ {
		if held.Ready() {
			t.Fatal("a limit failure reads as ready")
		}
		if o, ok := held.Status(); !ok || o.FailureClass != probe.ClassLimit {
			t.Fatalf("held %+v %v", o, ok)
		}
	}
	held.Publish(probe.Outcome{Code: probe.Ready})
	if held.Ready() {
		t.Error("a second publish replaced the held result")
	}
	if n := strings.TrimSpace(readFile(t, filepath.Join(dir, "count"))); n != "1" {
		t.Errorf("%s model calls, want 1", n)
	}
}

// PRB-7: the probe process sees only the minimal environment.
func TestCodex_MinimalEnvironment_PRB7(t *testing.T) {
	envFile := filepath.Join(t.TempDir(), "env")
	rec := &recorder{}
	got, err := codexRunner(t, rec, "env", envFile).Run(context.Background())
	if err != nil || got.Code != probe.Ready {
		t.Fatalf("got %+v, %v", got, err)
	}
	var names []string
	for _, line := range strings.Split(strings.TrimSpace(readFile(t, envFile)), "\n") {
		k, v, _ := strings.Cut(line, "=")
		switch k {
		case "PWD", "SHLVL", "_": // set by the shell itself
			continue
		case "HOME":
			if !strings.Contains(v, "codex-auth-probe-") {
				t.Errorf("HOME = %q, want the probe directory", v)
			}
		case "RUST_LOG":
			if v != "error" {
				t.Errorf("RUST_LOG = %q", v)
			}
		}
		names = append(names, k)
	}
	want := []string{"PATH", "CODEX_HOME", "SSL_CERT_FILE", "SSL_CERT_DIR", "HOME", "RUST_LOG"}
	if diff := cmp.Diff(sorted(want), sorted(names)); diff != "" {
		t.Errorf("probe environment (-want +got):\n%s", diff)
	}
	assertNoLeak(t, rec)
}

// PRB-5, PRB-6: signals, exit codes, spawn errors and output floods.
func TestCodex_ProcessEnds_PRB6(t *testing.T) {
	tests := []struct {
		name   string
		binary string
		args   []string
		want   probe.Outcome
		exit   int
		signal string
	}{
		{"killed by SIGTERM is retried", "", []string{"signal", "TERM"},
			probe.Outcome{Code: probe.ModelProbeFailed, Cause: cause(probe.CauseProcessExit, "signal-SIGTERM"), FailureClass: probe.ClassKilled}, -1, "SIGTERM"},
		{"SIGSEGV is named in the cause, not the record", "", []string{"signal", "SEGV"},
			probe.Outcome{Code: probe.ModelProbeFailed, Cause: cause(probe.CauseProcessExit, "signal-SIGSEGV"), FailureClass: probe.ClassOther}, -1, ""},
		{"unknown mode exits 64", "", []string{"bogus"},
			probe.Outcome{Code: probe.ModelProbeFailed, Cause: cause(probe.CauseProcessExit, "exit-64"), FailureClass: probe.ClassOther}, 64, ""},
		{"missing binary", "/nonexistent/codex", nil,
			probe.Outcome{Code: probe.ModelProbeFailed, Cause: cause(probe.CauseProcessExit, "error-ENOENT"), FailureClass: probe.ClassOther}, -1, ""},
		{"output flood", "", []string{"flood"},
			// The stream is cut mid-line, and the stream is read first.
			probe.Outcome{Code: probe.ModelProbeFailed, Cause: cause(probe.CauseInvalidOutput, "json"), FailureClass: probe.ClassOther}, -1, "SIGKILL"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := &recorder{}
			r := codexRunner(t, rec, tt.args...)
			if tt.binary != "" {
				r.Binary, r.Args = tt.binary, []string{}
			}
			r.MaxOutput = 64 << 10
			got, err := r.Run(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Run (-want +got):\n%s", diff)
			}
			first := rec.records[0]
			if first.ExitCode != tt.exit || first.Signal != tt.signal {
				t.Errorf("record exit %d signal %q, want %d %q", first.ExitCode, first.Signal, tt.exit, tt.signal)
			}
			assertNoLeak(t, rec)
		})
	}
}

// PRB-5: a cancelled context ends a running probe and its children, and
// publishes nothing. The cap never passes (the clock is not advanced), so
// only the cancellation can end the run; how long that takes is measured
// by BenchmarkCodexCancel, never asserted.
func TestCodex_CancelKillsTree_PRB5(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "child.pid")
	rec := &recorder{}
	r := codexRunner(t, rec, "child", pidFile)
	published := false
	r.Publish = func(probe.Outcome) { published = true }
	ctx, cancel := context.WithCancel(context.Background())
	wait := inBackground(ctx, r.Run)
	pid := waitForPID(t, pidFile)
	cancel()
	if got := wait(t); got.err != context.Canceled {
		t.Errorf("err = %v", got.err)
	}
	waitDead(t, pid)
	if published || len(rec.records) != 0 {
		t.Errorf("cancelled run published %v, records %+v", published, rec.records)
	}
}

// PRB-5: a timeout kills the whole process tree, not just the leader, in
// each attempt; the retry's cap is what the budget leaves.
func TestCodex_TimeoutKillsTree_PRB5(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "child.pid")
	rec := &recorder{}
	r := codexRunner(t, rec, "child", pidFile)
	clock := r.Clock.(*fakeClock)
	started := clock.Now()
	wait := inBackground(context.Background(), r.Run)
	first := waitForPID(t, pidFile)
	clock.Advance(clock.await(t, 1))
	// The second attempt (after the delay, wait 2) starts its own child.
	secondCap := clock.await(t, 3)
	waitFor(t, "the second attempt's child", func() bool {
		b, err := os.ReadFile(pidFile)
		return err == nil && strings.TrimSpace(string(b)) != "" && strings.TrimSpace(string(b)) != strconv.Itoa(first)
	})
	second := waitForPID(t, pidFile)
	clock.Advance(secondCap)
	got := wait(t)
	if got.err != nil {
		t.Fatal(got.err)
	}
	if got.outcome.Code != probe.ModelProbeTimeout {
		t.Errorf("got %+v", got.outcome)
	}
	if n := len(rec.records); n != 2 {
		t.Errorf("%d records, want 2", n)
	}
	if spent := clock.Now().Sub(started); spent > specBudget {
		t.Errorf("probe outlived its %v budget: %v", specBudget, spent)
	}
	waitDead(t, first)
	waitDead(t, second)
}

// PRB-5: termination during the delay exits at once without another
// probe: the delay never passes (the clock is not advanced), so only the
// cancellation can end the run.
func TestCodex_CancelDuringDelay_PRB5(t *testing.T) {
	dir := t.TempDir()
	mustCopy(t, recording(t, "codex/server-error.jsonl"), filepath.Join(dir, "1.jsonl"))
	mustWrite(t, filepath.Join(dir, "1.exit"), "1")
	rec := &recorder{}
	r := codexRunner(t, rec, "sequence", dir)
	r.Policy.MinDelay, r.Policy.MaxDelay = 5*time.Second, 5*time.Second
	ctx, cancel := context.WithCancel(context.Background())
	r.OnRecord = func(rc probe.Record) { rec.add(rc); go cancel() }
	if got := inBackground(ctx, r.Run)(t); got.err != context.Canceled {
		t.Fatalf("err = %v", got.err)
	}
	if waits := r.Clock.(*fakeClock).waitsAsked(); len(waits) != 2 || waits[1] != 5*time.Second {
		t.Errorf("waits %v, want the cap then the 5 s delay", waits)
	}
	if n := strings.TrimSpace(readFile(t, filepath.Join(dir, "count"))); n != "1" {
		t.Errorf("%s runs, want 1", n)
	}
}

// PRB-5: a model outside openai/ or codex/ starts no process.
func TestCodex_UnavailableStartsNothing_PRB4(t *testing.T) {
	dir := t.TempDir()
	rec := &recorder{}
	r := codexRunner(t, rec, "sequence", dir)
	r.Model = "anthropic/claude-sonnet-4"
	got, err := r.Run(context.Background())
	if err != nil || got.Code != probe.Unavailable {
		t.Fatalf("got %+v %v", got, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "count")); !os.IsNotExist(err) {
		t.Error("a process ran")
	}
}

func mustWrite(t *testing.T, path, s string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(s), 0o600); err != nil {
		t.Fatal(err)
	}
}

func mustCopy(t *testing.T, from, to string) {
	t.Helper()
	mustWrite(t, to, readFile(t, from))
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func sorted(s []string) []string {
	out := append([]string(nil), s...)
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

func waitForPID(t *testing.T, file string) int {
	t.Helper()
	deadline := time.Now().Add(hangLimit)
	for time.Now().Before(deadline) {
		if b, err := os.ReadFile(file); err == nil {
			if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
				return pid
			}
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatal("no child pid")
	return 0
}

// waitDead waits until pid is gone or a zombie (killed, awaiting its reaper).
func waitDead(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(hangLimit)
	for time.Now().Before(deadline) {
		b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil {
			return
		}
		if f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:])); len(f) > 0 && f[0] == "Z" {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Errorf("child %d survived the probe", pid)
}
