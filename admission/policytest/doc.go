// Package policytest runs policy test cases against occkit, the way
// [github.com/occkit/occkit/drivers/drivertest] checks a driver: a
// control-plane team writes its own expectations ("prod agents run embedded
// OpenClaw", "no codex on SSH", ...) as JSON case files and runs them with
// go test through [Load] and [Run]. occkit's own conformance suite is a set
// of such files, run by this package.
//
// # Case files
//
// A case file is a *.json file holding a JSON array of cases; a file holding
// one case object is read as that one case. [Load] reads every case file of
// a directory in name order. A file it cannot read, or one that is not JSON
// cases, does not stop the others: it becomes one [Case] that fails.
//
// A case file is input like a document and is held to a document's
// limits, with room for the case around the document it carries: at most
// [MaxFileBytes] (four times compile.DefaultMaxBytes, so that a case can
// carry a document at that limit as a string) and [MaxFileDepth] levels
// (10,000, compile.HardMaxDepth). Both are checked before the
// file is parsed, by a scan that keeps a counter, not a stack; a file past
// them is one failing case. So no case file, however nested, can overflow
// the stack of the readers and walkers that follow, or cost more than a
// small multiple of its size.
//
// A case is an object:
//
//		{"op": "harness.resolve", "name": "…", "rule": "RES-7",
//		 "input": {…}, "expect": {…}}
//
//	  - op names one library operation (the table below); an op this package
//	    does not know fails the case.
//	  - name labels the case in reports ("case N" when missing); rule is the
//	    SPEC rule the case exercises; note is free text and is not read.
//	  - input is the op's argument object (missing means {}).
//	  - expect is either the op's success shape or {"error": …}.
//
// # Success expectations
//
// Only the fields named in expect are checked, and each must be one the op
// reports (a misspelt field fails instead of holding trivially). A field
// given as null must be absent or null in the result. Values are compared
// as JSON: key order does not matter and numbers compare by the double they
// denote (1, 1.0 and 1e0 are equal). The field paths maps paths inside the
// op's resulting document to expected values (null = absent); a path is a
// dot path as [occkit.Path.String] writes it ("agents.list[0].id",
// models["a.b"]) or a JSON pointer ("/agents/list/0/id").
//
// # Error expectations
//
// {"error": {"status": 400, "code": "INVALID_REQUEST", "path": "agents.list",
// "rule": "RES-10", "mentions": [...], "neverMentions": [...]}} passes when
// the op fails and at least one of the occkit errors it returned matches
// every given member: status is the HTTP status, code the [occkit.Code],
// path the error's path (dot path, JSON pointer or an array of keys and
// indexes; null or "" is the root), rule its SPEC rule ID, mentions are
// substrings the message must hold. neverMentions are substrings (secrets,
// values) that no part of the error may hold. "error": "CODE" is short for
// {"error": {"code": "CODE"}}. A success, another code, or a member this
// package cannot check fails the case.
//
// # Operations
//
// Each op maps the input onto one call of occkit's public API:
// ref.parse, ref.match, harness.resolve, roster.check, runtime.select
// (resolver); compile.load, compile.endpoint, compile.repair (compile);
// auth.validate, admission.admit (admission); logging.level, logging.stamp,
// logging.guard, logging.render, logging.startupPhase (logging);
// probe.openclaw, probe.codex, probe.upfront, probe.cap, probe.retry,
// probe.worker (probe); drivers.sandbox, drivers.installation,
// drivers.concurrency (drivers). The inputs and success fields of each op
// are those of occkit's conformance format (shared/conformance/FORMAT.md
// in the project); [Ops] lists the ops and the success fields each reports.
//
// # Decisions
//
// An input the runner cannot express (an unknown built-in harness name, a
// JSON event that is not an object, ...) fails the case whatever it
// expects: it is not a refusal by the library, so no error expectation
// matches it. An op that panics fails its case with the panic's value.
package policytest
