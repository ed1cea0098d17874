package runner

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/tidwall/sjson"

	"github.com/occkit/occkit/probe"
)

// OpenClawEnvironment names the variables an OpenClaw probe keeps from its
// environment, besides the provider credential.
func OpenClawEnvironment() []string {
	return []string{"PATH", "NODE_COMPILE_CACHE", "NODE_EXTRA_CA_CERTS", "SSL_CERT_FILE", "SSL_CERT_DIR"}
}

// OpenClawArgs are the arguments of `openclaw models status` for one
// native probe of provider (PRB-2): one probe, 15 s turn, 256 tokens.
func OpenClawArgs(provider string) []string {
	return []string{
		"/app/openclaw.mjs", "models", "status", "--json", "--probe",
		"--probe-provider", provider, "--probe-concurrency", "1",
		"--probe-timeout", "15000", "--probe-max-tokens", "256",
	}
}

// OpenClaw runs the OpenClaw model probe once as a real process
// (PRB-2): preconditions, the optional upfront 401 check, then the native
// probe under its CPU-derived cap. The zero value runs node with the
// reference arguments.
type OpenClaw struct {
	// Model is the configured primary model; Provider "" derives it.
	Model, Provider string
	// CredentialEnv names the provider credential variable.
	CredentialEnv string
	// ProbeConfig is the probe's native configuration (JSON); its
	// agents.defaults.model must equal Model.
	ProbeConfig []byte
	// Binary and Args replace node and [OpenClawArgs] when set.
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
	OnRecord func(probe.Record)
	// Publish receives the outcome once.
	Publish func(probe.Outcome)
	// MaxOutput caps each output stream; 0 means [DefaultMaxOutput].
	MaxOutput int
}

// Run runs the probe once. A cancelled ctx stops it at once and returns
// ctx.Err() without publishing.
func (r OpenClaw) Run(ctx context.Context) (probe.Outcome, error) {
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
	o, atCap, err := r.attempt(ctx, clock, limit)
	if err != nil {
		return probe.Outcome{}, err
	}
	elapsed := clock.Now().Sub(started)
	wait, known := meter.Wait()
	if atCap {
		o = probe.Outcome{Code: probe.AtCap(elapsed, wait, known)}
	}
	waitMs := int64(-1)
	if known {
		waitMs = wait.Milliseconds()
	}
	emit(ctx, r.Logger, r.OnRecord, probe.Record{
		Event: probe.EventOpenClaw, ElapsedMs: elapsed.Milliseconds(), CapMs: limit.Milliseconds(),
		CPUWaitMs: waitMs, Code: o.Code, Cause: o.Cause, ExitCode: -1,
	})
	if r.Publish != nil {
		r.Publish(o)
	}
	return o, nil
}

// attempt returns the outcome and whether the run reached its cap, which Run
// decides with the CPU wait ([probe.AtCap]).
func (r OpenClaw) attempt(ctx context.Context, clock Clock, limit time.Duration) (probe.Outcome, bool, error) {
	provider := r.Provider
	if provider == "" {
		provider = probe.ModelProvider(r.Model)
	}
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
	model, entry, ok := probe.ReadOpenClawConfig(r.ProbeConfig, provider)
	if !ok {
		return probe.Outcome{Code: probe.Unavailable}, false, nil
	}
	pre := probe.OpenClawPreconditions{
		Provider: provider, Model: r.Model, CredentialPresent: strings.TrimSpace(credential) != "",
		ProbeConfigModel: model,
	}
	if !pre.Hold() {
		return probe.Outcome{Code: probe.Unavailable}, false, nil
	}
	if r.Upfront != nil {
		if api, ok := probe.UpfrontEligible(probe.Provider(provider), entry); ok {
			if u := r.Upfront.Check(ctx, probe.Provider(provider), api, credential); u.Code == probe.AuthenticationFailed {
				return probe.Outcome{Code: probe.AuthenticationFailed}, false, nil
			}
		}
		if err := ctx.Err(); err != nil {
			return probe.Outcome{}, false, err
		}
	}
	dir, err := os.MkdirTemp(r.TempDir, "openclaw-auth-probe-")
	if err != nil {
		return wrapperError, false, nil
	}
	defer os.RemoveAll(dir)
	doc, err := sjson.SetBytes(r.ProbeConfig, "agents.defaults.workspace", filepath.Join(dir, "workspace"))
	if err != nil || os.Mkdir(filepath.Join(dir, "workspace"), 0o700) != nil {
		return wrapperError, false, nil
	}
	configPath := filepath.Join(dir, "openclaw.json")
	if os.WriteFile(configPath, doc, 0o600) != nil {
		return wrapperError, false, nil
	}
	binary, args := r.Binary, r.Args
	if binary == "" {
		binary = "node"
	}
	if args == nil {
		args = OpenClawArgs(provider)
	}
	overrides := map[string]string{
		"HOME": dir, "TMPDIR": dir, "OPENCLAW_STATE_DIR": filepath.Join(dir, "state"),
		"OPENCLAW_CONFIG_PATH": configPath,
	}
	if r.CredentialEnv != "" {
		overrides[r.CredentialEnv] = credential
	}
	f, err := execute(ctx, clock, process{
		path: binary, args: args, dir: dir, timeout: limit, max: r.MaxOutput,
		env: environ(source, OpenClawEnvironment(), overrides),
	})
	if err != nil {
		return probe.Outcome{}, false, err
	}
	if f.timedOut {
		return probe.Outcome{}, true, nil
	}
	return probe.ClassifyOpenClaw(probe.OpenClawRun{Provider: provider, Model: r.Model, Stdout: f.stdout, Exit: f.exit}), false, nil
}
