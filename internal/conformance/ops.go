package conformance

import (
	"fmt"

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
		"logging.guard":        opLoggingGuard,
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

// inputDocument turns the case's "configuration" value into a Document.
func inputDocument(in gjson.Result, key string) (occkit.Document, error) {
	v := in.Get(key)
	if !v.Exists() {
		return occkit.Document{}, nil
	}
	return occkit.ParseDocument([]byte(v.Raw))
}

// optString is an optional string result (a profile, a CLI backend, a
// primary model, ...): the library's "" is its absence, so null and ""
// both expect none, and any other expectation must equal it exactly.
func optString(got string) Check {
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
