package main

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"
)

// The demo runs end to end and prints what the driver did.
func TestRun(t *testing.T) {
	root := t.TempDir()
	var out bytes.Buffer
	if err := run(context.Background(), root, &out); err != nil {
		t.Fatalf("run: %v\n%s", err, out.String())
	}
	for _, want := range []string{
		"registered Compute drivers: [localproc]\n",
		"admitted openclaw/embedded for localproc, revision ",
		"-r--r--r-- agents/", // the admitted document is read-only
		`"hostCredentials": true`,
		"  gateway admitted-document: succeeded \n",
		"  gateway running: succeeded \n",
		"  activated\n",
		"model discovery: 501 NOT_IMPLEMENTED\n",
		"    409 RESOURCE_CONFLICT AUTH-5 at harnessAuth.method\n",
		"    400 INVALID_REQUEST RES-11 at executionMode\n",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	if strings.Contains(out.String(), root) {
		t.Error("output shows the temporary root instead of $ROOT")
	}
	// Retire and DeleteNamespace cleaned up.
	for _, dir := range []string{"agents", "namespaces"} {
		entries, _ := os.ReadDir(root + "/" + dir)
		for _, e := range entries {
			sub, _ := os.ReadDir(root + "/" + dir + "/" + e.Name())
			for _, s := range sub {
				if s.IsDir() && len(s.Name()) == 64 {
					t.Errorf("revision %s left behind", s.Name())
				}
			}
			if dir == "namespaces" {
				t.Errorf("namespace %s left behind", e.Name())
			}
		}
	}
}
