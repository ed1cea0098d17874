// Package logging implements occkit's logging policy for admitted runtimes:
// the admitted level, the platform-owned stamp of the native document and
// its render-time guard, the per-container logging launch, the Collector
// identity labels and the startup-phase records of the runtime wrappers
// (SPEC §8, LOG-1..LOG-7).
//
// Everything here is a pure function over plain values; nothing reads the
// process environment or keeps global mutable state.
//
// # Admitted level
//
// The admitted level is an input of admission, one of [occkit.LevelDebug] "debug",
// [occkit.LevelInfo] "info", [occkit.LevelWarn] "warn" and [occkit.LevelError] "error"
// ([occkit.AllLogLevels]). [ParseLevel] reads it from a JSON value: an absent value is
// info; JSON null, any other string and any other type are a
// 400 INVALID_REQUEST (LOG-1). Spellings are exact: the reference
// (openclaw-enterprise's contracts) neither trims nor lower-cases, so
// "INFO", " info" and "warning" are refused. [ParseLevelString] is the same
// for a Go string.
//
// # Ownership
//
// [occkit.LogOwnership] says who owns the native logging configuration:
// [occkit.OwnedByPlatform] "platform" (the default, also the zero value) or
// [occkit.OwnedByDriver] "driver", declared by a trusted ComputeDriver
// ([ParseOwnership], [occkit.AllLogOwnerships]). Under driver-managed logging the
// document is preserved unchanged and [RuntimeLogs] answers
// 501 NOT_IMPLEMENTED (LOG-3).
//
// # Stamp and guard
//
// [Stamp] writes the platform-owned settings into an admitted document
// (LOG-1): logging.level and logging.consoleLevel = the level,
// logging.consoleStyle = "json" ([ConsoleStyle]), diagnostics.otel.logs =
// false, and the retired logging.redactSensitive removed so OpenClaw keeps
// its default redaction (LOG-5). The edits are one splice
// ([occkit.Document.Apply]: one read, one write of the document): every other key
// keeps its bytes and its place, a stamped key that exists keeps its place,
// and missing keys are appended. A logging, diagnostics or otel value that is
// not an object is treated as {} and replaced by an object holding only the
// stamped keys. Stamping is idempotent and returns a new Document.
// [StampCanonical] is the canonical form of the stamped document, written
// in one pass with the stamp's edits made on the way: what an admission
// freezes, without the stamped document in between.
//
// [CheckStamp] runs before anything is rendered from a stored revision (LOG-2):
// it returns the admitted level, or refuses with 409 RESOURCE_CONFLICT at
// the path of every broken setting (an absent, null or invalid level or
// console level, unequal levels, a console style other than json, a
// redactSensitive key, diagnostics.otel.logs other than false). Such a
// revision cannot be rendered; it must be redeployed.
//
// # Rendering per container
//
// [Render] returns the logging part of one container's launch ([Rendered]),
// for a process role of the vocabulary, [occkit.ProcessGateway] or
// [occkit.ProcessHarness], of a Harness topology (LOG-4, LOG-5):
//
//   - OpenClaw processes (every gateway, the combined process of embedded
//     OpenClaw, and the native Harness of dedicated OpenClaw) are configured
//     by the admitted document itself ([Rendered].ReadsDocument): the
//     Compute places it and points OPENCLAW_CONFIG_PATH at it (package
//     compile plans it as a file by role; Kubernetes mounts it read-only
//     under /etc/openclaw, LOG-4). The inherited
//     OPENCLAW_LOG_LEVEL is listed in [Rendered].Unset, and no verbosity
//     flag is added, so JSON console logging runs at the admitted level with
//     OTLP log export off.
//   - The Codex app-server gets LOG_FORMAT=json and
//     RUST_LOG=<level>,codex_otel=off (the admitted names are tracing's
//     filter names, so warn stays warn), and the host-owned overrides
//     -c otel.exporter="none" -c otel.log_user_prompt=false before its
//     app-server subcommand. Its stdout is protocol: Collectors read stderr
//     only ([Rendered].StderrOnly).
//
// Decisions where SPEC is silent: the zero mode is the Harness's default
// (dedicated for Codex, embedded for OpenClaw); embedded Codex is refused
// (RES-11); the native Harness of dedicated OpenClaw is rendered like a
// gateway, since it is an OpenClaw process configured by its document.
//
// # Collector identity
//
// [CollectorMetadata] derives the protected labels and annotations of a
// container from identity facts ([Identity]) the control plane owns, never
// from payload fields (LOG-6). The keys ([ProtectedKey], [AllProtectedKeys])
// are [KeyServiceName] "occkit.io/service-name", [KeyVersion]
// "occkit.io/version", [KeyContainer] "occkit.io/container", [KeyNamespace]
// "occkit.io/namespace", [KeyAgent] "occkit.io/agent" and [KeyRevision]
// "occkit.io/revision"; [ProtectedKey.Attribute] names the OpenTelemetry
// resource attribute each becomes. Label values are Kubernetes-valid (a
// fact that is not becomes "sha256-" plus 12 hex digits of its digest);
// annotations carry every fact exactly. Service names are [ServiceGateway],
// [ServiceOpenClawHarness] and [ServiceCodexAppServer].
// [WriteCollectorMetadata] writes the same into a driver's own maps, over
// the driver's keys, so its pod labels need no second map.
//
// Worker records describe reconciliation with the [WorkAttribute] keys
// [WorkID] "work.id", [WorkOperation] "work.operation", [WorkAttempt]
// "work.attempt" and [WorkOutcome] "work.outcome" ([AllWorkAttributes],
// [Work]); they never stand for runtime identity.
//
// # Startup phases
//
// [StartupPhase] builds one runtime.startup_phase record ([StartupRecord])
// from a [StartupEvent] (LOG-7). Its JSON is exactly
//
//	{"event":"runtime.startup_phase","container":…,"phase":…,"outcome":…,"ms":…,"sinceStartMs":…[,"code":…]}
//
// with ms = now − startedAt and sinceStartMs = now − origin. code appears
// only on a failed phase and only when it matches ^[A-Z][A-Z0-9_]{0,63}$
// ([ValidCode]); a malformed code is dropped, never refused. The container
// is a process role too: [occkit.ProcessGateway] is written "gateway" and
// [occkit.ProcessHarness] "agent", LOG-7's wire names
// ([ParseStartupContainer] reads them back); outcomes [OutcomeOK] "ok" (the zero value) and
// [OutcomeFailed] "failed" ([AllPhaseOutcomes]). [PeerStatusChanged] and
// [GatewayRespawn] build the gateway's records for a replaced Harness and a
// respawned gateway process.
//
// Phases are a closed set ([AllPhases]) so that a phase can never carry a
// provider, model, credential or path. SPEC's phases: [PhaseLogin] "login",
// [PhaseModelProbe] "model-probe", [PhasePeerStatus] "peer-status",
// [PhasePluginInstall] "plugin-install", [PhaseStateMigration]
// "state-migration", [PhaseWorkspaceSetup] "workspace-setup",
// [PhaseProcessSpawn] "process-spawn", [PhasePeerStatusChanged]
// "peer-status-changed" and [PhaseGatewayRespawn] "gateway-respawn". The
// finer names the reference wrappers emit are members too:
// [PhaseCodexLogin] "codex-login", [PhasePeerPluginStatus]
// "peer-plugin-status", [PhasePeerStatusRestored] "peer-status-restored",
// [PhaseNativeSpawn] "native-spawn", [PhaseRuntimeAssets] "runtime-assets",
// [PhaseWorkspaceBaseline] "workspace-baseline", [PhaseWorkspaceNode]
// "workspace-node" and [PhaseWorkspaceNodeMoved] "workspace-node-changed".
// An unknown container, phase or outcome is a 400 INVALID_REQUEST.
//
// # slog
//
// [Filter] wraps any slog.Handler so that only allowlisted attributes
// ([FilterOptions], [DefaultAttributes]) and messages pass; the
// startup-phase fields must also hold legal values, and the Collector
// identity attributes are always dropped. A provider, model, credential or
// path value therefore cannot reach the output through a field the
// allowlist does not name, and a message off the list becomes
// [WithheldMessage]. [NewStartupHandler] is a filtered JSON handler whose
// lines are the wrappers' wire form: [StartupRecord.Log] through it writes
// exactly [StartupRecord.MarshalJSON] and a newline.
package logging
