package probe

import (
	"net/http"
	"testing"
	"time"
)

// FuzzClassifyCodex: any stream, exit and timeout classifies inside the
// closed sets, and READY only when the READY conditions hold (PRB-4).
func FuzzClassifyCodex(f *testing.F) {
	for _, name := range []string{"ready", "reconnect-ready", "unauthorized", "server-error", "usage-limit", "tool", "truncated"} {
		f.Add(readTestdata(f, "codex/"+name+".jsonl"), 0, false, []byte(""))
	}
	f.Add([]byte(`{"type":"turn.started"}`), -1, true, []byte("error sending request"))
	f.Fuzz(func(t *testing.T, stdout []byte, code int, timedOut bool, stderr []byte) {
		r := CodexRun{Model: "openai/gpt-5", Stdout: stdout, Stderr: stderr, Exit: Exit{Code: code}, TimedOut: timedOut}
		o := ClassifyCodex(r)
		checkOutcome(t, o)
		if o.Code == Ready && !codexReadyHolds(r) {
			t.Fatalf("READY without its conditions: %q", stdout)
		}
	})
}

// FuzzClassifyLogin: any stderr classifies inside the closed sets; a
// failure line that frames a 401 or 403 is a rejected credential, and
// nothing else is (PRB-3, PRB-5).
func FuzzClassifyLogin(f *testing.F) {
	for _, s := range []string{
		"Error: unexpected status 401 Unauthorized: key sk-x, url: https://h:403/v1",
		"WARNING: proceeding (codex_home: AbsolutePathBuf(\"/srv/401/ssl/.codex\"))\nError: error sending request for url (https://ssl.example/v1)",
		"Error: Reconnecting... 1/5 (We’re currently experiencing high demand.)",
		"2026-01-01T00:00:00Z ERROR codex_core: 401 forbidden",
	} {
		f.Add([]byte(s), 1)
	}
	f.Fuzz(func(t *testing.T, stderr []byte, code int) {
		o := ClassifyLogin(Exit{Code: code}, stderr)
		checkOutcome(t, o)
		if !o.FailureClass.Valid() && o.Code != Ready {
			t.Fatalf("class %q outside the closed set", o.FailureClass)
		}
		if o.Code == AuthenticationFailed && !stderrRejected(stderr) {
			t.Fatalf("AUTHENTICATION_FAILED without a framed 401/403: %q", stderr)
		}
	})
}

// FuzzClassifyOpenClaw: any status output and exit classifies inside the
// closed sets, and READY only when the READY conditions hold (PRB-2).
func FuzzClassifyOpenClaw(f *testing.F) {
	for _, name := range []string{"ok", "auth", "rate-limit", "timeout", "mystery", "no-results"} {
		f.Add(readTestdata(f, "openclaw/"+name+".json"), 0, int64(4000))
	}
	f.Add([]byte(`{"auth":{"probes":{"results":[{}]}}}`), 1, int64(65000))
	f.Fuzz(func(t *testing.T, stdout []byte, code int, elapsedMs int64) {
		r := OpenClawRun{Model: "openai/gpt-4.1", Stdout: stdout, Exit: Exit{Code: code},
			Elapsed: time.Duration(elapsedMs) * time.Millisecond, Cap: 65 * time.Second, CPUWaitKnown: true}
		o := ClassifyOpenClaw(r)
		checkOutcome(t, o)
		if o.Code == Ready && !openClawReadyHolds(r) {
			t.Fatalf("READY without its conditions: %q", stdout)
		}
	})
}

// FuzzClassifyUpfront: any 401 body stays inside the closed sets (PRB-3).
func FuzzClassifyUpfront(f *testing.F) {
	f.Add([]byte(`{"error":{"code":"invalid_api_key","type":"invalid_request_error"}}`))
	f.Add([]byte(`<html>`))
	f.Fuzz(func(t *testing.T, body []byte) {
		r := ClassifyUpfront(ProviderOpenAI, 401, http.Header{}, body)
		in := func(v string, set []string) bool {
			for _, s := range set {
				if v == s {
					return true
				}
			}
			return v == ""
		}
		shapes := []string{}
		for _, s := range AllBodyShapes() {
			shapes = append(shapes, string(s))
		}
		if r.Code != AuthenticationFailed || !in(string(r.BodyShape), shapes) || r.BodyShape == "" ||
			!in(r.ProviderErrorCode, ProviderErrorCodes()) || !in(r.ProviderErrorType, ProviderErrorTypes()) {
			t.Fatalf("off the closed sets: %+v", r)
		}
	})
}

// FuzzCap: any cpu.max text gives a cap in [65 s, 600 s] (PRB-2).
func FuzzCap(f *testing.F) {
	for _, s := range []string{"max 100000", "50000 100000", "12500 100000", "", "0x10 1e3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, cpuMax string) {
		if c := Cap(cpuMax); c < 65*time.Second || c > 600*time.Second {
			t.Fatalf("Cap(%q) = %v", cpuMax, c)
		}
	})
}
