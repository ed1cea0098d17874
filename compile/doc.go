// Package compile turns native OpenClaw Configuration text into the JSON
// documents the rest of occkit works on, and compiles admitted documents
// into what each process runs.
//
// Everything here is a pure function of its inputs: a [occkit.Document] in,
// a new Document out, the input never changed. Documents are handled as
// bytes with gjson and sjson, so unknown keys and the author's key order
// survive every step (DOC-3).
//
// # Loading
//
// [Load] reads one Configuration from bytes, [LoadReader] from a stream
// (bounded before it is read to its end), [LoadFS] from an fs.FS with its
// $include files resolved inside that file system, and [LoadFile] from a file
// (DOC-1). Strict JSON is tried first, with encoding/json's notion of
// validity; only when that fails is the text read as JSON5, as the npm
// json5 package that OpenClaw uses reads it: comments, trailing commas,
// unquoted keys, single quotes, hexadecimal numbers and the rest. The result
// must be a JSON object (a Configuration is one; any other top-level value
// is refused, DOC-1) and is compact JSON in the author's key order with
// every scalar in its RFC 8785 form: strings with the fewest escapes and
// numbers as JavaScript writes the double they denote (16.0, 1.6e1, 0x10
// and +16 all load as 16; 1e6 as 1000000; -0 as 0; 1e21 as 1e+21), which
// is how OpenClaw reads them. So the same value loads to the same bytes
// whichever syntax or spelling it was written in, and two loaded documents
// differ exactly when their meaning does (up to key order, which
// [occkit.Canonical] removes for digests). Loading normalizes; rewrites
// after it (repair, compile) keep every byte they do not edit (DOC-3).
// What has no such form is refused (DOC-1, with the path of the value)
// rather than rewritten into some other value: Infinity and NaN, numbers
// beyond the range of a double (1e400, a 309-digit integer), and a string
// or key holding a lone UTF-16 surrogate (\ud800 alone), which no UTF-8
// text can hold and which would otherwise collide with U+FFFD.
//
// Loading is bounded by [Limits] (DOC-2), whose zero value is right for
// untrusted input: [DefaultMaxBytes] per document, [DefaultMaxDepth]
// levels of nesting (the top-level value is level 1), [DefaultMaxStringBytes]
// per string or key and [DefaultMaxKeys] object members in all. Depth is
// checked first by a single pass over the bytes that skips strings and
// comments, before any recursive reader sees the document; the parser
// itself is a loop over an explicit stack. An object that names the same key
// twice is refused: gjson reads the first and encoding/json the last, so a
// duplicate would let two readers see two documents. Every refusal is a 400
// INVALID_REQUEST with the path of the offending value where one exists and
// a message that names the limit or the grammar problem (with line and
// column), never document text.
//
// # Positions
//
// Every refusal of a load carries an [occkit.Position] (file, line,
// column): a refusal of the text itself at the character where reading
// stopped (also as a [SyntaxPosition] cause), any other at the key its
// path names, in the file that writes it, an included file by its own
// name (relative to where the top-level file was named, or its fs.FS
// path). [LoadFile], [LoadFS] and [LoadReader] (and [Load] given
// [LoadOptions.Filename]) attach an [occkit.SourceMap] to the Document,
// holding the texts as read (the top-level file and every included one);
// later refusals are placed with it: [Validate], resolver.Resolve and
// admission do so themselves, and [occkit.Document.Place] does it for any
// other stage. Of the texts that write a path, the one that writes the
// most of it wins, and among equals the one whose value the merge keeps
// (the including object's own keys, then later includes); a path nobody
// writes is placed at the object that lacks it. Positions are computed
// only for refusals: a successful load pays one small allocation for the
// map, nothing per admission. The first refusal placed in a text reads it
// once, with the transcoder, into an index of where each key and element
// is written, where each line starts and what the author view masks; each
// refusal after costs a few lookups and the excerpt it prints, however
// long its line (see "Bounded work"). [Locate] maps a path in one text to
// its line and column. examples/occcheck prints positions as
// file:line:col.
//
// A position's text, what %+v, [occkit.Error.Snippet] and occcheck
// -snippet print, is the author view of the line: the author's own text,
// masked by value wherever the credential policy would strip it (see
// "Credential policy"), as the structure of the whole text decides, not
// the line alone:
//
//   - every value under a credential-like key ([CredentialKey], headers
//     included) at any depth above it, on whatever line it sits, a key
//     written with \u escapes too;
//   - every value of the top-level env block, whose variables the
//     document references as ${VAR};
//   - every value at OpenClaw's sensitive paths for the release
//     ([LoadOptions.SensitivePaths], those of the pinned release by
//     default), such as channels.googlechat.serviceAccount and
//     mcp.servers.*.env.*;
//   - of a URL (a string holding "://", or one under a URL-like key holding
//     '@', '?' or '#'), all but its origin, as [Origin] keeps it:
//     "https://api.example.com/***";
//   - a string that carries a credential whatever its key: a "Bearer …" or
//     "Basic …" authorization, a "--api-key=…", "API_KEY=…" or
//     "X-Api-Key: …" setting, and the element after a credential-like flag
//     in an array (["--api-key", "…"]);
//   - the body of every comment, where a credential may be commented out;
//   - past the character where the text stops being JSON5 (the line of a
//     syntax refusal), every run of text but blanks and punctuation, since
//     nothing there tells a key from a value.
//
// Masked text prints as ***. So a value is masked in the tail of a
// multi-line string, in an array or header object opened on an earlier
// line, and in an included file (by where it is included); values nested
// deeper than 256 levels are all masked. The view is for the file's
// author, as a checker shows it; messages ([occkit.Error.Error]) never
// hold document text at all.
//
// # Bounded work
//
// Every limit is enforced before the work it bounds (DOC-2): depth by the
// transcoder as it reads (it stops at the first container past the limit),
// each included file's size (and the running
// total of all included files) from its metadata before it is read, the
// number of included files before each is opened, and the growth of
// ${VAR} substitution as each reference is written, never after the
// output is built. A string is substituted in one pass: the closing brace
// of a "${" is found once for all the openings before it (OpenClaw's own
// scan looks again from every "$", which is quadratic on a string of
// "${"), and a name is read only as far as it can go. Parsers keep a few words per open level and find the
// path of an error by scanning the output written so far
// ([occkit.PathAt]), so a deep document costs memory in proportion to its
// size whatever depth limit is configured, up to [HardMaxDepth]. Include
// trees stay raw text except where a directive or a merge needs to look
// inside, and arrays concatenate without touching their elements.
//
// The bound, tested as a property on adversarial and random inputs: let n
// be the size of the document given to [Load] (for [LoadFile], of the
// file) and E be 0, plus MaxBytes when include roots are configured (the
// included files together hold at most MaxBytes) and plus MaxBytes again
// when a Lookup is set (substitution may grow the document up to
// MaxBytes), and d the number of levels of nesting reached, at most
// MaxDepth + 1 (so at most 10,001). Loading, whether it succeeds or
// refuses, allocates at most 64·(n + E) + 256·d + 1 MiB bytes and runs in
// time linear in n + E; the 256·d is the path a refusal names, which is as
// deep as the nesting it stops at. In practice flat documents allocate
// 2–8 times their size, a refusal at the deepest nesting about 200 times
// (at most 2.5 MiB); the bombs that once cost 0.5–1.5 GiB now cost under
// 10 MiB.
//
// Placing refusals (see "Positions") costs the text once and each refusal
// its excerpt: for a text of n bytes and R refusals placed in it, at most
// 64·n + 2 KiB·R + 64 KiB bytes, whether the text is one line or many; in
// practice 13–25 bytes a byte and about 1 KiB a refusal. A document whose
// 1,000 refused catalog rows sit on one line (58 KB) once cost 677 MiB to
// place; it costs 1.2 MiB. Without a source map nothing is placed and nothing
// allocated. [Validate] of a document with thousands of refusals, placed
// or not, allocates at most 192 bytes a byte of it (38–94 measured).
// Both are properties tested with one-line and many-line documents of
// thousands of refusals; allocation is asserted, never time.
//
// $include (DOC-4) follows OpenClaw: the key may appear in any object at any
// depth and holds a path or an array of paths. An object holding only
// $include is replaced by what it includes; with other keys beside it the
// included value must be an object, and the object's own keys are merged
// over it. An array of paths merges its files left to right. The merge is
// deep: objects merge key by key, arrays concatenate (included first),
// scalars of the including document win. Relative paths resolve against the
// including file's directory. Every file must lie inside one of
// [LoadOptions.IncludeRoots] both as written (so ".." cannot climb out and
// an absolute path must name a file inside a root) and after symbolic links
// are resolved; it is opened without following a final symbolic link or
// blocking on a FIFO, must be a regular file with a single hard link and at
// most MaxBytes long (and all included files together at most MaxBytes),
// and is re-checked after opening (Go 1.23 has no
// os.Root, so this is its equivalent; a directory swapped between the checks
// and the open is the remaining window). Includes nest at most
// [MaxIncludeDepth] files deep, at most [MaxIncludeFiles] files per load; a
// cycle is an error. A file that cannot be read, the top-level one of
// [LoadFile] or [LoadFS] or any included one at any depth, is a 400 that
// keeps the error behind it for errors.Is (fs.ErrNotExist,
// fs.ErrPermission, …); for an included file without its path, which is
// a document value and never quoted. The merged document obeys the same Limits. Without
// roots, [Load] refuses $include; [LoadFile] defaults the root to the
// file's directory. OpenClaw's guard against JavaScript prototype keys
// (__proto__ and friends) has no meaning for Go values: such keys are kept
// like any other.
//
// ${VAR} substitution (DOC-4) applies to string values, never keys, after
// includes are merged, over the whole merged document (strings that came
// from an included file included, as in OpenClaw), and reads variables
// only through
// [LoadOptions.Lookup]; the process environment is never consulted unless
// the caller passes os.LookupEnv. A nil Lookup turns substitution off and
// keeps every string verbatim (a control plane stores Configurations whose
// references the runtime resolves later). As in OpenClaw, names match
// [A-Z_][A-Z0-9_]*, $${VAR} writes a literal ${VAR}, text that is not a
// reference (${lower}) is left alone, and a variable that is missing or
// empty is an error naming the variable. Secret-store references
// (${pass:…}, ${gopass:…}) are refused: occkit runs no password store.
//
// Variables the document defines: as OpenClaw's loader does before it
// substitutes (config-env-vars in 2026.9.6), the merged document's
// top-level `env` object defines variables: the string members of
// env.vars, then the string members of env itself except `vars` and
// `shellEnv` (the shorthand wins for a name written in both). A name is
// trimmed of JavaScript white space and must be a portable variable name;
// a blank value, a value that itself holds a ${NAME} reference (an escaped
// $${NAME} is none, and the value is taken as written, escape and all) and
// a name OpenClaw will not take from a configuration (the pinned
// release's [envpolicy.Policy.ConfigEnvApplies]: names that make a
// runtime load code or change whom it trusts, LD_*, DYLD_*, NODE_OPTIONS,
// BASH_ENV, proxies and the like, and OpenClaw's own switches) define
// nothing. The
// Lookup's non-blank value of a name wins over the document's; the
// document fills names the Lookup lacks or holds blank. Z_AI_API_KEY
// fills a blank ZAI_API_KEY, as OpenClaw normalizes its environment. The
// env section's own strings are substituted like any other. Includes
// merge first, so an included file's env section counts. occkit does not
// run OpenClaw's login-shell import (env.shellEnv) or read .env files.
// [DefinedEnv] returns the names a document defines this way under a
// release's policy, for checks of references a runtime will resolve. The differential tier
// (internal/openclawdiff, config.load) runs OpenClaw's own
// resolveConfigForRead on generated include trees with env sections.
//
// # Schema
//
// [Schema] is the embedded JSON Schema (draft 2020-12) for the parts of a
// Configuration occkit interprets: agents, models, plugins.entries.codex,
// logging and diagnostics.otel (DOC-5). It never closes an object: unknown
// keys are always allowed. It asserts only the value types no other rule
// owns (agents.defaults.maxConcurrent, provider baseUrl/api/headers, the
// codex plugin's enabled and transport, …); shapes that a resolver or
// logging rule refuses with its own rule ID, such as a non-object
// agents.entries value or a null logging.level, are described but left to
// that rule. [CompileEndpoint] and [GatewayDocument] refuse a bad agents
// shape (RES-2, null included) through [resolver.CheckShape], as the
// resolver does. [NewValidator] compiles it once into a [Validator];
// [Validate] uses a shared one compiled on first use. Violations are 400
// INVALID_REQUEST with rule DOC-5, the JSON-pointer instance location as the
// path, and occkit's own wording naming the setting and the schema keyword:
// the validator's text, which can quote values, is never passed on.
// The Validator checks the document bytes in place first: a checker
// compiled once from the schema accepts, in one pass over the bytes and
// without allocating, what certainly passes (the schema walker it shares
// with package compile/openclawschema, internal/jsonwalk), and
// anything else is validated pruned to the parts the schema
// can look at (package compile/internal/schemacheck); the verdict and
// every error are those of validating the whole document, a property the
// package tests.
//
// # Endpoint compile
//
// [CompileEndpoint] turns an admitted dedicated-Codex Configuration into the
// compiled model selection for a custom OpenAI-compatible [Endpoint]
// (CMP-1). Every ref of the selected primary's provider becomes
// codex/<ModelProvider>/<id>: model, primary, fallbacks, subagents.model and
// the models keys, in the defaults and in every entry. Aliases without a
// slash and other providers' refs are kept, and so are fallback order and
// policies; wildcard keys are never projected into the catalog.
// models.providers.codex.models is rebuilt from the selected refs and their
// matching rows, each row keeping its metadata. Compile works on a copy
// (CMP-2); the endpoint URL reaches only [RenderCodexConfig].
//
// # Legacy repair
//
// [Repair] applies OpenClaw's doctor --fix migration (CMP-3): codex/* and
// codex-cli/* become openai/* with model-scoped runtime codex; claude-cli/*
// and anthropic-cli/* become anthropic/* with runtime claude-cli;
// google-gemini-cli/* becomes google/* with runtime google-gemini-cli.
// Legacy models keys merge into canonical keys, the canonical entry winning,
// and a concrete pin any merged entry carries is kept (doctor writes each
// legacy key's policy as it merges it, so there an earlier key's policy
// beats a later key's pin: internal/openclawdiff/DIVERGENCES.md). Padded
// model refs are respelled without the white space REF-2 and REF-5 ignore
// wherever doctor reads a ref (" vllm/m @work" → "vllm/m@work"), a padded
// models key merging into its trimmed key like a legacy one (the SPEC is
// silent; doctor's canonical-refs migration does it, after the
// whole-agent pin and before the legacy keys).
// Refs of the retired CLI runtimes elsewhere in the document (voice, image,
// summary and preferred models, compaction, hooks, channel overrides,
// provider/model pairs, other models maps) are canonicalized too, without
// runtime policy, as doctor's document-wide ref rewrite does.
// Whole-agent agentRuntime and embeddedHarness keys are removed, a scope's
// own agentRuntime CLI pin first becoming policy for that scope's model
// selection refs on that CLI's provider; codex-cli runtime
// IDs become codex, and a pin is never overwritten, an explicit "default"
// included (a blank or "auto" id is), as doctor does. A migrated ref also
// loses a retired model ID the way doctor renames it (claude-cli/opus →
// anthropic/claude-opus-5, google-gemini-cli/gemini-3-pro →
// google/gemini-3.1-pro-preview); refs already on a canonical provider keep
// their IDs (doctor's catalog-wide renaming of retired models is outside
// CMP-3: see internal/openclawdiff/DIVERGENCES.md). It returns the
// [Change]s it made, is idempotent, never mutates its input, and keeps
// unknown keys and key order.
//
// Legacy Codex provider entries (models.providers.codex and
// .openai-codex, keys compared trimmed and lowercased) move first, as
// doctor's legacy migrations run before its ref migration
// (repair_codex.go): with no openai entry the entry becomes it (codex rows
// getting the codex runtime); otherwise its rows the openai entry lacks are
// appended with the legacy entry's defaults stamped on, and it is removed,
// unless a colliding row differs or a provider-level setting cannot be
// carried onto merged rows (apiKey, headers, ... on the legacy entry;
// params, agentRuntime, limits, ... on the openai one). Such an entry
// stays, and so, in every agent scope, do its provider's codex/* refs,
// without policy; a codex/* (or openai-codex/*) wildcard in any agent
// scope's modelPolicy.allow blocks its provider the same way. The SPEC is
// silent on these entries; occkit follows OpenClaw 2026.9.6's doctor,
// checked against it by the differential tier. The openai-codex-responses
// api becomes openai-chatgpt-responses on every entry and row. Doctor
// judges a legacy entry against the openai entry before renaming that
// entry's codex-cli pin (and, for a legacy key listed before openai, its
// api), so a second doctor pass can merge what the first kept; Repair
// renames them first and gives the second pass's answer, staying
// idempotent (CMP-3 requires it).
//
// # Render plan
//
// [BuildPlan] is the one render stage (CMP-4): from an admitted revision,
// passed as plain values ([PlanInput]; admission.Revision.Plan builds it,
// since compile never imports admission) and the Compute's placement
// ([PlanOptions]), it plans every process the revision runs ([Plan],
// [ProcessPlan]): its role (the vocabulary's [occkit.Process]), program and
// arguments, environment ([Env]: literals, [occkit.SourceRef] references,
// the gateway token, placeholders; never secret bytes), variables to
// unset, readiness check, and the files it reads by [FileRole] (the
// native document, the Codex config.toml), never by a Kubernetes or
// systemd path. The Kubernetes and SSH drivers, memdriver and the custom
// driver example only map a Plan onto their objects. Admission checks the
// same plan with the zero PlanOptions before it freezes a revision
// ([CheckPlan]: every refusal of BuildPlan, without writing the documents),
// so a revision that admits renders, unless the Compute's own facts differ.
// It keeps what that check read of the document ([PreparePlan], a
// [PreparedPlan]: the stamped level, the gateway's and the Harness's
// documents, the variables they reference and define, the plugins a
// Compute provides and the edits that trust them), and each render builds
// its plan from it ([PreparedPlan.Plan]), BuildPlan's plan or refusal for
// any placement, without reading the document again; what reads the
// placement (the gateway section, the Codex app-server, the environment,
// the credential checks under another tenant namespace) is done for each.
// The plan speaks the root vocabulary: a process's role is an
// [occkit.Process], its credentials come in as the revision's
// [occkit.Projection] and every Secret is named by an [occkit.SourceRef];
// [Env] is [occkit.EnvVar] widened to every variable a process receives.
//
// Every gateway document gets the control plane's gateway section:
// gateway.mode "local", gateway.bind "lan" on Kubernetes and "loopback"
// elsewhere, and gateway.auth {mode: "token", token:
// "${OPENCLAW_GATEWAY_TOKEN}"}: the token is a variable fed from the
// Compute's per-Agent gateway token Secret ([Env].GatewayToken), never a
// literal; an author's gateway.auth is replaced. Gateway readiness is GET
// [ReadinessPath] (/readyz).
//
// What each process receives (the AUTH table of the SPEC as a property of
// the plan):
//
//	topology           process   document                     credential environment
//	embedded openclaw  gateway   admitted + gateway section   OPENCLAW_GATEWAY_TOKEN, secretBindings, the
//	                   (also the                              Harness plan (OPENAI_API_KEY or
//	                   Harness)                               ANTHROPIC_API_KEY by provider; none for
//	                                                          SSH runtime: host credentials, AUTH-5)
//	dedicated codex    gateway   StripInference(admitted),    OPENCLAW_GATEWAY_TOKEN, secretBindings:
//	                             workspace, gateway section,  never an inference variable (AUTH-6)
//	                             appServer url
//	                   harness   config.toml (env_key names   OPENAI_API_KEY + CODEX_LOGIN_MODE=api_key
//	                             only)                        (stdin login), or CODEX_ACCESS_TOKEN +
//	                                                          codex_pat, or a placeholder (egress proxy)
//	dedicated openclaw gateway   as dedicated codex, without  as dedicated codex
//	                             appServer
//	                   harness   HarnessDocument(admitted)    OPENAI_API_KEY (Secret or placeholder),
//	                                                          OPENCLAW_GATEWAY_TOKEN (the node host
//	                                                          enrols with its gateway); never a
//	                                                          secretBinding
//
// Each planned process also says what its machine must give it: the
// approved release it runs ([ProcessPlan].Version: the OpenClaw release,
// also for the gateway of a Codex revision, whose document was validated
// against it; the Codex CLI version for the app-server), the variable of
// its writable state directory apart from its read-only files
// ([ProcessPlan].StateEnv: OPENCLAW_STATE_DIR, CODEX_HOME), how long its
// own stop policy takes after SIGTERM ([ProcessPlan].StopGrace:
// [GatewayStopGrace], 330 s, for the gateway) and the plugins its
// document configures that its release does not bundle
// ([RequiredPlugins], from the release's carried data, openclawschema), which the native
// document enables explicitly (plugins.entries.<id>.enabled: true, an
// author's entry keeping its settings): OpenClaw loads an installed
// external plugin only with that trust, which its own installer would
// write into a configuration the Compute keeps read-only. A dedicated node host
// whose gateway host is not loopback gets
// OPENCLAW_ALLOW_INSECURE_PRIVATE_WS=1 ([EnvAllowPrivateWS]): the plan
// dials ws:// and a Compute that names another host places both on its
// private network ([PlanOptions].GatewayHost). A dedicated Codex
// app-server that listens beyond loopback ([PlanOptions].AppServerListen)
// authenticates its WebSocket clients, as Codex requires there: it runs
// with `--ws-auth capability-token --ws-token-file` the file the Compute
// names ([PlanOptions].AppServerTokenFile, [ProcessPlan].TokenFile; a plan
// without one is refused, 409 CMP-4), and the gateway gets the same
// Compute-owned token as OPENCLAW_CODEX_APP_SERVER_TOKEN
// ([Env].AppServerToken), referenced by
// plugins.entries.codex.config.appServer.authToken.
//
// The startup model probe (PRB) is no process of its own: it runs inside
// the process whose [ProcessPlan].Inference is set, the one that owns model
// access.
//
// Every variable is received by the process its row names and by no
// other: a secretBinding by the gateway only (AUTH-6), never by a
// dedicated Harness; the gateway token by the gateway and, to enrol, the
// dedicated OpenClaw node host; the Harness plan by the process whose
// Inference is set. [PlanInput].SecretBindings and [ProcessPlan].Env say
// the same.
//
// Refusals of the stage: a literal credential in the document (ADM-7,
// 400, [CheckSecretLiterals]; "Secrets in a revision" below); a logging
// stamp that is not intact (LOG-2, 409);
// a projected Secret outside the tenant namespace (AUTH-2, 409, naming the
// namespace); an inference credential planned for a dedicated gateway
// (AUTH-6, 409); a secretBinding that names an invalid, reserved or
// already planned variable, one that loads code or changes trust, a model
// inference variable on a dedicated topology, or a variable the gateway's
// document does not reference, reads anything but an OCC Secret or reuses
// the Harness's Secret (400, [CheckSecretBindings]); a variable a process's
// document references that nothing binds for that process (DOC-4, 400).
//
// # Secrets in a revision
//
// A revision freezes references, never Secret bytes (ADM-7), so the render
// plan, and admission before it, refuses credential bytes in the document
// ([CheckSecretLiterals], 400 INVALID_REQUEST, rule ADM-7, at the value's
// path). ADM-7 rather than ADM-3: ADM-3 lists what a revision holds and
// says "references only" of the harnessAuth snapshot; ADM-7 is the
// general rule that freezing keeps the reference and not the bytes, which
// is what a literal credential in the document would break. The refusal
// says what to write instead and never repeats the value; admission drops
// the source line from its position (file, line and column stay).
//
// The check, the variables a document references and the shorthand
// references of its credential places all come from one walk of the
// document ([ScanSecrets]: every credential place and every reference,
// found in one pass over the text; the walk through the models maps and
// the providers' catalogs reads, as it goes, the runtime ids and selected
// models [RequiredPlugins] needs, so a plan does not read those maps
// again; the walk of the release's sensitive paths then passes over each
// large value that walk read in one step; the bytes are searched for
// ${NAME} only when they hold a '$' or an escape, or an "env" string
// that may be a SecretRef's source). Admission scans the canonical
// document it freezes once, checks it, and hands the scan to every plan
// of the revision ([PlanInput].Secrets), which reads it instead of
// walking the document again; a scan of other bytes or under another
// release's policy is ignored. Nothing is kept across documents.
//
// The places checked, for the release the revision is admitted for
// ([SecretPolicyFor]; the pinned release's as a floor for one the library
// does not carry): every path the release marks sensitive (package
// sensitive: 173 in 2026.9.6, channel tokens, gateway and hook tokens,
// MCP and provider headers and env, TLS material, …); in every
// models.providers entry and agent models map entry (the subtrees
// [StripInference] strips), every header value, every value under a key
// that names a credential value (apiKey, api_key, token, clientSecret,
// password, cert, …: its letters end with such a word, so auth: "api-key",
// authHeader, headerName, maxTokensField and tokenMode, which only mention
// one, are settings), and every URL-like string's password, token user
// info (TOKEN@host, TOKEN:@host, svc:KEY@host; the authority found as a
// URL parser finds it, after any run of slashes: https:/u:pw@host,
// //u:pw@host) and credential query or fragment parameters (key, token,
// sig, auth, code, …, names percent-decoded; api-version is no
// credential); and every env.vars entry whose name is a credential's
// (provider key variables of the release, <PROVIDER>_API_KEY of a
// configured provider, names with a KEY, TOKEN, SECRET, PASSWORD, …
// word) or that one of those places references.
//
// What such a place may hold, as OpenClaw reads a credential field
// (types.secrets.ts, ref-contract.ts): "${NAME}" or the shorthand "$NAME"
// (surrounding blanks allowed), optionally after an HTTP authorization
// scheme word ("Bearer ${TOKEN}"); a SecretRef object {source: env | file |
// exec | store, provider, id} (or the legacy form without provider);
// blank text, null or a boolean; a value OpenClaw reads as "no credential
// here" (ollama-local, secretref-managed, oauth:<provider>, …, package
// envpolicy). Anything else is a literal: text around a reference
// ("xoxb-${SUFFIX}"), the escaped "$${NAME}", a number, an object that is
// no SecretRef (refused at the first literal inside it, or at the object
// itself when only its keys carry text: {"xoxb-…": true}). Whether OpenClaw's schema accepts a SecretRef at that path
// is the schema's to say (DOC-5).
//
// Every reference must then be bound for the process that reads the
// document (DOC-4: a missing variable is an error naming it; OpenClaw
// 2026.9.6 itself loads such a configuration with a warning, "missing env
// var … feature using this value will be unavailable", and runs without
// the setting, so a channel never becomes ready and /readyz stays 503; a
// Configuration error, hence 400). The references are ${NAME} in any string value
// ($${NAME} is a literal, ${lower} no reference), an env SecretRef's id,
// and the $NAME shorthand at a credential place ([ReferencedEnv]); the
// gateway's are read from its document without gateway.auth, which the
// plan writes. A variable is bound when the plan sets it in that
// process's environment, when the document's env.vars defines it as
// OpenClaw does ([DefinedEnv]: a portable name OpenClaw lets a
// configuration set, holding a non-blank value without a reference of its
// own), when every Compute sets it (HOME, PATH), or, for a process whose
// host supplies the model credentials (AUTH-5), when it is an inference
// variable. The refusal names the variable, the path of its first
// reference and the variables the process has (names only), at most 16
// variables per process.
//
// secretBinding names ([CheckSecretBindings]) follow the references: a
// binding supplies a variable the gateway's document references, never
// another, and never one that [envpolicy.Policy.Refused] says loads code
// or changes trust (OpenClaw's own host and workspace environment
// policies and occkit's families; the package doc of envpolicy gives the
// reasoning), nor, on a dedicated topology, a model inference variable of
// the release's provider table ([envpolicy.Policy.Inference]). The rule is
// the plan's, so it is the same on every Compute: Kubernetes, SSH and a
// custom driver all map the same plan.
//
// # Credential policy
//
// The policy is structural, not a list of header names, and lives here
// once ([StripInference], [HarnessDocument]):
//
//   - a dedicated gateway keeps nothing that can authenticate to a model
//     provider: in every models.providers entry and every agent models map
//     entry, at any depth, `headers` objects and credential-like keys
//     ([CredentialKey]: names holding key, token, secret, passw,
//     passphrase, auth, credential, cookie, bearer, session, signature,
//     cert or header, any casing and punctuation; count keys such as
//     maxTokens excepted) are dropped, and so is how a process would be
//     started, where a credential rides as a plain element: command
//     lines, argument arrays and environment maps (command, cmd, args,
//     argv, env, passEnv, extraArgs, setupCommand, …) and every object
//     with a command, such as a provider's localService (the dedicated
//     gateway never starts a local model server: its Harness infers);
//     every URL keeps only scheme and host ([Origin]: user info, path,
//     query and fragment go, the scheme-less svc:KEY@host/v1 included); OpenClaw's own sensitive
//     paths under `models` go as a floor; env and env.vars lose the model
//     inference variables ([InferenceEnv]), <PROVIDER>_API_KEY of every
//     configured provider and every variable the removed settings
//     referenced as ${NAME}. The gateway keeps channels, tools and every
//     other feature setting it needs, with their credentials;
//   - the dedicated OpenClaw Harness keeps the model settings it infers
//     with and nothing of the gateway's: channels, gateway.auth,
//     gateway.remote, every OpenClaw sensitive path outside models and
//     nodeHost, and the env variables those referenced;
//   - OpenClaw's 173 sensitive paths (package sensitive, from
//     buildConfigSchemaCore in the pinned release) are a floor for both:
//     model-row headers and URL credentials are not on OpenClaw's list and
//     still go.
//
// Each document is written in one pass over the admitted one: what goes
// is left out as the walk meets it (a floor path, a credential key, a
// variable), not deleted afterwards one path at a time, which cost a copy
// of the whole document per path (10,000 providers: minutes, now a tenth
// of a second; BenchmarkRenderDocumentsScaling). The bytes are those the
// deletions wrote (TestRenderOnePassMatchesByPath keeps the old way as
// its oracle); the env variable <PROVIDER>_API_KEY is matched in any case
// (Unicode simple folding) by one lookup per variable.
//
// [CompileEndpoint]'s output is an intermediate, not a deployable
// gateway document: it still holds the provider's credentials. The plan
// passes every gateway document through [StripInference].
package compile
