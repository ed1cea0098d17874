package main

import (
	"os"
	"path/filepath"
	"testing"
)

// The fake refuses a command line the probe would never send.
func TestCheckArgs(t *testing.T) {
	ok := []string{"-a", "never", "exec", "--ignore-user-config", "--json", "--sandbox", "read-only", "--model", "gpt-5"}
	if err := checkArgs(ok); err != nil {
		t.Errorf("checkArgs(probe args) = %v", err)
	}
	for _, bad := range [][]string{
		{"exec", "--json"},
		{"-a", "never", "exec", "--ignore-user-config", "--json", "--sandbox", "workspace-write"},
	} {
		if err := checkArgs(bad); err == nil {
			t.Errorf("checkArgs(%q) accepted", bad)
		}
	}
}

// The script plays one scenario per run and repeats the last.
func TestScript(t *testing.T) {
	home := t.TempDir()
	t.Setenv("CODEX_HOME", home)
	if err := os.WriteFile(filepath.Join(home, "script"), []byte("unavailable ready"), 0o600); err != nil {
		t.Fatal(err)
	}
	args := []string{"-a", "never", "exec", "--ignore-user-config", "--json", "--sandbox", "read-only"}
	devnull, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer devnull.Close()
	stdout, stderr := os.Stdout, os.Stderr
	os.Stdout, os.Stderr = devnull, devnull
	got := []int{run(args), run(args), run(args)}
	os.Stdout, os.Stderr = stdout, stderr
	if got[0] != 1 || got[1] != 0 || got[2] != 0 {
		t.Errorf("exit codes = %v, want [1 0 0]", got)
	}
}
