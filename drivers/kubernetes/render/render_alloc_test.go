package render

import (
	"testing"

	"github.com/occkit/occkit/internal/bench"
)

// joinPath's constants are the paths dir + "/" + name makes.
func TestJoinPath(t *testing.T) {
	for _, c := range []struct{ dir, name, want string }{
		{DefaultHome, StateDirName, "/home/node/.openclaw"},
		{DefaultHome, CodexHomeDir, "/home/node/.codex"},
		{ConfigDir, ConfigFile, "/etc/openclaw/openclaw.json"},
		{"/home/node/.codex", CodexConfigFile, "/home/node/.codex/config.toml"},
		{"/sandbox/home", StateDirName, "/sandbox/home/.openclaw"},
		{DefaultHome, "other", "/home/node/other"},
		{ConfigDir, CodexConfigFile, "/etc/openclaw/config.toml"},
	} {
		if got := joinPath(c.dir, c.name); got != c.want {
			t.Errorf("joinPath(%q, %q) = %q, want %q", c.dir, c.name, got, c.want)
		}
	}
}

// renderAllocs bounds what Render allocates for the bare document of one
// model, the plan's allocations included: an embedded gateway's five
// objects, their label, annotation and selector maps (two allocations a
// map, four the pod labels' map of ten), the Deployment's block with its
// container's lists, its volumes, and the names. A render that makes
// one of the block's lists on its own again allocates more.
const renderAllocs = 46

func TestRenderAllocations(t *testing.T) {
	rev := userRevision(t, bench.Bare(1))
	if n := testing.AllocsPerRun(20, func() {
		if _, err := Render(rev, userOptions); err != nil {
			t.Fatal(err)
		}
	}); n > renderAllocs+raceSlack {
		t.Fatalf("Render allocates %v times, more than %d", n, renderAllocs)
	}
}
