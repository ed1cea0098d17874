package resolver

import (
	"strings"

	"github.com/occkit/occkit"
)

// pathMode is the Agent setting the topology rules refuse: the
// execution mode is a field of the Agent, not of the Configuration.
var pathMode = occkit.AgentPath("executionMode")

// checkTopology applies RES-11 and RES-13 to the resolved Harness h in mode
// on req's Compute, appending the deciding reasons.
func checkTopology(h occkit.Harness, mode occkit.Mode, req Request, reasons []Reason) ([]Reason, error) {
	compute := req.Compute
	if compute == "" {
		compute = occkit.ComputeKubernetes
	}
	if err := occkit.CheckTopology(compute, occkit.Supported(compute, req.Topologies), occkit.Topology{Harness: h, Mode: mode}); err != nil {
		return nil, err
	}
	reasons = append(reasons, Reason{Rule: "RES-11", Path: occkit.Root(),
		Value: string(h) + "/" + string(mode) + " on " + string(compute),
		Note:  "the Compute supports this Harness and execution mode"})
	if compute != occkit.ComputeKubernetes || h != occkit.HarnessOpenClaw || mode != occkit.ModeDedicated {
		return reasons, nil
	}
	// RES-13: dedicated OpenClaw on Kubernetes.
	var errs []error
	support := req.Installation.NativeWorkerSupport
	if support != occkit.NativeWorkersPinned && support != occkit.NativeWorkersCustomImage {
		errs = append(errs, invalid("RES-13", pathMode,
			"dedicated OpenClaw needs native-worker support (enforced worker placement through cloudWorkers.requiredProfile, node-local inference): the pinned runtime image, or a custom image declaring runtime.nativeWorkerSupport"))
	}
	if sb := req.Installation.Sandbox; !sb.Qualifies() {
		errs = append(errs, conflict("RES-13", pathMode,
			"dedicated OpenClaw needs a qualifying SandboxDriver (%s); missing Driver: SandboxDriver", sandboxGap(sb)))
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

// sandboxGap says what the configured SandboxDriver lacks.
func sandboxGap(sb *occkit.SandboxFacts) string {
	if sb == nil {
		return "none is configured"
	}
	return "it lacks " + strings.Join(sb.Missing(), ", ")
}
