package probe_test

import (
	"os"
	"regexp"
	"testing"

	"github.com/occkit/occkit/probe"
)

// TestCodexVersionPinnedInCI: .ci/codex.sh installs the first supported
// Codex version, so the real tier tests the version admission approves.
func TestCodexVersionPinnedInCI(t *testing.T) {
	b, err := os.ReadFile("../.ci/codex.sh")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^CODEX_VERSION=\$\{CODEX_VERSION:-([^}]+)\}$`).FindSubmatch(b)
	if m == nil {
		t.Fatal(".ci/codex.sh sets no default CODEX_VERSION")
	}
	if got, want := string(m[1]), probe.CodexVersions()[0]; got != want {
		t.Errorf(".ci/codex.sh installs Codex %s, probe.CodexVersions starts with %s", got, want)
	}
}
