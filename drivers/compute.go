package drivers

import (
	"context"
	"regexp"
	"time"

	"github.com/occkit/occkit"
)

// Namespace is an Agent's tenant namespace as a driver sees it.
type Namespace struct {
	// ID is the control plane's namespace ID.
	ID string
	// Name is the runtime placement, e.g. the Kubernetes namespace name.
	Name string
}

// ActivationOrder says when a driver activates a prepared revision
// relative to the control plane's durable commit (DRV-1). The set is
// closed: see [AllActivationOrders].
type ActivationOrder string

// Activation orders.
const (
	// ActivateAfterCommit (the default): the control plane commits the new
	// selected version first, then asks the driver to activate it, so a
	// failed activation is retried under the committed selection.
	ActivateAfterCommit ActivationOrder = "afterCommit"
	// ActivateBeforeCommit: the driver activates first and the selection is
	// committed only once activation succeeded (guarded activation, ADM-6).
	ActivateBeforeCommit ActivationOrder = "beforeCommit"
)

// AllActivationOrders lists every [ActivationOrder], default first.
func AllActivationOrders() []ActivationOrder {
	return []ActivationOrder{ActivateAfterCommit, ActivateBeforeCommit}
}

// Declaration is what a [ComputeDriver] says about itself (DRV-1). The zero
// value of every optional field is the default.
type Declaration struct {
	// Name is the Compute kind: a bundled kind (kubernetes, ssh, docker) or
	// the custom driver's own name. It must match [NamePattern].
	Name occkit.Compute
	// RuntimeLogging is who owns native logging: "" or
	// [occkit.OwnedByPlatform] (occkit stamps it, LOG-1), or
	// [occkit.OwnedByDriver] (a trusted driver manages it: the native
	// configuration is preserved and runtime-log reads answer 501, LOG-3).
	RuntimeLogging occkit.LogOwnership
	// Activation is when prepared revisions are activated; "" means
	// [ActivateAfterCommit].
	Activation ActivationOrder
	// StopPredecessors asks the control plane to stop every earlier version
	// of an Agent before preparing a new one (exclusive replacement).
	// Dedicated revisions always stop predecessors (ADM-6), whatever this
	// says; see [MustStopPredecessors].
	StopPredecessors bool
	// Topologies is the set of (Harness, Mode) pairs the Compute runs
	// (RES-11): at least one, none twice, never codex + embedded. The
	// bundled kinds are limited to their rows of the RES-11 table.
	Topologies []occkit.Topology
}

// Logging returns the effective runtime-logging owner.
func (d Declaration) Logging() occkit.LogOwnership {
	if d.RuntimeLogging == "" {
		return occkit.OwnedByPlatform
	}
	return d.RuntimeLogging
}

// ActivationOrder returns the effective activation order.
func (d Declaration) ActivationOrder() ActivationOrder {
	if d.Activation == "" {
		return ActivateAfterCommit
	}
	return d.Activation
}

// Supports reports whether t is one of the declared topologies.
func (d Declaration) Supports(t occkit.Topology) bool {
	for _, s := range d.Topologies {
		if s == t {
			return true
		}
	}
	return false
}

// NamePattern is what a driver name must match: lower-case letters,
// digits, '.', '_' and '-', starting and ending with a letter or digit, at
// most 63 characters.
const NamePattern = `^[a-z0-9](?:[a-z0-9._-]{0,61}[a-z0-9])?$`

var nameRE = regexp.MustCompile(NamePattern)

// checkName validates a driver name for rule at path at.
func checkName(rule string, at occkit.Path, name string) error {
	if !nameRE.MatchString(name) {
		return occkit.Invalid(rule, at, "a driver name must match %s", NamePattern)
	}
	return nil
}

