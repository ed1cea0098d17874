package main

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden from the current output")

// golden compares got with testdata/name.golden (or rewrites it).
func golden(t *testing.T, name, got string) {
	t.Helper()
	file := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("output differs from %s (-want +got):\n%s", file, diff)
	}
}

func runMain(t *testing.T, args ...string) (string, error) {
	t.Helper()
	var out bytes.Buffer
	err := run(context.Background(), args, &out)
	return out.String(), err
}

// The README's main command: the whole output is pinned, manifests
// included (Render is pure, the digest canonical, so it is stable).
func TestQuickstart(t *testing.T) {
	out, err := runMain(t)
	if err != nil {
		t.Fatalf("run: %v\n%s", err, out)
	}
	golden(t, "quickstart", out)
	for _, want := range []string{
		"harness openclaw, mode embedded, primary anthropic/claude-sonnet-4-6, fallbacks anthropic/claude-haiku-4-5\n",
		"kind: Deployment\n",
		"    type: Recreate\n", // embedded replacement (ADM-6)
		"  400 INVALID_REQUEST RES-10 at agents.list: ",
		"  409 RESOURCE_CONFLICT RES-13 at executionMode: ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	// ${VAR} references reach the runtime verbatim; the author's
	// redactSensitive never does (LOG-5).
	if !strings.Contains(out, `${SLACK_BOT_TOKEN}`) || strings.Contains(out, "redactSensitive\\\"") {
		t.Error("the admitted document in the ConfigMap is not what admission froze")
	}
}

// The -config flag reads a file and gives the same revision as the
// embedded copy: same bytes, same digest.
func TestConfigFlag(t *testing.T) {
	embedded, err := runMain(t)
	if err != nil {
		t.Fatal(err)
	}
	fromFile, err := runMain(t, "-config", "agent.json5")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(embedded, fromFile); diff != "" {
		t.Errorf("-config agent.json5 differs (-embedded +file):\n%s", diff)
	}
}

func TestSSH(t *testing.T) {
	out, err := runMain(t, "-compute", "ssh")
	if err != nil {
		t.Fatalf("run: %v\n%s", err, out)
	}
	for _, want := range []string{
		"topology     openclaw/embedded on ssh\n",
		`harnessAuth  {"method":"runtime"}` + "\n",
		"credentials  supplied by the host (AUTH-5)",
		"Restart=always\nRestartSec=2\nTimeoutStopSec=30\n", // DRV-6
		"EnvironmentFile=/etc/occkit/credentials.env\n",     // AUTH-5
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "kind: Deployment") {
		t.Error("SSH output shows Kubernetes manifests")
	}
	golden(t, "ssh", out)
}

// Dedicated OpenClaw needs native workers and a SandboxDriver: both
// problems come back at once, and the program fails.
func TestDedicatedRefused(t *testing.T) {
	out, err := runMain(t, "-mode", "dedicated")
	if err == nil {
		t.Fatalf("dedicated mode was admitted:\n%s", out)
	}
	golden(t, "dedicated", out)
}

func TestBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"-mode", "sideways"},
		{"-compute", "docker"},
		{"-config", "testdata/does-not-exist.json5"},
		{"extra"},
	} {
		if out, err := runMain(t, args...); err == nil {
			t.Errorf("run(%q) succeeded:\n%s", args, out)
		}
	}
}

// A JSON5 syntax error is a structured 400 with a readable message.
func TestLoadRefused(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.json5")
	if err := os.WriteFile(bad, []byte("{agents: {defaults: }"), 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := runMain(t, "-config", bad)
	if err == nil || !strings.Contains(out, "== load refused\n  400 INVALID_REQUEST DOC-1") {
		t.Errorf("run = %v:\n%s", err, out)
	}
}
