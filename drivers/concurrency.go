package drivers

import (
	"math"
	"sync"

	"github.com/tidwall/gjson"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/internal/docjson"
)

// Concurrency limits (RES-14).
const (
	// DefaultSessionWorkers is the Kubernetes default number of session
	// workers a dedicated OpenClaw node host retains.
	DefaultSessionWorkers = 8
	// MinSessionWorkers and MaxSessionWorkers bound a configured number.
	MinSessionWorkers = 1
	MaxSessionWorkers = 1024
	// MaxConcurrentFloor and MaxConcurrentPerCPU make the default bound on
	// a dedicated Codex Agent's active turns:
	// max(MaxConcurrentFloor, MaxConcurrentPerCPU × available parallelism).
	MaxConcurrentFloor  = 8
	MaxConcurrentPerCPU = 4
)

// maxConcurrentPath is where an Agent sets its bound on active turns.
var maxConcurrentPath = occkit.NewPath("agents", "defaults", "maxConcurrent")

// CheckSessionWorkers validates a configured number of node-host session
// workers: 400 INVALID_REQUEST outside [MinSessionWorkers, MaxSessionWorkers].
func CheckSessionWorkers(at occkit.Path, n int) error {
	if n < MinSessionWorkers || n > MaxSessionWorkers {
		return occkit.Invalid("RES-14", at, "session workers must be an integer from %d to %d", MinSessionWorkers, MaxSessionWorkers)
	}
	return nil
}

// ParseSessionWorkers reads a configured number of session workers from a
// JSON value: absent or null gives [DefaultSessionWorkers]; an integer
// from 1 to 1024 is itself; anything else is 400 INVALID_REQUEST at at.
//
// raw is the JSON text of the value; nil or empty is absent.
func ParseSessionWorkers(raw []byte, at occkit.Path) (int, error) {
	return parseSessionWorkers(jsonValue(raw), at)
}

// parseSessionWorkers is the parser behind the exported function, on a value already read.
func parseSessionWorkers(v gjson.Result, at occkit.Path) (int, error) {
	if !v.Exists() || v.Type == gjson.Null {
		return DefaultSessionWorkers, nil
	}
	n, ok := jsonInt(v)
	if !ok {
		return 0, occkit.Invalid("RES-14", at, "session workers must be an integer from %d to %d", MinSessionWorkers, MaxSessionWorkers)
	}
	if err := CheckSessionWorkers(at, n); err != nil {
		return 0, err
	}
	return n, nil
}

// CanAdmitSession reports whether a node host with workers session workers
// and active hosted sessions admits one more (RES-14): only while a worker
// is free. Active workers are never displaced, so a full host refuses until
// a hosted session stops.
func CanAdmitSession(workers, active int) bool {
	return active >= 0 && active < workers
}

// DefaultMaxConcurrent is the bound on a dedicated Codex Agent's active
// top-level turns when the Agent sets none (RES-14):
// max(8, 4 × parallelism), where parallelism is the quota-aware available
// parallelism (at least 1).
func DefaultMaxConcurrent(parallelism int) int {
	if parallelism < 1 {
		parallelism = 1
	}
	if parallelism > math.MaxInt32/MaxConcurrentPerCPU {
		parallelism = math.MaxInt32 / MaxConcurrentPerCPU
	}
	return max(MaxConcurrentFloor, MaxConcurrentPerCPU*parallelism)
}

// MaxConcurrent resolves a dedicated Codex Agent's bound on active turns
// from its Configuration (RES-14): agents.defaults.maxConcurrent when set,
// a positive integer, else [DefaultMaxConcurrent]. It bounds active turns,
// not saved sessions. A set value that is not a positive integer is 400
// INVALID_REQUEST at agents.defaults.maxConcurrent.
func MaxConcurrent(cfg occkit.Document, parallelism int) (int, error) {
	v := docjson.Get(cfg, maxConcurrentPath)
	if !v.Exists() {
		return DefaultMaxConcurrent(parallelism), nil
	}
	n, ok := jsonInt(v)
	if !ok || n < 1 {
		return 0, occkit.Invalid("RES-14", maxConcurrentPath, "agents.defaults.maxConcurrent must be a positive integer")
	}
	return n, nil
}

// jsonInt reads an integral JSON number that fits an int32.
func jsonInt(v gjson.Result) (int, bool) {
	if v.Type != gjson.Number {
		return 0, false
	}
	f := v.Float()
	if math.IsNaN(f) || math.IsInf(f, 0) || f != math.Trunc(f) || f > math.MaxInt32 || f < math.MinInt32 {
		return 0, false
	}
	return int(f), true
}

// SessionHost admits sessions to a dedicated OpenClaw node host's fixed
// pool of workers (RES-14). Each hosted session owns one worker until it
// stops; a full host refuses new sessions and never displaces an active
// one. A SessionHost is safe for concurrent use.
type SessionHost struct {
	mu       sync.Mutex
	workers  int
	sessions map[string]struct{}
}

// NewSessionHost returns a host with the given number of workers; 0 means
// [DefaultSessionWorkers]. Other values outside 1–1024 are 400.
func NewSessionHost(workers int) (*SessionHost, error) {
	if workers == 0 {
		workers = DefaultSessionWorkers
	}
	if err := CheckSessionWorkers(occkit.InstallationPath("sessionWorkers"), workers); err != nil {
		return nil, err
	}
	return &SessionHost{workers: workers, sessions: map[string]struct{}{}}, nil
}

// Workers is the host's number of session workers.
func (h *SessionHost) Workers() int { return h.workers }

// Admit gives session id a worker. Admitting a session that already holds
// one succeeds without using another. When every worker is taken, Admit
// refuses with 409 RESOURCE_CONFLICT until a session stops.
func (h *SessionHost) Admit(id string) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, ok := h.sessions[id]; ok {
		return nil
	}
	if !CanAdmitSession(h.workers, len(h.sessions)) {
		return occkit.Conflict("RES-14", occkit.Root(), "every session worker is busy; retry when a session stops")
	}
	h.sessions[id] = struct{}{}
	return nil
}

// Stop releases session id's worker; stopping an unknown session does
// nothing.
func (h *SessionHost) Stop(id string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.sessions, id)
}

// Active lists the hosted sessions, sorted.
func (h *SessionHost) Active() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return sortedKeys(h.sessions)
}

// jsonValue reads raw JSON text as a gjson value; nil or empty raw is an
// absent value (so absent and JSON null stay distinct).
func jsonValue(raw []byte) gjson.Result {
	if len(raw) == 0 {
		return gjson.Result{}
	}
	return gjson.ParseBytes(raw)
}
