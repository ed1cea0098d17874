package drivers

import (
	"context"
	"errors"
	"strings"

	"github.com/occkit/occkit"
)

// The functions below call an optional capability when the driver (or a
// driver it wraps) has it, and otherwise apply the documented fallback. A
// control plane calls these rather than type-asserting itself, so every
// caller falls back the same way.

// errNoDriver is the refusal for a nil driver: a required collaborator is
// missing.
func errNoDriver(rule string) error {
	return occkit.New(occkit.CodeDependencyUnavailable, rule, occkit.Root(), "no driver is configured")
}

func notImplemented(rule, what string) error {
	return occkit.New(occkit.CodeNotImplemented, rule, occkit.Root(), "%s is not implemented by this driver", what)
}

// CheckGatewaySettings runs d's [GatewaySettingsValidator] when it has one
// (AUTH-7): a refusal is 409 RESOURCE_CONFLICT carrying the setting's path
// and never the driver's text (which might quote a value). Absent, no
// check runs. A nil d is 503.
func CheckGatewaySettings(ctx context.Context, d ComputeDriver, doc occkit.Document, t occkit.Topology) error {
	if isNil(d) {
		return errNoDriver("AUTH-7")
	}
	v, ok := As[GatewaySettingsValidator](d)
	if !ok {
		return nil
	}
	err := v.ValidateGatewaySettings(ctx, doc, t)
	if err == nil {
		return nil
	}
	if c := Cancellation(ctx, "AUTH-7"); c != nil {
		return c
	}
	at := occkit.Root()
	if oe := occkit.First(err); oe != nil && oe.Code != occkit.CodeInternal {
		at = oe.Path
	}
	if at.IsRoot() {
		return occkit.Wrap(err, occkit.CodeResourceConflict, "AUTH-7", at, "the ComputeDriver refused the gateway settings")
	}
	return occkit.Wrap(err, occkit.CodeResourceConflict, "AUTH-7", at, "the ComputeDriver refused the gateway setting %s", at.String())
}

// Activate calls d's [Activator], or does nothing when it has none (the
// revision serves once prepared).
func Activate(ctx context.Context, d ComputeDriver, rev Revision) error {
	if isNil(d) {
		return errNoDriver("DRV-1")
	}
	if a, ok := As[Activator](d); ok {
		return Settle(ctx, "DRV-1", a.Activate(ctx, rev))
	}
	return Cancellation(ctx, "DRV-1")
}

// Stop calls d's [Stopper], or retires the revision when it has none.
func Stop(ctx context.Context, d ComputeDriver, rev Revision) error {
	if isNil(d) {
		return errNoDriver("DRV-1")
	}
	if rev == nil {
		return occkit.Invalid("DRV-1", occkit.Root(), "no revision to stop")
	}
	if s, ok := As[Stopper](d); ok {
		return Settle(ctx, "DRV-1", s.Stop(ctx, rev))
	}
	return Settle(ctx, "DRV-1", d.Retire(ctx, rev.AgentID(), rev.Digest()))
}

// MustStopPredecessors reports whether every earlier version of the Agent
// must stop before rev is prepared: always for a dedicated revision
// (ADM-6), otherwise when the driver declares exclusive replacement.
func MustStopPredecessors(d ComputeDriver, rev Revision) bool {
	if rev != nil && rev.Mode() == occkit.ModeDedicated {
		return true
	}
	return !isNil(d) && d.Declaration().StopPredecessors
}

// Diagnose calls d's [Diagnoser], or answers 501 NOT_IMPLEMENTED.
func Diagnose(ctx context.Context, d ComputeDriver, rev Revision) (Diagnostics, error) {
	if isNil(d) {
		return Diagnostics{}, errNoDriver("DRV-1")
	}
	if g, ok := As[Diagnoser](d); ok {
		diag, err := g.Diagnose(ctx, rev)
		return diag, Settle(ctx, "DRV-1", err)
	}
	return Diagnostics{}, notImplemented("DRV-1", "deployment diagnostics")
}

// ReadRuntimeLogs calls d's [RuntimeLogReader] with a normalized request.
// It answers 501 NOT_IMPLEMENTED when the driver owns runtime logging
// (LOG-3) or has no reader, and 400 for a line count out of range.
func ReadRuntimeLogs(ctx context.Context, d ComputeDriver, rev Revision, req LogRequest) (LogChunk, error) {
	if isNil(d) {
		return LogChunk{}, errNoDriver("DRV-1")
	}
	if d.Declaration().Logging() == occkit.OwnedByDriver {
		return LogChunk{}, occkit.New(occkit.CodeNotImplemented, "LOG-3", occkit.Root(),
			"runtime logs are managed by the ComputeDriver")
	}
	r, ok := As[RuntimeLogReader](d)
	if !ok {
		return LogChunk{}, notImplemented("DRV-1", "runtime-log reading")
	}
	req, err := normalizeLogRequest(req)
	if err != nil {
		return LogChunk{}, err
	}
	chunk, err := r.ReadRuntimeLogs(ctx, rev, req)
	return chunk, Settle(ctx, "DRV-1", err)
}

// ReadSandboxLogs calls d's [SandboxLogReader], or answers 501.
func ReadSandboxLogs(ctx context.Context, d SandboxDriver, ns Namespace, rev Revision, req LogRequest) (LogChunk, error) {
	if isNil(d) {
		return LogChunk{}, errNoDriver("DRV-2")
	}
	r, ok := AsSandbox[SandboxLogReader](d)
	if !ok {
		return LogChunk{}, notImplemented("DRV-2", "sandbox-log reading")
	}
	req, err := normalizeLogRequest(req)
	if err != nil {
		return LogChunk{}, err
	}
	chunk, err := r.ReadSandboxLogs(ctx, ns, rev, req)
	return chunk, Settle(ctx, "DRV-2", err)
}

func normalizeLogRequest(req LogRequest) (LogRequest, error) {
	if req.Lines == 0 {
		req.Lines = DefaultLogLines
	}
	if req.Lines < 1 || req.Lines > MaxLogLines {
		return req, occkit.Invalid("DRV-1", occkit.NewPath("lines"), "lines must be between 1 and %d", MaxLogLines)
	}
	return req, nil
}

// DiscoverModels calls d's [ModelDiscoverer], or answers 501. A driver
// error that is not a structured error is replaced by a 409 that does not
// repeat its text, which might quote the transient credential.
func DiscoverModels(ctx context.Context, d ComputeDriver, q ModelQuery) ([]Model, error) {
	if isNil(d) {
		return nil, errNoDriver("DRV-1")
	}
	m, ok := As[ModelDiscoverer](d)
	if !ok {
		return nil, notImplemented("DRV-1", "model discovery")
	}
	models, err := m.DiscoverModels(ctx, q)
	if err == nil {
		return models, nil
	}
	if c := Cancellation(ctx, "DRV-1"); c != nil {
		return nil, c
	}
	leaks := q.Credential != "" && strings.Contains(err.Error(), q.Credential)
	if oe := occkit.First(err); !leaks && oe != nil && errors.As(err, new(*occkit.Error)) {
		return nil, oe
	}
	return nil, occkit.Conflict("DRV-1", occkit.Root(), "model discovery failed")
}

// Preflight calls d's [Preflighter], or succeeds.
func Preflight(ctx context.Context, d ComputeDriver) error {
	if isNil(d) {
		return errNoDriver("DRV-1")
	}
	if p, ok := As[Preflighter](d); ok {
		return Settle(ctx, "DRV-1", p.Preflight(ctx))
	}
	return nil
}
