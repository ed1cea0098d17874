package logging

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"regexp"
	"strconv"
	"time"

	"github.com/occkit/occkit"
)

// EventStartupPhase is the event name of a startup-phase record (LOG-7).
const EventStartupPhase = "runtime.startup_phase"

// Phase is a startup phase's wire name (LOG-7). The set is closed, so a
// record's phase can never carry a provider, model, credential or path.
type Phase string

// The closed set of phases. The first group are the phases SPEC names; the
// second are the finer names the reference wrappers emit for the same steps
// and for the events around them.
const (
	PhaseLogin          Phase = "login"           // the Harness logs in to its model provider
	PhaseModelProbe     Phase = "model-probe"     // the startup model probe (see package probe)
	PhasePeerStatus     Phase = "peer-status"     // the gateway waits for its Harness peer's status
	PhasePluginInstall  Phase = "plugin-install"  // plugins are installed and verified
	PhaseStateMigration Phase = "state-migration" // persisted runtime state is migrated
	PhaseWorkspaceSetup Phase = "workspace-setup" // the workspace is prepared
	PhaseProcessSpawn   Phase = "process-spawn"   // the native process is started

	PhasePeerStatusChanged Phase = "peer-status-changed" // the gateway saw its Harness replaced
	PhaseGatewayRespawn    Phase = "gateway-respawn"     // a restarted gateway process serves again

	PhaseCodexLogin         Phase = "codex-login"            // the Codex CLI login step
	PhasePeerPluginStatus   Phase = "peer-plugin-status"     // the gateway read the Harness plugin status
	PhasePeerStatusRestored Phase = "peer-status-restored"   // the same Harness peer came back
	PhaseNativeSpawn        Phase = "native-spawn"           // the native gateway or app-server is spawned
	PhaseRuntimeAssets      Phase = "runtime-assets"         // bundled runtime assets are published
	PhaseWorkspaceBaseline  Phase = "workspace-baseline"     // native workspace defaults are created
	PhaseWorkspaceNode      Phase = "workspace-node"         // the workspace node binding is applied
	PhaseWorkspaceNodeMoved Phase = "workspace-node-changed" // another workspace node was bound
)

// AllPhases lists every [Phase].
func AllPhases() []Phase {
	return []Phase{
		PhaseLogin, PhaseModelProbe, PhasePeerStatus, PhasePluginInstall, PhaseStateMigration,
		PhaseWorkspaceSetup, PhaseProcessSpawn, PhasePeerStatusChanged, PhaseGatewayRespawn,
		PhaseCodexLogin, PhasePeerPluginStatus, PhasePeerStatusRestored, PhaseNativeSpawn,
		PhaseRuntimeAssets, PhaseWorkspaceBaseline, PhaseWorkspaceNode, PhaseWorkspaceNodeMoved,
	}
}

var phases = func() map[Phase]bool {
	m := map[Phase]bool{}
	for _, p := range AllPhases() {
		m[p] = true
	}
	return m
}()

// Valid reports whether p is a member of [AllPhases].
func (p Phase) Valid() bool { return phases[p] }

// PhaseOutcome is how a startup phase ended.
type PhaseOutcome string

// The closed set of outcomes.
const (
	OutcomeOK     PhaseOutcome = "ok"
	OutcomeFailed PhaseOutcome = "failed"
)

// AllPhaseOutcomes lists every [PhaseOutcome].
func AllPhaseOutcomes() []PhaseOutcome { return []PhaseOutcome{OutcomeOK, OutcomeFailed} }

// Valid reports whether o is a member of [AllPhaseOutcomes].
func (o PhaseOutcome) Valid() bool { return o == OutcomeOK || o == OutcomeFailed }

// Startup records name a process's container on the wire (LOG-7) as
// "gateway" or "agent"; [occkit.ProcessHarness] is "agent".
const (
	startupGateway = "gateway"
	startupAgent   = "agent"
)

