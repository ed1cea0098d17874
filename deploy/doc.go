// Package deploy is occkit's deployment vocabulary: the words every other
// package uses to say what runs where, and the rules that are nothing but
// those words. It is a leaf (it imports only the root package, for errors
// and paths), like apimachinery's field package: resolver, compile,
// admission, logging, probe and the driver contract in package drivers
// all import it, so a name means one type across the module.
//
// # Topologies (RES-1, RES-11)
//
// A [Topology] is a ([Harness], [Mode]) pair. [Topology.Check] holds the
// part of RES-11 that is true on every Compute (Codex never runs
// embedded); [Supported] is the RES-11 table of the bundled [Compute]
// kinds, or a custom driver's declared set; [CheckTopology] decides
// whether a Compute runs a topology. These three are the only place the
// rule is decided: the resolver, admission, the drivers, compile's
// renders and logging's render call them.
//
// # Processes
//
// [Process] names the role of one process of a deployment: the gateway or
// the Harness. An embedded topology runs one combined process.
//
// # Sandboxes and installations (RES-13, DRV-2, DRV-3)
//
// [SandboxFacts] are what resolution needs of the configured
// SandboxDriver; [SandboxFacts.Qualifies] is whether it can contain a
// dedicated OpenClaw Harness. [Installation] bundles them with the
// [NativeWorkerSupport] source.
//
// # Logging (LOG-1, LOG-3)
//
// [LogLevel] is an admitted level and [LogOwnership] who owns a runtime's
// native logging; package logging parses, stamps and renders them.
//
// # harnessAuth (AUTH-1..AUTH-7)
//
// A [Binding] selects the credential that authenticates the Harness (by
// reference: [SourceRef], never bytes); a [Projection] is the plan of
// which [EnvVar] reaches which [Process]. Package admission parses and
// validates bindings; drivers project them.
package deploy
