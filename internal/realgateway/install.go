package realgateway

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/occkit/occkit/internal/tiers"
)

// EnvDir names the variable that holds the OpenClaw install directory
// (.ci/openclaw.sh prints it, .ci/setup records it).
const EnvDir = "OCCKIT_OPENCLAW_DIR"

// ErrUnavailable reports that the real OpenClaw is not installed here, or
// that this machine cannot give it a network namespace of its own.
var ErrUnavailable = errors.New("realgateway: the real OpenClaw tier needs " + EnvDir +
	" (set by .ci/setup), unshare and ip, run as root")

// Required reports whether a missing install must fail the run instead of
// skipping it (OCCKIT_REQUIRE_INTEGRATION=1, set by .ci/setup).
func Required() bool { return os.Getenv("OCCKIT_REQUIRE_INTEGRATION") == "1" }

// Install is one install of the pinned OpenClaw made by .ci/openclaw.sh.
type Install struct {
	// Dir holds node/bin/node and node_modules/openclaw.
	Dir string
}

// EnvDirPrev names the variable that holds a second install, of an
// earlier release (2026.8.x), for tiers that start revisions approved for
// two releases.
const EnvDirPrev = "OCCKIT_OPENCLAW_DIR_PREV"

// FromEnv finds the install through [EnvDir] and checks that the tools the
// isolation needs are present; it wraps [ErrUnavailable] when it cannot be
// used.
func FromEnv() (Install, error) { return FromEnvVar(EnvDir) }

// Version is the release of the installed openclaw package.
func (in Install) Version() (string, error) {
	b, err := os.ReadFile(filepath.Join(in.Dir, "node_modules", "openclaw", "package.json"))
	if err != nil {
		return "", err
	}
	var pkg struct {
		Version string `json:"version"`
	}
	if err := json.Unmarshal(b, &pkg); err != nil || pkg.Version == "" {
		return "", fmt.Errorf("%s: no openclaw version (%v)", in.Dir, err)
	}
	return pkg.Version, nil
}

// FromEnvVar is [FromEnv] for the install the variable name holds.
func FromEnvVar(name string) (Install, error) {
	dir := os.Getenv(name)
	if dir == "" {
		return Install{}, ErrUnavailable
	}
	in := Install{Dir: dir}
	for _, p := range []string{in.Node(), in.Entry(), in.Bin()} {
		if _, err := os.Stat(p); err != nil {
			return Install{}, fmt.Errorf("%w: %v", ErrUnavailable, err)
		}
	}
	for _, tool := range []string{"unshare", "ip"} {
		if _, err := exec.LookPath(tool); err != nil {
			return Install{}, fmt.Errorf("%w: %v", ErrUnavailable, err)
		}
	}
	if os.Geteuid() != 0 {
		return Install{}, fmt.Errorf("%w: not root", ErrUnavailable)
	}
	return in, nil
}

// Node is the node 24 binary.
func (in Install) Node() string { return filepath.Join(in.Dir, "node", "bin", "node") }

// Entry is the CLI's entry script (node runs it).
func (in Install) Entry() string {
	return filepath.Join(in.Dir, "node_modules", "openclaw", "openclaw.mjs")
}

// Bin is the openclaw command (a script run through env node, so node's
// directory must come first on PATH: see [Install.Path]).
func (in Install) Bin() string { return filepath.Join(in.Dir, "node_modules", ".bin", "openclaw") }

// Path is a PATH with node 24 first, then the system directories.
func (in Install) Path() string {
	return filepath.Join(in.Dir, "node", "bin") + ":/usr/local/bin:/usr/bin:/bin"
}

// Open returns the install for the real tier in t and the tier's run,
// which the caller tells each check that executed (internal/tiers: the
// tier ran only when that count is positive). Without an install it
// records the skip and skips t, or fails t when the tier is [Required].
func Open(t testing.TB, tier tiers.Tier) (Install, *tiers.Run) {
	t.Helper()
	in, err := FromEnv()
	if err != nil {
		tier.Skip(t, err.Error()+" (run .ci/setup as root)")
	}
	return in, tier.Start(t)
}

// LogDir returns a directory for a start's output that outlives a failed
// test (its path is logged) and is removed after a passing one.
func LogDir(t testing.TB) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "occkit-realgateway-logs-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("process output kept in %s", dir)
			return
		}
		os.RemoveAll(dir)
	})
	return dir
}
