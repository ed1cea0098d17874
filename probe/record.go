package probe

import (
	"context"
	"encoding/json"
	"log/slog"
	"sync"
)

// Record event names.
const (
	EventCodex    = "codex.model_probe"
	EventOpenClaw = "openclaw.model_probe"
)

// Record is one structured probe record (PRB-6): for Codex one per attempt
// {attempt, elapsedMs, exitCode, signal, code}, for OpenClaw one per run
// {elapsedMs, capMs, cpuWaitMs, code}; a [ModelProbeFailed] adds its cause
// (causeKind, causeDetail) and a failed Codex attempt its [FailureClass].
// Every field is a number or a closed token: a record cannot carry a
// credential or provider output.
type Record struct {
	Event     string
	Attempt   int
	ElapsedMs int64
	// ExitCode is the attempt's exit status, negative for none (null).
	ExitCode int
	// Signal is SIGKILL, SIGTERM, SIGINT or "" (null).
	Signal string
	Code   Code
	Cause  Cause
	// FailureClass is set on a failed Codex attempt.
	FailureClass FailureClass
	// CapMs and CPUWaitMs are OpenClaw's cap and CPU wait; CPUWaitMs is
	// negative when unknown (null).
	CapMs, CPUWaitMs int64
}

// fields returns the record as ordered key/value pairs of plain values.
func (r Record) fields() []slog.Attr {
	var a []slog.Attr
	nullable := func(key string, v any, ok bool) {
		if ok {
			a = append(a, slog.Any(key, v))
		} else {
			a = append(a, slog.Any(key, nil))
		}
	}
	if r.Event == EventCodex {
		a = append(a, slog.Int("attempt", r.Attempt), slog.Int64("elapsedMs", r.ElapsedMs))
		nullable("exitCode", r.ExitCode, r.ExitCode >= 0)
		sig := Exit{Signal: r.Signal}.RecordSignal()
		nullable("signal", sig, sig != "")
	} else {
		a = append(a, slog.Int64("elapsedMs", r.ElapsedMs), slog.Int64("capMs", r.CapMs))
		nullable("cpuWaitMs", r.CPUWaitMs, r.CPUWaitMs >= 0)
	}
	a = append(a, slog.String("code", string(r.Code)))
	if r.Code == ModelProbeFailed && !r.Cause.IsZero() && r.Cause.Valid() {
		a = append(a, slog.String("causeKind", string(r.Cause.Kind)))
		if r.Cause.Detail != "" {
			a = append(a, slog.String("causeDetail", r.Cause.Detail))
		}
	}
	if r.FailureClass.Valid() && r.Code != Ready {
		a = append(a, slog.String("failureClass", string(r.FailureClass)))
	}
	return a
}

// MarshalJSON renders the record as the one JSON line a runtime logs:
// {"event": …, then the fields of PRB-6}.
func (r Record) MarshalJSON() ([]byte, error) {
	buf := []byte(`{"event":`)
	ev, _ := json.Marshal(r.Event)
	buf = append(buf, ev...)
	for _, f := range r.fields() {
		k, _ := json.Marshal(f.Key)
		v, err := json.Marshal(f.Value.Any())
		if err != nil {
			return nil, err
		}
		buf = append(append(append(append(buf, ','), k...), ':'), v...)
	}
	return append(buf, '}'), nil
}

// Log writes the record to logger as one line (PRB-6): the message is the
// event name, the attributes are the record's fields, and the level is
// Info for [Ready] and Error for anything else.
func (r Record) Log(ctx context.Context, logger *slog.Logger) {
	level := slog.LevelInfo
	if r.Code != Ready {
		level = slog.LevelError
	}
	logger.LogAttrs(ctx, level, r.Event, r.fields()...)
}

// Held holds a runtime's settled probe result until restart: readiness
// polling reads it and never starts another model call (PRB-5). The first
// [Held.Publish] wins; later ones are ignored. The zero value holds nothing.
type Held struct {
	mu      sync.Mutex
	settled bool
	outcome Outcome
}

// Publish settles the result once.
func (h *Held) Publish(o Outcome) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.settled {
		h.settled, h.outcome = true, o
	}
}

// Status returns the held result and whether one has settled.
func (h *Held) Status() (Outcome, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.outcome, h.settled
}

// Ready reports whether the held result is [Ready].
func (h *Held) Ready() bool {
	o, ok := h.Status()
	return ok && o.Code == Ready
}
