package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/occkit/occkit/compile/openclawschema/internal/releasedata"
)

func writeRelease(t *testing.T, version, schema string) string {
	t.Helper()
	dir := t.TempDir()
	files := releasedata.Files{
		"version.txt":    []byte(version + "\n"),
		"sensitive.json": []byte("[\n\"a.b\"\n]\n"),
		"plugins.json":   []byte(`{"channels":["telegram"]}` + "\n"),
		"schema.json":    []byte(schema),
	}
	for n, b := range files {
		if err := os.WriteFile(filepath.Join(dir, n), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestRun: releases added one at a time are all rebuilt from the data,
// the newest is the base, a dropped one is gone.
func TestRun(t *testing.T) {
	data := t.TempDir()
	schema := `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"number"}},"additionalProperties":false}` + "\n"
	older := writeRelease(t, "2026.8.2", schema)
	newer := writeRelease(t, "2026.9.6", schema[:20]+`"c":{"type":"boolean"},`+schema[20:])
	if err := run(data, []string{older}, ""); err != nil {
		t.Fatal(err)
	}
	if err := run(data, []string{newer}, ""); err != nil {
		t.Fatal(err)
	}
	got, err := load(data)
	if err != nil {
		t.Fatal(err)
	}
	for v, dir := range map[string]string{"2026.8.2": older, "2026.9.6": newer} {
		want, err := readFiles(dir)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(want, got[v]); d != "" {
			t.Errorf("%s (-want +got):\n%s", v, d)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(data, "version.txt")); string(b) != "2026.9.6\n" {
		t.Errorf("the base is %q", b)
	}
	if err := run(data, nil, "2026.8.2"); err != nil {
		t.Fatal(err)
	}
	if got, _ := load(data); len(got) != 1 {
		t.Errorf("%d releases after dropping one of two", len(got))
	}
}

// TestRefreshNPM: every package the record names is asked again, the
// added ones too, and a failed answer writes nothing.
func TestRefreshNPM(t *testing.T) {
	file := filepath.Join(t.TempDir(), "npm.json")
	answers := map[string]string{
		"@openclaw/codex":   `{"version":"2026.9.5","peerDependencies":{"openclaw":">=2026.9.5"}}`,
		"@openclaw/discord": `[{"version":"2026.9.6","peerDependencies":{"openclaw":">=2026.9.6"}},{"version":"2026.7.35","peerDependencies":{"openclaw":">=2026.7.35"}}]`,
	}
	var asked []string
	view := func(pkg string) ([]byte, error) {
		asked = append(asked, pkg)
		a, ok := answers[pkg]
		if !ok {
			return nil, os.ErrNotExist
		}
		return []byte(a), nil
	}
	if err := refreshNPM(file, []string{"@openclaw/codex"}, view); err != nil {
		t.Fatal(err)
	}
	if err := refreshNPM(file, []string{"@openclaw/discord"}, view); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := releasedata.ParseNPMRecord(b)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]releasedata.NPMVersion{
		"@openclaw/codex":   {{Version: "2026.9.5", OpenClaw: "2026.9.5"}},
		"@openclaw/discord": {{Version: "2026.7.35", OpenClaw: "2026.7.35"}, {Version: "2026.9.6", OpenClaw: "2026.9.6"}},
	}
	if d := cmp.Diff(want, rec.Packages); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	if n := len(asked); n != 3 {
		t.Errorf("%d packages asked (%v), want codex, then codex and discord", n, asked)
	}
	if err := refreshNPM(file, []string{"@openclaw/unpublished"}, view); err == nil {
		t.Error("a package npm view cannot answer was recorded")
	}
	if again, _ := os.ReadFile(file); string(again) != string(b) {
		t.Error("a failed refresh rewrote the record")
	}
}
