package resolver

import "github.com/occkit/occkit"

// Harness is the runtime that executes the model loop.
type Harness string

// The Harnesses an OCC deployment admits (RES-1).
const (
	HarnessOpenClaw Harness = "openclaw"
	HarnessCodex    Harness = "codex"
)

// Mode is where the Harness runs relative to the gateway.
type Mode string

// Execution modes (RES-11). The empty Mode means "not given" and resolves to
// [ModeEmbedded] on creation.
const (
	ModeEmbedded  Mode = "embedded"
	ModeDedicated Mode = "dedicated"
)

// Compute names where a deployment runs. The bundled kinds are below; a
// custom ComputeDriver uses its own name and declares its [Topology] set.
type Compute string

// Bundled Compute kinds.
const (
	ComputeKubernetes Compute = "kubernetes"
	ComputeSSH        Compute = "ssh"
	ComputeDocker     Compute = "docker"
)

// Topology is one (Harness, Mode) pair a Compute can run.
type Topology struct {
	Harness Harness
	Mode    Mode
}

// NativeWorkerSupport says where dedicated OpenClaw's native-worker support
// comes from (RES-13, DRV-3).
type NativeWorkerSupport string

// Native-worker support sources; the empty value means none.
const (
	NativeWorkersNone        NativeWorkerSupport = ""
	NativeWorkersPinned      NativeWorkerSupport = "pinned-runtime"
	NativeWorkersCustomImage NativeWorkerSupport = "custom-image"
)

// Facet is one containment facet a SandboxDriver provides (DRV-2).
type Facet string

// The closed set of facets.
const (
	FacetNetworking Facet = "networking"
	FacetFilesystem Facet = "filesystem"
	FacetProcess    Facet = "process"
)

// AllFacets lists every [Facet].
func AllFacets() []Facet { return []Facet{FacetNetworking, FacetFilesystem, FacetProcess} }

// SandboxFacts is what resolution needs to know of the configured
// SandboxDriver.
type SandboxFacts struct {
	Facets           []Facet
	ProvisionHarness bool
}

// Qualifies reports whether the driver can contain a dedicated OpenClaw
// Harness: a provisioning hook and all three facets (RES-13). A nil
// receiver does not qualify.
func (s *SandboxFacts) Qualifies() bool {
	if s == nil || !s.ProvisionHarness {
		return false
	}
	have := map[Facet]bool{}
	for _, f := range s.Facets {
		have[f] = true
	}
	for _, f := range AllFacets() {
		if !have[f] {
			return false
		}
	}
	return true
}

// Installation holds the facts of the installation resolution depends on.
type Installation struct {
	NativeWorkerSupport NativeWorkerSupport
	// Sandbox is the configured SandboxDriver, or nil.
	Sandbox *SandboxFacts
}

// Reason is one step of a decision's explanation (SEL-9): the rule that
// applied, the JSON path it examined and the value that decided.
type Reason struct {
	Rule  string
	Path  occkit.Path
	Value string
	// Note is a short human explanation.
	Note string
}
