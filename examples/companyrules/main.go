package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/admission/celrules"
	"github.com/occkit/occkit/admission/policytest"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run compiles the -rules file and runs every case of the -cases
// directory with it; the exit status is 0 when every case passes, 1 when
// one fails and 2 when the rules or the cases cannot be read.
func run(args []string, stdout, stderr io.Writer) int {
	here := beside()
	fs := flag.NewFlagSet("companyrules", flag.ContinueOnError)
	fs.SetOutput(stderr)
	rulesFile := fs.String("rules", filepath.Join(here, "rules.yaml"), "the rule file")
	dir := fs.String("cases", filepath.Join(here, "cases"), "directory of case files")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	rules, err := celrules.Load(*rulesFile, celrules.Options{})
	if err != nil {
		for _, e := range occkit.Errors(err) {
			fmt.Fprintf(stderr, "%s: %v\n", e.Position, e)
		}
		return 2
	}
	cases, err := policytest.Load(*dir)
	if err != nil {
		fmt.Fprintln(stderr, "companyrules:", err)
		return 2
	}
	r := policytest.Runner{Rules: rules}
	passed, failed := 0, 0
	for _, c := range cases {
		if diff := r.Run(c); diff != "" {
			failed++
			fmt.Fprintf(stdout, "FAIL %s: %s (rule %s)\n%s\n", c.File, c.Name, c.Rule, diff)
			continue
		}
		passed++
		fmt.Fprintf(stdout, "ok   %s: %s\n", c.File, c.Name)
	}
	fmt.Fprintf(stdout, "companyrules: %d passed, %d failed\n", passed, failed)
	if failed > 0 {
		return 1
	}
	return 0
}

// beside finds this example's directory whether the program runs from the
// repository root, from examples/ or from here.
func beside() string {
	for _, d := range []string{".", "companyrules", "examples/companyrules"} {
		if _, err := os.Stat(filepath.Join(d, "rules.yaml")); err == nil {
			return d
		}
	}
	return "."
}
