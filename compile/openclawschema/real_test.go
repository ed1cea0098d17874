package openclawschema

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/occkit/occkit/compile/openclawschema/internal/releasedata"
	"github.com/occkit/occkit/internal/tiers"
)

// installed is one real OpenClaw installation of the tiers
// (.ci/openclaw.sh): its release and directory.
type installed struct{ version, dir string }

// openclawDirs are the real OpenClaw installations the tiers run against:
// the newest carried release (OCCKIT_OPENCLAW_DIR) and an older one
// (OCCKIT_OPENCLAW_DIR_PREV), both recorded by .ci/setup, and the run of
// the tier, which the test tells how many checks executed. Without the
// first the tier skips ([tiers.Tier.Skip]: a failure under
// OCCKIT_REQUIRE_INTEGRATION=1); under it the second is required too.
func openclawDirs(t testing.TB, tier tiers.Tier) ([]installed, *tiers.Run) {
	t.Helper()
	var out []installed
	for _, env := range []string{"OCCKIT_OPENCLAW_DIR", "OCCKIT_OPENCLAW_DIR_PREV"} {
		dir := os.Getenv(env)
		if dir == "" {
			if env == "OCCKIT_OPENCLAW_DIR" || tiers.Required() {
				tier.Skip(t, env+" is unset (run .ci/setup)")
			}
			continue
		}
		if _, err := os.Stat(nodeBin(dir)); err != nil {
			t.Fatalf("%s has no node: %v", env, err)
		}
		b, err := os.ReadFile(filepath.Join(dir, "node_modules", "openclaw", "package.json"))
		var pkg struct{ Version string }
		if err != nil || json.Unmarshal(b, &pkg) != nil || pkg.Version == "" {
			t.Fatalf("%s holds no openclaw package: %v", env, err)
		}
		out = append(out, installed{pkg.Version, dir})
	}
	return out, tier.Start(t)
}

func nodeBin(dir string) string { return filepath.Join(dir, "node", "bin", "node") }

// TestGeneratedData regenerates each installed release's data with
// gen.mjs and compares it byte for byte with what the library carries for
// that release (its deltas decoded).
func TestGeneratedData(t *testing.T) {
	installs, run := openclawDirs(t, tiers.SchemaRegeneration)
	for _, in := range installs {
		t.Run(in.version, func(t *testing.T) {
			c, err := ContractFor(in.version)
			if err != nil {
				t.Fatalf("the installed release is not carried: %v", err)
			}
			out := t.TempDir()
			cmd := exec.Command(nodeBin(in.dir), "gen.mjs", in.dir, out)
			cmd.Env = append(os.Environ(), "HOME="+t.TempDir())
			if b, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("gen.mjs: %v\n%s", err, b)
			}
			for _, f := range releasedata.Names {
				got, err := os.ReadFile(filepath.Join(out, f))
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, c.files[f]) {
					t.Errorf("the carried %s of %s differs from what its package generates: see doc.go, \"The data\"", f, in.version)
				}
				run.Done(1)
			}
		})
	}
}

// TestNPMRecordMatchesTheMirror: what data/npm.json says the npm
// registry publishes agrees with the registry documents the tiers' npm
// mirror recorded from it (.ci/plugins.sh, $OCCKIT_NPM_MIRROR): for every
// carried release, each recorded package the mirror holds resolves to the
// same version.
func TestNPMRecordMatchesTheMirror(t *testing.T) {
	dir := os.Getenv("OCCKIT_NPM_MIRROR")
	if dir == "" {
		tiers.SchemaRegeneration.Skip(t, "OCCKIT_NPM_MIRROR is unset (run .ci/setup)")
	}
	run := tiers.SchemaRegeneration.Start(t)
	rec, err := npmRecord()
	if err != nil {
		t.Fatal(err)
	}
	for pkg := range rec.Packages {
		b, err := os.ReadFile(filepath.Join(dir, "packuments", strings.ReplaceAll(pkg, "/", "%2f")+".json"))
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Versions map[string]json.RawMessage `json:"versions"`
		}
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Fatalf("%s: %v", pkg, err)
		}
		var stable []json.RawMessage
		for v, m := range doc.Versions {
			if !strings.Contains(v, "-") {
				stable = append(stable, m)
			}
		}
		list, _ := json.Marshal(stable)
		vs, err := releasedata.ParseNPMView(list)
		if err != nil {
			t.Fatalf("%s in the mirror: %v", pkg, err)
		}
		mirrored := releasedata.NPMRecord{Packages: map[string][]releasedata.NPMVersion{pkg: vs}}
		for _, release := range Releases() {
			want, _ := mirrored.Resolve(pkg, release)
			if got, _ := rec.Resolve(pkg, release); got != want {
				t.Errorf("OpenClaw %s installs %s@%q by data/npm.json, @%q by the mirror: refresh one of them", release, pkg, got, want)
			}
		}
		run.Done(1)
	}
}

// verdict is one answer of testdata/oracle.mjs.
type verdict struct {
	OK     bool `json:"ok"`
	Issues []struct {
		Path    string `json:"path"`
		Message string `json:"message"`
	} `json:"issues"`
}

// oracle validates docs with the real validateConfigObject, in one node
// process.
func oracle(t testing.TB, dir string, docs [][]byte) (verdicts []verdict, bundledChannels []string) {
	t.Helper()
	batch := writeBatch(t, docs)
	cmd := exec.Command(nodeBin(dir), filepath.Join("testdata", "oracle.mjs"), dir, batch)
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir(), "OPENCLAW_STATE_DIR="+t.TempDir())
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("oracle: %v\n%s", err, stderr.Bytes())
	}
	var answer struct {
		Bundled  []string  `json:"bundledChannels"`
		Verdicts []verdict `json:"verdicts"`
	}
	if err := json.Unmarshal(out, &answer); err != nil || len(answer.Verdicts) != len(docs) || len(answer.Bundled) == 0 {
		t.Fatalf("oracle answered %d verdicts for %d documents and %d bundled channels (%v)", len(answer.Verdicts), len(docs), len(answer.Bundled), err)
	}
	return answer.Verdicts, answer.Bundled
}

// writeBatch writes docs as one JSON array to a temporary file.
func writeBatch(t testing.TB, docs [][]byte) string {
	t.Helper()
	var in bytes.Buffer
	in.WriteByte('[')
	for i, d := range docs {
		if i > 0 {
			in.WriteByte(',')
		}
		in.Write(d)
	}
	in.WriteByte(']')
	batch := filepath.Join(t.TempDir(), "batch.json")
	if err := os.WriteFile(batch, in.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	return batch
}