// ValidateDeclaration checks a ComputeDriver declaration (DRV-1, RES-11)
// and returns every problem, each 400 INVALID_REQUEST: a bad name, an
// unknown runtimeLogging or activation value, no topology, an unknown
// Harness or Mode, a repeated pair, codex + embedded, or a pair outside a
// bundled kind's rows.
func ValidateDeclaration(d Declaration) error {
	var errs []error
	errs = append(errs, checkName("DRV-1", occkit.InstallationPath("name"), string(d.Name)))
	switch d.RuntimeLogging {
	case "", occkit.OwnedByPlatform, occkit.OwnedByDriver:
	default:
		errs = append(errs, occkit.Invalid("DRV-1", occkit.InstallationPath("runtimeLogging"), "runtimeLogging must be platform or driver"))
	}
	switch d.Activation {
	case "", ActivateAfterCommit, ActivateBeforeCommit:
	default:
		errs = append(errs, occkit.Invalid("DRV-1", occkit.InstallationPath("activationOrder"), "activationOrder must be afterCommit or beforeCommit"))
	}
	tp := occkit.InstallationPath("topologies")
	if len(d.Topologies) == 0 {
		errs = append(errs, occkit.Invalid("RES-11", tp, "a ComputeDriver must declare the (Harness, mode) pairs it supports"))
	}
	seen := map[occkit.Topology]bool{}
	for i, t := range d.Topologies {
		at := tp.Index(i)
		if seen[t] {
			errs = append(errs, occkit.Invalid("RES-11", at, "topology declared twice"))
			continue
		}
		seen[t] = true
		if err := occkit.CheckSupported(d.Name, d.Topologies, t); err != nil {
			errs = append(errs, declarationRefusal(at, t, err))
		}
	}
	return occkit.Join(errs...)
}

// declarationRefusal moves a [occkit.CheckTopology] refusal of the
// declared pair t to where it is declared, at: an unknown Harness to its
// harness key, an unknown mode to its mode key, any other refusal to the
// pair itself.
func declarationRefusal(at occkit.Path, t occkit.Topology, err error) error {
	oe := occkit.First(err)
	if oe == nil {
		return err
	}
	out := *oe
	switch {
	case !t.Harness.Known():
		out.Path = at.Key("harness")
	case !t.Mode.Known():
		out.Path = at.Key("mode")
	default:
		out.Path = at
	}
	return &out
}

// ComputeDriver runs admitted revisions somewhere (DRV-1). The required
// interface is small; everything else is an optional capability interface
// found with [As], each documented with what happens when it is absent:
//
//   - [Activator]: absent, a prepared revision serves once ready;
//     activation is a no-op ([Activate]).
//   - [Stopper]: absent, stopping a revision retires it ([Stop]).
//   - [GatewaySettingsValidator]: absent, gateway settings are not checked
//     ([CheckGatewaySettings]).
//   - [Diagnoser]: absent, deployment diagnostics answer 501
//     NOT_IMPLEMENTED ([Diagnose]).
//   - [RuntimeLogReader]: absent (or under driver-owned logging, LOG-3),
//     runtime-log reads answer 501 NOT_IMPLEMENTED ([ReadRuntimeLogs]).
//   - [ModelDiscoverer]: absent, model discovery answers 501
//     NOT_IMPLEMENTED ([DiscoverModels]).
//   - [Preflighter]: absent, startup runs no preflight ([Preflight]).
//   - lifecycle hooks ([NamespacePreparedHook], [WorkloadStartHook],
//     [WorkloadStopHook], [NamespaceDeleteHook]): absent, the phase runs
//     without this driver.
//
// Harness-auth validation is required here (DRV-1). Admission treats it as
// a capability ([HarnessAuthValidator]) because it may be handed
// any value: a Compute it cannot ask is 503 DEPENDENCY_UNAVAILABLE
// (AUTH-7). A ComputeDriver always has one.
//
// Every method that takes a context must honour its cancellation and
// deadline. Errors must never carry a credential or other secret value.
type ComputeDriver interface {
	// Declaration returns the driver's declaration; the same value on
	// every call.
	Declaration() Declaration
	// EnsureNamespace creates the tenant namespace, or confirms it exists.
	// Idempotent.
	EnsureNamespace(ctx context.Context, ns Namespace) error
	// DeleteNamespace deletes the tenant namespace and everything in it.
	// Idempotent: deleting an absent namespace succeeds.
	DeleteNamespace(ctx context.Context, ns Namespace) error
	// Prepare renders and applies rev's workloads until they are ready to
	// serve. It must refuse a topology it does not declare (400, RES-11)
	// and be idempotent: preparing the same revision again changes nothing.
	Prepare(ctx context.Context, rev Revision) error
	// Retire removes the workloads of one revision of an Agent, named by
	// the revision's digest, keeping the Agent's durable data. Idempotent:
	// retiring what is gone (or was never prepared) succeeds.
	Retire(ctx context.Context, agentID, revisionDigest string) error
	// HarnessAuthValidator validates the Agent's harnessAuth binding for a
	// topology and returns its credential projection plan (AUTH-7): a
	// refusal caused by the Configuration is an INVALID_REQUEST
	// *occkit.Error (400); any other refusal is 409.
	HarnessAuthValidator
}

