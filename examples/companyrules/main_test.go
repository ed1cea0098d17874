package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The company's cases pass with the company's rules.
func TestCompanyCases(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run(nil, &out, &errOut); code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out.String(), errOut.String())
	}
	if !strings.Contains(out.String(), "companyrules: 7 passed, 0 failed") {
		t.Errorf("output:\n%s", out.String())
	}
}

// The cases test the rules: a rule set with one rule loosened fails the
// case that relies on it, and a broken rule file is reported where it is
// broken.
func TestCasesCatchAChangedRule(t *testing.T) {
	src, err := os.ReadFile("rules.yaml")
	if err != nil {
		t.Fatal(err)
	}
	loose := filepath.Join(t.TempDir(), "rules.yaml")
	changed := strings.Replace(string(src), "size(fallbacks) <= 3", "size(fallbacks) <= 4", 1)
	if err := os.WriteFile(loose, []byte(changed), 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	if code := run([]string{"-rules", loose}, &out, &errOut); code != 1 {
		t.Fatalf("exit %d\n%s%s", code, out.String(), errOut.String())
	}
	if !strings.Contains(out.String(), "FAIL company.json5: at most three fallbacks") || !strings.Contains(out.String(), "6 passed, 1 failed") {
		t.Errorf("output:\n%s", out.String())
	}

	broken := strings.Replace(string(src), "size(fallbacks) <= 3", "size(falbacks) <= 3", 1)
	if err := os.WriteFile(loose, []byte(broken), 0o600); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	errOut.Reset()
	if code := run([]string{"-rules", loose}, &out, &errOut); code != 2 {
		t.Fatalf("exit %d", code)
	}
	want := loose + `:26:22: INVALID_REQUEST rules[4].expression: undeclared reference to "falbacks"; did you mean fallbacks? [company/at-most-three-fallbacks]`
	if strings.TrimSpace(errOut.String()) != want {
		t.Errorf("stderr %q\nwant   %q", errOut.String(), want)
	}
}
