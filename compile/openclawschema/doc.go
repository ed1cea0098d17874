// Package openclawschema checks a Configuration against the configuration
// contract of an OpenClaw release, so that a revision admission freezes is
// one that release will start with.
//
// # Releases
//
// The library carries the contract of every stable OpenClaw release from
// 2026.8.1 to 2026.9.6 ([Releases]; [Release] is the newest). A
// [Contract] ([ContractFor]) holds one release's published schema, the
// paths its hints mark sensitive ([Contract.Sensitive]), the refinements
// the check mirrors for it ([Contract.Refinements]), the channel ids it
// accepts ([Contract.Channels]), the plugins its package ships
// ([Contract.BundledPlugins]) and the plugins it does not ship and
// installs from npm at start when a configuration needs one: the official
// ones ([Contract.OfficialPlugins]: discord, slack and the codex harness
// among them) and the third-party ones of its catalog
// ([Contract.ExternalPlugins]); [Plugin.Spec] is the npm spec the release
// installs ([Contract.InstalledPlugin] finds one by id, and
// [Contract.ChannelPlugin] by channel, in an index built with the
// Contract; the Channels they hand out are the caller's copy). [ForRelease]
// compiles a release's check once per process; [New] is the newest's.
// [Compile] checks a schema of a release the library does not carry: its
// schema alone (no refinement, no channel ids).
//
// # The data
//
// OpenClaw publishes its whole configuration as a draft-07 JSON Schema
// (buildConfigSchemaCore). gen.mjs, run with the node that ships beside a
// release's package, writes the schema, the sensitive hint paths, the
// version and plugins.json (bundledChannelIds, the manifest registry of a
// fresh state, normalizePluginId's aliases, the official and external
// plugins of its catalog), each taken from the release's own code. The newest release's
// files sit in data/ as written; every other release is a delta against
// them in data/releases (package internal/releasedata: copies of the
// base and inserted bytes, with the SHA-256 of the result). The releases
// share most of their text: seven deltas take 52 KB beside the 713 KB
// base. A release is decoded on first use, once ([Contract] values are
// kept per release); nothing is decoded when the package is initialised
// or for a release no caller asks for. The package's tests regenerate the
// data of the installed releases ($OCCKIT_OPENCLAW_DIR and
// $OCCKIT_OPENCLAW_DIR_PREV) and compare it byte for byte (required when
// OCCKIT_REQUIRE_INTEGRATION=1). To add or refresh a release, install it
// with .ci/openclaw.sh (OPENCLAW_VERSION=...) and run
//
//	OCCKIT_OPENCLAW_DIR=$HOME/.cache/occkit/openclaw-<version> go generate ./compile/openclawschema
//
// which rebuilds the other releases from data/ itself (the newest release
// becomes the base).
//
// One fact a plugin install depends on is not in any release's package:
// which versions the npm registry publishes. An official plugin is
// version-bound to its release, but the registry skips releases
// (@openclaw/discord and @openclaw/slack have no 2026.8.x or 2026.9.1,
// @openclaw/codex only 2026.9.4 and 2026.9.5); OpenClaw's installer then
// takes the newest published version that accepts the release, by its
// peer dependency on openclaw ("using newest compatible
// @openclaw/discord@2026.7.35" on 2026.8.2), and finds none for Codex
// before 2026.9.4. data/npm.json records, for the packages it names, the
// published versions and the oldest release each accepts, from which
// [Plugin].Version follows; a package it does not name is taken as
// published at every release. It names the packages the real tiers
// install (Codex, Discord, Slack) and is refreshed from the registry with
//
//	go run ./internal/gendata -data data -npm [PACKAGE...]
//
// (each PACKAGE is added); TestNPMRecordMatchesTheMirror compares it with
// the registry documents the tiers' npm mirror recorded.
//
// Measure a new release's refinements with TestRefinementDifferential
// against its own validation and record those that do not hold
// (refinementsAbsent).
//
// # The check
//
// [Compile] turns the schema into a tree of checks, once; [Validator.Valid]
// walks a document's bytes against it once, in place, with the walker
// compile's own schema check shares (internal/jsonwalk, reading
// JSON as JSON.parse does), without decoding into maps, and
// [Validator.Validate] explains a refusal. [Validator.ValidBeside] is
// Valid with another schema of that walker (compile's DOC-5 fast check)
// checked in the same walk: admission reads a document it accepts once
// for both schemas. Only the keywords
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
// # Channel ids
//
// OpenClaw's published schema allows any key under channels, but its
// gateway refuses a channel id no plugin provides ("unknown channel id",
// exit 78), in its plugin validation. The check refuses such an id at
// channels.<id> with the closest known id, after trimming it as OpenClaw
// does; it accepts what that validation accepts on a fresh state: the
// release's channels and "defaults"/"modelByChannel", a channel of a
// plugin the document declares (plugins.allow, plugins.entries or
// plugins.installs naming a plugin of that id the release does not ship:
// OpenClaw then only warns), and, since a plugin loaded from a path may
// provide any channel, every id of a document with plugins.load.paths.
//
// # Divergences
//
// The check is the contract. TestDifferential measures it against the
// release's own validateConfigObject (with bundled channel sections
// validated, as the gateway does), on 10,000 generated documents per run
// and release, and fails on any verdict or refused path no excuse
// explains. Each excuse is a predicate that recomputes its reason
// (divergence_test.go), and a bound caps how many documents it absorbs:
//
//   - refinement: OpenClaw refuses through checks its published schema
//     does not carry (zod refinements). The check mirrors those of each
//     release that a document alone decides ([Refinements]: agent
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
//   - channel-id: validateConfigObject checks neither the ids nor the
//     sections of channels it does not bundle; the check refuses an id the
//     gateway refuses (confirmed with the CLI's validation);
//   - channel-default: validateConfigObject checks a bundled channel's
//     section before filling in its defaults and refuses a missing setting
//     the schema gives a default and the document leaves out; the gateway
//     and `openclaw config validate` fill the defaults in first (confirmed
//     with the CLI's validation), and so does the check (a required
//     setting with a default may be left out anywhere); likewise
//     channel-raw, the account keys of a raw channel section (zalouser);
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
// Where both refuse, the refused settings must agree but for three
// documented placements: OpenClaw reports a union none of whose branches
// fits as "Invalid input" at the union, where the check names the
// settings of the branch the value's type selects; its refinements of the
// whole configuration (agent references, broadcast groups) do not run
// once a wrong type, enum value, bound, record key or roster refusal
// stopped its parse (an unknown key stops it too before 2026.9.5, and so
// do the refinements of the object holding it); and
// validateConfigObject validates bundled channel sections only after the
// rest validated. The check reports all of them. An object's own
// refinement runs, as in OpenClaw 2026.9.5 on, when the object satisfies
// its schema but for unknown keys. Refinements judge a setting only where
// the release's schema has it, and one release's refinements can be
// fewer than the newest's: broadcast groups are bounded to 16 agents from
// 2026.9.5 on (measured with TestRefinementDifferential against each
// release's CLI validation; the other refinements hold for all eight).
//
// Keys OpenClaw accepts but occkit does not interpret pass through
// untouched: the check only reads (DOC-3).
package openclawschema

//go:generate sh -c "test -n \"$OCCKIT_OPENCLAW_DIR\" && out=$(mktemp -d) && \"$OCCKIT_OPENCLAW_DIR/node/bin/node\" gen.mjs \"$OCCKIT_OPENCLAW_DIR\" \"$out\" && go run ./internal/gendata -data data \"$out\" && rm -r \"$out\""
