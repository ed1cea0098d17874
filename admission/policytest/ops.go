package policytest

import (
	"fmt"
	"slices"

	"github.com/tidwall/gjson"

	"github.com/occkit/occkit"
)

// opTable lists every op of FORMAT.md. Each area's handlers live in their
// own op_*.go file.
func opTable() map[string]opFunc {
	return map[string]opFunc{
		"ref.parse":            opRefParse,
		"ref.match":            opRefMatch,
		"compile.load":         opCompileLoad,
		"compile.endpoint":     opCompileEndpoint,
		"compile.repair":       opCompileRepair,
		"harness.resolve":      opHarnessResolve,
		"roster.check":         opRosterCheck,
		"runtime.select":       opRuntimeSelect,
		"auth.validate":        opAuthValidate,
		"logging.level":        opLoggingLevel,
		"logging.stamp":        opLoggingStamp,
		"logging.guard":        opLoggingCheckStamp,
		"logging.render":       opLoggingRender,
		"logging.startupPhase": opLoggingStartupPhase,
		"probe.openclaw":       opProbeOpenClaw,
		"probe.codex":          opProbeCodex,
		"probe.upfront":        opProbeUpfront,
		"probe.cap":            opProbeCap,
		"probe.retry":          opProbeRetry,
		"probe.worker":         opProbeWorker,
		"drivers.sandbox":      opDriversSandbox,
		"drivers.installation": opDriversInstallation,
		"drivers.concurrency":  opDriversConcurrency,
		"admission.admit":      opAdmissionAdmit,
	}
}

// expectKeys lists, per op, the success fields of FORMAT.md (and the few
// more the ops report). Any other key of a success expectation fails the
// case, even as null: "absent" would hold trivially for a misspelt key.
var expectKeys = map[string][]string{
	"ref.parse":            {"provider", "id", "profile", "valid"},
	"ref.match":            {"match"},
	"harness.resolve":      {"harness", "mode", "primary", "fallbacks"},
	"roster.check":         {"accept"},
	"runtime.select":       {"runtime", "source", "cliBackend"},
	"compile.endpoint":     {"configuration", "paths", "sourceUnchanged"},
	"compile.repair":       {"configuration", "paths", "changes", "unchanged"},
	"compile.load":         {"configuration", "paths"},
	"auth.validate":        {"accept", "snapshot", "env"},
	"logging.level":        {"level"},
	"logging.stamp":        {"configuration", "paths"},
	"logging.guard":        {"level"},
	"logging.render":       {"env", "args"},
	"logging.startupPhase": {"record"},
	"probe.openclaw":       {"code", "cause", "failureClass"},
	"probe.codex":          {"code", "cause", "failureClass"},
	"probe.upfront":        {"code", "providerCode", "bodyShape", "providerErrorCode", "providerErrorType", "responseHeaderMarker"},
	"probe.cap":            {"capMs"},
	"probe.retry":          {"runs", "final", "delayMs", "attemptTimeoutsMs"},
	"probe.worker":         {"deploymentCode", "failsAtOnce"},
	"drivers.sandbox":      {"valid"},
	"drivers.installation": {"capabilities"},
	"drivers.concurrency":  {"maxConcurrent", "workers", "admitNewSession"},
	"admission.admit":      {"harness", "mode", "primary", "fallbacks", "paths", "digestStable", "held"},
}

// inputDocument turns the case's "configuration" value, or the file its
// configurationFile names, into a Document.
func inputDocument(in input, key string) (occkit.Document, error) {
	if in.doc != nil && key == "configuration" {
		return *in.doc, nil
	}
	v := in.Get(key)
	if !v.Exists() {
		return occkit.Document{}, nil
	}
	return occkit.ParseDocument([]byte(v.Raw))
}

// optString is an optional string result (a profile, a CLI backend, a
// primary model, ...): the library's "" is its absence, so null and ""
// both expect none, and any other expectation must equal it exactly.
func optString(got string) checkFunc {
	return func(want gjson.Result) string {
		switch {
		case want.Type == gjson.Null || want.Type == gjson.String && want.Str == "":
			if got != "" {
				return fmt.Sprintf("want absent, got %q", got)
			}
		case want.Type != gjson.String:
			return fmt.Sprintf("want %s, expected a string or null", want.Raw)
		case want.Str != got:
			if got == "" {
				return fmt.Sprintf("want %s, absent", want.Raw)
			}
			return fmt.Sprintf("want %s, got %q", want.Raw, got)
		}
		return ""
	}
}

// Ops returns every op this package runs, each with the success fields an
// expectation of it may name.
func Ops() map[string][]string {
	out := make(map[string][]string, len(expectKeys))
	for op, keys := range expectKeys {
		out[op] = slices.Clone(keys)
	}
	return out
}
