package conformance

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/occkit/occkit/admission/policytest"
)

var casesDir = flag.String("cases", "", "directory of case files (default: $OCCKIT_CASES, else testdata/cases); a relative path may be given from the package or the repository root")

// sharedCases is the public set as published beside the repository; the
// copy under testdata/cases is what runs on a clone that lacks it.
const sharedCases = "../../../shared/conformance/cases"

// resolveDir finds dir relative to the package directory (where go test
// runs) or, failing that, relative to the repository root.
func resolveDir(dir string) string {
	if filepath.IsAbs(dir) {
		return dir
	}
	if _, err := os.Stat(dir); err == nil {
		return dir
	}
	if alt := filepath.Join("..", "..", dir); exists(alt) {
		return alt
	}
	return dir
}

func exists(p string) bool { _, err := os.Stat(p); return err == nil }

// TestConformance runs every case of the case directory as a subtest named
// file/case and ends with the line "conformance: N passed, N failed".
func TestConformance(t *testing.T) {
	dir := *casesDir
	if dir == "" {
		dir = os.Getenv("OCCKIT_CASES")
	}
	if dir == "" {
		dir = "testdata/cases"
	}
	passed, failed := runDir(t, resolveDir(dir))
	fmt.Printf("conformance: %d passed, %d failed\n", passed, failed)
}

// TestExtraCases runs the project's own cases (testdata/extra), written
// from the rules, the seeds and the reference's tests.
func TestExtraCases(t *testing.T) {
	if *casesDir != "" || os.Getenv("OCCKIT_CASES") != "" {
		t.Skip("a case directory was given")
	}
	runDir(t, "testdata/extra")
}

// TestPublicCopyIsCurrent runs the published public set too when it is
// beside the repository and differs from the copy, and says so: the copy
// under testdata/cases must then be refreshed. Without the published set
// (a fresh clone) it skips, also under OCCKIT_REQUIRE_INTEGRATION=1: the
// set is no real tier, nothing .ci/setup installs provides it (as for the
// rule book, see internal/rules), and the copy runs in TestConformance.
func TestPublicCopyIsCurrent(t *testing.T) {
	if !exists(sharedCases) {
		t.Skip("no shared/ beside the repository")
	}
	files, _ := filepath.Glob(filepath.Join(sharedCases, "*.json"))
	stale := false
	for _, f := range files {
		a, _ := os.ReadFile(f)
		b, err := os.ReadFile(filepath.Join("testdata/cases", filepath.Base(f)))
		if err != nil || !bytes.Equal(a, b) {
			stale = true
			t.Logf("testdata/cases/%s differs from the published set: refresh the copy", filepath.Base(f))
		}
	}
	if stale {
		runDir(t, sharedCases)
	}
}

func runDir(t *testing.T, dir string) (passed, failed int) {
	t.Helper()
	cases, err := policytest.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		ok := t.Run(c.File+"/"+c.Name, func(t *testing.T) {
			if d := policytest.Run(c); d != "" {
				t.Errorf("%s: %q (rule %s, op %s)\n%s", c.File, c.Name, c.Rule, c.Op, d)
			}
		})
		if ok {
			passed++
		} else {
			failed++
		}
	}
	return passed, failed
}
