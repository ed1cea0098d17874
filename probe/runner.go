package probe

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"

	"github.com/occkit/occkit"
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

// CodexProbeArgs are the arguments of the Codex probe (PRB-7): user
// configuration and rules ignored, tools disabled, read-only sandbox, no
// approvals, JSON events, the configured primary model only (PRB-10).
func CodexProbeArgs(model, dir string) []string { return codexProbeArgs(model, dir, nil) }

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

func codexProbeArgs(model, dir string, endpoint *CodexEndpoint) []string {
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

// CodexRunner runs the Codex model probe as real processes under the retry
// policy (PRB-5): one record per attempt, the final outcome published once
// after retries end. The zero value runs "codex" with the SPEC policy.
type CodexRunner struct {
	// Model is the configured primary model.
	Model string
	// Binary is the codex executable; "" means "codex" on PATH.
	Binary string
	// Args replaces [CodexProbeArgs] when non-nil (the probe directory is
	// not substituted).
	Args []string
	// Endpoint, when set, is the custom OpenAI-compatible endpoint the
	// Harness uses; the probe reaches it too (PRB-9). An endpoint that
	// cannot be rendered makes the attempt [Unavailable].
	Endpoint *CodexEndpoint
	// Environ is the environment the minimal probe environment is drawn
	// from; nil means os.Environ().
	Environ []string
	// TempDir holds the per-attempt probe directories; "" means TMPDIR.
	TempDir string
	// Policy is the retry policy; the zero value is the SPEC's.
	Policy RetryPolicy
	// Clock and Jitter are injected for tests; nil means the real clock and
	// a uniform random jitter in [0, 1).
	Clock  Clock
	Jitter func() float64
	// Logger receives one record per attempt (message = event name).
	Logger *slog.Logger
	// OnRecord receives the same records.
	OnRecord func(Record)
	// Publish receives the final outcome, once, after retries end; it is
	// not called when ctx ends the run. A [Held]'s Publish fits here.
	Publish func(Outcome)
	// MaxOutput caps each output stream; 0 means [DefaultMaxOutput].
	MaxOutput int
}

// Run probes until the policy settles and returns the final outcome. A
// cancelled ctx stops a running attempt (its whole process group) or the
// delay at once and returns ctx.Err() without publishing.
func (r CodexRunner) Run(ctx context.Context) (Outcome, error) {
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
	var final Outcome
	for attempt := 1; ; attempt++ {
		if timeout <= 0 {
			final = Outcome{Code: ModelProbeTimeout, FailureClass: ClassTimeout}
			break
		}
		o, exit, elapsed, err := r.attempt(ctx, clock, timeout)
		if err != nil {
			return Outcome{}, err
		}
		emit(ctx, r.Logger, r.OnRecord, Record{
			Event: EventCodex, Attempt: attempt, ElapsedMs: elapsed.Milliseconds(),
			ExitCode: exit.Code, Signal: exit.RecordSignal(), Code: o.Code, Cause: o.Cause,
			FailureClass: o.FailureClass,
		})
		step := r.Policy.Next(attempt, Attempt{Code: o.Code, FailureClass: o.FailureClass, Elapsed: elapsed},
			clock.Now().Sub(start), jitter())
		if !step.Retry {
			final = o
			if step.Final != o.Code {
				final = Outcome{Code: step.Final}
			}
			break
		}
		select {
		case <-clock.After(step.Delay):
		case <-ctx.Done():
			return Outcome{}, ctx.Err()
		}
		timeout = r.Policy.Timeout(clock.Now().Sub(start))
	}
	if err := ctx.Err(); err != nil {
		return Outcome{}, err
	}
	if r.Publish != nil {
		r.Publish(final)
	}
	return final, nil
}

// attempt runs one probe process in a fresh directory and classifies it.
func (r CodexRunner) attempt(ctx context.Context, clock Clock, timeout time.Duration) (Outcome, Exit, time.Duration, error) {
	if !codexModel.MatchString(r.Model) || (r.Endpoint != nil && !r.Endpoint.valid()) {
		return Outcome{Code: Unavailable, FailureClass: ClassOther}, Exit{Code: -1}, 0, nil
	}
	dir, err := os.MkdirTemp(r.TempDir, "codex-auth-probe-")
	if err != nil {
		o := failed(CauseWrapperError, "")
		o.FailureClass = ClassOther
		return o, Exit{Code: -1}, 0, nil
	}
	defer os.RemoveAll(dir)
	binary, args := r.Binary, r.Args
	if binary == "" {
		binary = "codex"
	}
	if args == nil {
		args = codexProbeArgs(r.Model, dir, r.Endpoint)
	}
	source := r.Environ
	if source == nil {
		source = os.Environ()
	}
	keep := CodexEnvironment()
	if r.Endpoint != nil && r.Endpoint.CredentialEnv != "" {
		keep = append(keep, r.Endpoint.CredentialEnv)
	}
	f, err := run(ctx, clock, process{
		path: binary, args: args, dir: dir, timeout: timeout, max: r.MaxOutput,
		env: environ(source, keep, map[string]string{"HOME": dir, "RUST_LOG": "error"}),
	})
	if err != nil {
		return Outcome{}, Exit{}, 0, err
	}
	o := ClassifyCodex(CodexRun{Model: r.Model, Stdout: f.stdout, Stderr: f.stderr, Exit: f.exit, TimedOut: f.timedOut})
	return o, f.exit, f.elapsed, nil
}

// OpenClawEnvironment names the variables an OpenClaw probe keeps from its
// environment, besides the provider credential.
func OpenClawEnvironment() []string {
	return []string{"PATH", "NODE_COMPILE_CACHE", "NODE_EXTRA_CA_CERTS", "SSL_CERT_FILE", "SSL_CERT_DIR"}
}

// OpenClawProbeArgs are the arguments of `openclaw models status` for one
// native probe of provider (PRB-2): one probe, 15 s turn, 256 tokens.
func OpenClawProbeArgs(provider string) []string {
	return []string{
		"/app/openclaw.mjs", "models", "status", "--json", "--probe",
		"--probe-provider", provider, "--probe-concurrency", "1",
		"--probe-timeout", "15000", "--probe-max-tokens", "256",
	}
}

// OpenClawRunner runs the OpenClaw model probe once as a real process
// (PRB-2): preconditions, the optional upfront 401 check, then the native
// probe under its CPU-derived cap. The zero value runs node with the
// reference arguments.
type OpenClawRunner struct {
	// Model is the configured primary model; Provider "" derives it.
	Model, Provider string
	// CredentialEnv names the provider credential variable.
	CredentialEnv string
	// ProbeConfig is the probe's native configuration (JSON); its
	// agents.defaults.model must equal Model.
	ProbeConfig []byte
	// Binary and Args replace node and [OpenClawProbeArgs] when set.
	Binary string
	Args   []string
	// Environ is the source environment; nil means os.Environ().
	Environ []string
	// TempDir holds the probe directory; "" means TMPDIR.
	TempDir string
	// CPU is the cgroup the cap and CPU wait come from.
	CPU CPUAccounting
	// Cap replaces the cgroup-derived cap when positive.
	Cap time.Duration
	// Upfront, when set, runs the upfront 401 check first (PRB-3).
	Upfront *Upfront
	// Clock is injected for tests; nil means the real clock.
	Clock Clock
	// Logger and OnRecord receive the one openclaw.model_probe record.
	Logger   *slog.Logger
	OnRecord func(Record)
	// Publish receives the outcome once.
	Publish func(Outcome)
	// MaxOutput caps each output stream; 0 means [DefaultMaxOutput].
	MaxOutput int
}

// Run runs the probe once. A cancelled ctx stops it at once and returns
// ctx.Err() without publishing.
func (r OpenClawRunner) Run(ctx context.Context) (Outcome, error) {
	clock := r.Clock
	if clock == nil {
		clock = realClock{}
	}
	limit := r.Cap
	if limit <= 0 {
		limit = r.CPU.Cap()
	}
	meter := r.CPU.Start()
	started := clock.Now()
	o, atCap, err := r.probe(ctx, clock, limit)
	if err != nil {
		return Outcome{}, err
	}
	elapsed := clock.Now().Sub(started)
	wait, known := meter.Wait()
	if atCap {
		o = Outcome{Code: AtCap(elapsed, wait, known)}
	}
	waitMs := int64(-1)
	if known {
		waitMs = wait.Milliseconds()
	}
	emit(ctx, r.Logger, r.OnRecord, Record{
		Event: EventOpenClaw, ElapsedMs: elapsed.Milliseconds(), CapMs: limit.Milliseconds(),
		CPUWaitMs: waitMs, Code: o.Code, Cause: o.Cause, ExitCode: -1,
	})
	if r.Publish != nil {
		r.Publish(o)
	}
	return o, nil
}

// probe returns the outcome and whether the run reached its cap, which Run
// decides with the CPU wait ([AtCap]).
func (r OpenClawRunner) probe(ctx context.Context, clock Clock, limit time.Duration) (Outcome, bool, error) {
	provider := providerOf(r.Provider, r.Model)
	source := r.Environ
	if source == nil {
		source = os.Environ()
	}
	credential := ""
	for _, kv := range source {
		if k, v, ok := strings.Cut(kv, "="); ok && k == r.CredentialEnv && r.CredentialEnv != "" {
			credential = v
		}
	}
	if !validJSON(r.ProbeConfig) {
		return Outcome{Code: Unavailable}, false, nil
	}
	config := gjson.ParseBytes(r.ProbeConfig)
	pre := OpenClawPreconditions{
		Provider: provider, Model: r.Model, CredentialPresent: strings.TrimSpace(credential) != "",
		ProbeConfigModel: stringAt(config, "agents.defaults.model"),
	}
	if !pre.Hold() {
		return Outcome{Code: Unavailable}, false, nil
	}
	if r.Upfront != nil {
		fragment := config.Get(occkit.NewPath("models", "providers").Key(provider).GJSON())
		if api, ok := upfrontEligible(Provider(provider), fragment); ok {
			if u := r.Upfront.Check(ctx, Provider(provider), api, credential); u.Code == AuthenticationFailed {
				return Outcome{Code: AuthenticationFailed}, false, nil
			}
		}
		if err := ctx.Err(); err != nil {
			return Outcome{}, false, err
		}
	}
	dir, err := os.MkdirTemp(r.TempDir, "openclaw-auth-probe-")
	if err != nil {
		return failed(CauseWrapperError, ""), false, nil
	}
	defer os.RemoveAll(dir)
	doc, err := sjson.SetBytes(r.ProbeConfig, "agents.defaults.workspace", filepath.Join(dir, "workspace"))
	if err != nil || os.Mkdir(filepath.Join(dir, "workspace"), 0o700) != nil {
		return failed(CauseWrapperError, ""), false, nil
	}
	configPath := filepath.Join(dir, "openclaw.json")
	if os.WriteFile(configPath, doc, 0o600) != nil {
		return failed(CauseWrapperError, ""), false, nil
	}
	binary, args := r.Binary, r.Args
	if binary == "" {
		binary = "node"
	}
	if args == nil {
		args = OpenClawProbeArgs(provider)
	}
	overrides := map[string]string{
		"HOME": dir, "TMPDIR": dir, "OPENCLAW_STATE_DIR": filepath.Join(dir, "state"),
		"OPENCLAW_CONFIG_PATH": configPath,
	}
	if r.CredentialEnv != "" {
		overrides[r.CredentialEnv] = credential
	}
	f, err := run(ctx, clock, process{
		path: binary, args: args, dir: dir, timeout: limit, max: r.MaxOutput,
		env: environ(source, OpenClawEnvironment(), overrides),
	})
	if err != nil {
		return Outcome{}, false, err
	}
	if f.timedOut {
		return Outcome{}, true, nil
	}
	return ClassifyOpenClaw(OpenClawRun{Provider: provider, Model: r.Model, Stdout: f.stdout, Exit: f.exit}), false, nil
}
