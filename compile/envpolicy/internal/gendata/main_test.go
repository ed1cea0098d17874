package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// copyData copies the package's data directory into a temporary one.
func copyData(t *testing.T) string {
	t.Helper()
	dst := t.TempDir()
	src := filepath.Join("..", "..", "data")
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, pat := range []string{"*.json", "releases/*.json"} {
		files, _ := filepath.Glob(filepath.Join(dir, pat))
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			rel, _ := filepath.Rel(dir, f)
			out[rel] = string(b)
		}
	}
	return out
}

// Rebuilding the data from itself changes nothing; adding a newer release
// makes it the base, and every release still reads back as it was.
func TestRun(t *testing.T) {
	data := copyData(t)
	before := snapshot(t, data)
	if err := run(data, nil); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(before, snapshot(t, data)); d != "" {
		t.Fatalf("a rebuild changed the data (-before +after):\n%s", d)
	}
	old, err := carried(data)
	if err != nil {
		t.Fatal(err)
	}
	var base string
	for name := range before {
		if !strings.Contains(name, "/") {
			base = strings.TrimSuffix(name, ".json")
		}
	}
	newer := bytes.Replace(old[base], []byte(`"release": "`+base+`"`), []byte(`"release": "2099.1.1"`), 1)
	newer = bytes.Replace(newer, []byte(`"configEnvBlocked": [`), []byte(`"configEnvBlocked": [
  "AAA_NEW",`), 1)
	in := t.TempDir()
	if err := os.WriteFile(filepath.Join(in, "2099.1.1.json"), newer, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := run(data, []string{in}); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(data, "2099.1.1.json")); err != nil || !bytes.Equal(b, newer) {
		t.Fatalf("the newest release is not the base as written: %v", err)
	}
	now, err := carried(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(now) != len(old)+1 {
		t.Fatalf("%d releases after adding one to %d", len(now), len(old))
	}
	for r, b := range old {
		var w, g any
		if err := json.Unmarshal(b, &w); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(now[r], &g); err != nil {
			t.Fatalf("%s: %v", r, err)
		}
		if d := cmp.Diff(w, g); d != "" {
			t.Errorf("%s reads back otherwise (-before +after):\n%s", r, d)
		}
	}
}

func TestCompare(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		sign int
	}{{"2026.9.6", "2026.9.10", -1}, {"2026.10.1", "2026.9.6", 1}, {"2026.9.6", "2026.9.6", 0}, {"2026.9", "2026.9.1", -1}} {
		c := compare(tt.a, tt.b)
		if c < 0 && tt.sign >= 0 || c > 0 && tt.sign <= 0 || c == 0 && tt.sign != 0 {
			t.Errorf("compare(%s, %s) = %d", tt.a, tt.b, c)
		}
	}
}
