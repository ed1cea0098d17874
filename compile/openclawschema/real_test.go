package openclawschema

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/occkit/occkit/internal/tiers"
)

// openclawDir is the pinned OpenClaw installation (.ci/openclaw.sh), from
// OCCKIT_OPENCLAW_DIR, and the run of the real tier, which the test tells
// how many checks executed. Without it the tier skips, unless
// OCCKIT_REQUIRE_INTEGRATION=1 makes that a failure.
func openclawDir(t testing.TB, tier tiers.Tier) (string, *tiers.Run) {
	t.Helper()
	dir := os.Getenv("OCCKIT_OPENCLAW_DIR")
	if dir == "" {
		tier.Skip(t, "OCCKIT_OPENCLAW_DIR is unset (run .ci/setup)")
	}
	if _, err := os.Stat(nodeBin(dir)); err != nil {
		t.Fatalf("OCCKIT_OPENCLAW_DIR has no node: %v", err)
	}
	return dir, tier.Start(t)
}

func nodeBin(dir string) string { return filepath.Join(dir, "node", "bin", "node") }

// TestGeneratedData regenerates data/ from the pinned package and
// compares it byte for byte with what the library embeds.
func TestGeneratedData(t *testing.T) {
	dir, run := openclawDir(t, tiers.SchemaRegeneration)
	out := t.TempDir()
	cmd := exec.Command(nodeBin(dir), "gen.mjs", dir, out)
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir())
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("gen.mjs: %v\n%s", err, b)
	}
	for _, f := range []string{"schema.json", "sensitive.json", "version.txt"} {
		got, err := os.ReadFile(filepath.Join(out, f))
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(filepath.Join("data", f))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("data/%s differs from what the pinned OpenClaw generates: run go generate ./compile/openclawschema", f)
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
