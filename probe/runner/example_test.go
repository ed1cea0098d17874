package runner_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/occkit/occkit/probe"
	"github.com/occkit/occkit/probe/runner"
)

// A Codex probe run by a stand-in for `codex exec --json` that replays a
// recorded stream. The stand-in also prints a planted key, which no record
// carries.
func ExampleCodex() {
	fake, _ := filepath.Abs("testdata/fake-codex.sh")
	stream, _ := filepath.Abs("../testdata/codex/ready.jsonl")
	var held probe.Held
	r := runner.Codex{
		Model:   "openai/gpt-5",
		Binary:  fake,
		Args:    []string{"replay", stream},
		Environ: []string{"PATH=" + os.Getenv("PATH"), "OPENAI_API_KEY=sk-live-PARENT-SECRET"},
		OnRecord: func(r probe.Record) {
			fmt.Println(r.Event, "attempt", r.Attempt, r.Code)
		},
		Publish: held.Publish,
	}
	o, err := r.Run(context.Background())
	if err != nil {
		panic(err)
	}
	fmt.Println(o.Code, held.Ready())
	// Output:
	// codex.model_probe attempt 1 READY
	// READY true
}

// The arguments of the Codex probe: no user configuration, no tools, a
// read-only sandbox, JSON events, the configured model's ID.
func ExampleCodexArgs() {
	args := runner.CodexArgs("openai/gpt-5", "/tmp/probe")
	fmt.Println(args[len(args)-1])
	for i, a := range args {
		if a == "--model" || a == "--sandbox" {
			fmt.Println(a, args[i+1])
		}
	}
	// Output:
	// Reply only READY. Do not use tools.
	// --sandbox read-only
	// --model gpt-5
}

// An OpenClaw probe whose preconditions do not hold starts nothing: the
// provider credential is missing.
func ExampleOpenClaw() {
	r := runner.OpenClaw{
		Model:         "openai/gpt-4.1",
		CredentialEnv: "OPENAI_API_KEY",
		ProbeConfig:   []byte(`{"agents":{"defaults":{"model":"openai/gpt-4.1"}}}`),
		Binary:        "/nonexistent/openclaw",
		Environ:       []string{"PATH=/usr/bin"},
		Cap:           65 * time.Second,
		OnRecord: func(r probe.Record) {
			fmt.Println(r.Event, r.Code, "cap", r.CapMs, "ms")
		},
	}
	o, err := r.Run(context.Background())
	if err != nil {
		panic(err)
	}
	fmt.Println(o.Code)
	// Output:
	// openclaw.model_probe UNAVAILABLE cap 65000 ms
	// UNAVAILABLE
}
