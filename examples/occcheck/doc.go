// Command occcheck checks OpenClaw Configuration files the way a control
// plane built on occkit would admit them, for use in CI. Each file is
// loaded (DOC-1, DOC-2, DOC-4), checked against occkit's schema
// (compile.Validate), resolved (resolver.Resolve) and admitted in a dry run
// (admission.Admitter.Admit with an allow-all Authorizer) for the Compute
// and execution mode given by flags. Refusals print like go vet:
//
//	openclaw.json5:3:5: agents.defualts: unknown key ... [DOC-5]
//
// or, with -json, as one JSON object per refusal. The exit code is 0 when
// every file is clean, 1 when any is refused and 2 when occcheck could not
// run (bad flags, an admitter that cannot be built).
//
// Install with
//
//	go install github.com/occkit/occkit/examples/occcheck@latest
//
// Usage:
//
//	occcheck [-compute kubernetes|ssh] [-mode embedded|dedicated] [-binding JSON] [-json] file...
//
// The dry run needs a harness-auth binding: by default, on Kubernetes, an
// api_key projected from an OCC Secret; on SSH, the host's own runtime
// credentials. Every ${VAR} the file references is bound to a Secret of
// the same name, as a control plane's secretBindings would.
package main
