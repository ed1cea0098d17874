package probe

// Code is the final outcome of a model probe (PRB-1). The set is closed: see
// [AllCodes]. An input the classifiers do not recognise never yields [Ready];
// it classifies as [ModelProbeFailed].
type Code string

// The closed set of probe codes (PRB-1). Each constant documents how the
// deployment worker maps it once the runtime holds it (PRB-8, see
// [Code.Worker]).
const (
	// Ready: the configured primary model answered one real turn. The runtime
	// serves; the worker does not fail the deployment.
	Ready Code = "READY"
	// ModelProbeTimeout: the probe did not finish within its cap (or the
	// Codex retry budget ran out). Held: fails the deployment at once as
	// RUNTIME_MODEL_PROBE_TIMEOUT; the remedy is a redeploy.
	ModelProbeTimeout Code = "MODEL_PROBE_TIMEOUT"
	// ModelProbeFailed: the probe ran and did not prove the model works
	// (provider status, protocol, exit or wrapper failure; see [Cause]).
	// Held: fails the deployment at once as RUNTIME_MODEL_PROBE_FAILED.
	ModelProbeFailed Code = "MODEL_PROBE_FAILED"
	// AuthenticationFailed: the provider rejected the credential (PRB-3).
	// Held: fails the deployment at once as RUNTIME_AUTHENTICATION_FAILED.
	AuthenticationFailed Code = "AUTHENTICATION_FAILED"
	// Unavailable: the probe's preconditions do not hold (model outside the
	// provider, credential missing, probe configuration disagrees). Held:
	// fails the deployment at once as RUNTIME_STARTUP_FAILED.
	Unavailable Code = "UNAVAILABLE"
	// CPUStarved: the OpenClaw probe reached its cap after waiting for CPU
	// for more than a quarter of the time (PRB-2); a restart would get the
	// same CPU. Held: fails the deployment at once as RUNTIME_CPU_STARVED.
	CPUStarved Code = "MODEL_PROBE_CPU_STARVED"
	// LoginFailed: the Codex login step failed without a 401/403. Held:
	// fails the deployment at once as RUNTIME_LOGIN_FAILED.
	LoginFailed Code = "LOGIN_FAILED"
)

// IncompatibleResponse is a runtime diagnostic code that no probe produces
// but that a runtime can hold; the worker maps it like [Unavailable]
// (PRB-8). It is not a member of [AllCodes].
const IncompatibleResponse Code = "INCOMPATIBLE_RESPONSE"

// AllCodes lists every [Code] of PRB-1 in a stable order.
func AllCodes() []Code {
	return []Code{
		Ready, ModelProbeTimeout, ModelProbeFailed, AuthenticationFailed,
		Unavailable, CPUStarved, LoginFailed,
	}
}

// Valid reports whether c is a member of [AllCodes].
func (c Code) Valid() bool {
	for _, k := range AllCodes() {
		if c == k {
			return true
		}
	}
	return false
}

// Failed reports whether c is a held failure: any valid code but [Ready].
func (c Code) Failed() bool { return c != Ready && c.Valid() }

// WorkerOutcome is what the deployment worker does with a code a runtime
// holds (PRB-8).
type WorkerOutcome struct {
	// DeploymentCode is the deployment failure code, "" when the code does
	// not fail the deployment.
	DeploymentCode string
	// FailsAtOnce reports whether the worker fails the deployment without
	// waiting for the convergence deadline: runtimes hold their evidence
	// until restart, so waiting cannot change the answer.
	FailsAtOnce bool
	// Redeploy reports that the remedy is a new deployment rather than a
	// repair of Configuration or credentials (after a timeout).
	Redeploy bool
}

// Worker maps a held code to the deployment outcome (PRB-8): RUNTIME_<code>
// at once, except [CPUStarved] → RUNTIME_CPU_STARVED and [Unavailable] or
// [IncompatibleResponse] → RUNTIME_STARTUP_FAILED. [Ready] and codes outside
// the set do not fail the deployment (they persist until the deadline).
func (c Code) Worker() WorkerOutcome {
	switch c {
	case CPUStarved:
		return WorkerOutcome{DeploymentCode: "RUNTIME_CPU_STARVED", FailsAtOnce: true}
	case Unavailable, IncompatibleResponse:
		return WorkerOutcome{DeploymentCode: "RUNTIME_STARTUP_FAILED", FailsAtOnce: true}
	case ModelProbeTimeout:
		return WorkerOutcome{DeploymentCode: "RUNTIME_" + string(c), FailsAtOnce: true, Redeploy: true}
	case ModelProbeFailed, AuthenticationFailed, LoginFailed:
		return WorkerOutcome{DeploymentCode: "RUNTIME_" + string(c), FailsAtOnce: true}
	}
	return WorkerOutcome{}
}
