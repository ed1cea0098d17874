package modelcatalog_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/occkit/occkit/compile/modelcatalog"
	"github.com/occkit/occkit/internal/tiers"
)

// TestGeneratedData regenerates the catalog of the pinned installation and
// of every other carried release installed beside it (.ci/openclaw.sh puts
// each under the same directory, openclaw-<version>) and compares each
// byte for byte with the embedded file. The pinned one is required.
func TestGeneratedData(t *testing.T) {
	pinned, run := tiers.OpenClawDir(t, tiers.ModelCatalog)
	dirs := []string{pinned}
	siblings, _ := filepath.Glob(filepath.Join(filepath.Dir(pinned), "openclaw-*"))
	for _, d := range siblings {
		if d != pinned {
			dirs = append(dirs, d)
		}
	}
	carried := modelcatalog.Releases()
	for i, dir := range dirs {
		b, err := os.ReadFile(filepath.Join(dir, "node_modules", "openclaw", "package.json"))
		var pkg struct{ Version string }
		if err != nil || json.Unmarshal(b, &pkg) != nil || pkg.Version == "" {
			if i == 0 {
				t.Fatalf("%s holds no openclaw package: %v", dir, err)
			}
			t.Logf("%s: no complete installation, not compared", dir)
			continue
		}
		if !slices.Contains(carried, pkg.Version) {
			if i == 0 {
				t.Fatalf("the pinned OpenClaw %s has no carried catalog: run gen.mjs (see doc.go)", pkg.Version)
			}
			continue
		}
		t.Run(pkg.Version, func(t *testing.T) {
			out := t.TempDir()
			cmd := exec.Command(tiers.OpenClawNode(pinned), "gen.mjs", dir, out)
			cmd.Env = append(os.Environ(), "HOME="+t.TempDir())
			if b, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("gen.mjs: %v\n%s", err, b)
			}
			name := pkg.Version + ".txt"
			got, err := os.ReadFile(filepath.Join(out, name))
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(filepath.Join("data", name))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("data/%s differs from what OpenClaw %s generates: regenerate it (doc.go, \"Data\")", name, pkg.Version)
			}
			run.Done(1)
		})
	}
}
