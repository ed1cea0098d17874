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
//     resolveModelRuntimePolicy (runtime normalized per REF-6, and source);
//   - harness.select: [selection.Select] against
//     resolveAgentHarnessSelectionDecision with the same data-driven
//     harness plugins registered on both sides ([HarnessSpec],
//     [SpecPlugin]; in OpenClaw through the plugin registry state), the
//     CLI backends of the bundled anthropic and google plugins, a locked
//     owner (agentHarnessId) and a session override;
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
// Where OpenClaw's answer may depend on key order, the inputs that
// disagree are asked again with every object's keys sorted ascending and
// descending, so the key-order class is recognised by observation, not by
// assumption; doctor is likewise run again without the migrations that
// lie outside runtime repair.
//
// [Table] is the one table of deliberate divergences (rendered in
// DIVERGENCES.md): function, class, SPEC rule, reason, and a predicate
// recognising the class. The SPEC wins where it and OpenClaw differ;
// determinism wins where OpenClaw depends on key order. The test fails on
// any disagreement no row recognises and prints the first few.
//
// Running: TestAgreeWithOpenClaw draws 10,000 inputs per function
// (-openclawdiff.n) from a fixed seed (-openclawdiff.seed or
// OCCKIT_OPENCLAWDIFF_SEED for another one). It skips with a message when
// OCCKIT_OPENCLAW_DIR is unset, and fails instead when
// OCCKIT_REQUIRE_INTEGRATION=1.
package openclawdiff
