package resolver

import (
	"github.com/occkit/occkit"
	"github.com/occkit/occkit/deploy"
)

// The deployment vocabulary lives in package deploy, which every policy
// package imports; the names below keep resolver's own code readable and
// are the same types.

// Harness is [deploy.Harness].
type Harness = deploy.Harness

// Mode is [deploy.Mode].
type Mode = deploy.Mode

// Compute is [deploy.Compute].
type Compute = deploy.Compute

// Topology is [deploy.Topology].
type Topology = deploy.Topology

// NativeWorkerSupport is [deploy.NativeWorkerSupport].
type NativeWorkerSupport = deploy.NativeWorkerSupport

// Facet is [deploy.Facet].
type Facet = deploy.Facet

// SandboxFacts is [deploy.SandboxFacts].
type SandboxFacts = deploy.SandboxFacts

// Installation is [deploy.Installation].
type Installation = deploy.Installation

// The vocabulary's constants, as resolver's code spells them.
const (
	HarnessOpenClaw          = deploy.HarnessOpenClaw
	HarnessCodex             = deploy.HarnessCodex
	ModeEmbedded             = deploy.ModeEmbedded
	ModeDedicated            = deploy.ModeDedicated
	ComputeKubernetes        = deploy.ComputeKubernetes
	ComputeSSH               = deploy.ComputeSSH
	ComputeDocker            = deploy.ComputeDocker
	NativeWorkersNone        = deploy.NativeWorkersNone
	NativeWorkersPinned      = deploy.NativeWorkersPinned
	NativeWorkersCustomImage = deploy.NativeWorkersCustomImage
	FacetNetworking          = deploy.FacetNetworking
	FacetFilesystem          = deploy.FacetFilesystem
	FacetProcess             = deploy.FacetProcess
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
