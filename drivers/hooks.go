package drivers

import (
	"context"
	"regexp"
	"sort"
	"time"

	"github.com/occkit/occkit"
)

// HookPhase is one Compute lifecycle phase a driver can hook (DRV-4). The
// set is closed: see [AllHookPhases].
type HookPhase string

// The lifecycle phases, in the order a deployment meets them.
const (
	// PhaseAfterNamespacePrepared runs once the tenant namespace exists.
	PhaseAfterNamespacePrepared HookPhase = "afterNamespacePrepared"
	// PhaseBeforeWorkloadStart runs before a revision's workloads start; it
	// may contribute launch environment ([Launch]).
	PhaseBeforeWorkloadStart HookPhase = "beforeWorkloadStart"
	// PhaseBeforeWorkloadStop runs before a revision's workloads stop.
	PhaseBeforeWorkloadStop HookPhase = "beforeWorkloadStop"
	// PhaseBeforeNamespaceDelete runs before the tenant namespace is deleted.
	PhaseBeforeNamespaceDelete HookPhase = "beforeNamespaceDelete"
)

// AllHookPhases lists every [HookPhase] in lifecycle order.
func AllHookPhases() []HookPhase {
	return []HookPhase{
		PhaseAfterNamespacePrepared, PhaseBeforeWorkloadStart,
		PhaseBeforeWorkloadStop, PhaseBeforeNamespaceDelete,
	}
}

// Valid reports whether p is one of [AllHookPhases].
func (p HookPhase) Valid() bool {
	for _, q := range AllHookPhases() {
		if p == q {
			return true
		}
	}
	return false
}

// The hook interfaces. Any driver (compute or sandbox) may implement any of
// them; [ComputeHookPhases] and [SandboxHookPhases] discover which, through wrappers. A driver that
// implements none has no lifecycle hooks, and the phase simply runs without
// it. Every hook must honour ctx and be safe to call again after a failure.
type (
	// NamespacePreparedHook runs at [PhaseAfterNamespacePrepared]. If a
	// later driver's hook fails, drivers whose hook already succeeded get
	// their [NamespaceDeleteHook] (when they have one), in reverse order.
	NamespacePreparedHook interface {
		AfterNamespacePrepared(ctx context.Context, ns Namespace) error
	}
	// WorkloadStartHook runs at [PhaseBeforeWorkloadStart] and may add
	// placeholder environment to launch. If a later hook fails, drivers
	// whose hook already succeeded get their [WorkloadStopHook] in reverse
	// order.
	WorkloadStartHook interface {
		BeforeWorkloadStart(ctx context.Context, rev Revision, launch *Launch) error
	}
	// WorkloadStopHook runs at [PhaseBeforeWorkloadStop], in reverse
	// registration order.
	WorkloadStopHook interface {
		BeforeWorkloadStop(ctx context.Context, rev Revision) error
	}
	// NamespaceDeleteHook runs at [PhaseBeforeNamespaceDelete], in reverse
	// registration order.
	NamespaceDeleteHook interface {
		BeforeNamespaceDelete(ctx context.Context, ns Namespace) error
	}
)

// ComputeHookPhases lists, in lifecycle order, the phases the compute
// driver d hooks. It follows Unwrap chains ([As]), so a wrapper never
// hides a hook.
func ComputeHookPhases(d ComputeDriver) []HookPhase { return hookPhases(d) }

// SandboxHookPhases lists, in lifecycle order, the phases the sandbox
// driver d hooks, through wrappers like [ComputeHookPhases].
func SandboxHookPhases(d SandboxDriver) []HookPhase { return hookPhases(d) }

// hookPhases is the one capability walk behind [ComputeHookPhases] and
// [SandboxHookPhases]; d is a ComputeDriver or a SandboxDriver.
func hookPhases(d any) []HookPhase {
	var out []HookPhase
	if _, ok := asAny[NamespacePreparedHook](d); ok {
		out = append(out, PhaseAfterNamespacePrepared)
	}
	if _, ok := asAny[WorkloadStartHook](d); ok {
		out = append(out, PhaseBeforeWorkloadStart)
	}
	if _, ok := asAny[WorkloadStopHook](d); ok {
		out = append(out, PhaseBeforeWorkloadStop)
	}
	if _, ok := asAny[NamespaceDeleteHook](d); ok {
		out = append(out, PhaseBeforeNamespaceDelete)
	}
	return out
}

