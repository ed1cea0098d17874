package logging

import (
	"github.com/occkit/occkit"
)

// Environment variable names the render sets or clears.
const (
	// EnvConfigPath is the variable an OpenClaw process finds its native
	// document through; where the document lives is the Compute's choice
	// (package compile plans it as a file by role).
	EnvConfigPath       = "OPENCLAW_CONFIG_PATH"
	EnvOpenClawLogLevel = "OPENCLAW_LOG_LEVEL"
	EnvLogFormat        = "LOG_FORMAT"
	EnvRustLog          = "RUST_LOG"
)

// codexOverrides are the host-owned codex configuration overrides (LOG-4),
// given as `-c key=value` arguments whose values are TOML.
var codexOverrides = []string{
	"-c", `otel.exporter="none"`,
	"-c", "otel.log_user_prompt=false",
}

// Rendered is the logging part of one container's launch (LOG-4, LOG-5).
// It never holds a credential: only names, fixed values and the level.
type Rendered struct {
	// Env lists the variables to set, in a stable order: literals only
	// (Name and Value; never a reference or a placeholder).
	Env []occkit.EnvVar
	// Unset lists inherited variables the launch must remove because they
	// would override the admitted level (OPENCLAW_LOG_LEVEL).
	Unset []string
	// Args are the logging arguments of the process, in order: for Codex
	// the `-c` overrides, which precede the app-server subcommand.
	Args []string
	// Command is the process's argv with Args in place (Codex:
	// codex <Args> app-server), or nil when the render does not own the
	// command line (OpenClaw is configured through its document and takes
	// no verbosity flags).
	Command []string
	// ReadsDocument says the process reads its native document, found
	// through [EnvConfigPath]; the Compute places the file and sets the
	// variable (LOG-4: Kubernetes mounts it read-only under /etc/openclaw).
	ReadsDocument bool
	// StderrOnly says a Collector must read stderr only: the process's
	// stdout is protocol output (the Codex app-server).
	StderrOnly bool
}

// Lookup returns the value of the named variable in r.Env.
func (r Rendered) Lookup(name string) (string, bool) {
	for _, e := range r.Env {
		if e.Name == name {
			return e.Value, true
		}
	}
	return "", false
}

// Render returns the logging environment and arguments of one process
// (container) of a platform-owned deployment (LOG-4, LOG-5). The level is the one [CheckStamp]
// admitted. A zero mode means the Harness's only or default mode: dedicated
// for Codex, embedded for OpenClaw. The process is the vocabulary's role:
// [occkit.ProcessGateway] is the OpenClaw gateway (in an embedded topology
// the one combined gateway/Harness process); [occkit.ProcessHarness] is the
// Codex app-server of dedicated Codex, the native OpenClaw Harness of
// dedicated OpenClaw, and (again) the combined process of embedded OpenClaw.
//
//   - OpenClaw processes (the gateway of every topology, the combined
//     process of embedded OpenClaw and the native Harness of dedicated
//     OpenClaw) read the admitted document, whose stamp sets JSON console
//     logging at the level and turns OTLP log export off
//     ([Rendered.ReadsDocument]; the Compute points OPENCLAW_CONFIG_PATH
//     at it) and OPENCLAW_LOG_LEVEL is removed so nothing overrides it.
//   - The Codex app-server gets LOG_FORMAT=json,
//     RUST_LOG=<level>,codex_otel=off (the admitted level names are
//     tracing's filter names unchanged) and the overrides
//     -c otel.exporter="none" -c otel.log_user_prompt=false before the
//     app-server subcommand. Collectors read its stderr only.
//
// Nothing rendered turns console or tool redaction off (LOG-5). An unknown
// Harness, mode, container or level, or a topology outside RES-11 (embedded
// Codex), is a 400 INVALID_REQUEST. Driver-managed runtimes (LOG-3) are not
// rendered here.
func Render(harness occkit.Harness, mode occkit.Mode, process occkit.Process, level occkit.LogLevel) (Rendered, error) {
	if err := checkProcess(harness, mode, process, level); err != nil {
		return Rendered{}, err
	}
	if process == occkit.ProcessHarness && harness == occkit.HarnessCodex {
		return renderCodex(level), nil
	}
	return renderOpenClaw(), nil
}

// checkProcess is Render's refusal, first one first, without the
// rendering: the level, the Harness, the mode (embedded OpenClaw, dedicated
// Codex when empty), the topology (RES-11) and the container.
func checkProcess(harness occkit.Harness, mode occkit.Mode, process occkit.Process, level occkit.LogLevel) error {
	if !level.Valid() {
		return invalidLevel()
	}
	switch harness {
	case occkit.HarnessOpenClaw:
		if mode == "" {
			mode = occkit.ModeEmbedded
		}
	case occkit.HarnessCodex:
		if mode == "" {
			mode = occkit.ModeDedicated
		}
	default:
		return occkit.Invalid("LOG-4", occkit.RenderPath("harness"), "harness must be openclaw or codex")
	}
	switch mode {
	case occkit.ModeEmbedded, occkit.ModeDedicated:
	default:
		return occkit.Invalid("LOG-4", occkit.RenderPath("executionMode"), "executionMode must be embedded or dedicated")
	}
	if err := (occkit.Topology{Harness: harness, Mode: mode}).Check(); err != nil {
		return err
	}
	if process != occkit.ProcessGateway && process != occkit.ProcessHarness {
		return occkit.Invalid("LOG-4", occkit.RenderPath("container"), "container must be gateway or harness")
	}
	return nil
}

func renderOpenClaw() Rendered {
	return Rendered{Env: []occkit.EnvVar{}, Unset: []string{EnvOpenClawLogLevel}, ReadsDocument: true}
}

func renderCodex(level occkit.LogLevel) Rendered {
	args := append([]string(nil), codexOverrides...)
	return Rendered{
		Env: []occkit.EnvVar{
			{Name: EnvLogFormat, Value: "json"},
			{Name: EnvRustLog, Value: string(level) + ",codex_otel=off"},
		},
		Args:       args,
		Command:    append(append([]string{"codex"}, args...), "app-server"),
		StderrOnly: true,
	}
}
