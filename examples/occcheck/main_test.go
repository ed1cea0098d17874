package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files")

func runCheck(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(context.Background(), args, &out, &errOut)
	return out.String(), errOut.String(), code
}

// The examples' own Configurations pass on every Compute they are shown
// on.
func TestExamplesClean(t *testing.T) {
	for _, args := range [][]string{
		{"../quickstart/agent.json5"},
		{"-compute", "ssh", "../quickstart/agent.json5"},
	} {
		out, errOut, code := runCheck(t, args...)
		if code != 0 || out != "" || errOut != "" {
			t.Errorf("occcheck %v: exit %d\nstdout: %s\nstderr: %s", args, code, out, errOut)
		}
	}
}

// Misspelt, mistyped and malformed Configurations are refused with a file
// position, the path and the rule, as the golden files record.
func TestGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/bad/*")
	files = append(files, "testdata/inc/main.json5")
	if err != nil || len(files) == 0 {
		t.Fatalf("no test files: %v", err)
	}
	for _, tc := range []struct {
		golden string
		args   []string
	}{
		{"testdata/text.golden", nil},
		{"testdata/json.golden", []string{"-json"}},
	} {
		out, errOut, code := runCheck(t, append(tc.args, files...)...)
		if code != 1 || errOut != "" {
			t.Fatalf("exit %d, stderr %q; want 1 and nothing", code, errOut)
		}
		if *update {
			if err := os.WriteFile(tc.golden, []byte(out), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(tc.golden)
		if err != nil {
			t.Fatal(err)
		}
		if out != string(want) {
			t.Errorf("%s differs:\ngot:\n%s\nwant:\n%s", tc.golden, out, want)
		}
	}
	// Every refusal names a position in its file and the rule.
	out, _, _ := runCheck(t, append([]string{"-json"}, files...)...)
	dec := json.NewDecoder(strings.NewReader(out))
	n := 0
	for dec.More() {
		var f Finding
		if err := dec.Decode(&f); err != nil {
			t.Fatal(err)
		}
		n++
		if (f.Line == 0) != strings.HasPrefix(f.Path, "harnessAuth") || f.Rule == "" || f.Path == "" {
			t.Errorf("finding without position, rule or path: %+v", f)
		}
	}
	if n != len(files) {
		t.Errorf("%d findings for %d files", n, len(files))
	}
}

func TestExitCodes(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
	}{
		{nil, 2},
		{[]string{"-compute", "docker", "x.json"}, 2},
		{[]string{"-mode", "sideways", "x.json"}, 2},
		{[]string{"-binding", "{", "x.json"}, 2},
		{[]string{"-nope"}, 2},
		{[]string{"testdata/missing.json"}, 1},
		{[]string{"-mode", "dedicated", "../quickstart/agent.json5"}, 1},
	} {
		if _, _, code := runCheck(t, tc.args...); code != tc.code {
			t.Errorf("occcheck %v: exit %d, want %d", tc.args, code, tc.code)
		}
	}
}
