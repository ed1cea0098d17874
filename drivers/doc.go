// Package drivers defines the contracts between occkit and the code that
// runs admitted revisions: a [ComputeDriver] (where a revision runs) and a
// [SandboxDriver] (what contains a dedicated Harness), plus the
// installation-level policy that depends on which drivers are configured.
//
// The design follows database/sql/driver: the contract is a leaf that
// imports no policy package (only the root package's errors and the
// deploy vocabulary), each contract is a small required interface, and
// everything else is an optional capability interface that a driver
// implements or not. A driver acts on a [Revision], the read-only view of
// an admitted revision that admission's *Revision implements. Capabilities
// are found with [As] or [AsSandbox], the one lookup, which follows
// [Wrapper] and [SandboxWrapper] Unwrap chains by type assertion, so a
// wrapping driver never hides a capability; the helper functions below
// apply each capability's documented fallback.
//
// # Compute drivers
//
// A [ComputeDriver] declares itself ([Declaration]: name, runtime-logging
// owner, [ActivationOrder], whether predecessors must stop first, and the
// (Harness, Mode) topologies it runs), prepares and retires revisions,
// ensures and deletes tenant namespaces, and validates harnessAuth
// bindings (DRV-1, AUTH-7). [ValidateDeclaration] checks a declaration
// against RES-11.
//
// The optional capabilities and their fallbacks:
//
//	capability                 absent →
//	[Activator]                [Activate] is a no-op: prepared revisions serve when ready
//	[Stopper]                  [Stop] retires the revision
//	[GatewaySettingsValidator] [CheckGatewaySettings] runs no check
//	[Diagnoser]                [Diagnose] answers 501 NOT_IMPLEMENTED
//	[RuntimeLogReader]         [ReadRuntimeLogs] answers 501 (also under driver-owned logging, LOG-3)
//	[ModelDiscoverer]          [DiscoverModels] answers 501
//	[Preflighter]              [Preflight] succeeds
//	lifecycle hooks            the phase runs without the driver
//
// Every helper here that calls a driver reports a failing call made
// once its context is done as that context's error, whatever the driver
// returned: 503 DEPENDENCY_UNAVAILABLE from which errors.Is finds
// context.Canceled or context.DeadlineExceeded ([Cancellation],
// [Settle]; admission and the bundled drivers use the same two, and
// drivertest.CheckEnded checks the outcome). A driver itself need only
// return an error wrapping the context's (the conformance suite's
// context-cancellation check).
//
// Package admission holds typed drivers (admission.ComputeInfo and
// admission.SandboxInfo, filled by admission.ComputeOf and
// admission.SandboxOf) and asks them through this package's interfaces:
// the required [HarnessAuthValidator] with the facts of [AuthFacts], and
// the optional [GatewaySettingsValidator] and [ConfigurationTransformer].
// admission.ValidateWith runs a driver's validation with the AUTH-7 error
// mapping.
//
// # Sandbox drivers
//
// A [SandboxDriver] declares its containment facets (networking,
// filesystem, process: non-empty, unique; there is no exec facet and no
// per-tool sandbox admission), an optional harness home, and must clean
// up. Its optional capabilities are a pure [ConfigurationTransformer], a
// [HarnessProvisioner], a [SandboxNamespacePreparer] and a
// [SandboxLogReader]. A SandboxDriver works only beside the bundled
// Kubernetes Compute and only for dedicated execution (DRV-2).
//
// Registration checks a [SandboxManifest]: [SandboxManifestOf] derives
// one from a Go driver and [ParseSandboxManifest] reads one published as
// JSON; [SandboxManifest.Validate] refuses an invalid declaration with 400
// INVALID_REQUEST naming the offending key.
//
// # Lifecycle hooks
//
// Any driver may hook the four Compute lifecycle phases of [AllHookPhases]
// (DRV-4) by implementing [NamespacePreparedHook], [WorkloadStartHook],
// [WorkloadStopHook] or [NamespaceDeleteHook]; [ComputeHookPhases] and
// [SandboxHookPhases] list what a driver hooks and [CheckHookPhases]
// refuses any other phase name. A
// start hook contributes placeholders, never credentials, through
// [Launch]. [Hooks] dispatches a phase over a deployment's drivers: start
// phases in order, compensating the completed ones in reverse when one
// fails; stop phases in reverse order. A failure is a [HookError] naming
// the phase and driver, never the hook's own text.
//
// # Registry
//
// A [Registry] is an explicit value holding one installation's drivers by
// name; there are no global registries or init-time registration.
// Registering validates the driver; a duplicate name is 409.
//
// # Installation capabilities
//
// [Capabilities] computes `capabilities` of `GET /installation` (DRV-3):
// openclaw.executionModes (always; embedded, then dedicated when a
// qualifying SandboxDriver and native-worker support exist, outage or not),
// nativeWorkers (only under the same conditions) and
// sandboxDriverUnavailable (during an outage). [NativeWorkerSource]
// decides where native-worker support comes from; an operator can declare
// only custom-image.
//
// # Concurrency
//
// A dedicated OpenClaw node host retains a fixed pool of session workers
// (Kubernetes default 8, range 1–1024): [SessionHost] admits sessions while
// a worker is free and never displaces an active one. Dedicated Codex has
// no session cap; its active turns are bounded by [MaxConcurrent], which
// defaults to max(8, 4 × available parallelism) (RES-14).
//
// # Testing drivers
//
// Package drivers/drivertest is the conformance suite a driver author runs
// from their own tests, and drivers/memdriver is an in-memory reference
// ComputeDriver that passes it.
//
// # Decisions where the specification is silent
//
//   - Harness-auth validation is part of the required ComputeDriver
//     interface (DRV-1); the 503 of AUTH-7 is what admission answers for a
//     custom Compute it is handed without a driver.
//   - A harness home of "/" is refused: it is normalized and absolute, but
//     a Harness home at the root would own the whole filesystem.
//   - A hooks declaration naming no phase ({} or []) declares no hooks:
//     DRV-4 limits which phases may be keys, not how many.
//   - A SandboxDriver whose facet list is invalid never serves dedicated
//     OpenClaw ([QualifiedSandbox]), even if it also lists all three
//     facets; resolution alone ([occkit.SandboxFacts.Qualifies]) only asks
//     for provisioning and the three facets.
//   - sandboxDriverUnavailable is reported only when a SandboxDriver is
//     configured; with none there is no Driver to be out.
//   - An Agent's maxConcurrent must be a positive integer (400 otherwise),
//     rather than being clamped.
package drivers
