package resolver

import (
	"slices"
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
	if err := occkit.CheckSupported(compute, req.Topologies, occkit.Topology{Harness: h, Mode: mode}); err != nil {
		return nil, err
	}
	reasons = append(reasons, Reason{Rule: "RES-11", Path: occkit.Root(),
		Value: topologyValue(h, mode, compute),
		Note:  "the Compute supports this Harness and execution mode"})
	if topologyReasons(h, mode, compute) == 1 {
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

// topologyReasons is how many reasons checkTopology appends when the
// topology is supported: RES-11's, and RES-13's two for dedicated
// OpenClaw on Kubernetes.
func topologyReasons(h occkit.Harness, mode occkit.Mode, compute occkit.Compute) int {
	if compute == "" {
		compute = occkit.ComputeKubernetes
	}
	if compute == occkit.ComputeKubernetes && h == occkit.HarnessOpenClaw && mode == occkit.ModeDedicated {
		return 3
	}
	return 1
}

// topologyValues are the RES-11 reason values of the bundled Computes,
// spelled once: [Harness][Mode][Compute], in the orders of
// [occkit.AllHarnesses], [occkit.AllModes] and [occkit.BundledComputes].
var topologyValues = func() (v [2][2][3]string) {
	for i, h := range occkit.AllHarnesses() {
		for j, m := range occkit.AllModes() {
			for k, c := range occkit.BundledComputes() {
				v[i][j][k] = string(h) + "/" + string(m) + " on " + string(c)
			}
		}
	}
	return v
}()

// topologyValue is the RES-11 reason's value, "harness/mode on compute",
// spelled without allocating for the bundled Computes.
func topologyValue(h occkit.Harness, mode occkit.Mode, compute occkit.Compute) string {
	i, j, k := slices.Index(occkit.AllHarnesses(), h), slices.Index(occkit.AllModes(), mode),
		slices.Index(occkit.BundledComputes(), compute)
	if i < 0 || j < 0 || k < 0 {
		return string(h) + "/" + string(mode) + " on " + string(compute)
	}
	return topologyValues[i][j][k]
}

// sandboxGap says what the configured SandboxDriver lacks.
func sandboxGap(sb *occkit.SandboxFacts) string {
	if sb == nil {
		return "none is configured"
	}
	return "it lacks " + strings.Join(sb.Missing(), ", ")
}
