package conformance

import (
	"flag"
	"fmt"
	"os"
	"testing"
)

var casesDir = flag.String("cases", "", "directory of case files (default: $OCCKIT_CASES, else testdata/cases)")

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
	cases, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	passed, failed := 0, 0
	for _, c := range cases {
		ok := t.Run(c.File+"/"+c.Name, func(t *testing.T) {
			if d := Run(c); d != "" {
				t.Errorf("%s: %q (rule %s, op %s)\n%s", c.File, c.Name, c.Rule, c.Op, d)
			}
		})
		if ok {
			passed++
		} else {
			failed++
		}
	}
	fmt.Printf("conformance: %d passed, %d failed\n", passed, failed)
}
