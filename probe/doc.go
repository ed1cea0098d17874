// Package probe decides whether a runtime may serve: it classifies the
// outcome of the startup model probe, applies the Codex retry policy, and
// runs the probes as real processes.
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
// # Cap and CPU starvation
//
// The OpenClaw probe's cap is min(600 s, 20 s + ⌈45 s / CPU share⌉), the
// share read from the cgroup cpu.max text ([Cap], [CPUShare],
// [CPUAccounting]). A run that reaches the cap is [CPUStarved] when it waited
// for CPU for more than a quarter of the time, [ModelProbeTimeout] otherwise
// ([AtCap]).
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
// # Runners
//
// [CodexRunner] and [OpenClawRunner] run the probe commands with os/exec in
// their own process group and a minimal environment ([CodexEnvironment],
// [OpenClawEnvironment], PRB-7), kill the whole group on a cap, an output
// flood or a cancelled context (also during the retry delay), emit one
// [Record] per attempt through a log/slog logger or a callback, and publish
// the final outcome once, after retries end. A [Held] result answers
// readiness polls without starting another model call. A Codex probe for a
// custom OpenAI-compatible endpoint reaches it as the Harness does, over
// HTTPS Responses streaming ([CodexEndpoint], PRB-9). [Upfront] sends
// OpenClaw's first, empty request to the provider's default endpoint.
//
// # Worker mapping
//
// [Code.Worker] maps a code a runtime holds to the deployment outcome of
// PRB-8: RUNTIME_<code> at once, RUNTIME_CPU_STARVED for [CPUStarved],
// RUNTIME_STARTUP_FAILED for [Unavailable] and [IncompatibleResponse].
package probe
