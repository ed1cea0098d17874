// Package probe decides whether a runtime may serve: it classifies the
// outcome of the startup model probe and applies the Codex retry policy.
// It is pure: it starts no process and opens no file or connection.
// Package probe/runner runs the probes as real processes and hands what
// they printed to the classifiers here.
//
// Every outcome is a [Code] from the closed set of PRB-1 ([AllCodes]); an
// input the classifiers do not recognise is [ModelProbeFailed], never
// [Ready]. A failure may carry a [Cause] from the closed vocabulary of
// PRB-6 and, for Codex, a [FailureClass] (PRB-5): tokens, never text, so
// that no credential or provider output can leave the runtime.
//
// # Classifiers
//
// [ClassifyOpenClaw] reads the JSON that `openclaw models status --json
// --probe` prints, with the exit and CPU accounting of the run ([OpenClawRun],
// PRB-2). [ClassifyCodex] reads the JSONL event stream of `codex exec --json`
// ([CodexRun], PRB-4): READY needs exactly one turn.started, exactly one
// turn.completed as the last event and a non-blank agent message; a tool
// event never satisfies it (PRB-7). [ClassifyLogin] classifies the Codex
// login step, and [ClassifyUpfront] the answer to the upfront request
// (PRB-3) with its closed sets ([BodyShape], [ResponseHeaderMarkers],
// [ProviderErrorCodes], [ProviderErrorTypes]).
//
// # Codex failure classes
//
// A failed Codex attempt's [FailureClass] is read structure first: the
// code and cause, then the event types, then the failure as Codex frames it
// — the HTTP status it received ("unexpected status 503 …", "exceeded
// retry limit, last status: 429 …": 401/403 credential, 429 limit, 529
// overloaded, other 5xx http_5xx), its own error kinds (the high-demand
// notice, "Selected model is at capacity", "Quota exceeded", a context
// window), a dropped stream, a failed connection, a reconnect notice. Free
// text is read last and only where Codex's own transport stack wrote it
// (the detail of a failed connection, a fatal "Error:" line on stderr),
// after URLs and file paths are removed. The provider's body that Codex
// repeats after a status, a message Codex prints without a frame (a 404's
// or 400's own text), the base URL, the probe directory and Codex's
// warnings on stderr decide nothing; so a deployment's URL or directory
// names cannot change a verdict. A provider message that itself begins
// with one of Codex's frames cannot be told from Codex's own.
//
// Two cases the SPEC leaves open are settled by PRB-4 and PRB-5 as measured
// with codex-cli 0.171.0:
//
//   - An unreachable endpoint (refused port, DNS failure, untrusted
//     certificate, a peer that is not TLS) never makes Codex exit: it
//     prints "Reconnecting... waiting for network (Connection failed: …)"
//     with growing backoff. Those notices are Codex's stream reconnects,
//     recognised like its "Reconnecting... n/m" notices (at most ten per
//     turn, PRB-4), not a protocol failure, so an attempt that reaches its
//     cap while waiting is [ModelProbeTimeout] — without a cause, retried
//     once (PRB-5), and published as MODEL_PROBE_TIMEOUT. Its record's
//     class is [ClassNetwork] rather than [ClassTimeout] when Codex was
//     still waiting for the network at the cap: the failure Codex prints
//     only as a failed connection is network (PRB-5), which is what an
//     operator needs to read next to the timeout.
//   - Codex prints a provider's HTTP 500 as its own "We're currently
//     experiencing high demand" notice instead of a status line (502, 503
//     and 504 keep theirs). It is Codex's kind for a 500, so the class is
//     [ClassHTTP5xx], the provider 5xx of PRB-5; overload
//     ([ClassOverloaded]) is a 529 or an in-stream server_is_overloaded,
//     which Codex prints as "Selected model is at capacity". Both are
//     retried; only the class operators read differs.
//
// A turn that recovers after Codex's reconnect notices for a transient
// failure (a dropped stream, a 5xx, an overload, the network) is [Ready];
// a notice about a rejected credential, a limit or anything Codex does not
// frame is not recognised and fails the attempt (error-event).
//
// # Cap and CPU starvation
//
// The OpenClaw probe's cap is min(600 s, 20 s + ⌈45 s / CPU share⌉), the
// share read from the cgroup cpu.max text ([Cap], [CPUShare]). A run that
// reaches the cap is [CPUStarved] when it waited for CPU for more than a
// quarter of the time, [ModelProbeTimeout] otherwise ([AtCap]).
//
// # Retry policy
//
// [RetryPolicy] is the Codex policy of PRB-5 as a pure decision
// ([RetryPolicy.Next], [RetryPolicy.Simulate]): one retry after a jittered
// 1–1.5 s, for a timeout or a retried [FailureClass] only; each attempt capped
// at 30 s within one 61 s budget that includes the delay; a retry left
// without time is [ModelProbeTimeout] without starting. The clock and the
// jitter are injected.
//
// # Preconditions and records
//
// A probe runs only when its preconditions hold ([CodexPreconditions],
// [OpenClawPreconditions] with what [ReadOpenClawConfig] reads, PRB-3,
// PRB-4); otherwise it is [Unavailable] and nothing starts. Each attempt
// is one [Record] (PRB-6), logged with [Record.Log] or written as JSON;
// a [Held] result answers readiness polls without starting another model
// call (PRB-5).
//
// # Worker mapping
//
// [Code.Worker] maps a code a runtime holds to the deployment outcome of
// PRB-8: RUNTIME_<code> at once, RUNTIME_CPU_STARVED for [CPUStarved],
// RUNTIME_STARTUP_FAILED for [Unavailable] and [IncompatibleResponse].
package probe
