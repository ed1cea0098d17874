package occkit

import (
	"strings"
)

// Harness is the runtime that executes the model loop.
type Harness string

// The Harnesses an OCC deployment admits (RES-1).
const (
	HarnessOpenClaw Harness = "openclaw"
	HarnessCodex    Harness = "codex"
)

// AllHarnesses lists every [Harness].
func AllHarnesses() []Harness { return []Harness{HarnessOpenClaw, HarnessCodex} }

// Known reports whether h is one of [AllHarnesses].
func (h Harness) Known() bool { return h == HarnessOpenClaw || h == HarnessCodex }

// Mode is where the Harness runs relative to the gateway.
type Mode string

// Execution modes (RES-11). The empty Mode means "not given"; callers
// decide its default (an Agent's is [ModeEmbedded]).
const (
	ModeEmbedded  Mode = "embedded"
	ModeDedicated Mode = "dedicated"
)

// AllModes lists every [Mode].
func AllModes() []Mode { return []Mode{ModeEmbedded, ModeDedicated} }

// Known reports whether m is one of [AllModes].
func (m Mode) Known() bool { return m == ModeEmbedded || m == ModeDedicated }

// Compute names where a deployment runs. The bundled kinds are below; a
// custom ComputeDriver uses its own name and declares its [Topology] set.
type Compute string

// Bundled Compute kinds.
const (
	ComputeKubernetes Compute = "kubernetes"
	ComputeSSH        Compute = "ssh"
	ComputeDocker     Compute = "docker"
)

// BundledComputes lists the bundled Compute kinds, the default first.
func BundledComputes() []Compute { return []Compute{ComputeKubernetes, ComputeSSH, ComputeDocker} }

// Bundled reports whether c is a bundled kind; "" is not (callers default
// it to [ComputeKubernetes] first).
func (c Compute) Bundled() bool {
	_, ok := bundledTopologies[c]
	return ok
}

// Topology is one (Harness, Mode) pair a Compute can run.
type Topology struct {
	Harness Harness
	Mode    Mode
}

// String renders t as "harness/mode".
func (t Topology) String() string { return string(t.Harness) + "/" + string(t.Mode) }

// bundledTopologies is the RES-11 table: the fixed (Harness, Mode) rows of
// each bundled Compute. Kubernetes' dedicated OpenClaw is further gated by
// RES-13, which the resolver decides.
var bundledTopologies = map[Compute][]Topology{
	ComputeKubernetes: {
		{HarnessOpenClaw, ModeEmbedded},
		{HarnessCodex, ModeDedicated},
		{HarnessOpenClaw, ModeDedicated},
	},
	ComputeSSH:    {{HarnessOpenClaw, ModeEmbedded}},
	ComputeDocker: {{HarnessOpenClaw, ModeEmbedded}},
}

// Supported is the (Harness, Mode) set Compute c runs (RES-11): its rows
// of the bundled table for a bundled kind, else declared (what a custom
// ComputeDriver declares). The result is a copy.
func Supported(c Compute, declared []Topology) []Topology {
	if rows, ok := bundledTopologies[c]; ok {
		return append([]Topology(nil), rows...)
	}
	return append([]Topology(nil), declared...)
}

// modePath is where topology refusals point: the execution mode is a field
// of the Agent, not of the Configuration.
var modePath = AgentPath("executionMode")

// Check is the part of RES-11 that holds on every Compute: t names a known
// Harness (else 400 at "harness", RES-1) and a known Mode, and Codex never
// runs embedded (400 at "executionMode", RES-11).
func (t Topology) Check() error {
	switch {
	case !t.Harness.Known():
		return suggested(Invalid("RES-1", AgentPath("harness"), "the Harness must be openclaw or codex%s",
			DidYouMean(string(t.Harness), []string{string(HarnessOpenClaw), string(HarnessCodex)})),
			string(t.Harness), []string{string(HarnessOpenClaw), string(HarnessCodex)})
	case !t.Mode.Known():
		return suggested(Invalid("RES-11", modePath, `executionMode must be "embedded" or "dedicated"%s`,
			DidYouMean(string(t.Mode), []string{string(ModeEmbedded), string(ModeDedicated)})),
			string(t.Mode), []string{string(ModeEmbedded), string(ModeDedicated)})
	case t.Harness == HarnessCodex && t.Mode == ModeEmbedded:
		return Invalid("RES-11", modePath,
			"the codex Harness runs only in dedicated execution mode, not embedded: set executionMode to dedicated")
	}
	return nil
}

// suggested sets e's Suggestion to [Suggest](word, candidates).
func suggested(e *Error, word string, candidates []string) *Error {
	e.Suggestion = Suggest(word, candidates)
	return e
}

// CheckSupported is [CheckTopology] of t against [Supported](c,
// declared), what c runs when a deployment is admitted: the bundled
// table's rows for a bundled kind, else declared. It reads the set where
// it is (Supported copies it for a caller that keeps it).
func CheckSupported(c Compute, declared []Topology, t Topology) error {
	set := declared
	if rows, ok := bundledTopologies[c]; ok {
		set = rows
	}
	return CheckTopology(c, set, t)
}

// CheckTopology decides RES-11 for t on Compute c: [Topology.Check], then
// t must be one of set, what c runs: [Supported](c, declared) when
// admitting a deployment, or a driver's own declaration when the driver
// checks a revision it is handed. Every refusal is 400 INVALID_REQUEST at
// the Agent's "executionMode" (or "harness" for an unknown Harness),
// except that a Compute that is not bundled and declares nothing, but is
// one typo away from a bundled kind ("kubernetse"), is refused at the
// Agent's "compute" with the bundled kind it probably means as the
// Suggestion (a typo of a registered custom kind is found by
// drivers.Registry.LookupCompute). It is the one place the rule is decided: the
// resolver, admission, drivers, compile and logging call it (or
// [Topology.Check] where no Compute is involved).
func CheckTopology(c Compute, set []Topology, t Topology) error {
	if err := t.Check(); err != nil {
		return err
	}
	for _, s := range set {
		if s == t {
			return nil
		}
	}
	if !c.Bundled() && len(set) == 0 {
		bundled := make([]string, 0, len(bundledTopologies))
		for _, b := range BundledComputes() {
			bundled = append(bundled, string(b))
		}
		if s := Suggest(string(c), bundled); s != "" {
			e := Invalid("RES-11", AgentPath("compute"),
				"Compute %q is not one of the bundled Computes (%s) and declares no Harness and execution mode pairs; did you mean %s?",
				string(c), strings.Join(bundled, ", "), s)
			e.Suggestion = s
			return e
		}
		return Invalid("RES-11", modePath,
			"Compute %q declares no Harness and execution mode pairs: a custom ComputeDriver declares the topologies it runs (the bundled Computes are %s)",
			string(c), strings.Join(bundled, ", "))
	}
	return Invalid("RES-11", modePath,
		"Compute %q does not support the %s Harness in %s execution mode (supported: %s)",
		string(c), t.Harness, t.Mode, topologyList(set))
}

func topologyList(set []Topology) string {
	if len(set) == 0 {
		return "none"
	}
	parts := make([]string, len(set))
	for i, t := range set {
		parts[i] = t.String()
	}
	return strings.Join(parts, ", ")
}
