// Package selection is OpenClaw's general per-turn runtime selection
// (SEL-1..SEL-9): which runtime (the built-in openclaw harness, a
// registered harness plugin, a CLI backend or an ACP backend) runs one
// provider/model turn. It is for control planes that run more than the
// two OCC Harnesses; what an OCC deployment admits is the stricter
// resolution of the parent package [github.com/occkit/occkit/resolver]
// (RES-*), whose model refs (REF-*) and [resolver.Reason] this package
// uses. Everything here is a pure function over an [occkit.Document]
// that never mutates it; every refusal is a structured [*occkit.Error].
//
// # Lookup order
//
// [Select] works over a [Registry] of [HarnessPlugin]s. The lookup order
// is: the session (ACP backend, locked transcript owner, a compatible
// explicit override), then the model keys (entry, then defaults), the
// provider catalog row, the "<p>/*" wildcards (for a bare model ID, any
// provider's, unless keys of two providers match), the provider policy,
// else auto. Runtimes come from a [Registry] value (never a global) of
// [HarnessPlugin]s, each answering [HarnessPlugin.Supports] from
// secret-free [RouteFacts]; [CodexHarness] ships the codex rules and
// [OfficialOpenAIRoute] the SEL-4 route test. Whole-agent runtime keys and
// the process environment are never read (SEL-2). Each [Result] carries
// its [resolver.Reason] chain ([Result.Explain], SEL-9). Key order never
// changes a selection: when several keys name the same model, a key
// naming the caller's provider wins (for provider nvidia,
// "nvidia/moonshotai/kimi-k2.5" beats "moonshotai/kimi-k2.5", as in
// OpenClaw), then a provider-qualified key, then the lexicographically
// smallest (OpenClaw takes the first in author order; the same digest must
// give the same decision). [LookupPolicy] exposes the SEL-1 lookup alone.
//
// # Prepared decisions
//
// A decision is prepared like a resolution: [Prepare] makes one linear
// pass that locates the scopes selection reads and indexes the agent
// entries, provider configs, catalog rows and model-map keys;
// [Index.Select] then answers any provider/model from the entries that can
// name it, without a walk from the document root, so a decision costs the
// same at 40 or 10,000 catalog models. [Select] prepares and answers once.
//
// # Decisions made where SPEC is silent
//
//   - Selection agrees with OpenClaw 2026.9.6 (checked by the
//     differential tier in internal/openclawdiff, whose DIVERGENCES.md
//     lists every deliberate difference): provider openai on a route that
//     is not the official one stays on openclaw and no plugin is asked
//     (SEL-4); a locked transcript owner that is a registered harness is
//     kept without asking it whether it supports the route (SEL-8); a
//     session override whose harness declares the exact-request OpenClaw
//     fallback runs openclaw (Fallback set, source session) rather than
//     being ignored, because the harness itself says OpenClaw reproduces
//     the request; an incompatible override is still ignored (SEL-8,
//     where OpenClaw fails the turn).
//   - Harnesses claiming an auto route with equal priority are ordered by
//     ID in byte order (SEL-3 "ties by ID ascending"). OpenClaw compares
//     with localeCompare, which puts "my_h" before "my-h" under its ICU
//     data; byte order does not depend on the host's collation tables, so
//     the same digest gives the same decision everywhere.
package selection
