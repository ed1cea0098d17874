// Command occcheck checks OpenClaw Configuration files the way a control
// plane built on occkit would admit them, for use in CI. Each file is
// loaded (DOC-1, DOC-2, DOC-4), checked against occkit's schema
// (compile.Validate), resolved (resolver.Resolve) and admitted in a dry run
// (admission.Admitter.Admit with an allow-all Authorizer) for the Compute
// and execution mode given by flags. Refusals print like go vet, one line
// each, file:line:col: message [RULE]:
//
//	openclaw.json5:4:5: agents.defualts: OpenClaw 2026.9.6 does not accept the key "defualts" here; did you mean agents.defaults? [DOC-5]
//
// or, with -json, as one JSON object per refusal (file, line, column,
// path, rule, code, stage, message). The position is where the refused
// setting is written: an included file's own name and line when the
// value came through $include, the object that lacks a required key,
// and the exact character of a syntax error; a refusal about the Agent
// or the Compute rather than the file (its harness-auth binding) names
// the file alone. With -snippet each refusal is followed by its source
// line and a caret under the column (occkit.Error.Snippet), and -json adds
// it as "snippet". The line is masked as the render plan's credential
// policy strips (compile's package doc, "Positions"): what a credential
// could be, in any encoding, prints as ***. The exit code is 0 when
// every file is clean, 1 when any is refused and 2 when occcheck could not
// run (bad flags, an admitter that cannot be built).
//
// # Output
//
// Output is bounded by the number of files, not by what they hold: at
// most -max refusals a file are printed (DefaultMax, 20; -max 0 prints
// all), then one line "file: and N more refusals (-max 20)" (with -json,
// an entry whose "omitted" is N). Each entry is at most 8 KiB: the file
// name, the path and the message are cut at 256 characters, the snippet
// at two lines of 100, and -json escapes no more than JSON requires. So
// a file prints at most 21 × 8 KiB = 168 KiB in any form, at most twice
// its size for any file of 84 KiB or more, and in practice about 4 KiB
// (11 KiB with -json -snippet) however large it is: a 69 KB catalog of
// refused rows on one line once printed 190 KB (520 KB with -json
// -snippet).
//
// # The team's own rules
//
// -rules FILE admits with a platform team's own rules as well, a rule file
// of CEL expressions (github.com/occkit/occkit/admission/celrules): their
// refusals print beside occkit's, with the rule's own name
//
//	coder.json5:5:7: agents.defaults.model: Codex does not run in production namespaces [company/no-codex-in-prod]
//
// (stage "rules" with -json). The rules read the Agent and its tenant,
// which the dry run takes from -namespace (the Agent's tenant namespace,
// also that of the default binding and of the ${VAR} Secrets; default
// ns_ci), -label key=value (the Agent's labels), -tenant ID and
// -tenant-label key=value (both repeatable). A rule file that does not
// compile stops occcheck (exit 2), each problem printed where it is
// written in the rule file. examples/companyrules holds such a rule set
// and its cases.
//
// Install with
//
//	go install github.com/occkit/occkit/examples/occcheck@latest
//
// Usage:
//
//	occcheck [-compute kubernetes|ssh] [-mode embedded|dedicated] [-binding JSON] [-json] [-snippet] [-max N]
//	         [-rules FILE] [-namespace NS] [-label k=v] [-tenant ID] [-tenant-label k=v] file...
//
// The dry run needs a harness-auth binding: by default, on Kubernetes, an
// api_key projected from an OCC Secret; on SSH, the host's own runtime
// credentials. Every variable the gateway's document references (${VAR},
// an env SecretRef, the $VAR shorthand) is bound to a Secret of the same
// name, as a control plane's secretBindings would; a literal credential
// is refused (ADM-7), and so is a reference the gateway's bindings cannot
// reach, such as one the dedicated Harness's document makes (DOC-4).
package main
