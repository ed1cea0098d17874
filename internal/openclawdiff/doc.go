// Package openclawdiff is the differential tier against the real OpenClaw:
// occkit and the pinned `openclaw` package (2026.9.6, installed by
// .ci/openclaw.sh under $OCCKIT_OPENCLAW_DIR) answer the same random,
// realistic inputs, and every disagreement must be a deliberate,
// documented divergence.
//
// Compared functions ([Functions]):
//
//   - ref.strict and ref.lenient: [resolver.ParseRef] and
//     [resolver.ParseRefLenient] against OpenClaw's splitTrailingAuthProfile
//     followed by parseModelCatalogRef (strict) or parseModelRef without
//     plugin or manifest normalization (lenient);
//   - runtime.policy: [selection.LookupPolicy] against
//     resolveModelRuntimePolicy (runtime and source; OpenClaw's id is read
//     with its own normalizeOptionalAgentRuntimeId and
//     isDefaultAgentRuntimeId, never with occkit's);
//   - harness.select: [selection.Select] against
//     resolveAgentHarnessSelectionDecision with the same data-driven
//     harness plugins registered on both sides ([HarnessSpec],
//     [SpecPlugin]; in OpenClaw through the plugin registry state), the
//     CLI backends of the bundled anthropic and google plugins, a locked
//     owner (agentHarnessId) and a session override, compared on the
//     runtime and its source;
//   - config.load: [compile.LoadFile] against OpenClaw's loader steps
//     (parseJsonWithJson5Fallback, resolveConfigIncludes, then
//     resolveConfigForRead: the env section applied to an environment
//     normalized as the CLI's pre-bootstrap does, then
//     resolveConfigEnvVars) on generated JSON/JSON5 include trees, a
//     third of them with env sections (env.vars, shorthand keys, blocked
//     names, blank, escaped and referencing values) in any file;
//     TestEnvNamesAgreeWithOpenClaw also asks isConfigRuntimeEnvVarAllowed
//     about every name and prefix of OpenClaw's host environment policy
//     and variants, against [compile.DefinedEnv];
//   - doctor.repair: [compile.Repair] against doctor's legacy migrations
//     (applyLegacyDoctorMigrations, then its compatibility normalization),
//     compared on the runtime-relevant projection [ProjectDoctor].
//
// The node side is oracle.mjs, embedded and run with the installation's
// own node in batch mode (one JSON array in, one out; large batches over
// two processes). OpenClaw's exports are minified, so the script finds
// each function by grepping dist/*.mjs for `function NAME(` at run time
// and takes the export with that name; a function doctor keeps private
// is loaded from a copy of its module with one export added. No hashed
// file name is written anywhere.
//
// Inputs are drawn by two generators built differently ([Gen]: case
// tables over PCG; [Gen2]: a hand-written corpus plus random mutations
// over ChaCha8, with another seed), both writing authored key orders that
// are really shuffled ([Obj] keeps member order; encoding/json would sort
// them), tag runs, colon refs, agents.list rosters, requests naming no
// agent, locked owners `auto`/`default`, SEL-4/6/6a routes with the codex
// harness, padded and duplicate keys and `__proto__` members.
//
// [Table] is the one table of deliberate divergences (rendered in
// DIVERGENCES.md): function, class, SPEC rule, what wins (the SPEC's
// explicit text, or determinism where OpenClaw depends on key order or
// host collation), the reason, what it rests on, and a predicate. A
// predicate holds only where its reason applies and the two answers
// differ only as the reason says: for the inputs that disagree OpenClaw
// is asked again on variants that read the input as occkit does ([Ranked]
// key order, the override removed, runtime controls dropped, canonical
// keys first, doctor's catalog migration reduced to its syntax) and must
// then give occkit's answer, or occkit's answer is recomputed (OpenClaw's
// implied primary written in, the variable named, `__proto__` removed).
// Where two rows' readings apply to one input (an ignored override and a
// key order, say), the variants combine them ([SelectVariants],
// [DoctorItemVariants]) and the smallest set of reasons that explains the
// difference is taken ([SelectExplained], DoctorAnswer.Explained); the
// input counts under the first of its rows. Each row has a bound on the
// share of a function's inputs it may absorb; the test fails past it, and
// on any disagreement no row recognises.
//
// Running: TestAgreeWithOpenClaw draws 5,000 inputs per function and
// generator (-openclawdiff.n, -openclawdiff.gen) from a fixed seed
// (-openclawdiff.seed or OCCKIT_OPENCLAWDIFF_SEED for another one). It
// skips with a message when OCCKIT_OPENCLAW_DIR is unset, and fails
// instead when OCCKIT_REQUIRE_INTEGRATION=1 (tiers.OpenClawDiff). The tier
// counts every compared input as a check and reports `ran` only with a
// nonzero count; with no inputs (-openclawdiff.n=0) it is skipped, which
// fails under REQUIRE. -openclawdiff.fn limits the functions asked (the
// inputs drawn stay the same) and -openclawdiff.dump writes every
// disagreement outside the table to a file.
package openclawdiff
