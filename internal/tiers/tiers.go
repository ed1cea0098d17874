// Package tiers records which real test tiers ran in a test run, so that
// .ci/test can end with a summary a person can trust: a tier that skipped
// says so and why, a tier that checked nothing does not pass for one that
// ran, and under OCCKIT_REQUIRE_INTEGRATION=1 a tier that did not run fails
// the run.
//
// # Tiers
//
// A real tier is a test that needs something outside Go: a kube-apiserver
// and etcd, an sshd, systemd-analyze, node, the pinned OpenClaw, the Codex
// CLI. Every tier is a [Tier] value declared here, and [All] lists them:
// the one list of what .ci/test expects (a test keeps the declarations,
// the list and the tiers the tests use in step). A Tier cannot be made
// elsewhere, so a tier name the summary does not expect cannot be
// recorded.
//
// # Recording
//
// A test that runs a tier's checks calls [Tier.Start] once its
// prerequisites are there and [Run.Done] with the number of checks that
// executed (inputs compared, documents validated, gateways started; for a
// server shared by a test package, sshd or kube-apiserver, each test that
// used it counts one). When
// the test ends, after its subtests, the tier is recorded as "ran" only if
// that number is positive; a run that checked nothing is recorded as such
// and, under [Required], fails the test. A test without its prerequisites
// calls [Tier.Skip]: it records the reason and skips, or under [Required]
// fails. Each record is one line "name<TAB>status" appended to the file
// named by OCCKIT_TIER_REPORT (set by .ci/test); without it nothing is
// written.
//
// # Summary
//
// [Summarize] reads the report and prints one line per tier of [All] (in
// that order): "ran (N checks)", or the first reason it did not run. Under
// [Required] any tier that did not run is an error; internal/tiers/tiersummary is the
// command .ci/test calls.
package tiers

import (
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"testing"
)

// ReportEnv names the file tiers append their lines to.
const ReportEnv = "OCCKIT_TIER_REPORT"

// RequireEnv names the variable that makes every tier required.
const RequireEnv = "OCCKIT_REQUIRE_INTEGRATION"

// Required reports whether a missing prerequisite, or a tier that checked
// nothing, must fail the run (OCCKIT_REQUIRE_INTEGRATION=1, which
// .ci/setup records once it has installed every prerequisite).
func Required() bool { return os.Getenv(RequireEnv) == "1" }

// Tier is one real test tier. The zero value is no tier: its methods fail
// the test.
type Tier struct{ name string }

// The real tiers. A new tier is declared here and listed in [All].
var (
	// KubeAPIServer runs the Kubernetes driver against a real
	// kube-apiserver and etcd (drivers/kubernetes).
	KubeAPIServer = Tier{"kube-apiserver+etcd"}
	// SSHD runs the SSH driver against a real OpenSSH server (drivers/ssh).
	SSHD = Tier{"sshd"}
	// SystemdVerify checks rendered units with systemd-analyze verify
	// (drivers/ssh).
	SystemdVerify = Tier{"systemd-analyze verify"}
	// Codex runs the Codex probe with the real Codex CLI against scripted
	// endpoints (probe/runner).
	Codex = Tier{"codex"}
	// OpenClawDiff compares occkit's functions with OpenClaw's own on
	// generated inputs (internal/openclawdiff).
	OpenClawDiff = Tier{"openclawdiff"}
	// GatewaySSH starts real OpenClaw gateways as the SSH driver renders
	// them (drivers/ssh).
	GatewaySSH = Tier{"openclaw gateway (ssh)"}
	// SSHRelease checks, over the real sshd, that a host running one
	// real OpenClaw release refuses a revision approved for another
	// (drivers/ssh).
	SSHRelease = Tier{"openclaw release check (ssh)"}
	// GatewayKubernetes starts real OpenClaw gateways as the Kubernetes
	// driver renders them (drivers/kubernetes).
	GatewayKubernetes = Tier{"openclaw gateway (kubernetes)"}
	// ModelProbe runs the real OpenClaw model probe against scripted
	// providers (internal/realgateway).
	ModelProbe = Tier{"openclaw model probe"}
	// SchemaRegeneration regenerates the embedded OpenClaw schema from the
	// pinned package (compile/openclawschema).
	SchemaRegeneration = Tier{"openclaw schema regeneration"}
	// SchemaRefinement compares the refinement checks with `openclaw
	// config validate` (compile/openclawschema).
	SchemaRefinement = Tier{"openclaw refinement differential (config validate)"}
	// SchemaDifferential compares the schema validator with OpenClaw's
	// validateConfigObject (compile/openclawschema).
	SchemaDifferential = Tier{"openclaw schema differential (validateConfigObject)"}
	// ChannelIDs compares the channel-id check with the gateway's own
	// validation of each installed release (compile/openclawschema).
	ChannelIDs = Tier{"openclaw channel ids (config validate)"}
	// NodeCanonical compares the canonical form with one node computes
	// (package occkit).
	NodeCanonical = Tier{"node canonical form"}
	// NodeJSON5 compares the JSON5 transcoder with the json5 package run
	// by node (internal/json5).
	NodeJSON5 = Tier{"node json5 differential"}
	// EnvPolicy regenerates the secretBinding name policy from each
	// installed release's package (the pinned one and the older one) and
	// compares it with that release's own functions (compile/envpolicy).
	EnvPolicy = Tier{"openclaw env policy"}
	// EnvVarsOracle compares the variables a document defines and
	// references with those OpenClaw finds missing (compile).
	EnvVarsOracle = Tier{"openclaw env.vars oracle"}
	// ModelCatalog regenerates the built-in model catalogs from the
	// installed OpenClaw packages (compile/modelcatalog).
	ModelCatalog = Tier{"openclaw model catalog"}
	// ContainerFilesystem checks, as root in private mount namespaces,
	// the container filesystems the real-gateway tiers give rendered
	// processes: read-only and writable mounts, host names, a pod's own
	// /tmp (internal/realgateway).
	ContainerFilesystem = Tier{"container filesystem (mount namespaces)"}
)

