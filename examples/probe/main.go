// Probe shows occkit's model probe (PRB-1..PRB-8) in two parts:
//
//  1. classifying recorded `codex exec --json` streams (testdata/streams,
//     shipped with the example) into a final code and cause, as a
//     runtime wrapper does once a probe has ended;
//  2. running the Codex probe for real with its retry policy
//     ([runner.Codex] of probe/runner), against a small fake `codex`
//     program (./fakecodex) that the example builds with `go build`: one
//     run that recovers after a provider 503 and one that fails
//     authentication. It prints every `codex.model_probe` record, the
//     final code and what the deployment worker does with it.
//
// Run it from the repository root:
//
//	go run ./examples/probe
//	go run ./examples/probe -stream my-probe.jsonl   # classify one stream
//
// Records and outcomes carry closed tokens only: the fake prints a planted
// API key on every stream, and it never reaches the output.
package main

import (
	"context"
	"embed"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"time"

	"github.com/occkit/occkit/probe"
	"github.com/occkit/occkit/probe/runner"
)

//go:embed testdata/streams/*.jsonl
var streams embed.FS

// model is the configured primary model the probes call (PRB-10).
const model = "openai/gpt-5"

func main() {
	stream := flag.String("stream", "", "classify this recorded JSONL stream instead of the shipped ones")
	flag.Parse()
	if err := demo(context.Background(), *stream, os.Stdout, probe.RetryPolicy{}); err != nil {
		fmt.Fprintln(os.Stderr, "probe:", err)
		os.Exit(1)
	}
}

// demo classifies the streams, then builds the fake codex and probes it
// under policy (the zero value is the SPEC's: one retry after 1–1.5 s,
// 30 s per attempt, 61 s in all).
func demo(ctx context.Context, stream string, w io.Writer, policy probe.RetryPolicy) error {
	fmt.Fprintln(w, "== classify recorded streams (PRB-4)")
	if stream != "" {
		b, err := os.ReadFile(stream)
		if err != nil {
			return err
		}
		printOutcome(w, filepath.Base(stream), probe.ClassifyCodex(probe.CodexRun{Model: model, Stdout: b}))
		return nil
	}
	names, err := fs.Glob(streams, "testdata/streams/*.jsonl")
	if err != nil {
		return err
	}
	for _, name := range names {
		b, err := streams.ReadFile(name)
		if err != nil {
			return err
		}
		// A recorded stream of an attempt that exited cleanly.
		printOutcome(w, path.Base(name), probe.ClassifyCodex(probe.CodexRun{Model: model, Stdout: b}))
	}

	dir, err := os.MkdirTemp("", "occkit-probe-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	bin := filepath.Join(dir, "codex")
	build := exec.CommandContext(ctx, "go", "build", "-o", bin, "github.com/occkit/occkit/examples/probe/fakecodex")
	if out, err := build.CombinedOutput(); err != nil {
		return fmt.Errorf("building the fake codex: %v\n%s", err, out)
	}

	for i, sc := range []struct{ title, script string }{
		{"a provider 503, then READY: retried once (PRB-5)", "unavailable ready"},
		{"a 401: authentication fails at once, no retry (PRB-3)", "unauthorized"},
	} {
		fmt.Fprintf(w, "\n== probe: %s\n", sc.title)
		if err := probeOnce(ctx, w, bin, filepath.Join(dir, fmt.Sprintf("home-%d", i)), sc.script, policy); err != nil {
			return err
		}
	}
	return nil
}

// probeOnce runs the Codex probe against the fake, whose CODEX_HOME holds
// the scenario script.
func probeOnce(ctx context.Context, w io.Writer, bin, home, script string, policy probe.RetryPolicy) error {
	if err := os.MkdirAll(home, 0o700); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(home, "script"), []byte(script), 0o600); err != nil {
		return err
	}
	var held probe.Held
	r := runner.Codex{
		Model:  model,
		Binary: bin,
		// The runner keeps only what Codex needs from this environment
		// (PRB-7): the planted key is dropped before the process starts.
		Environ: []string{"PATH=" + os.Getenv("PATH"), "CODEX_HOME=" + home, "OPENAI_API_KEY=sk-live-PARENT-SECRET"},
		TempDir: home,
		Policy:  policy,
		OnRecord: func(rec probe.Record) {
			b, err := json.Marshal(rec)
			if err != nil {
				b = []byte(err.Error())
			}
			fmt.Fprintf(w, "record  %s\n", b)
		},
		Publish: held.Publish,
	}
	start := time.Now()
	out, err := r.Run(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "took    %.1f s (a retry waits 1–1.5 s first)\n", time.Since(start).Seconds())
	printOutcome(w, "final", out)
	worker := out.Code.Worker()
	fmt.Fprintf(w, "worker  deploymentCode=%q failsAtOnce=%t redeploy=%t\n", worker.DeploymentCode, worker.FailsAtOnce, worker.Redeploy)
	fmt.Fprintf(w, "held    ready=%t (readiness polling reads this; it never probes again)\n", held.Ready())
	return nil
}

func printOutcome(w io.Writer, what string, o probe.Outcome) {
	fmt.Fprintf(w, "%-22s %s", what, o.Code)
	if !o.Cause.IsZero() {
		fmt.Fprintf(w, " cause=%s", o.Cause)
	}
	if o.FailureClass != "" {
		fmt.Fprintf(w, " failureClass=%s", o.FailureClass)
	}
	fmt.Fprintln(w)
}
