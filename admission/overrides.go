package admission

import (
	"fmt"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/compile"
)

// renderOverrides warns about the settings of doc (the Configuration as
// read, before the logging stamp) that the admitted revision will not run
// as written, each with the value that replaces it (see the package doc,
// "Warnings"): the gateway section the render plan owns (port, bind, mode,
// auth; CMP-4) and, when the platform owns logging, what the stamp
// rewrites (LOG-1). A setting the render would write the same way is no
// warning.
func renderOverrides(doc occkit.Document, compute occkit.Compute, owner occkit.LogOwnership, level occkit.LogLevel) []*occkit.Error {
	var out []*occkit.Error
	warn := func(rule string, at occkit.Path, format string, args ...any) {
		out = append(out, occkit.Warn(rule, at, format, args...))
	}
	gw := pathGateway
	if g := doc.Get(gw); g.IsObject() {
		if g.Key("port").Exists() {
			warn("CMP-4", gw.Key("port"), "the render runs the gateway with --port %s: gateway.port is not used", renderedPort(compute))
		}
		bind := renderedBind(compute)
		if b := g.Key("bind"); b.Exists() && !(b.IsString() && b.String() == bind) {
			warn("CMP-4", gw.Key("bind"), "the render sets gateway.bind to %q on this Compute", bind)
		}
		if m := g.Key("mode"); m.Exists() && !(m.IsString() && m.String() == "local") {
			warn("CMP-4", gw.Key("mode"), `the render sets gateway.mode to "local"`)
		}
		if g.Key("auth").Exists() {
			warn("CMP-4", gw.Key("auth"), "the render replaces gateway.auth with token auth whose token the control plane owns (${%s})", compile.EnvGatewayToken)
		}
	}
	if owner != occkit.OwnedByPlatform {
		return out
	}
	lp := pathLogging
	switch l := doc.Get(lp); {
	case l.Exists() && !l.IsObject():
		warn("LOG-1", lp, "the platform stamp replaces logging with an object at level %q, JSON console style", level)
	case l.IsObject():
		for _, k := range []string{"level", "consoleLevel"} {
			if v := l.Key(k); v.Exists() && !(v.IsString() && v.String() == string(level)) {
				warn("LOG-1", lp.Key(k), "the platform stamp sets logging.%s to %q, the admitted level", k, level)
			}
		}
		if v := l.Key("consoleStyle"); v.Exists() && !(v.IsString() && v.String() == "json") {
			warn("LOG-1", lp.Key("consoleStyle"), `the platform stamp sets logging.consoleStyle to "json"`)
		}
		if l.Key("redactSensitive").Exists() {
			warn("LOG-1", lp.Key("redactSensitive"), "the platform stamp removes logging.redactSensitive: redaction stays on (LOG-5)")
		}
	}
	op := pathOtelLogs
	if v := doc.Get(op); v.Exists() && !(v.IsBool() && !v.Bool()) {
		warn("LOG-1", op, "the platform stamp sets diagnostics.otel.logs to false: OTLP log export stays off")
	}
	return out
}

// The settings renderOverrides reads, whose paths every admission asks
// for and only a warning extends.
var (
	pathGateway  = occkit.NewPath("gateway")
	pathLogging  = occkit.NewPath("logging")
	pathOtelLogs = occkit.NewPath("diagnostics", "otel", "logs")
)

// renderedPort is the gateway port the render passes on compute.
func renderedPort(c occkit.Compute) string {
	switch c {
	case occkit.ComputeKubernetes:
		return fmt.Sprint(compile.DefaultGatewayPort)
	case occkit.ComputeSSH:
		return "(a port from the SSH driver's port range)"
	}
	return fmt.Sprintf("(the Compute's; %d unless it chooses another)", compile.DefaultGatewayPort)
}

// renderedBind is the gateway.bind the render writes on compute
// ([compile.PlanOptions].Bind): lan on Kubernetes, where the Service
// reaches the pod, loopback elsewhere.
func renderedBind(c occkit.Compute) string {
	if c == occkit.ComputeKubernetes {
		return compile.BindLAN
	}
	return compile.BindLoopback
}
