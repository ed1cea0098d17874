// Package occkit holds what every occkit package shares: the one structured
// error type ([Error], with a closed set of [Code]s), the immutable JSON
// location ([Path]) and the immutable JSON [Document].
//
// occkit implements the deployment policy of an OpenClaw Enterprise-style
// control plane for AI agent runtimes ("Harnesses") as pure Go packages:
//
//   - compile loads, repairs and compiles native Configuration documents;
//   - resolver decides which Harness runs a Configuration and why;
//   - admission admits a deployment and freezes it into an AgentRevision;
//   - logging stamps native logging and emits startup-phase records;
//   - probe classifies model-probe outcomes and decides retries;
//   - drivers defines ComputeDriver and SandboxDriver contracts.
//
// # Errors
//
// Every refusal is an [*Error] with a stable [Code] (and so an HTTP status),
// the [Path] of the offending setting, the SPEC rule that refused, and a
// message that names settings but never values. Several problems come back
// together from [Join], sorted by path then code; [Errors] flattens any error
// back into its members. Errors compare by template with errors.Is:
//
//	if errors.Is(err, occkit.ErrInvalidRequest) { ... }
//
// A refusal that stands for another error keeps it as its cause ([Wrap],
// [Error.Unwrap]): errors.Is(err, context.Canceled) (or
// context.DeadlineExceeded) holds after an admission or a driver call
// whose context ended, whatever the collaborator answered, an
// Authorizer's own error and a missing file's fs.ErrNotExist (through
// every loader and $include) stay reachable, and none of their text enters the
// message. A plain error that reaches [Join] or [Errors] without a code is
// a server fault, [CodeInternal] (500, like apimachinery's
// field.InternalError), never a client's 400.
//
// Where a refused setting is written: an [Error] about a document that
// compile loaded from a file, an fs.FS or a reader carries its [Position]
// (file, line, column; an included file's own when the value came through
// $include). compile's loaders set it on their own refusals and attach a
// [SourceMap] to the [Document]; [Document.Place] uses it for later
// refusals (admission does so), only when something is refused. The
// message stays as it was: [Error.Error] prints no position and no
// source text, so it is safe for any audience; %+v prints
// "file:line:col: …" and [Error.Snippet] the source line with a caret,
// for the file's author. Refusals of unknown keys and values carry a
// did-you-mean from [Suggest] (edit distance), and enum-like refusals
// list the accepted values.
//
// # Wire form
//
// A service returns a refusal as it is: [Join](err) is an [*Error] or an
// [*ErrorList], and both marshal to JSON (see [Error.MarshalJSON]): code,
// HTTP status, message, rule, the document and the path (dot form and
// JSON pointer), the position and the masked snippet when known, and the
// suggestion — never the cause's text, the raw detail or a value.
// [ErrorSchema] is its JSON Schema; [DecodeError] reads it back into an
// error that errors.Is matches by code, rule and path as on the server.
// A [Warn]ing ([Severity] "warning", no code, no status) has the same
// form: something admitted that will not behave as written; it never
// blocks.
//
// Tests name an expected refusal by code, path and rule, never by its text:
// [ErrorMatcher] (like apimachinery's field.ErrorMatcher) checks that one
// error of a refusal matches, and [MatchersOf] lists a whole refusal for
// comparison.
//
// # Paths
//
// A [Path] renders as a dot path (agents.entries.main.model,
// models["openai/gpt-5"], fallbacks[0]), as an RFC 6901 JSON pointer, and as
// an escaped gjson path. All three conversions live in this package. The
// root's dot path is empty; printed with %s or %v it reads "(root)".
//
// A Path also says which document it addresses ([Doc]): the
// Configuration ([NewPath], the zero value), the Agent ([AgentPath]:
// harnessAuth.method, executionMode, id), the installation's options
// ([InstallationPath]: harnessVersions.openclaw, a driver's
// configuration), a render's options ([RenderPath]:
// kubernetes.namespace) or a stored revision record ([RevisionPath]). The
// renderings above are the same in every document; [Path.Equal], error
// templates and the wire form tell them apart, so a user interface knows
// which form holds the field to highlight. [ErrorMatcher] compares the dot
// path only, as conformance cases name it.
//
// # Documents
//
// A [Document] keeps the author's key order and every unknown key byte for
// byte: edits return a new Document. An edit of an object member is a
// splice (the document read once, the result written once, untouched runs
// copied); [Document.Apply] makes several edits in one such splice; other
// edits (through an array index) go through sjson; nothing is inside a
// scalar, so a path through one finds nothing and a set through one
// replaces it. [CanonicalApply] writes the canonical form of an edited
// document without writing the edited one first. [Canonical] gives
// the RFC 8785 (JSON Canonicalization Scheme) form used for digests: keys
// sorted by UTF-16 code units, strings with minimal escapes, numbers as
// ECMAScript writes the double they denote. So key order and number
// spelling never change a digest, and two Documents share a digest only
// when they mean the same JSON value. A Document never holds what RFC 8785
// cannot represent: [ParseDocument] refuses invalid UTF-8, lone UTF-16
// surrogates and numbers beyond the range of a double (400, DOC-1).
//
// Adopting RFC 8785 changed digests: before it, numbers were kept as
// written and keys sorted by UTF-8 bytes, so a digest computed then differs
// for a document holding a number not in its shortest ECMAScript form or
// keys that sort differently by UTF-16 code units.
//
// [Document.Get] and [Document.Root] read a [Value]: a view of the
// document's own bytes (no copy) with its JSON [Kind], conversions in the
// style of a Configuration reader ([Value.String], [Value.Int], ...), exact
// member lookup ([Value.Key], no path syntax) and [Value.ForEach]. The
// exported API names no third-party type: gjson and sjson are how a
// Document is read and edited, not part of its contract.
//
// A lookup starts at its root member, located once per Document by one
// pass over the root object. A Document made by a splice from one whose
// root members are located, or by [CanonicalDocument], is handed the
// places of its root members by the writer that put them there, so a
// path from loading to a rendered revision (loaded, stamped, canonical,
// gateway document) reads the whole document for its root members once;
// a splice from a located Document also finds the members it edits from
// their places. Places are carried only where the source names each key
// once; the index built from them is the one a fresh pass would build
// (TestCarriedRootIndexMatchesFresh).
//
// [PathAt] finds the path of an offset in compact JSON and [PathBuilder]
// builds a long Path in linear time: parsers use them to report a location
// without keeping a path for every level they read.
//
// # Vocabulary
//
// The root package is also occkit's deployment vocabulary: the words every
// other package uses to say what runs where, and the rules that are
// nothing but those words. It is a leaf, like apimachinery's field
// package: resolver, compile, admission, logging, probe and the driver
// contract in package drivers all import it, so a name means one type
// across the module.
//
// # Topologies (RES-1, RES-11)
//
// A [Topology] is a ([Harness], [Mode]) pair. [Topology.Check] holds the
// part of RES-11 that is true on every Compute (Codex never runs
// embedded); [Supported] is the RES-11 table of the bundled [Compute]
// kinds, or a custom driver's declared set; [CheckTopology] decides
// whether a Compute runs a topology. These three are the only place the
// rule is decided: the resolver, admission, the drivers, compile's
// renders and logging's render call them.
//
// # Processes
//
// [Process] names the role of one process of a deployment: the gateway or
// the Harness. An embedded topology runs one combined process.
//
// # Sandboxes and installations (RES-13, DRV-2, DRV-3)
//
// [SandboxFacts] are what resolution needs of the configured
// SandboxDriver; [SandboxFacts.Qualifies] is whether it can contain a
// dedicated OpenClaw Harness. [Installation] bundles them with the
// [NativeWorkerSupport] source.
//
// # Logging (LOG-1, LOG-3)
//
// [LogLevel] is an admitted level and [LogOwnership] who owns a runtime's
// native logging; package logging parses, stamps and renders them.
//
// # harnessAuth (AUTH-1..AUTH-7)
//
// A [Binding] selects the credential that authenticates the Harness (by
// reference: [SourceRef], never bytes); a [Projection] is the plan of
// which [EnvVar] reaches which [Process]. Package admission parses and
// validates bindings; drivers project them.
//
// # Rules
//
// Code, docs and errors cite rules by ID (DOC-2, RES-11, AUTH-6, …): each
// error carries the ID of the rule that refused. The rule book with every
// ID and its full text is internal/rules/RULES.md in this repository.
package occkit
