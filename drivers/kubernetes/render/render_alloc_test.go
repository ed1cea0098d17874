package render

import (
	"testing"
	"unsafe"

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
// container's lists and its volumes, and the names. A render that makes
// one of the block's lists on its own again allocates more.
const renderAllocs = 45

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

// The Deployment's blocks fill the size classes they were cut for (see
// deploymentVolumes): a field Kubernetes adds to a type the blocks hold
// can move one to the next class, 768 bytes more a Deployment, and
// nothing else would tell. The allocator puts an 8-byte header before a
// block of pointers larger than 512 bytes.
func TestDeploymentBlockClasses(t *testing.T) {
	const header = 8
	for _, c := range []struct {
		name        string
		size, class uintptr
	}{
		{"deploymentVolumes", unsafe.Sizeof(deploymentVolumes{}), 4096},
		{"deploymentAppServer", unsafe.Sizeof(deploymentAppServer{}), 3456},
	} {
		if c.size+header > c.class {
			t.Errorf("%s is %d bytes, more than its size class of %d holds with the header", c.name, c.size, c.class)
		}
	}
}
