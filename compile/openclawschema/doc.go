// Package openclawschema checks a Configuration against the configuration
// schema of the pinned OpenClaw release, so that a revision admission
// freezes is one OpenClaw will start with.
//
// # The data
//
// OpenClaw publishes its whole configuration as a draft-07 JSON Schema
// (buildConfigSchemaCore). gen.mjs, run with the node that ships beside
// the pinned package, writes it into data/ together with the paths the
// schema's hints mark sensitive and the release version; the files are
// embedded ([Schema], [Sensitive], [Release]). The package's tests
// regenerate them from $OCCKIT_OPENCLAW_DIR and compare byte for byte
// (required when OCCKIT_REQUIRE_INTEGRATION=1). To move to a new release,
// install it with .ci/openclaw.sh and run
//
//	go generate ./compile/openclawschema
//
// # The check
//
// [Compile] turns the schema into a tree of checks, once; [Validator.Valid]
// walks a document's bytes against it once, in place, with the walker
// compile's own schema check shares (compile/internal/jsonwalk, reading
// JSON as JSON.parse does), without decoding into maps, and
// [Validator.Validate] explains a refusal. Only the keywords
// the schema uses are implemented ([SupportedKeywords]); any other keyword,
// an unknown format or a pattern feature outside the supported subset makes
// Compile fail, never a partial check. Where JSON Schema and OpenClaw's
// own validator (zod) differ, the check follows OpenClaw: string lengths
// count UTF-16 code units, numbers are float64, an overflowing literal is
// not a number, and patterns are ECMAScript (see compilePattern for the
// translation to RE2 and the lookahead forms honoured).
//
// Refusals name the setting as OpenClaw does: an unknown key at its own
// path (OpenClaw names the object and the key), a union whose branches
// all fail by type at the union, and otherwise the refusals of the one
// branch the value's type selects.
//
// # Divergences
//
// The check is the schema. TestDifferential measures it against OpenClaw's
// own validateConfigObject (with bundled channel sections validated, as
// the gateway does) on 10,000 generated documents per run; the verdicts
// agree on 99.9% or more of the documents outside these classes, and
// every unknown key OpenClaw names is refused at the same path:
//
//   - refinement: OpenClaw refuses through checks its published schema
//     does not carry (zod refinements). The check mirrors those of the
//     pinned release that a document alone decides ([Refinements]: agent
//     references, broadcast keys and sizes, durations, byte sizes,
//     heartbeat active hours, absolute and non-blank paths, URL schemes
//     and origins, exact egress hosts, gateway roles, ACP binding peers,
//     persistent hook sessions, exec mode beside security/ask, talk
//     providers, browser profiles, remote edge-auth headers, and, found
//     by the schema's shape, SecretRef ids and tool policies), each
//     refused at the setting OpenClaw names; an object-level refinement
//     runs only when its object satisfies the schema, as in OpenClaw.
//     The agent references are judged against the roster OpenClaw's
//     loader sees (the implicit "main" agent of a document without one).
//     The others are [UnmirroredRefinements], each with its reason (host
//     state, catalog knowledge, the SPEC's roster rules, or cross-field
//     rules not mirrored yet); TestRefinementDifferential measures the
//     mirrored ones against the CLI's own validation path;
//   - plugin-channel: the schema describes the sections of channels that
//     come from plugins which validateConfigObject does not check unless
//     the plugin is installed; the check refuses a bad section anyway, as
//     `openclaw config validate` does;
//   - channel-default: validateConfigObject checks a bundled channel's
//     section before filling in its defaults and refuses a missing setting
//     that has one; the gateway and `openclaw config validate` fill the
//     defaults in first, and so does the check (a required setting with a
//     default may be left out anywhere);
//   - the legacy roster: OpenClaw migrates an agents.list array (without
//     agents.entries) into agents.entries before validating; the check
//     leaves such a list out and does not check the entries it becomes;
//   - the SPEC wins where it says so: an empty agents.list beside
//     entries is fine (RES-10; OpenClaw refuses the key there), and
//     logging.redactSensitive is decided by the logging rules (LOG-1
//     stamps it away, LOG-3 keeps driver-managed logging unchanged), so
//     the check leaves both out;
//   - the uri format approximates a WHATWG URL parse (percent-encoding
//     and IDNA host errors are not reproduced);
//   - JSON text OpenClaw never sees as such: every value of a repeated key
//     is checked (JSON.parse keeps the last), and a lone surrogate escape
//     reads as U+FFFD.
//
// Where a refusal is placed can differ while the verdict agrees: OpenClaw
// summarizes some unions (its bindings entries, discriminator messages)
// at the union, where the check names the branch's own settings.
//
// Keys OpenClaw accepts but occkit does not interpret pass through
// untouched: the check only reads (DOC-3).
package openclawschema

//go:generate sh -c "test -n \"$OCCKIT_OPENCLAW_DIR\" && \"$OCCKIT_OPENCLAW_DIR/node/bin/node\" gen.mjs \"$OCCKIT_OPENCLAW_DIR\" data"
