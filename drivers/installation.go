package drivers

import (
	"encoding/json"

	"github.com/occkit/occkit"
)

// InstallationCapabilities is `capabilities` of `GET /installation`
// (DRV-3). Its JSON form is
//
//	{"openclaw": {"executionModes": ["embedded", "dedicated"]},
//	 "nativeWorkers": {"support": "pinned-runtime"},
//	 "sandboxDriverUnavailable": true}
//
// where nativeWorkers and sandboxDriverUnavailable appear only when set.
type InstallationCapabilities struct {
	OpenClaw OpenClawCapabilities `json:"openclaw"`
	// NativeWorkers is present only when dedicated native OpenClaw can be
	// admitted, and says where its native-worker support comes from.
	NativeWorkers *NativeWorkers `json:"nativeWorkers,omitempty"`
	// SandboxDriverUnavailable is true while the configured SandboxDriver
	// is out; queued provisioning waits for it.
	SandboxDriverUnavailable bool `json:"sandboxDriverUnavailable,omitempty"`
}

// OpenClawCapabilities lists what OpenClaw Agents can deploy as.
type OpenClawCapabilities struct {
	// ExecutionModes are the modes an OpenClaw Agent can deploy in, always
	// embedded first; never empty.
	ExecutionModes []occkit.Mode `json:"executionModes"`
}

// NativeWorkers reports native-worker support.
type NativeWorkers struct {
	Support occkit.NativeWorkerSupport `json:"support"`
}

// CapabilityOptions are the live facts capabilities depend on beside the
// installation's configuration. The zero value is a healthy installation.
type CapabilityOptions struct {
	// SandboxUnavailable reports an outage of the configured SandboxDriver.
	SandboxUnavailable bool
}

// Capabilities computes the installation capabilities (DRV-3):
//
//   - openclaw.executionModes is always present: embedded, then dedicated
//     when a qualifying SandboxDriver is configured (a valid declaration
//     with harness provisioning and all three facets, RES-13) and
//     native-worker support exists. A Driver outage does not remove
//     dedicated: the installation still offers it and queued work waits.
//   - nativeWorkers is {support} under the same two conditions, and is
//     omitted otherwise (no qualifying SandboxDriver, or one but no
//     support source).
//   - sandboxDriverUnavailable is true when a SandboxDriver is configured
//     and opts reports its outage.
//
// A support value outside [occkit.NativeWorkerSupport]'s set is 400
// INVALID_REQUEST at runtime.nativeWorkerSupport.
func Capabilities(inst occkit.Installation, opts CapabilityOptions) (InstallationCapabilities, error) {
	support := inst.NativeWorkerSupport
	switch support {
	case occkit.NativeWorkersNone, occkit.NativeWorkersPinned, occkit.NativeWorkersCustomImage:
	default:
		return InstallationCapabilities{}, occkit.Invalid("DRV-3", nativeWorkerPath,
			"runtime.nativeWorkerSupport must be pinned-runtime or custom-image")
	}
	caps := InstallationCapabilities{
		OpenClaw: OpenClawCapabilities{ExecutionModes: []occkit.Mode{occkit.ModeEmbedded}},
	}
	if QualifiedSandbox(inst.Sandbox) && support != occkit.NativeWorkersNone {
		caps.OpenClaw.ExecutionModes = append(caps.OpenClaw.ExecutionModes, occkit.ModeDedicated)
		caps.NativeWorkers = &NativeWorkers{Support: support}
	}
	caps.SandboxDriverUnavailable = inst.Sandbox != nil && opts.SandboxUnavailable
	return caps, nil
}

// Offers reports whether mode is listed for OpenClaw. A Console refuses an
// unlisted mode before any write.
func (c InstallationCapabilities) Offers(mode occkit.Mode) bool {
	for _, m := range c.OpenClaw.ExecutionModes {
		if m == mode {
			return true
		}
	}
	return false
}

// JSON renders the capabilities as the `capabilities` object.
func (c InstallationCapabilities) JSON() []byte {
	b, err := json.Marshal(c)
	if err != nil {
		// Every field is a string, a bool or a slice of strings.
		return []byte(`{"openclaw":{"executionModes":["embedded"]}}`)
	}
	return b
}

// QualifiedSandbox reports whether a configured SandboxDriver can serve
// dedicated OpenClaw: its facets are a valid declaration (DRV-2, which a
// driver with an unknown or repeated facet could not have passed at
// registration) and it qualifies ([occkit.SandboxFacts.Qualifies],
// RES-13). A nil s does not.
func QualifiedSandbox(s *occkit.SandboxFacts) bool {
	return s != nil && CheckFacets(occkit.Root(), s.Facets) == nil && s.Qualifies()
}

var nativeWorkerPath = occkit.InstallationPath("runtime", "nativeWorkerSupport")

// NativeWorkerSource decides where native-worker support comes from
// (DRV-3, RES-13). pinnedSupports is a fact of the pinned runtime image
// (whether its OpenClaw build accepts the configuration dedicated native
// OpenClaw writes); declared is the operator's `runtime.nativeWorkerSupport`
// for a custom image. The pinned image wins; otherwise the declaration
// counts.
//
// An operator can declare only custom-image: declaring pinned-runtime (or
// anything else) is 400 INVALID_REQUEST at runtime.nativeWorkerSupport.
func NativeWorkerSource(pinnedSupports bool, declared string) (occkit.NativeWorkerSupport, error) {
	switch occkit.NativeWorkerSupport(declared) {
	case occkit.NativeWorkersNone, occkit.NativeWorkersCustomImage:
	case occkit.NativeWorkersPinned:
		return occkit.NativeWorkersNone, occkit.Invalid("DRV-3", nativeWorkerPath,
			"an operator cannot declare pinned-runtime: only custom-image can be declared")
	default:
		return occkit.NativeWorkersNone, occkit.Invalid("DRV-3", nativeWorkerPath,
			"runtime.nativeWorkerSupport may only be custom-image")
	}
	if pinnedSupports {
		return occkit.NativeWorkersPinned, nil
	}
	return occkit.NativeWorkerSupport(declared), nil
}