// All lists every real tier, in the order the summary prints them: the
// tiers .ci/test expects under [Required].
func All() []Tier {
	return []Tier{
		KubeAPIServer, SSHD, SystemdVerify, Codex, OpenClawDiff,
		GatewaySSH, SSHRelease, GatewayKubernetes, ModelProbe,
		SchemaRegeneration, SchemaRefinement, SchemaDifferential, ChannelIDs,
		NodeCanonical, NodeJSON5, EnvPolicy, EnvVarsOracle, ModelCatalog,
		ContainerFilesystem,
	}
}

// String is the tier's name in the report and the summary.
func (tr Tier) String() string { return tr.name }

// valid fails t for the zero Tier.
func (tr Tier) valid(t testing.TB) {
	t.Helper()
	if tr.name == "" {
		t.Fatal("tiers: the zero Tier is no tier; use one of tiers.All()")
	}
}

// Skip records that the tier cannot run in t, and why, and skips t; under
// [Required] it fails t instead (no skip survives OCCKIT_REQUIRE_INTEGRATION=1).
func (tr Tier) Skip(t testing.TB, why string) {
	t.Helper()
	tr.valid(t)
	if Required() {
		t.Fatalf("the real tier %q is required (%s=1) but cannot run: %s", tr.name, RequireEnv, why)
	}
	record(tr.name, "skipped: "+why)
	t.Skip(tr.name + ": " + why)
}

// Run is one test's run of a tier; see [Tier.Start].
type Run struct {
	tier    Tier
	checked atomic.Int64
}

// Start begins the tier in t, once its prerequisites are there. When t
// ends (after its subtests) the tier is recorded: "ran" when [Run.Done]
// counted checks; otherwise that it checked nothing, which fails t under
// [Required] unless t already failed. A t that skips after Start is
// recorded as skipped, and fails under [Required].
func (tr Tier) Start(t testing.TB) *Run {
	t.Helper()
	tr.valid(t)
	r := &Run{tier: tr}
	t.Cleanup(func() { r.end(t) })
	return r
}

// Done counts n checks that executed (n ≤ 0 counts nothing). It may be
// called any number of times, from parallel subtests too.
func (r *Run) Done(n int) {
	if n > 0 {
		r.checked.Add(int64(n))
	}
}

func (r *Run) end(t testing.TB) {
	n := r.checked.Load()
	switch {
	case t.Skipped():
		record(r.tier.name, "skipped: the test skipped after the tier started")
		if Required() {
			t.Errorf("the real tier %q skipped under %s=1", r.tier.name, RequireEnv)
		}
	case n > 0:
		record(r.tier.name, fmt.Sprintf("ran %d", n))
	case t.Failed():
		record(r.tier.name, "failed before checking anything")
	default:
		record(r.tier.name, "checked nothing")
		if Required() {
			t.Errorf("the real tier %q checked nothing (0 checks executed) under %s=1", r.tier.name, RequireEnv)
		}
	}
}

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
	clean := strings.NewReplacer("\n", " ", "\t", " ")
	fmt.Fprint(f, clean.Replace(name)+"\t"+clean.Replace(what)+"\n")
}
