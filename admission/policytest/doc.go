// Package policytest runs policy test cases against occkit, the way
// [github.com/occkit/occkit/drivers/drivertest] checks a driver: a
// control-plane team writes its own expectations ("prod agents run embedded
// OpenClaw", "no codex on SSH", ...) as JSON or JSON5 case files and runs
// them with go test through [Load] and [Run], or [Runner.Run] to admit
// with the team's own admission rules. occkit's own conformance suite is a
// set of such files, run by this package.
//
// # Case files
//
// A case file is a *.json file holding a JSON array of cases, or a
// *.json5 file holding one in JSON5 (comments, trailing commas, unquoted
// keys, single quotes: a team's .json5 templates can be cases); a file
// holding one case object is read as that one case. [Load] reads every
// case file of a directory in name order. A file it cannot read, or one
// that is not cases, does not stop the others: it becomes one [Case] that
// fails.
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
// # Inputs
//
// Each op reads the input members of the table below, and no other: a
// member it does not read fails the case, naming the nearest one it does
// ("configuraton" … did you mean configuration?), since an ignored key
// would leave the case testing something else than it says (the empty
// document resolves too). The members of admission.admit's agent, tenant
// and compute objects are checked alike. "note" is free text everywhere.
// drivers.sandbox (a manifest) and logging.startupPhase (a record with
// any extra field) take open inputs.
//
// Every op that reads a configuration can instead name a file,
// "configurationFile": "configs/prod.json5", a path relative to the case
// file's directory (not absolute; .. is allowed, the cases are the team's
// own; keep configurations out of the case directory, whose every .json
// and .json5 file [Load] reads as cases). It is loaded as compile.LoadFile loads a Configuration (JSON or
// JSON5, $include inside its directory, the default limits), and every
// refusal about it is placed in it: an expected error's "position"
// ("configs/prod.json5:7:9", the file named relative to the case file's
// directory) checks where.
//
//	op                    input members
//	ref.parse             ref, strict (default true), defaultProvider
//	ref.match             ref, rowId
//	harness.resolve       configuration, executionMode (default embedded), compute
//	                      (kubernetes | ssh | {kind}), installation {nativeWorkerSupport,
//	                      sandboxDriver {facets, provisionHarness}}, topologies [{harness, mode}]
//	roster.check          configuration, stage (save | deploy), compute, harness, executionMode
//	runtime.select        configuration, provider, model, agentId, harnesses ("codex" or
//	                      {id, autoProviders, priority, supports}), session {lockedOwner,
//	                      override, acpBackend, historicalHarnessId}, env (ignored)
//	compile.endpoint      configuration, endpoint {baseUrl, modelProvider, authHeader}
//	compile.repair        configuration
//	compile.load          text (JSON or JSON5 source), limits {maxBytes, maxDepth}
//	auth.validate         compute, harness, executionMode, binding, credentialGateway,
//	                      sandbox {facets, provisionHarness}, nativeWorkerSupport, model
//	logging.level         value (any JSON; absent = missing)
//	logging.stamp         configuration, level, runtimeLogging (platform | driver)
//	logging.guard         configuration
//	logging.render        harness, executionMode, container (gateway | harness), level
//	logging.startupPhase  container, phase, outcome, startedAtMs, nowMs, originMs, code, …
//	probe.openclaw        model, output, exit {code, signal, error}, elapsedMs, capMs, cpuWaitMs
//	probe.codex           model, events, exit, timedOut, stderr
//	probe.upfront         provider, status, headers, body
//	probe.cap             cpuMax
//	probe.retry           attempts [{code, failureClass, elapsedMs}]
//	probe.worker          code
//	drivers.sandbox       the manifest: facets, cleanup, provisionHarness, harnessHome, hooks
//	drivers.installation  nativeWorkerSupport, sandboxDriver, sandboxAvailable
//	drivers.concurrency   maxConcurrent, availableParallelism, capacity, activeSessions
//	admission.admit       agent {id, executionMode, harnessAuth, namespaceId, labels},
//	                      tenant {id, labels}, principal, configuration, compute
//	                      {kind, runtimeLogging}, sandbox, credentialGateway,
//	                      nativeWorkerSupport, level, secretBindings
//	                      [{env, source {kind, namespaceId, id}}]
//
// admission.admit admits with an Authorizer that allows everything, the
// approved versions openclaw 2026.9.6 and codex 0.171.0, and the
// [Runner]'s rules: a team's own rules (admission.Rule, or CEL rules
// compiled by the module github.com/occkit/occkit/admission/celrules) are
// tested like occkit's own, by cases expecting their refusals (with their
// rule name, path and position) or the list of them that held.
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
// models["a.b"]) or a JSON pointer ("/agents/list/0/id"). [Ops] lists the
// success fields of each op:
//
//	ref.parse             provider, id, profile, valid
//	ref.match             match
//	harness.resolve       harness, mode, primary, fallbacks
//	roster.check          accept
//	runtime.select        runtime, source (model | provider | implicit | session), cliBackend
//	compile.endpoint      configuration, paths, sourceUnchanged
//	compile.repair        configuration, paths, changes, unchanged
//	compile.load          configuration, paths
//	auth.validate         accept, snapshot, env {gateway: [names], harness: [names]}
//	logging.level         level
//	logging.stamp         configuration, paths
//	logging.guard         level
//	logging.render        env (name: value, null = absent), args (in order)
//	logging.startupPhase  record
//	probe.openclaw        code, cause, failureClass
//	probe.codex           code, cause, failureClass
//	probe.upfront         code, providerCode, bodyShape, providerErrorCode,
//	                      providerErrorType, responseHeaderMarker
//	probe.cap             capMs
//	probe.retry           runs, final, delayMs, attemptTimeoutsMs
//	probe.worker          deploymentCode, failsAtOnce
//	drivers.sandbox       valid
//	drivers.installation  capabilities
//	drivers.concurrency   maxConcurrent, workers, admitNewSession
//	admission.admit       harness, mode, primary, fallbacks, paths, digestStable,
//	                      held (the caller's rules that held, in order)
//
// # Error expectations
//
// {"error": {"status": 400, "code": "INVALID_REQUEST", "path": "agents.list",
// "rule": "RES-10", "position": "prod.json5:4:7", "mentions": [...],
// "neverMentions": [...]}} passes when the op fails and at least one of
// the occkit errors it returned matches every given member: status is the
// HTTP status, code the [occkit.Code], path the error's path (dot path,
// JSON pointer or an array of keys and indexes; null or "" is the root),
// rule its SPEC rule ID or a caller's rule name, position where it is
// placed (file:line:col, as [occkit.Position.String] writes it), mentions
// are substrings the message must hold. neverMentions are substrings
// (secrets, values) that no part of the error may hold. "error": "CODE"
// is short for {"error": {"code": "CODE"}}. A success, another code, or a
// member this package cannot check fails the case. [MatchError] is this
// matcher, for a team that runs an operation of its own.
//
// # Decisions
//
// An input the runner cannot express (an unknown built-in harness name, a
// JSON event that is not an object, ...) fails the case whatever it
// expects: it is not a refusal by the library, so no error expectation
// matches it. An op that panics fails its case with the panic's value.
package policytest
