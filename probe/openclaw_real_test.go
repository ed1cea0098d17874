package probe

import (
	"testing"
)

// PRB-2 on output the real CLI printed: `openclaw models status --json
// --probe --probe-provider openai --probe-concurrency 1 --probe-timeout
// 15000 --probe-max-tokens 256` of openclaw@2026.9.6 on node 24, run against
// a loopback provider scripted to answer each way (temporary directories
// renamed). The transient answers come after OpenClaw's same-model retries
// (up to its 90 s window), so a startup probe under a 65 s cap sees them
// only as the cap (internal/realgateway runs the CLI itself).
func TestClassifyOpenClaw_RealOutput_PRB2(t *testing.T) {
	tests := []struct {
		file string
		want Outcome
	}{
		{"ok.json", Outcome{Code: Ready}},
		{"unauthorized-401.json", Outcome{Code: AuthenticationFailed}},
		{"forbidden-403.json", Outcome{Code: AuthenticationFailed}},
		{"server-error-500.json", failed(CauseProbeStatus, "unknown")},
		{"overloaded-529.json", failed(CauseProbeStatus, "rate_limit")},
		{"hang.json", Outcome{Code: ModelProbeTimeout}},
		{"dropped.json", Outcome{Code: ModelProbeTimeout}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			out := readTestdata(t, "openclaw/real/"+tt.file)
			run := OpenClawRun{Model: "openai/gpt-4.1", Stdout: out}
			if got := ClassifyOpenClaw(run); got != tt.want {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
			// The same output for another model, or from a failed exit,
			// is not the probe of the configured primary model.
			run.Model = "openai/gpt-5"
			if got := ClassifyOpenClaw(run); got != failed(CauseInvalidOutput, "shape") {
				t.Errorf("another model: %+v", got)
			}
			run.Model, run.Exit = "openai/gpt-4.1", Exit{Code: 1}
			if got := ClassifyOpenClaw(run); got != failed(CauseProcessExit, "exit-1") {
				t.Errorf("exit 1: %+v", got)
			}
		})
	}
}
