package runner

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"regexp"
	"strings"
	"time"

	"github.com/occkit/occkit/probe"
)

// codexDisabledFeatures are the native features the Codex probe turns off
// so that no executable or external tool can run (PRB-7).
var codexDisabledFeatures = []string{
	"shell_tool", "unified_exec", "code_mode", "code_mode_host", "hooks",
	"apps", "plugins", "remote_plugin", "browser_use", "browser_use_external",
	"browser_use_full_cdp_access", "computer_use", "in_app_browser",
	"image_generation", "view_image", "multi_agent", "multi_agent_v2",
	"sleep_tool", "goals", "workspace_dependencies", "skill_search",
	"skill_mcp_dependency_install", "tool_suggest", "recommended_plugins", "request_permissions_tool",
}

// CodexArgs are the arguments of the Codex probe (PRB-7): user
// configuration and rules ignored, tools disabled, read-only sandbox, no
// approvals, JSON events, the configured primary model only (PRB-10).
func CodexArgs(model, dir string) []string { return codexArgs(model, dir, nil) }

// CodexEndpoint is a custom OpenAI-compatible endpoint the Codex Harness
// reaches instead of the official route (CMP-1). The probe then reaches it
// the same way (PRB-9, "probe included"): over HTTPS Responses streaming
// with WebSockets off. User configuration is ignored, so the route is given
// as command-line overrides.
type CodexEndpoint struct {
	// Provider is the model_providers ID the route is registered under; it
	// must be a bare TOML key (letters, digits, '_' and '-').
	Provider string
	// BaseURL is the endpoint's https:// base URL.
	BaseURL string
	// CredentialEnv names the variable Codex reads the API key from, which
	// the probe environment then keeps; "" uses Codex's stored login.
	CredentialEnv string
}

