// Package tiers records which real test tiers ran in a test run, so that
// .ci/test can end with a summary a person can trust: a tier that skipped
// says so and why, instead of hiding behind a passing "ok".
//
// A real tier is a test that needs something outside Go: a kube-apiserver
// and etcd, an sshd, systemd-analyze, node with the pinned OpenClaw, the
// Codex CLI. Each tier calls [Ran] when it starts its real part and
// [Skipped] when it cannot. Both append one line to the file named by
// OCCKIT_TIER_REPORT (set by .ci/test) and do nothing when it is unset.
// [Required] reports OCCKIT_REQUIRE_INTEGRATION=1 (set once .ci/setup has
// run), under which a missing prerequisite is a failure, not a skip.
package tiers

import (
	"fmt"
	"os"
	"strings"
)

// ReportEnv names the file tiers append their lines to.
const ReportEnv = "OCCKIT_TIER_REPORT"

// Required reports whether a missing prerequisite must fail the run.
func Required() bool { return os.Getenv("OCCKIT_REQUIRE_INTEGRATION") == "1" }

// Ran records that the real tier name ran.
func Ran(name string) { record(name, "ran") }

// Skipped records that the real tier name was skipped, and why.
func Skipped(name, why string) { record(name, "skipped: "+why) }

func record(name, what string) {
	path := os.Getenv(ReportEnv)
	if path == "" {
		return
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return
	}
	defer f.Close()
	// One short write per line: O_APPEND keeps lines of parallel test
	// binaries whole.
	line := strings.NewReplacer("\n", " ", "\t", " ").Replace(name) + "\t" +
		strings.NewReplacer("\n", " ", "\t", " ").Replace(what) + "\n"
	fmt.Fprint(f, line)
}
