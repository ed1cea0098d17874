package tiers

import (
	"os"
	"path/filepath"
	"testing"
)

func TestRecord(t *testing.T) {
	path := filepath.Join(t.TempDir(), "report")
	t.Setenv(ReportEnv, path)
	Ran("sshd")
	Skipped("codex", "OCCKIT_CODEX is not set\n(run .ci/setup)")
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := "sshd\tran\ncodex\tskipped: OCCKIT_CODEX is not set (run .ci/setup)\n"
	if string(got) != want {
		t.Fatalf("report = %q, want %q", got, want)
	}
}

func TestRecordWithoutReport(t *testing.T) {
	t.Setenv(ReportEnv, "")
	Ran("sshd") // must not create anything or fail
}
