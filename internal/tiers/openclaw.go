package tiers

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
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

// RunOpenClawScript runs the node script beside the installation dir as
// `node script DIR INPUT`, where INPUT is a file holding input as JSON,
// with a fresh HOME and OPENCLAW_STATE_DIR, and decodes what it prints
// into output. A script that fails or prints something else fails t.
func RunOpenClawScript(t testing.TB, dir, script string, input, output any) {
	t.Helper()
	b, err := json.Marshal(input)
	if err != nil {
		t.Fatal(err)
	}
	f := filepath.Join(t.TempDir(), "input.json")
	if err := os.WriteFile(f, b, 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(OpenClawNode(dir), script, dir, f)
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir(), "OPENCLAW_STATE_DIR="+t.TempDir())
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v\n%s", script, err, stderr.String())
	}
	if err := json.Unmarshal(out, output); err != nil {
		t.Fatalf("%s printed no JSON: %v", script, err)
	}
}