var (
	codexProviderID = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)
	codexEnvName    = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]{0,127}$`)
)

// valid reports whether the endpoint can be rendered as overrides.
func (e CodexEndpoint) valid() bool {
	return codexProviderID.MatchString(e.Provider) && strings.HasPrefix(e.BaseURL, "https://") &&
		len(e.BaseURL) > len("https://") && (e.CredentialEnv == "" || codexEnvName.MatchString(e.CredentialEnv))
}

// overrides are the `-c` arguments that select the endpoint (PRB-9).
func (e CodexEndpoint) overrides() []string {
	key := "model_providers." + e.Provider + "."
	auth := "requires_openai_auth=true"
	if e.CredentialEnv != "" {
		auth = "env_key=" + tomlString(e.CredentialEnv)
	}
	var args []string
	for _, kv := range []string{
		"model_provider=" + tomlString(e.Provider),
		key + "name=" + tomlString(e.Provider),
		key + "base_url=" + tomlString(e.BaseURL),
		key + `wire_api="responses"`,
		key + "supports_websockets=false",
		key + auth,
	} {
		args = append(args, "-c", kv)
	}
	return args
}

// tomlString renders s as a TOML basic string.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func codexArgs(model, dir string, endpoint *CodexEndpoint) []string {
	var args []string
	for _, f := range codexDisabledFeatures {
		args = append(args, "--disable", f)
	}
	id := model
	if i := strings.IndexByte(model, '/'); i >= 0 {
		id = model[i+1:]
	}
	if endpoint != nil {
		// The stored probe model names no route; a compiled one may
		// (codex/<provider>/vendor/model), as the Harness configuration
		// renders it without.
		id = strings.TrimPrefix(id, endpoint.Provider+"/")
	}
	args = append(args,
		"-a", "never", "exec", "--ephemeral", "--ignore-user-config", "--ignore-rules",
		"--skip-git-repo-check", "--json", "--sandbox", "read-only", "--cd", dir,
		"--model", id,
		"-c", "cli_auth_credentials_store=file",
		"-c", `web_search="disabled"`,
		"-c", "project_doc_max_bytes=0",
		"-c", "check_for_update_on_startup=false",
	)
	if endpoint != nil {
		args = append(args, endpoint.overrides()...)
	}
	return append(args, "Reply only READY. Do not use tools.")
}

// CodexEnvironment names the variables a Codex probe keeps from its
// environment (PRB-7): what the runtime needs plus the TLS trust variables.
// HOME is the probe's own directory and RUST_LOG is "error".
func CodexEnvironment() []string {
	return []string{"PATH", "CODEX_HOME", "SSL_CERT_FILE", "SSL_CERT_DIR"}
}

// Codex runs the Codex model probe as real processes under the retry
// policy (PRB-5): one record per attempt, the final outcome published once
// after retries end. The zero value runs "codex" with the SPEC policy.
type Codex struct {
	// Model is the configured primary model.
	Model string
	// Binary is the codex executable; "" means "codex" on PATH.
	Binary string
	// Args replaces [CodexArgs] when non-nil (the probe directory is
	// not substituted).
	Args []string
	// Endpoint, when set, is the custom OpenAI-compatible endpoint the
	// Harness uses; the probe reaches it too (PRB-9). An endpoint that
	// cannot be rendered makes the attempt [probe.Unavailable].
	Endpoint *CodexEndpoint
	// Environ is the environment the minimal probe environment is drawn
	// from; nil means os.Environ().
	Environ []string
	// TempDir holds the per-attempt probe directories; "" means TMPDIR.
	TempDir string
	// Policy is the retry policy; the zero value is the SPEC's.
	Policy probe.RetryPolicy
	// Clock and Jitter are injected for tests; nil means the real clock and
	// a uniform random jitter in [0, 1).
	Clock  Clock
	Jitter func() float64
	// Logger receives one record per attempt (message = event name).
	Logger *slog.Logger
	// OnRecord receives the same records.
	OnRecord func(probe.Record)
	// Publish receives the final outcome, once, after retries end; it is
	// not called when ctx ends the run. A [probe.Held]'s Publish fits here.
	Publish func(probe.Outcome)
	// MaxOutput caps each output stream; 0 means [DefaultMaxOutput].
	MaxOutput int
}

// Run probes until the policy settles and returns the final outcome. A
// cancelled ctx stops a running attempt (its whole process group) or the
// delay at once and returns ctx.Err() without publishing.
func (r Codex) Run(ctx context.Context) (probe.Outcome, error) {
	clock := r.Clock
	if clock == nil {
		clock = realClock{}
	}
	jitter := r.Jitter
	if jitter == nil {
		jitter = rand.Float64
	}
	start := clock.Now()
	timeout := r.Policy.Timeout(0)
	var final probe.Outcome
	for attempt := 1; ; attempt++ {
		if timeout <= 0 {
			final = probe.Outcome{Code: probe.ModelProbeTimeout, FailureClass: probe.ClassTimeout}
			break
		}
		o, exit, elapsed, err := r.attempt(ctx, clock, timeout)
		if err != nil {
			return probe.Outcome{}, err
		}
		emit(ctx, r.Logger, r.OnRecord, probe.Record{
			Event: probe.EventCodex, Attempt: attempt, ElapsedMs: elapsed.Milliseconds(),
			ExitCode: exit.Code, Signal: exit.RecordSignal(), Code: o.Code, Cause: o.Cause,
			FailureClass: o.FailureClass,
		})
		step := r.Policy.Next(attempt, probe.Attempt{Code: o.Code, FailureClass: o.FailureClass, Elapsed: elapsed},
			clock.Now().Sub(start), jitter())
		if !step.Retry {
			final = o
			if step.Final != o.Code {
				final = probe.Outcome{Code: step.Final}
			}
			break
		}
		select {
		case <-clock.After(step.Delay):
		case <-ctx.Done():
			return probe.Outcome{}, ctx.Err()
		}
		timeout = r.Policy.Timeout(clock.Now().Sub(start))
	}
	if err := ctx.Err(); err != nil {
		return probe.Outcome{}, err
	}
	if r.Publish != nil {
		r.Publish(final)
	}
	return final, nil
}

// attempt runs one probe process in a fresh directory and classifies it.
func (r Codex) attempt(ctx context.Context, clock Clock, timeout time.Duration) (probe.Outcome, probe.Exit, time.Duration, error) {
	if !(probe.CodexPreconditions{Model: r.Model}).Hold() || (r.Endpoint != nil && !r.Endpoint.valid()) {
		return probe.Outcome{Code: probe.Unavailable, FailureClass: probe.ClassOther}, probe.Exit{Code: -1}, 0, nil
	}
	dir, err := os.MkdirTemp(r.TempDir, "codex-auth-probe-")
	if err != nil {
		o := wrapperError
		o.FailureClass = probe.ClassOther
		return o, probe.Exit{Code: -1}, 0, nil
	}
	defer os.RemoveAll(dir)
	binary, args := r.Binary, r.Args
	if binary == "" {
		binary = "codex"
	}
	if args == nil {
		args = codexArgs(r.Model, dir, r.Endpoint)
	}
	source := r.Environ
	if source == nil {
		source = os.Environ()
	}
	keep := CodexEnvironment()
	if r.Endpoint != nil && r.Endpoint.CredentialEnv != "" {
		keep = append(keep, r.Endpoint.CredentialEnv)
	}
	f, err := execute(ctx, clock, process{
		path: binary, args: args, dir: dir, timeout: timeout, max: r.MaxOutput,
		env: environ(source, keep, map[string]string{"HOME": dir, "RUST_LOG": "error"}),
	})
	if err != nil {
		return probe.Outcome{}, probe.Exit{}, 0, err
	}
	o := probe.ClassifyCodex(probe.CodexRun{Model: r.Model, Stdout: f.stdout, Stderr: f.stderr, Exit: f.exit, TimedOut: f.timedOut})
	return o, f.exit, f.elapsed, nil
}
