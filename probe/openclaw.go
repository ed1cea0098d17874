package probe

import (
	"strings"
	"time"

	"github.com/tidwall/gjson"

	"github.com/occkit/occkit"
)

// OpenClawPreconditions are what the OpenClaw probe needs before it may run
// (PRB-3): a model of the form provider/…, a non-blank credential, and a
// probe configuration whose primary model is that model.
type OpenClawPreconditions struct {
	// Provider is the model provider; "" derives it from Model.
	Provider string
	// Model is the configured primary model ("openai/gpt-4.1").
	Model string
	// CredentialPresent reports a non-blank provider credential.
	CredentialPresent bool
	// ProbeConfigModel is agents.defaults.model of the probe configuration.
	ProbeConfigModel string
}

// Hold reports whether the preconditions hold; when they do not, the probe
// does not run and the outcome is [Unavailable].
func (p OpenClawPreconditions) Hold() bool {
	provider := providerOf(p.Provider, p.Model)
	return provider != "" && strings.HasPrefix(p.Model, provider+"/") &&
		p.CredentialPresent && p.ProbeConfigModel == p.Model
}

// providerOf returns provider, or the provider of model.
func providerOf(provider, model string) string {
	if provider != "" {
		return provider
	}
	return ModelProvider(model)
}

// ModelProvider is the provider of a model reference: the part before its
// first "/" ("openai" for "openai/gpt-4.1"), "" when there is none.
func ModelProvider(model string) string {
	if i := strings.IndexByte(model, '/'); i > 0 {
		return model[:i]
	}
	return ""
}

// ReadOpenClawConfig reads what the OpenClaw probe checks in its native
// configuration (JSON) before it runs (PRB-3): the primary model
// (agents.defaults.model; "" when missing or not a string), for
// [OpenClawPreconditions], and the provider's entry
// (models.providers.<provider>) as JSON text, for [UpfrontEligible] (empty
// when missing). ok is false when config is not one valid JSON value: the
// probe then does not run ([Unavailable]).
func ReadOpenClawConfig(config []byte, provider string) (model string, entry []byte, ok bool) {
	if !validJSON(config) {
		return "", nil, false
	}
	root := gjson.ParseBytes(config)
	model = stringAt(root, "agents.defaults.model")
	if e := root.Get(occkit.NewPath("models", "providers").Key(provider).GJSON()); e.Exists() {
		entry = []byte(e.Raw)
	}
	return model, entry, true
}

// OpenClawRun is what one run of `openclaw models status --json --probe`
// produced, with its CPU accounting.
type OpenClawRun struct {
	// Provider is the probed provider; "" derives it from Model.
	Provider string
	// Model is the configured primary model the probe must report.
	Model string
	// Stdout is the command's standard output (the status JSON).
	Stdout []byte
	// Exit is how the command ended.
	Exit Exit
	// TimedOut reports that the command was stopped at its cap. An Exit.Err
	// of ETIMEDOUT, or an Elapsed of at least a positive Cap, also means the
	// cap was reached.
	TimedOut bool
	// Elapsed and Cap are the run's duration and its cap (see [Cap]).
	Elapsed, Cap time.Duration
	// CPUWait is the time the container waited for CPU during the run,
	// meaningful only when CPUWaitKnown.
	CPUWait      time.Duration
	CPUWaitKnown bool
}

// ReachedCap reports whether the run reached its cap.
func (r OpenClawRun) ReachedCap() bool {
	return r.TimedOut || r.Exit.Err == "ETIMEDOUT" || (r.Cap > 0 && r.Elapsed >= r.Cap)
}

// openClawStatuses are the probe statuses that keep their own cause detail.
var openClawStatuses = map[string]bool{
	"format": true, "rate_limit": true, "billing": true, "unknown": true, "no_model": true,
}

// ClassifyOpenClaw classifies one OpenClaw probe run (PRB-2), in order: a
// model outside its provider is [Unavailable]; reaching the cap is
// [CPUStarved] or [ModelProbeTimeout] ([AtCap]); a failed exit is
// PROCESS_EXIT; unparsable output is INVALID_OUTPUT/json; anything but
// exactly one result for the provider, the model and the "env" source is
// INVALID_OUTPUT/shape; then the status decides: ok → [Ready], auth →
// [AuthenticationFailed], timeout → [ModelProbeTimeout], format, rate_limit,
// billing, unknown, no_model → PROBE_STATUS/<status>, anything else →
// PROBE_STATUS/other.
func ClassifyOpenClaw(r OpenClawRun) Outcome {
	provider := providerOf(r.Provider, r.Model)
	if provider == "" || !strings.HasPrefix(r.Model, provider+"/") {
		return Outcome{Code: Unavailable}
	}
	if r.ReachedCap() {
		return Outcome{Code: AtCap(r.Elapsed, r.CPUWait, r.CPUWaitKnown)}
	}
	if !r.Exit.Clean() {
		return exitFailure(r.Exit)
	}
	if !validJSON(r.Stdout) {
		return failed(CauseInvalidOutput, "json")
	}
	// gjson walks only objects by key, so a non-object anywhere on the path
	// leaves results absent, as the reference's optional chaining does.
	results := gjson.GetBytes(r.Stdout, "auth.probes.results")
	if !results.IsArray() {
		return failed(CauseInvalidOutput, "shape")
	}
	list := results.Array()
	if len(list) != 1 {
		return failed(CauseInvalidOutput, "shape")
	}
	only := list[0]
	if !stringIs(only.Get("provider"), provider) || !stringIs(only.Get("model"), r.Model) ||
		!stringIs(only.Get("source"), "env") {
		return failed(CauseInvalidOutput, "shape")
	}
	status := only.Get("status")
	switch {
	case stringIs(status, "ok"):
		return Outcome{Code: Ready}
	case stringIs(status, "auth"):
		return Outcome{Code: AuthenticationFailed}
	case stringIs(status, "timeout"):
		return Outcome{Code: ModelProbeTimeout}
	case status.Type == gjson.String && openClawStatuses[status.Str]:
		return failed(CauseProbeStatus, status.Str)
	}
	return failed(CauseProbeStatus, "other")
}

func stringIs(v gjson.Result, want string) bool { return v.Type == gjson.String && v.Str == want }
