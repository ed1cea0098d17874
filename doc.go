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
// [Error.Unwrap]): errors.Is(err, context.Canceled) holds after a
// cancelled admission, an Authorizer's own error and a missing file's
// fs.ErrNotExist stay reachable, and none of their text enters the
// message. A plain error that reaches [Join] or [Errors] without a code is
// a server fault, [CodeInternal] (500, like apimachinery's
// field.InternalError), never a client's 400.
//
// # Paths
//
// A [Path] renders as a dot path (agents.entries.main.model,
// models["openai/gpt-5"], fallbacks[0]), as an RFC 6901 JSON pointer, and as
// an escaped gjson path. All three conversions live in this package. The
// root's dot path is empty; printed with %s or %v it reads "(root)".
//
// # Documents
//
// A [Document] keeps the author's key order and every unknown key byte for
// byte: edits go through sjson and return a new Document. [Canonical] gives
// the key-sorted form used for digests, so key order never changes a digest.
//
// # Rules
//
// Code, docs and errors cite rules by ID (DOC-2, RES-11, AUTH-6, …): each
// error carries the ID of the rule that refused. The rule book with every
// ID and its full text is internal/rules/RULES.md in this repository.
package occkit
