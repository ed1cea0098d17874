package occkit

// Process is the role of one process of a deployed topology: the gateway
// or the Harness. An embedded topology runs one combined gateway/Harness
// process, reported as [ProcessHarness] wherever per-process facts are
// given (credential variables) and as [ProcessGateway] where the native
// runtime is the gateway (logging render).
type Process string

// Process roles.
const (
	ProcessGateway Process = "gateway"
	ProcessHarness Process = "harness"
)

// AllProcesses lists every [Process].
func AllProcesses() []Process { return []Process{ProcessGateway, ProcessHarness} }

// Known reports whether p is one of [AllProcesses].
func (p Process) Known() bool { return p == ProcessGateway || p == ProcessHarness }