// CheckHookPhases validates a declared set of hook phases, e.g. the keys
// of a driver manifest's hooks object (DRV-4): each must be one of
// [AllHookPhases], named once. at is the path of the declaration; each
// refusal is 400 INVALID_REQUEST at at.Key(phase).
func CheckHookPhases(at occkit.Path, phases []string) error {
	var errs []error
	seen := map[string]bool{}
	for _, p := range phases {
		switch {
		case !HookPhase(p).Valid():
			errs = append(errs, occkit.Invalid("DRV-4", at.Key(p),
				"unknown lifecycle hook: hooks are afterNamespacePrepared, beforeWorkloadStart, beforeWorkloadStop and beforeNamespaceDelete"))
		case seen[p]:
			errs = append(errs, occkit.Invalid("DRV-4", at.Key(p), "lifecycle hook declared twice"))
		}
		seen[p] = true
	}
	return occkit.Join(errs...)
}

// Launch collects the environment lifecycle hooks contribute to a workload
// at [PhaseBeforeWorkloadStart]. Contributions are placeholders, never
// credentials: a hook names an opaque value that its own egress side
// resolves, so nothing secret enters a pod spec.
type Launch struct {
	env map[string]string
}

// Launch limits and shapes.
const (
	// MaxLaunchEnv caps the number of contributed variables.
	MaxLaunchEnv = 64
)

var (
	launchName        = regexp.MustCompile(`^[A-Z_][A-Z0-9_]{0,127}$`)
	launchPlaceholder = regexp.MustCompile(`^opaque-[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$`)
	// Names the platform owns: process basics, loader hooks, and every
	// variable the platform itself renders (LOG-4, CMP-4).
	launchReserved = regexp.MustCompile(`^(?:HOME|PATH|TMPDIR|CODEX_HOME|NODE_OPTIONS|NODE_PATH|BASH_ENV|ENV|LOG_FORMAT|RUST_LOG|XDG_.*|OPENCLAW_.*|OTEL_.*|LD_.*|DYLD_.*)$`)
)

// Setenv contributes one variable. The name must be an upper-case
// environment name that the platform does not own; the value must be an
// opaque placeholder (`opaque-…`). A refusal is 400 INVALID_REQUEST naming
// the variable, never its value.
func (l *Launch) Setenv(name, value string) error {
	at := occkit.NewPath("environment").Key(name)
	switch {
	case !launchName.MatchString(name):
		return occkit.Invalid("DRV-4", occkit.NewPath("environment"), "launch environment name is not an upper-case variable name")
	case launchReserved.MatchString(name):
		return occkit.Invalid("DRV-4", at, "launch environment variable %s is reserved for the platform", name)
	case !launchPlaceholder.MatchString(value):
		return occkit.Invalid("DRV-4", at, "launch environment variable %s must hold an opaque placeholder", name)
	}
	if l.env == nil {
		l.env = map[string]string{}
	}
	if _, ok := l.env[name]; !ok && len(l.env) >= MaxLaunchEnv {
		return occkit.Invalid("DRV-4", at, "launch environment holds at most %d variables", MaxLaunchEnv)
	}
	l.env[name] = value
	return nil
}

// Env returns a copy of the contributed variables.
func (l *Launch) Env() map[string]string {
	out := make(map[string]string, len(l.env))
	for k, v := range l.env {
		out[k] = v
	}
	return out
}

