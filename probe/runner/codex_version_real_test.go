package runner

import (
	"context"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/occkit/occkit/probe"
)

// TestRealCodexVersion: the Codex binary the real tier runs is a version
// the probe contract is tested against (probe.CodexVersions, ADM-3):
// `codex --version` prints "codex-cli <version>".
func TestRealCodexVersion(t *testing.T) {
	bin := realCodexBinary(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, bin, "--version").Output()
	if err != nil {
		t.Fatalf("codex --version: %v", err)
	}
	fields := strings.Fields(string(out))
	if len(fields) != 2 || fields[0] != "codex-cli" || !slices.Contains(probe.CodexVersions(), fields[1]) {
		t.Fatalf("codex --version printed %q; supported: %v", out, probe.CodexVersions())
	}
}
