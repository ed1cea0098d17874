// Package runner runs occkit's startup model probes as real processes:
// [Codex] runs `codex exec --json` under the retry policy of PRB-5, and
// [OpenClaw] runs `openclaw models status --json --probe` once under its
// CPU-derived cap (PRB-2). What the processes print is classified by
// package probe, which decides every code, cause and failure class; this
// package only starts, supervises and ends processes, and records.
//
// # Processes
//
// Each probe runs with os/exec in its own process group, in a fresh
// directory, with a minimal environment ([CodexEnvironment],
// [OpenClawEnvironment], PRB-7) and occkit's own arguments ([CodexArgs],
// [OpenClawArgs]). The whole group is killed on a cap, an output flood
// ([DefaultMaxOutput]) or a cancelled context (also during the retry
// delay), and once the leader exits, so no descendant outlives the probe.
// A cancelled context returns ctx.Err() and publishes nothing.
//
// Each attempt emits one [probe.Record] through a log/slog logger or a
// callback; the final outcome is published once, after retries end (a
// [probe.Held] fits there, so readiness polls never start another model
// call). Nothing a probe prints (provider bodies, a key a provider echoes,
// the URL, the probe directory) reaches a record, a log line, an outcome
// or an error: a tier runs the real Codex CLI against scripted loopback
// endpoints to keep that, and the verdicts of package probe, true
// (OCCKIT_CODEX, set up by .ci/setup; it fails instead of skipping when
// OCCKIT_REQUIRE_INTEGRATION=1).
//
// A Codex probe for a custom OpenAI-compatible endpoint reaches it as the
// Harness does, over HTTPS Responses streaming ([CodexEndpoint], PRB-9).
//
// # OpenClaw: cap, CPU wait and the upfront request
//
// [CPUAccounting] reads a cgroup v2 directory: cpu.max for the cap
// ([probe.Cap]) and the CPU wait during the run ([CPUMeter]: cpu.pressure,
// else cpu.stat throttling), which [probe.AtCap] turns into
// MODEL_PROBE_CPU_STARVED or MODEL_PROBE_TIMEOUT when the run reaches its
// cap. Before the native probe, [Upfront] may send OpenClaw's first, empty
// request to the provider's default endpoint, never following a redirect,
// to find a rejected credential early (PRB-3); [probe.UpfrontEligible]
// decides when it applies and [probe.ClassifyUpfront] reads the answer.
package runner
