// Package resolver decides which Harness runs an Agent's model loop, and
// whether a Configuration's Agent roster can be deployed.
//
// Everything here is a pure function over an [occkit.Document]: the
// document is read in one pass with internal/jsonwalk's byte scanner
// (the index a resolution consults; gjson reads the few values it
// hands on), never mutated, and every refusal is a
// structured [*occkit.Error] carrying its code, the path of the offending
// setting and the SPEC rule ID.
//
// # Model references
//
// A model reference is "provider/model": the first slash separates the
// provider, the model ID may contain more slashes, the provider is trimmed
// and lower-cased, the ID keeps its case, and an "@profile" suffix after
// the last slash names an auth profile ([ParseRef], [ParseRefLenient],
// [Ref], REF-1..REF-5a). [MatchRow] decides whether a provider catalog row
// names a ref (REF-4); [NormalizeRuntime] normalizes runtime IDs (REF-6).
// Only an 8-digit date or a quantization tag right after an "@" (q4_k_m,
// iq3_xxs, 8bit; case-insensitive, no white space before it) belongs to
// the model ID. Every other "@" after the last slash starts the profile,
// also one right after that slash: "vllm/@cf" has an empty ID and is
// invalid, as in OpenClaw (an "@" inside an earlier segment, as in
// "openrouter/@preset/kimi", stays in the ID). Catalog row IDs compare
// case-sensitively; only the provider prefix is case-insensitive.
//
// # Runtime selection
//
// OpenClaw's general per-turn runtime selection (SEL-1..SEL-9: Select,
// Prepare, the harness plugin Registry, session overrides) is the
// subpackage [github.com/occkit/occkit/resolver/selection]. It builds on
// this package's refs and [Reason]; this package never imports it.
//
// # OCC Harness resolution
//
// [Resolve] is what an OCC deployment admits (RES-1..RES-9, RES-11..RES-13,
// and the agents.list rule of RES-10 on every Compute but SSH), stricter
// than selection. It reads the Configuration's candidates — the
// primary and fallbacks of agents.defaults.model and of each entry's model
// (a string or {primary, fallbacks}) — and, per candidate, gathers the
// explicit runtime policy from four places: the entry's models[ref],
// agents.defaults.models[ref], the matching models.providers row, and the
// provider. Two different values are an explicit conflict; no value selects
// openclaw only for a plain built-in provider (openai, codex, configured
// and plugin-routed providers need an explicit policy); codex needs the
// codex provider, or openai with the Codex plugin on its websocket
// app-server. All entries must share one primary and one Harness,
// fallbacks keep the primary's provider and Harness, selectable catalogs
// keep the provider and pin their extra models to the primary's runtime,
// and provider rows may list only the primary and its fallbacks. A
// Configuration without any model candidate resolves to openclaw.
//
// The resolved [occkit.Harness] is then checked against the [Request]: the
// execution mode (embedded by default), the [occkit.Compute] and its supported
// [occkit.Topology] set, and for dedicated OpenClaw on Kubernetes the
// installation's native-worker support and a qualifying SandboxDriver.
// The [Decision] holds the Harness, mode, primary, fallbacks in author
// order, and the ordered [Reason] chain; [Decision.Explain] prints it.
//
// Resolution is prepared once and evaluated many times: [Prepare] makes one
// pass over the document building hash indexes (catalog keys, provider rows
// by ID), so evaluating every candidate is a constant number of hash
// lookups and the whole resolution is linear in the number of models;
// [Prepared.Resolve] then evaluates any number of Requests. Paths are
// built only for reasons and problems. The per-model index entries are
// small, the catalog keys, provider rows and fallbacks name their
// strings by their span of the document's text (only a string decoded from escapes or
// respelled is kept apart), and the hash tables hold no pointers, so the
// garbage collector's share of a resolution stays small as catalogs grow. The entries of a
// catalog, a models array or a fallbacks list are stored as they are read,
// in chunks that double (never copied, at most twice the room they need),
// so no container is skipped over first to be sized; each is walked
// chunk by chunk after. A ref written as nearly every one is (plain
// ASCII, lower-case provider, no profile) is scanned, decoded and parsed
// in one pass over its bytes, a compacted agentRuntime of a supported id
// is read as one literal, and a selected model whose policies agree
// (none refused, no conflict) is evaluated without gathering them; any
// other text or candidate takes the general reading, which decides
// alike.
// A Configuration that resolves keeps, of its index, the selections and
// the provider keys: [Prepared.SelectedModels] lists the selected refs in
// document order ([Prepared.SelectedPrimaries] only each setting's
// primary, enough for a caller that judges a ref by its provider, since
// every fallback keeps its primary's) and [Prepared.ConfiguresProvider]
// answers for a key as
// written, which is what the admission package holds against a release's
// built-in model catalog without reading the document again (the
// catalogs and provider rows are dropped once resolution is decided, so
// a kept Prepared is not as large as them; it holds one small entry per
// selected ref, from which each [Decision]'s Fallbacks are spelled).
//
// # Rosters
//
// [CheckRoster] applies RES-10 for a [RosterRequest]: at Configuration save
// ([StageSave]) and at deployment ([StageDeploy]) it refuses a non-empty
// agents.list (only an empty array may remain, also beside entries), entry
// IDs off the pattern ^[a-z0-9_][a-z0-9_-]{0,63}$ (case-insensitive) or
// equal after OpenClaw's normalization, a "default" marker on an entry,
// and any agents.ownership other than "explicit" (required with more than
// one entry, refused with none). Dedicated execution serves the main
// Agent: at deployment agents.entries must hold main, and
// agents.defaults.sessionStore.agentId and
// agents.defaults.systemAgent.agentId may not name another Agent. SSH
// deployment runs the host's OpenClaw and applies no roster rules.
// [Prepared.CheckRoster] is the same check on a prepared document, reading
// what [Prepare] already found instead of scanning the document again.
//
// # Errors and precedence
//
// One call returns every problem of one stage at once, joined with
// [occkit.Join] (sorted by path, then code, then rule), so [occkit.First]
// is the problem an HTTP answer reports. Stages run in this order and a
// stage runs only when the ones before it found nothing:
//
//  1. Shapes (RES-2): the Configuration, agents, agents.defaults and
//     agents.entries (and each entry) must be objects; an explicit null
//     is refused like any other non-object. [CheckShape] is the one
//     place this is decided: the roster check and compile call it too. A broken shape
//     stops here, because the candidates cannot be known; only a
//     non-empty agents.list (RES-10, unless the Compute is SSH), which
//     does not depend on them, is reported beside it.
//  2. The Configuration (RES-1, RES-3..RES-9), all 400 INVALID_REQUEST,
//     joined with a non-empty agents.list (RES-10) unless the Compute is
//     SSH.
//     Checks that depend on the whole candidate set (a provider row naming
//     no selected model, RES-9) are skipped while a selection itself is
//     broken, so one mistake is not reported twice.
//  3. The topology (RES-11): an unknown mode, codex in embedded mode, or a
//     (Harness, mode) pair the Compute does not support — 400, before any
//     installation fact is consulted (AUTH-4 relies on this order).
//  4. The installation (RES-13), for dedicated OpenClaw on Kubernetes:
//     missing native-worker support is 400 and a missing or incomplete
//     SandboxDriver is 409 RESOURCE_CONFLICT naming the missing Driver.
//     Both are reported when both are missing; the 400 sorts first.
//
// So a refusal of the Configuration always precedes a refusal of the
// request, which precedes an installation conflict. Mode and installation
// problems carry the path executionMode in the Agent
// ([occkit.AgentPath]: a field of the Agent, not of the Configuration); a
// typo of a bundled Compute, the Agent's compute. Messages name settings and provider or runtime names,
// never model IDs or other values. A path spelled out in a message is cut
// to 96 code points, so a long author key cannot push the rule text past
// the message cap; the error's Path stays exact.
//
// # Decisions you made where SPEC is silent
//
//   - Runtime IDs are compared exactly: "openclaw" and "codex" only, no
//     trimming, case folding or aliases (RES-1 says "exactly"). An
//     agentRuntime object may carry other keys; they are ignored.
//   - RES-1 checks every agentRuntime in the four policy places, also of
//     catalog keys that are not candidates. Whole-agent runtime keys
//     (agents.defaults.agentRuntime, an entry's agentRuntime,
//     embeddedHarness) are ignored, as in selection (SEL-2).
//   - Refs are compared and reported in canonical form (REF-2): the
//     primary equality of RES-3 compares "provider/id@profile"; catalog
//     keys and provider rows are matched on "provider/id" (a profile names
//     credentials, not a model). [Decision.Primary] and
//     [Decision.Fallbacks] are canonical.
//   - The reference primary is agents.defaults.model's, else the primary
//     of the first entry in Agent ID order (byte order). Entries are always
//     evaluated in ID order, so the author's key order never changes a
//     decision or the problems reported. [Decision.Fallbacks] are the
//     reference selection's. Without agents.defaults.model, entries that
//     disagree (primary or Harness) are refused at the reference entry too,
//     so the entry the author wrote second is always among those named.
//   - An entry without a model inherits agents.defaults.model; its own
//     models map is an extra policy source for the inherited refs.
//   - A conflict (RES-5) is reported at the first policy that disagrees
//     with the most specific one (entry, defaults, provider row,
//     provider), and names both settings.
//   - A codex refusal on openai (RES-7) names the first Codex plugin
//     setting that refuses: plugins.entries.codex, its enabled, or its
//     config.appServer.transport; on any other provider it names the
//     policy that selected codex.
//   - A catalog key that is not a provider/model ref (an alias) does not
//     keep the provider and is refused (RES-8); so is a non-object catalog
//     value (RES-4). A provider row without a string id is refused at its
//     id (RES-9). Non-object models, models.providers, plugins and
//     plugins.entries are refused (RES-4, RES-6) rather than ignored.
//   - Provider names under models.providers and plugins.entries are
//     normalized like ref providers when deciding RES-6; RES-7 reads only
//     the exact plugins.entries.codex key.
//   - Only "pinned-runtime" and "custom-image" count as native-worker
//     support. A custom Compute's declared [occkit.Topology] set is authoritative,
//     also for dedicated OpenClaw (RES-13 gates Kubernetes only, where a
//     SandboxDriver can exist); the bundled Computes ignore
//     [Request.Topologies].
//   - Rosters: an empty RosterRequest.Stage means save; Docker and custom
//     Computes apply the same roster rules as Kubernetes at deployment
//     (fail closed); colliding IDs are reported at each colliding entry
//     (whichever the author meant to keep); "explicit" with zero entries
//     is reported at agents.ownership; a blank or null
//     sessionStore/systemAgent agentId names nobody; the main Agent is
//     found after normalization ("Main" is main).
//   - Of the roster rules, [Resolve] applies only the agents.list one
//     (deployment harness resolution refuses configured Agent lists);
//     entry IDs, default markers, ownership and the main-Agent rules stay
//     with [CheckRoster], so resolving never depends on them.
//   - RES-14 (session and turn concurrency) is a Compute-driver concern
//     and lives with the drivers, not here.
package resolver