// startupName is p's wire name in a startup record ("" when unknown).
func startupName(p occkit.Process) string {
	switch p {
	case occkit.ProcessGateway:
		return startupGateway
	case occkit.ProcessHarness:
		return startupAgent
	}
	return ""
}

// ParseStartupContainer reads a startup record's container wire name:
// "gateway" is [occkit.ProcessGateway] and "agent" [occkit.ProcessHarness].
// Anything else is a 400 INVALID_REQUEST at container.
func ParseStartupContainer(name string) (occkit.Process, error) {
	switch name {
	case startupGateway:
		return occkit.ProcessGateway, nil
	case startupAgent:
		return occkit.ProcessHarness, nil
	}
	return "", invalidStartupContainer()
}

func invalidStartupContainer() error {
	return occkit.Invalid("LOG-7", occkit.RenderPath("container"), "container must be gateway or agent")
}

// failureCode is the shape of a code a failed phase may carry.
var failureCode = regexp.MustCompile(`^[A-Z][A-Z0-9_]{0,63}$`)

// ValidCode reports whether code may appear on a failed phase's record.
func ValidCode(code string) bool { return failureCode.MatchString(code) }

// StartupEvent is the input of [StartupPhase]. Its fields are facts the
// wrapper knows; nothing else of the caller reaches the record.
type StartupEvent struct {
	// Container is the process the wrapper starts; its record names it
	// "gateway" or "agent" (see [ParseStartupContainer]).
	Container occkit.Process
	Phase     Phase
	Outcome   PhaseOutcome // zero: OutcomeOK
	// Code is a fixed cause code of a failed phase. It is kept only when the
	// outcome is failed and it matches ^[A-Z][A-Z0-9_]{0,63}$; otherwise it
	// is dropped, never refused, so a malformed code cannot hide a failure.
	Code string
	// Origin is when the wrapper started, StartedAt when the phase began
	// (zero: Origin, for a phase timed from the wrapper's start) and Now
	// when it ended. Origin and Now are required.
	Origin, StartedAt, Now time.Time
}

// StartupRecord is one runtime.startup_phase record (LOG-7). Its JSON form
// ([StartupRecord.MarshalJSON]) is exactly
// {"event":"runtime.startup_phase","container":…,"phase":…,"outcome":…,
// "ms":…,"sinceStartMs":…[,"code":…]}.
type StartupRecord struct {
	Container    occkit.Process
	Phase        Phase
	Outcome      PhaseOutcome
	Ms           int64 // Now − StartedAt, in milliseconds
	SinceStartMs int64 // Now − Origin, in milliseconds
	Code         string
}

// StartupPhase builds the record of one phase (LOG-7): ms is Now −
// StartedAt and sinceStartMs is Now − Origin, both in whole milliseconds.
// An unknown container, phase or outcome, or a zero Origin or Now, is a
// 400 INVALID_REQUEST.
func StartupPhase(e StartupEvent) (StartupRecord, error) {
	if !e.Container.Known() {
		return StartupRecord{}, invalidStartupContainer()
	}
	if !e.Phase.Valid() {
		return StartupRecord{}, occkit.Invalid("LOG-7", occkit.RenderPath("phase"), "phase is not a known startup phase")
	}
	if e.Outcome == "" {
		e.Outcome = OutcomeOK
	}
	if e.Origin.IsZero() || e.Now.IsZero() {
		return StartupRecord{}, occkit.Invalid("LOG-7", occkit.Root(), "a startup phase needs its origin and end times")
	}
	if e.StartedAt.IsZero() {
		e.StartedAt = e.Origin
	}
	if !e.Outcome.Valid() {
		return StartupRecord{}, occkit.Invalid("LOG-7", occkit.RenderPath("outcome"), "outcome must be ok or failed")
	}
	r := StartupRecord{
		Container:    e.Container,
		Phase:        e.Phase,
		Outcome:      e.Outcome,
		Ms:           e.Now.Sub(e.StartedAt).Milliseconds(),
		SinceStartMs: e.Now.Sub(e.Origin).Milliseconds(),
	}
	if e.Outcome == OutcomeFailed && ValidCode(e.Code) {
		r.Code = e.Code
	}
	return r, nil
}

