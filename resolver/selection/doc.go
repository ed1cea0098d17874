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
// pass over the parts of the document selection reads (its text, read in
// place by a byte scanner: each model-map key and catalog row is read
// once, what selection does not read skipped unparsed; read.go) and
// decides there everything that does not depend on the request: per
// agent, the ignored whole-agent keys (SEL-2) and the params that are
// overrides; per model-map key, its provider part, normalized runtime
// and reason path; per provider config and catalog row, its policy,
// sanitized base URL and API, whether that is the official OpenAI route
// (SEL-4), and its request overrides (SEL-6). [Index.Select] then
// answers any provider/model with a few lookups keyed by the request's
// own strings (a map's, or a comparison of the few a document names),
// read in place when they are written as nearly every request writes
// them (a lower-case provider and a model ID with nothing to trim, or a
// plain "provider/model" ref, tested a word at a time), the commonest
// outcomes (a policy naming openclaw, an automatic selection without a
// registry) set in the Result directly:
// no walk from the document root, no URL parsing, and no allocation
// unless a plugin is asked, a session or the plugins add more than two
// reasons, or it refuses (tested with testing.AllocsPerRun). Its cost is the same at 40 or 10,000 catalog
// models. [Select] answers once, preparing only what
// that request can reach: its agent and the implicit one, the model-map
// keys and catalog rows whose trimmed ID (or part after the first slash)
// is its model ID, the wildcard keys, the key its params are read under,
// and the configs of the providers these name (index.go, focus); the
// keys and rows it cannot reach are skipped without being read. It
// decides, and its reasons read, as the whole preparation does
// (TestPrepareMatchesScan asks both against the reference scan).
//
// A [Result] does not carry its reason chain as a slice: [Result.Reasons]
// rebuilds the document's part of it from the index (the same lookups,
// recorded) and appends what the session and the plugins said, which the
// decision kept, so asking for reasons costs only the callers who ask.
// A Result refers to its Index, and so to the document's bytes.
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
//   - Which agent and which provider config a decision reads follows
//     OpenClaw (see roster.go): `agents.entries`, when present, is the
//     roster and `agents.list` is then ignored; agent IDs compare after
//     OpenClaw's agent-ID normalization; a request naming no agent reads
//     the implicit owner agent's model maps (the `systemAgent` of an
//     explicit fleet, else the one `default: true` entry, else the only
//     entry) while only agents.defaults' params count as request
//     overrides, as in OpenClaw; an agent ID that normalizes to nothing
//     is refused. Provider keys that trim to one spelling merge (the
//     later member wins a setting; `models` only where present), in a
//     fixed order: the key equal to the provider ID, then byte order.
//   - An explicit `auto` or `default` policy selects automatically and
//     reports the implicit source, as OpenClaw's harness policy does
//     ([LookupPolicy] still reports where the policy was found). A
//     locked owner recorded as `auto` or `default` pins nothing and the
//     session override is then not consulted (OpenClaw drops it too).
//   - Which runtime controls are valid (seed 003: controls preserve
//     native selection "when their values are valid"; SEL-6 names them)
//     is OpenClaw's reading: `thinking` false, "disabled", "none" or a
//     thinking level word (true is none); `fastMode`/`fast_mode` a
//     boolean or a fast-mode word (a number is none); `fastAutoOnSeconds`,
//     `fastSeconds` and their snake_case spellings a positive integer.
//   - The params that count for a route in a models map are those of
//     the model's own key, exactly as OpenClaw's modelKey spells it
//     ("<provider>/<model>", or a model ID already starting with
//     "<provider>/", then the provider-prefixed spelling where that entry
//     has none): a bare, padded or differently cased key names the
//     model's policy (SEL-1) but does not add its params. Catalog rows of
//     one trimmed ID read as one row for overrides, base URL and API,
//     each member from the first row that has it; the policy is the first
//     matching row's. Only those rows give the route: a row naming the
//     model with its provider prefix (`openai/m`) gives it a policy but
//     no base URL, API or overrides, as OpenClaw 2026.9.6 reads them.
//   - Harnesses claiming an auto route with equal priority are ordered by
//     ID in byte order (SEL-3 "ties by ID ascending"). OpenClaw compares
//     with localeCompare, which puts "my_h" before "my-h" under its ICU
//     data; byte order does not depend on the host's collation tables, so
//     the same digest gives the same decision everywhere.
package selection