// Activator is the optional activation of a prepared revision (DRV-1,
// ADM-6), called at the driver's [ActivationOrder]. Absent, [Activate] is
// a no-op: the revision serves as soon as Prepare made it ready.
type Activator interface {
	Activate(ctx context.Context, rev Revision) error
}

// Stopper optionally stops a revision's workloads while keeping them
// re-startable and its durable data intact. Absent, [Stop] retires the
// revision instead.
type Stopper interface {
	Stop(ctx context.Context, rev Revision) error
}

// Diagnoser optionally reports a deployment's runtime checks. Absent,
// [Diagnose] answers 501 NOT_IMPLEMENTED.
type Diagnoser interface {
	Diagnose(ctx context.Context, rev Revision) (Diagnostics, error)
}

// RuntimeLogReader optionally reads bounded raw runtime log lines of one
// revision. It must be read-only. Absent, or when the driver owns runtime
// logging (LOG-3), [ReadRuntimeLogs] answers 501 NOT_IMPLEMENTED.
type RuntimeLogReader interface {
	ReadRuntimeLogs(ctx context.Context, rev Revision, req LogRequest) (LogChunk, error)
}

// ModelDiscoverer optionally lists the models a Harness can use with a
// transient credential. It must be read-only and must never persist or
// report the credential. Absent, [DiscoverModels] answers 501
// NOT_IMPLEMENTED.
type ModelDiscoverer interface {
	DiscoverModels(ctx context.Context, q ModelQuery) ([]Model, error)
}

// Preflighter optionally checks, at startup, that the driver can reach
// what it needs. Absent, [Preflight] succeeds without checking.
type Preflighter interface {
	Preflight(ctx context.Context) error
}

// DiagnosticState is the outcome of one runtime check.
type DiagnosticState string

// Diagnostic states.
const (
	DiagnosticSucceeded DiagnosticState = "succeeded"
	DiagnosticFailed    DiagnosticState = "failed"
	DiagnosticUnknown   DiagnosticState = "unknown"
)

// AllDiagnosticStates lists every [DiagnosticState].
func AllDiagnosticStates() []DiagnosticState {
	return []DiagnosticState{DiagnosticSucceeded, DiagnosticFailed, DiagnosticUnknown}
}

// Diagnostics are a revision's runtime checks.
type Diagnostics struct {
	RevisionDigest string
	ObservedAt     time.Time
	Checks         []DiagnosticCheck
}

// DiagnosticCheck is one runtime check: which component, which check,
// its state and, on failure, a closed code (never native output).
type DiagnosticCheck struct {
	Component string
	Check     string
	State     DiagnosticState
	Code      string
}

// LogRequest bounds a log read.
type LogRequest struct {
	// Source is the process: "gateway" or "agent" for runtime logs.
	Source string
	// Lines is the number of most recent lines, 1 to [MaxLogLines]; zero
	// means [DefaultLogLines].
	Lines int
	// Since, when not zero, keeps only lines at or after it.
	Since time.Time
}

// Log read bounds.
const (
	DefaultLogLines = 100
	MaxLogLines     = 1000
)

// LogChunk is raw, bounded log output; the control plane classifies and
// redacts every line before showing it.
type LogChunk struct {
	Lines []LogLine
	// Truncated reports that the bound cut the output.
	Truncated bool
}

// LogLine is one raw line and its time, when known.
type LogLine struct {
	Time time.Time
	Raw  string
}

// ModelQuery asks a [ModelDiscoverer] for models. Credential is a
// transient secret: its String and GoString never show it.
type ModelQuery struct {
	Harness    occkit.Harness
	Provider   string
	AuthMethod occkit.Method
	Credential string
}

// String renders the query without its credential.
func (q ModelQuery) String() string {
	return "ModelQuery{harness: " + string(q.Harness) + ", provider: " + q.Provider +
		", authMethod: " + string(q.AuthMethod) + ", credential: <redacted>}"
}

// GoString renders the query without its credential (for %#v).
func (q ModelQuery) GoString() string { return q.String() }

// Model is one discovered model.
type Model struct {
	ID   string
	Name string
}
