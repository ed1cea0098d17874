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
// Source positions: every refusal of a load carries an
// [occkit.Position] (file, line, column): a refusal of the text itself at
// the character where reading stopped (also as a [SyntaxPosition] cause),
// any other at the key its path names, in the file that writes it, an
// included file by its own name (relative to where the top-level file was
// named, or its fs.FS path). [LoadFile], [LoadFS] and [LoadReader] (and
// [Load] given [LoadOptions.Filename]) attach an [occkit.SourceMap] to the
// Document, holding the texts as read (the top-level file and every
// included one); later refusals are placed with it: [Validate],
// resolver.Resolve and admission do so themselves, and
// [occkit.Document.Place] does it for any other stage. Of the texts that
// write a path, the one that writes the most of it wins, and among equals
// the one whose value the merge keeps (the including object's own keys,
// then later includes); a path nobody writes is placed at the object that
// lacks it. Positions are computed only for refusals: a successful load
// pays one small allocation for the map, nothing per admission. A
// position's snippet text masks every string value written after a
// credential-like key ([CredentialKey]), or all of a line whose path
// passes through one. [Locate] maps a path in one text to its line and
// column. examples/occcheck prints positions as file:line:col.

// # Bounded work
//
// Every limit is enforced before the work it bounds (DOC-2): depth by the
// transcoder as it reads (it stops at the first container past the limit),
// each included file's size (and the running
// total of all included files) from its metadata before it is read, the
// number of included files before each is opened, and the growth of
// ${VAR} substitution as each reference is written, never after the
// output is built. Parsers keep a few words per open level and find the
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
// cycle is an error. The merged document obeys the same Limits. Without
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
// with package compile/openclawschema, compile/internal/jsonwalk), and
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
// Legacy models keys merge into canonical keys, the canonical entry winning.
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
// ([RequiredPlugins], from one per-release table), which the native
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
// Refusals of the stage: a logging stamp that is not intact (LOG-2, 409);
// a projected Secret outside the tenant namespace (AUTH-2, 409, naming the
// namespace); an inference credential planned for a dedicated gateway
// (AUTH-6, 409); a secretBinding that names an invalid, reserved or
// already planned variable, reads anything but an OCC Secret, sets a model
// inference variable on a dedicated topology or reuses the Harness's
// Secret (400, [CheckSecretBindings]).
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
//     maxTokens excepted) are dropped and every URL keeps only scheme and
//     host ([Origin]: user info, path, query and fragment go, the
//     scheme-less svc:KEY@host/v1 included); OpenClaw's own sensitive
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
// [CompileEndpoint]'s output is an intermediate, not a deployable
// gateway document: it still holds the provider's credentials. The plan
// passes every gateway document through [StripInference].
package compile
