package admission

import "sort"

// Process is one process of a deployed topology that can receive
// credential environment variables.
type Process string

// Processes. An embedded topology has one combined gateway/Harness process,
// reported as [ProcessHarness].
const (
	ProcessGateway Process = "gateway"
	ProcessHarness Process = "harness"
)

// AllProcesses lists every [Process].
func AllProcesses() []Process { return []Process{ProcessGateway, ProcessHarness} }

// EnvVar is one environment variable the Compute projects for model auth.
// It never holds secret bytes: a credential variable names the [SourceRef]
// the Compute reads at render time, a placeholder variable holds a fixed
// non-secret value that the Sandbox egress proxy replaces, and only
// non-secret settings (a login mode) carry a literal Value.
type EnvVar struct {
	Name string
	// Value is the literal value of a non-secret variable, else "".
	Value string
	// From is the reference whose bytes the Compute projects; zero for
	// literal and placeholder variables.
	From SourceRef
	// Placeholder marks a variable whose value the Sandbox egress proxy
	// substitutes from the Credential Gateway (AUTH-3).
	Placeholder bool
}

// Projection is the credential projection plan of a harnessAuth binding on
// one topology (AUTH-2): which process receives which variables, and how
// the Harness logs in. It is a value: slices are copied on the way in and
// out of a [Revision].
type Projection struct {
	// Gateway lists the variables of a dedicated gateway process; AUTH-6:
	// never the Harness inference credential, so empty for every binding.
	Gateway []EnvVar
	// Harness lists the variables of the Harness process (for an embedded
	// topology, the one combined process).
	Harness []EnvVar
	// StdinLogin: the Harness logs in by reading the key on stdin
	// (dedicated Codex with api_key).
	StdinLogin bool
	// EgressProxy: the Sandbox egress proxy inserts the key (credential_source).
	EgressProxy bool
	// HostManaged: the runtime host supplies credentials outside version
	// immutability (SSH runtime, AUTH-5).
	HostManaged bool
}

// Names returns the sorted variable names projected into process p.
func (p Projection) Names(proc Process) []string {
	var vars []EnvVar
	switch proc {
	case ProcessGateway:
		vars = p.Gateway
	case ProcessHarness:
		vars = p.Harness
	}
	names := make([]string, 0, len(vars))
	for _, v := range vars {
		names = append(names, v.Name)
	}
	sort.Strings(names)
	return names
}

func (p Projection) clone() Projection {
	q := p
	q.Gateway = append([]EnvVar(nil), p.Gateway...)
	q.Harness = append([]EnvVar(nil), p.Harness...)
	return q
}
