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