// PeerStatusChanged is the record a gateway logs when it sees its Harness
// replaced (LOG-7): phase peer-status-changed, timed from the wrapper's
// origin. It fails only on a zero time, like [StartupPhase].
func PeerStatusChanged(origin, now time.Time) (StartupRecord, error) {
	return StartupPhase(StartupEvent{Container: occkit.ProcessGateway, Phase: PhasePeerStatusChanged, Origin: origin, Now: now})
}

// GatewayRespawn is the record a gateway logs when its restarted native
// process serves again (LOG-7): ms is the respawn's duration and
// sinceStartMs the time since the wrapper started. It fails only on a zero
// origin or end time, like [StartupPhase].
func GatewayRespawn(origin, respawnStarted, now time.Time) (StartupRecord, error) {
	return StartupPhase(StartupEvent{Container: occkit.ProcessGateway, Phase: PhaseGatewayRespawn, Origin: origin, StartedAt: respawnStarted, Now: now})
}

// MarshalJSON renders the record's exact wire object.
func (r StartupRecord) MarshalJSON() ([]byte, error) {
	return r.AppendJSON(nil), nil
}

// AppendJSON appends the record's wire object (no newline) to b.
func (r StartupRecord) AppendJSON(b []byte) []byte {
	b = append(b, `{"event":`...)
	b = appendString(b, EventStartupPhase)
	b = append(b, `,"container":`...)
	b = appendString(b, startupName(r.Container))
	b = append(b, `,"phase":`...)
	b = appendString(b, string(r.Phase))
	b = append(b, `,"outcome":`...)
	b = appendString(b, string(r.Outcome))
	b = append(b, `,"ms":`...)
	b = strconv.AppendInt(b, r.Ms, 10)
	b = append(b, `,"sinceStartMs":`...)
	b = strconv.AppendInt(b, r.SinceStartMs, 10)
	if r.Code != "" {
		b = append(b, `,"code":`...)
		b = appendString(b, r.Code)
	}
	return append(b, '}')
}

func appendString(b []byte, s string) []byte {
	q, _ := json.Marshal(s) // a string always marshals
	return append(b, q...)
}

// WriteTo writes the record as one JSON line (the wrappers write to stderr).
func (r StartupRecord) WriteTo(w io.Writer) (int64, error) {
	n, err := w.Write(append(r.AppendJSON(nil), '\n'))
	return int64(n), err
}

// Attrs returns the record's fields as slog attributes, in wire order.
func (r StartupRecord) Attrs() []slog.Attr {
	attrs := []slog.Attr{
		slog.String(keyContainer, startupName(r.Container)),
		slog.String(keyPhase, string(r.Phase)),
		slog.String(keyOutcome, string(r.Outcome)),
		slog.Int64(keyMs, r.Ms),
		slog.Int64(keySinceStartMs, r.SinceStartMs),
	}
	if r.Code != "" {
		attrs = append(attrs, slog.String(keyCode, r.Code))
	}
	return attrs
}

// Level is the slog level of the record: Error for a failed phase, Info
// otherwise.
func (r StartupRecord) Level() slog.Level {
	if r.Outcome == OutcomeFailed {
		return slog.LevelError
	}
	return slog.LevelInfo
}

// Log logs the record through l with message [EventStartupPhase]. With a
// handler from [NewStartupHandler] the output line is the record's exact
// wire object.
func (r StartupRecord) Log(ctx context.Context, l *slog.Logger) {
	l.LogAttrs(ctx, r.Level(), EventStartupPhase, r.Attrs()...)
}

// Attribute keys of a startup record.
const (
	keyContainer    = "container"
	keyPhase        = "phase"
	keyOutcome      = "outcome"
	keyMs           = "ms"
	keySinceStartMs = "sinceStartMs"
	keyCode         = "code"
)
