package runner

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/occkit/occkit/probe"
)

// The cancellation benchmarks measure how long a cancelled probe takes to
// return, its whole process group killed (PRB-5: termination exits at
// once), as the ms/cancel metric: from cancel to Run's return, once the
// probe process runs. The tests only check that cancellation ends the run;
// a time is a measurement, never a pass/fail threshold on a shared machine.

func BenchmarkCodexCancel(b *testing.B) {
	fake, err := filepath.Abs(filepath.Join("testdata", "fake-codex.sh"))
	if err != nil {
		b.Fatal(err)
	}
	benchCancel(b, func(dir string) (func(context.Context) (probe.Outcome, error), func() bool) {
		pidFile := filepath.Join(dir, "child.pid")
		r := Codex{Model: "openai/gpt-5", Binary: fake, Args: []string{"child", pidFile},
			Environ: secretEnv(), TempDir: dir, Clock: newFakeClock(0)}
		return r.Run, func() bool { _, err := os.Stat(pidFile); return err == nil }
	})
}

func BenchmarkOpenClawCancel(b *testing.B) {
	fake, err := filepath.Abs(filepath.Join("testdata", "fake-openclaw.sh"))
	if err != nil {
		b.Fatal(err)
	}
	benchCancel(b, func(dir string) (func(context.Context) (probe.Outcome, error), func() bool) {
		pressure := filepath.Join(dir, "cpu.pressure")
		if err := os.WriteFile(filepath.Join(dir, "cpu.max"), []byte("max 100000\n"), 0o600); err != nil {
			b.Fatal(err)
		}
		r := OpenClaw{Model: "openai/gpt-4.1", CredentialEnv: "OPENAI_API_KEY", ProbeConfig: []byte(probeConfig),
			Binary: fake, Args: []string{"starve", dir, "1"}, Environ: secretEnv(), TempDir: dir,
			CPU: CPUAccounting{Dir: dir}, Clock: newFakeClock(0)}
		return r.Run, func() bool {
			got, err := os.ReadFile(pressure)
			return err == nil && strings.Contains(string(got), "total=1\n")
		}
	})
}

// benchCancel runs, per iteration, the probe setup makes in a fresh
// directory, waits until running reports its process runs, cancels it
// and times the return.
func benchCancel(b *testing.B, setup func(dir string) (run func(context.Context) (probe.Outcome, error), running func() bool)) {
	var total time.Duration
	for range b.N {
		run, running := setup(b.TempDir())
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { _, err := run(ctx); done <- err }()
		for !running() {
			time.Sleep(time.Millisecond)
		}
		start := time.Now()
		cancel()
		if err := <-done; err != context.Canceled {
			b.Fatalf("err = %v", err)
		}
		total += time.Since(start)
	}
	b.ReportMetric(float64(total.Microseconds())/1e3/float64(b.N), "ms/cancel")
}
