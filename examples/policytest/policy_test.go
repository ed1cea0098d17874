package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/occkit/occkit/admission/policytest"
)

var casesDir = flag.String("cases", "testdata", "directory of case files")

// TestPolicies runs every case of the team's case files as a subtest named
// file/case.
func TestPolicies(t *testing.T) {
	cases, err := policytest.Load(*casesDir)
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) < 8 {
		t.Fatalf("only %d cases in %s", len(cases), *casesDir)
	}
	for _, c := range cases {
		t.Run(c.File+"/"+c.Name, func(t *testing.T) {
			if diff := policytest.Run(c); diff != "" {
				t.Errorf("%s (rule %s, op %s):\n%s", c.Name, c.Rule, c.Op, diff)
			}
		})
	}
}

// The runner must be able to fail: a case whose expectation is wrong, or
// whose op is unknown, is reported.
func TestRunnerReportsFailures(t *testing.T) {
	dir := t.TempDir()
	bad := `[
	  {"op": "harness.resolve", "name": "wrong harness",
	   "input": {"configuration": {"agents": {"defaults": {"model": "anthropic/claude-sonnet-4-6"}}}},
	   "expect": {"harness": "codex"}},
	  {"op": "harness.resolve", "name": "wrong error code",
	   "input": {"configuration": {"agents": {"defaults": {"model": "openai/gpt-5"}}}},
	   "expect": {"error": {"status": 409, "code": "RESOURCE_CONFLICT"}}},
	  {"op": "harness.resolve", "name": "success where an error was expected",
	   "input": {"configuration": {"agents": {"defaults": {"model": "anthropic/claude-sonnet-4-6"}}}},
	   "expect": {"error": {"status": 400}}},
	  {"op": "compile.repair", "name": "wrong path value",
	   "input": {"configuration": {"agents": {"defaults": {"model": "codex/gpt-5"}}}},
	   "expect": {"paths": {"agents.defaults.model": "codex/gpt-5"}}},
	  {"op": "no.such.op", "name": "unknown op", "expect": {}}
	]`
	if err := os.WriteFile(filepath.Join(dir, "bad.json"), []byte(bad), 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	if code := run([]string{"-cases", dir}, &out, &errOut); code != 1 {
		t.Fatalf("exit status %d, want 1; stderr: %s", code, errOut.String())
	}
	if !strings.Contains(out.String(), "conformance: 0 passed, 5 failed") {
		t.Errorf("output lacks the summary line:\n%s", out.String())
	}
}

// The program passes on the shipped cases and prints the summary line.
func TestRunShippedCases(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run(nil, &out, &errOut); code != 0 {
		t.Fatalf("exit status %d:\n%s%s", code, out.String(), errOut.String())
	}
	if !strings.Contains(out.String(), " passed, 0 failed\n") {
		t.Errorf("output lacks the summary line:\n%s", out.String())
	}
}
