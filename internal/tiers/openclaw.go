package tiers

import (
	"os"
	"path/filepath"
	"testing"
)

// OpenClawEnv names the pinned OpenClaw installation (.ci/openclaw.sh).
const OpenClawEnv = "OCCKIT_OPENCLAW_DIR"

// OpenClawDir returns the pinned OpenClaw installation for the real tier
// named tier and records that it ran. Without one the test skips (and the
// tier is recorded as skipped), unless [Required], which makes that a
// failure; an installation without its node is a failure.
func OpenClawDir(t testing.TB, tier string) string {
	t.Helper()
	dir := os.Getenv(OpenClawEnv)
	if dir == "" {
		if Required() {
			t.Fatal(OpenClawEnv + " is unset and OCCKIT_REQUIRE_INTEGRATION=1: run .ci/setup")
		}
		Skipped(tier, OpenClawEnv+" is unset (run .ci/setup)")
		t.Skip(OpenClawEnv + " is unset: the real OpenClaw tier needs .ci/setup")
	}
	if _, err := os.Stat(OpenClawNode(dir)); err != nil {
		t.Fatalf("%s has no node: %v", OpenClawEnv, err)
	}
	Ran(tier)
	return dir
}

// OpenClawNode is the node that ships beside the installation dir.
func OpenClawNode(dir string) string { return filepath.Join(dir, "node", "bin", "node") }
