package drivers

import (
	"github.com/occkit/occkit"
)

// Revision is the view of an admitted revision a driver acts on: what it
// renders, names and reports. Every accessor returns a copy, so a driver
// cannot change a revision. admission's *Revision is the implementation
// drivers receive from a control plane; tests get one from
// drivertest.NewRevision.
//
// A driver renders a revision from its plan: [Plan] asks for it
// (drivers.Plan[compile.Plan](rev, opts)), and every Revision admission
// makes answers.
//
// A driver must not act on a revision it has not been handed by the
// control plane, which re-checks every revision before any runtime effect
// (admission.Verify, ADM-5).
type Revision interface {
	// AgentID is the Agent the revision belongs to.
	AgentID() string
	// Digest identifies the revision: the SHA-256 of its whole record.
	Digest() string
	// DocumentDigest is the SHA-256 of the admitted document's canonical
	// bytes.
	DocumentDigest() string
	// Document is the admitted document (canonical).
	Document() occkit.Document
	// Canonical is the admitted document's canonical bytes.
	Canonical() []byte
	// Source names the stored Configuration and the generation admitted.
	Source() SourceIdentity
	// Harness is the decided Harness; HarnessIdentity adds its approved
	// version.
	Harness() occkit.Harness
	HarnessIdentity() HarnessIdentity
	// Mode is the decided execution mode; Topology is (Harness, Mode).
	Mode() occkit.Mode
	Topology() occkit.Topology
	// Compute is the Compute kind the revision was admitted for.
	Compute() occkit.Compute
	// SandboxDriverID is the bound SandboxDriver, or "".
	SandboxDriverID() string
	// HarnessAuth is the frozen harnessAuth binding (references only).
	HarnessAuth() occkit.Binding
	// Projection is the credential projection plan (AUTH-2).
	Projection() occkit.Projection
	// Primary and Fallbacks are the admitted model refs.
	Primary() string
	Fallbacks() []string
	// Level is the admitted log level; LoggingOwnership who owns native
	// logging (LOG-1, LOG-3).
	Level() occkit.LogLevel
	LoggingOwnership() occkit.LogOwnership
}

// SourceIdentity names the stored Configuration a revision was admitted
// from: its ID and the generation read (ADM-3). Version freezing freezes
// this reference, not later edits (ADM-7).
type SourceIdentity struct {
	ID         string
	Generation int64
}

// HarnessIdentity is the approved Harness and its version (ADM-3).
type HarnessIdentity struct {
	ID      occkit.Harness
	Version string
}

// Planner is the capability of a [Revision] that plans its own render
// (CMP-4): admission's *Revision is a Planner[compile.PlanOptions,
// compile.Plan], and so is every fixture of package drivertest. The
// contract names the plan through type parameters because it imports no
// policy package (internal/deps); [Plan] asks for it.
type Planner[O, P any] interface {
	Plan(opts O) (P, error)
}

// Plan is rev's render plan for the Compute's placement opts: every
// process the revision runs, with its documents, environment and files
// by role. A driver calls it as
//
//	plan, err := drivers.Plan[compile.Plan](rev, compile.PlanOptions{Bind: compile.BindLoopback})
//
// and maps the plan; it holds no credential rule of its own. A revision
// that cannot plan (one not made by admission) is 400 INVALID_REQUEST
// (DRV-1); the plan's own refusals are returned as they are.
func Plan[P, O any](rev Revision, opts O) (P, error) {
	var zero P
	p, ok := rev.(Planner[O, P])
	if !ok {
		return zero, occkit.Invalid("DRV-1", occkit.Root(), "the revision cannot plan its render: pass an admitted revision")
	}
	return p.Plan(opts)
}
