// Policytest shows how a control-plane team unit-tests its own agent
// policies with occkit: the team writes case files in occkit's conformance
// format (testdata/*.json: "our prod agents run embedded OpenClaw", "no
// codex on SSH", "a legacy codex/ ref is repaired", ...) and runs them
// with `go test` through occkit's exported runner,
// github.com/occkit/occkit/admission/policytest, which maps each op to one
// call of the library's public API.
//
// Run the team's cases:
//
//	go test ./examples/policytest            # from the repository root
//	go run ./examples/policytest             # the same, as a program
//	go run ./examples/policytest -cases DIR  # another directory of cases
//
// The same files run through occkit's own conformance test too, from an
// occkit checkout (it uses the same runner):
//
//	go test -v ./internal/conformance -run 'TestConformance$' -args -cases examples/policytest/testdata
//	OCCKIT_CASES=$PWD/examples/policytest/testdata go test -v ./internal/conformance -run 'TestConformance$'
//
// Both print the line "conformance: N passed, N failed" (go test shows a
// passing test's output only with -v), as this program does.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/occkit/occkit/admission/policytest"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run runs every case of the -cases directory and returns the exit status:
// 0 when every case passes.
func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("policytest", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dir := fs.String("cases", defaultCases(), "directory of case files")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	cases, err := policytest.Load(*dir)
	if err != nil {
		fmt.Fprintln(stderr, "policytest:", err)
		return 2
	}
	passed, failed := 0, 0
	for _, c := range cases {
		if diff := policytest.Run(c); diff != "" {
			failed++
			fmt.Fprintf(stdout, "FAIL %s: %s (rule %s, op %s)\n%s\n", c.File, c.Name, c.Rule, c.Op, diff)
			continue
		}
		passed++
		fmt.Fprintf(stdout, "ok   %s: %s\n", c.File, c.Name)
	}
	fmt.Fprintf(stdout, "conformance: %d passed, %d failed\n", passed, failed)
	if failed > 0 {
		return 1
	}
	return 0
}

// defaultCases finds testdata beside this example whether the program runs
// from the repository root, from examples/ or from this directory.
func defaultCases() string {
	for _, d := range []string{"testdata", "policytest/testdata", "examples/policytest/testdata"} {
		if st, err := os.Stat(d); err == nil && st.IsDir() {
			return d
		}
	}
	return "testdata"
}
