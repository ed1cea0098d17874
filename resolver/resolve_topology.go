package resolver

import (
	"strings"

	"github.com/occkit/occkit"
)

// resPathMode is the Agent setting the topology rules refuse: the
// execution mode is a field of the Agent, not of the Configuration.
var resPathMode = occkit.NewPath("executionMode")

// resBundledTopologies are the fixed (Harness, Mode) sets of the bundled
// Computes (RES-11). Kubernetes' dedicated OpenClaw is further gated by
// RES-13.
func resBundledTopologies(c Compute) ([]Topology, bool) {
	switch c {
	case ComputeKubernetes:
		return []Topology{
			{HarnessOpenClaw, ModeEmbedded},
			{HarnessCodex, ModeDedicated},
			{HarnessOpenClaw, ModeDedicated},
		}, true
	case ComputeSSH, ComputeDocker:
		return []Topology{{HarnessOpenClaw, ModeEmbedded}}, true
	}
	return nil, false
}

// resTopology applies RES-11 and RES-13 to the resolved Harness h in mode
// on req's Compute, appending the deciding reasons.
func resTopology(h Harness, mode Mode, req Request, reasons []Reason) ([]Reason, error) {
	if mode != ModeEmbedded && mode != ModeDedicated {
		return nil, resInvalid("RES-11", resPathMode,
			`executionMode must be "embedded" or "dedicated"`)
	}
	if h == HarnessCodex && mode == ModeEmbedded {
		return nil, resInvalid("RES-11", resPathMode,
			"the codex Harness runs only in dedicated execution mode, not embedded: set executionMode to dedicated")
	}
	compute := req.Compute
	if compute == "" {
		compute = ComputeKubernetes
	}
	set, bundled := resBundledTopologies(compute)
	if !bundled {
		set = req.Topologies
	}
	supported := false
	for _, t := range set {
		if t.Harness == h && t.Mode == mode {
			supported = true
			break
		}
	}
	if !supported {
		return nil, resInvalid("RES-11", resPathMode,
			"Compute %q does not support the %s Harness in %s execution mode (supported: %s)",
			string(compute), h, mode, resTopologyList(set))
	}
	reasons = append(reasons, Reason{Rule: "RES-11", Path: occkit.Root(),
		Value: string(h) + "/" + string(mode) + " on " + string(compute),
		Note:  "the Compute supports this Harness and execution mode"})
	if compute != ComputeKubernetes || h != HarnessOpenClaw || mode != ModeDedicated {
		return reasons, nil
	}
	// RES-13: dedicated OpenClaw on Kubernetes.
	var errs []error
	support := req.Installation.NativeWorkerSupport
	if support != NativeWorkersPinned && support != NativeWorkersCustomImage {
		errs = append(errs, resInvalid("RES-13", resPathMode,
			"dedicated OpenClaw needs native-worker support (enforced worker placement through cloudWorkers.requiredProfile, node-local inference): the pinned runtime image, or a custom image declaring runtime.nativeWorkerSupport"))
	}
	if sb := req.Installation.Sandbox; !sb.Qualifies() {
		errs = append(errs, resConflict("RES-13", resPathMode,
			"dedicated OpenClaw needs a qualifying SandboxDriver (%s); missing Driver: SandboxDriver", resSandboxGap(sb)))
	}
	if len(errs) > 0 {
		return nil, occkit.Join(errs...)
	}
	reasons = append(reasons,
		Reason{Rule: "RES-13", Path: occkit.Root(), Value: string(support), Note: "native-worker support"},
		Reason{Rule: "RES-13", Path: occkit.Root(), Value: "SandboxDriver",
			Note: "a qualifying SandboxDriver provisions the Harness with the networking, filesystem and process facets"})
	return reasons, nil
}

// resSandboxGap says what the configured SandboxDriver lacks.
func resSandboxGap(sb *SandboxFacts) string {
	if sb == nil {
		return "none is configured"
	}
	var miss []string
	if !sb.ProvisionHarness {
		miss = append(miss, "harness provisioning")
	}
	have := map[Facet]bool{}
	for _, f := range sb.Facets {
		have[f] = true
	}
	for _, f := range AllFacets() {
		if !have[f] {
			miss = append(miss, string(f)+" facet")
		}
	}
	return "it lacks " + strings.Join(miss, ", ")
}

func resTopologyList(set []Topology) string {
	if len(set) == 0 {
		return "none"
	}
	parts := make([]string, len(set))
	for i, t := range set {
		parts[i] = string(t.Harness) + "/" + string(t.Mode)
	}
	return strings.Join(parts, ", ")
}
