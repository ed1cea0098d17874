package conformance

import (
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