// Names returns the contributed variable names, sorted.
func (l *Launch) Names() []string {
	out := make([]string, 0, len(l.env))
	for k := range l.env {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Hooks runs the lifecycle hooks of an ordered set of drivers (DRV-4):
// start-side phases in order, stop-side phases in reverse order. It is a
// value; build it once per deployment with [NewHooks].
type Hooks struct {
	drivers []any
}

// NewHooks returns the dispatcher for one deployment's drivers: the
// compute driver first, then the sandbox drivers in the order given (the
// registration order start-side phases follow and stop-side phases
// reverse). Nil drivers are skipped. Hooks are found through Unwrap
// chains, so a wrapper never hides one.
func NewHooks(compute ComputeDriver, sandboxes ...SandboxDriver) Hooks {
	out := make([]any, 0, 1+len(sandboxes))
	if !isNil(compute) {
		out = append(out, compute)
	}
	for _, d := range sandboxes {
		if !isNil(d) {
			out = append(out, d)
		}
	}
	return Hooks{drivers: out}
}

// HookError reports a failed lifecycle hook. Its message names the phase
// and the driver, never the hook's own error text (which might quote a
// value); Unwrap gives the hook's error to callers that want it.
type HookError struct {
	Phase  HookPhase
	Driver string
	Err    error
}

// Error renders "lifecycle hook PHASE failed for DRIVER".
func (e *HookError) Error() string {
	return "lifecycle hook " + string(e.Phase) + " failed for " + e.Driver
}

// Unwrap returns the hook's error.
func (e *HookError) Unwrap() error { return e.Err }

// driverName names d for a HookError.
func driverName(d any) string {
	if s, ok := asAny[SandboxDriver](d); ok {
		return "sandbox driver " + s.SandboxDeclaration().Name
	}
	if c, ok := asAny[ComputeDriver](d); ok {
		return "compute driver " + string(c.Declaration().Name)
	}
	return "a driver"
}

// rollbackTimeout bounds the compensating hooks run after a failure whose
// context was already cancelled.
const rollbackTimeout = 5 * time.Second

func rollbackContext(ctx context.Context) (context.Context, context.CancelFunc) {
	if ctx.Err() == nil {
		return ctx, func() {}
	}
	return context.WithTimeout(context.WithoutCancel(ctx), rollbackTimeout)
}

// AfterNamespacePrepared runs every [NamespacePreparedHook] in order. When
// one fails (or ctx ends), drivers whose hook already succeeded get their
// [NamespaceDeleteHook] in reverse order, and the failure is returned as a
// *HookError.
func (h Hooks) AfterNamespacePrepared(ctx context.Context, ns Namespace) error {
	var done []any
	for _, d := range h.drivers {
		hook, ok := asAny[NamespacePreparedHook](d)
		if !ok {
			continue
		}
		err := Cancellation(ctx, "DRV-4")
		if err == nil {
			err = Settle(ctx, "DRV-4", hook.AfterNamespacePrepared(ctx, ns))
		}
		if err != nil {
			rctx, cancel := rollbackContext(ctx)
			_ = Hooks{drivers: done}.BeforeNamespaceDelete(rctx, ns)
			cancel()
			return &HookError{Phase: PhaseAfterNamespacePrepared, Driver: driverName(d), Err: err}
		}
		done = append(done, d)
	}
	return nil
}

// BeforeWorkloadStart runs every [WorkloadStartHook] in order, collecting
// their launch environment, and returns it. When one fails, drivers whose
// hook already succeeded get their [WorkloadStopHook] in reverse order.
func (h Hooks) BeforeWorkloadStart(ctx context.Context, rev Revision) (map[string]string, error) {
	var done []any
	launch := &Launch{}
	for _, d := range h.drivers {
		hook, ok := asAny[WorkloadStartHook](d)
		if !ok {
			continue
		}
		err := Cancellation(ctx, "DRV-4")
		if err == nil {
			err = Settle(ctx, "DRV-4", hook.BeforeWorkloadStart(ctx, rev, launch))
		}
		if err != nil {
			rctx, cancel := rollbackContext(ctx)
			_ = Hooks{drivers: done}.BeforeWorkloadStop(rctx, rev)
			cancel()
			return nil, &HookError{Phase: PhaseBeforeWorkloadStart, Driver: driverName(d), Err: err}
		}
		done = append(done, d)
	}
	return launch.Env(), nil
}

// BeforeWorkloadStop runs every [WorkloadStopHook] in reverse order and
// stops at the first failure.
func (h Hooks) BeforeWorkloadStop(ctx context.Context, rev Revision) error {
	for i := len(h.drivers) - 1; i >= 0; i-- {
		d := h.drivers[i]
		hook, ok := asAny[WorkloadStopHook](d)
		if !ok {
			continue
		}
		err := Cancellation(ctx, "DRV-4")
		if err == nil {
			err = Settle(ctx, "DRV-4", hook.BeforeWorkloadStop(ctx, rev))
		}
		if err != nil {
			return &HookError{Phase: PhaseBeforeWorkloadStop, Driver: driverName(d), Err: err}
		}
	}
	return nil
}

// BeforeNamespaceDelete runs every [NamespaceDeleteHook] in reverse order
// and stops at the first failure.
func (h Hooks) BeforeNamespaceDelete(ctx context.Context, ns Namespace) error {
	for i := len(h.drivers) - 1; i >= 0; i-- {
		d := h.drivers[i]
		hook, ok := asAny[NamespaceDeleteHook](d)
		if !ok {
			continue
		}
		err := Cancellation(ctx, "DRV-4")
		if err == nil {
			err = Settle(ctx, "DRV-4", hook.BeforeNamespaceDelete(ctx, ns))
		}
		if err != nil {
			return &HookError{Phase: PhaseBeforeNamespaceDelete, Driver: driverName(d), Err: err}
		}
	}
	return nil
}
