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

// OpenClawDir returns the pinned OpenClaw installation for tier and
// starts the tier's run: the caller counts its checks with [Run.Done].
// Without an installation the tier is skipped ([Tier.Skip]: a failure
// under [Required]); an installation without its node is a failure.
func OpenClawDir(t testing.TB, tier Tier) (string, *Run) {
	t.Helper()
	dir := os.Getenv(OpenClawEnv)
	if dir == "" {
		tier.Skip(t, OpenClawEnv+" is unset (run .ci/setup)")
	}
	if _, err := os.Stat(OpenClawNode(dir)); err != nil {
		t.Fatalf("%s has no node: %v", OpenClawEnv, err)
	}
	return dir, tier.Start(t)
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
