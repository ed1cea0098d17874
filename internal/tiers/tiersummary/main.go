// Command tiersummary prints the real-tier summary of a test run from the
// report internal/tiers wrote (its path is the only argument) and exits 1
// when OCCKIT_REQUIRE_INTEGRATION=1 and an expected tier did not run
// (see internal/tiers.Summarize). .ci/test calls it last.
package main

import (
	"fmt"
	"os"

	"github.com/occkit/occkit/internal/tiers"
)

func main() { os.Exit(run(os.Args[1:])) }

func run(args []string) int {
	if len(args) != 1 {
		fmt.Fprintln(os.Stderr, "usage: tiersummary REPORT")
		return 2
	}
	f, err := os.Open(args[0])
	if err != nil {
		fmt.Fprintln(os.Stderr, "tiersummary:", err)
		return 1
	}
	defer f.Close()
	if err := tiers.Summarize(f, os.Stdout, tiers.Required()); err != nil {
		fmt.Fprintln(os.Stderr, "tiersummary:", err)
		return 1
	}
	if !tiers.Required() {
		fmt.Println("  real tiers are optional here: run bash .ci/setup (as root) to require them")
	}
	return 0
}
