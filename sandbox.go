package occkit

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

// Known reports whether f is one of [AllFacets].
func (f Facet) Known() bool {
	return f == FacetNetworking || f == FacetFilesystem || f == FacetProcess
}

// SandboxFacts is what resolution and admission need to know of the
// configured SandboxDriver.
type SandboxFacts struct {
	Facets           []Facet
	ProvisionHarness bool
}

// Qualifies reports whether the driver can contain a dedicated OpenClaw
// Harness (RES-13): it provisions the Harness and provides all three
// facets. A facet outside [AllFacets] does not matter here; whether a
// declaration is valid is DRV-2's question, asked at registration. A nil
// receiver does not qualify.
func (s *SandboxFacts) Qualifies() bool {
	return s != nil && len(s.Missing()) == 0
}

// Missing lists what s lacks to qualify, in a fixed order ("harness
// provisioning", then each missing facet as "<facet> facet"); a nil s
// lacks everything.
func (s *SandboxFacts) Missing() []string {
	if s == nil {
		s = &SandboxFacts{}
	}
	var miss []string
	if !s.ProvisionHarness {
		miss = append(miss, "harness provisioning")
	}
	have := map[Facet]bool{}
	for _, f := range s.Facets {
		have[f] = true
	}
	for _, f := range AllFacets() {
		if !have[f] {
			miss = append(miss, string(f)+" facet")
		}
	}
	return miss
}

// Installation holds the facts of the installation resolution depends on.
type Installation struct {
	NativeWorkerSupport NativeWorkerSupport
	// Sandbox is the configured SandboxDriver, or nil.
	Sandbox *SandboxFacts
}
