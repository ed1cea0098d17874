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
