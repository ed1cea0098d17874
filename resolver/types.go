package resolver

import (
	"github.com/occkit/occkit"
)

// The deployment vocabulary lives in the root package occkit, which every
// policy package imports; the names below keep resolver's own code readable and
// are the same types.

// Harness is [occkit.Harness].
type Harness = occkit.Harness

// Mode is [occkit.Mode].
type Mode = occkit.Mode

// Compute is [occkit.Compute].
type Compute = occkit.Compute

// Topology is [occkit.Topology].
type Topology = occkit.Topology

// NativeWorkerSupport is [occkit.NativeWorkerSupport].
type NativeWorkerSupport = occkit.NativeWorkerSupport

// Facet is [occkit.Facet].
type Facet = occkit.Facet

// SandboxFacts is [occkit.SandboxFacts].
type SandboxFacts = occkit.SandboxFacts

// Installation is [occkit.Installation].
type Installation = occkit.Installation

// The vocabulary's constants, as resolver's code spells them.
const (
	HarnessOpenClaw          = occkit.HarnessOpenClaw
	HarnessCodex             = occkit.HarnessCodex
	ModeEmbedded             = occkit.ModeEmbedded
	ModeDedicated            = occkit.ModeDedicated
	ComputeKubernetes        = occkit.ComputeKubernetes
	ComputeSSH               = occkit.ComputeSSH
	ComputeDocker            = occkit.ComputeDocker
	NativeWorkersNone        = occkit.NativeWorkersNone
	NativeWorkersPinned      = occkit.NativeWorkersPinned
	NativeWorkersCustomImage = occkit.NativeWorkersCustomImage
	FacetNetworking          = occkit.FacetNetworking
	FacetFilesystem          = occkit.FacetFilesystem
	FacetProcess             = occkit.FacetProcess
)

// Reason is one step of a decision's explanation (SEL-9): the rule that
// applied, the JSON path it examined and the value that decided.
type Reason struct {
	Rule  string
	Path  occkit.Path
	Value string
	// Note is a short human explanation.
	Note string
}
