package probe

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// Captures of the real Codex CLI (codex-cli 0.171.0, run with occkit's
// probe arguments against a loopback Responses server), under
// testdata/codex/real: NAME.jsonl is its stdout and NAME.stderr its
// stderr, with what a deployment or a provider chooses replaced by
// placeholders: {{BASE}} the endpoint's base URL, {{DIR}} the probe
// directory, {{BODY}} the provider's error text as Codex repeated it.
type realCapture struct {
	name     string
	exit     Exit
	timedOut bool
	want     Outcome
}

var (
	exitFailed = Exit{Code: 1}
	exitCapped = Exit{Code: -1, Signal: "SIGKILL", Err: "ETIMEDOUT"}
)

func errorEvent(class FailureClass) Outcome {
	return Outcome{Code: ModelProbeFailed, Cause: cause(CauseProbeStatus, "error-event"), FailureClass: class}
}

var realCaptures = []realCapture{
	{"ok", Exit{}, false, Outcome{Code: Ready}},
	{"recover503", Exit{}, false, Outcome{Code: Ready}},  // one reconnect notice for a 503
	{"recover500", Exit{}, false, Outcome{Code: Ready}},  // one high-demand reconnect notice
	{"recoverdrop", Exit{}, false, Outcome{Code: Ready}}, // one dropped-stream reconnect notice
	{"s401", exitFailed, false, Outcome{Code: AuthenticationFailed, FailureClass: ClassCredential}},
	{"s500", exitFailed, false, errorEvent(ClassHTTP5xx)}, // "We’re currently experiencing high demand"
	{"s502", exitFailed, false, errorEvent(ClassHTTP5xx)},
	{"s503", exitFailed, false, errorEvent(ClassHTTP5xx)},
	{"s504", exitFailed, false, errorEvent(ClassHTTP5xx)},
	{"s529", exitFailed, false, errorEvent(ClassOverloaded)},
	{"overloadstream", exitFailed, false, errorEvent(ClassOverloaded)}, // "Selected model is at capacity"
	{"s429rate", exitFailed, false, errorEvent(ClassLimit)},
	{"s429quota", exitFailed, false, errorEvent(ClassLimit)},
	{"quotastream", exitFailed, false, errorEvent(ClassLimit)},
	{"ratestream", exitFailed, false, errorEvent(ClassLimit)},
	{"s404", exitFailed, false, errorEvent(ClassOther)},      // the provider's message alone
	{"s400", exitFailed, false, errorEvent(ClassOther)},      // the provider's raw body
	{"ctxstream", exitFailed, false, errorEvent(ClassOther)}, // context window
	{"failedstream", exitFailed, false, errorEvent(ClassConnectionDropped)},
	{"drop", exitFailed, false, errorEvent(ClassConnectionDropped)},
	{"eof", exitFailed, false, errorEvent(ClassConnectionDropped)},
	{"refused", exitCapped, true, Outcome{Code: ModelProbeTimeout, FailureClass: ClassNetwork}},
	{"untrusted", exitCapped, true, Outcome{Code: ModelProbeTimeout, FailureClass: ClassNetwork}},
}

type captureText struct{ stdout, stderr string }

func loadRealCaptures(t testing.TB) map[string]captureText {
	t.Helper()
	out := map[string]captureText{}
	for _, c := range realCaptures {
		stdout, err := os.ReadFile(filepath.Join("testdata", "codex", "real", c.name+".jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		stderr, err := os.ReadFile(filepath.Join("testdata", "codex", "real", c.name+".stderr"))
		if err != nil {
			t.Fatal(err)
		}
		out[c.name] = captureText{string(stdout), string(stderr)}
	}
	return out
}

// fill replaces the placeholders; stdout is JSONL, so its values are
// JSON-escaped as Codex escapes them.
func (c captureText) fill(base, dir, body string) (stdout, stderr []byte) {
	esc := func(s string) string {
		b, _ := json.Marshal(s)
		return string(b[1 : len(b)-1])
	}
	out := strings.NewReplacer("{{BASE}}", esc(base), "{{DIR}}", esc(dir), "{{BODY}}", esc(body)).Replace(c.stdout)
	errs := strings.NewReplacer("{{BASE}}", base, "{{DIR}}", dir, "{{BODY}}", body).Replace(c.stderr)
	return []byte(out), []byte(errs)
}

// PRB-4, PRB-5: the real captures classify as PRB says.
func TestClassifyCodex_RealCaptures_PRB4_PRB5(t *testing.T) {
	texts := loadRealCaptures(t)
	for _, c := range realCaptures {
		t.Run(c.name, func(t *testing.T) {
			stdout, stderr := texts[c.name].fill("https://llm.example.com/v1", "/var/lib/probe/codex-auth-probe-1", "The provider said no.")
			got := ClassifyCodex(CodexRun{Model: "openai/gpt-5", Stdout: stdout, Stderr: stderr, Exit: c.exit, TimedOut: c.timedOut})
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("ClassifyCodex (-want +got):\n%s", diff)
			}
		})
	}
}

// deploymentWords are words a base URL, a directory or a provider body may
// hold that a text classifier would read as a verdict.
var deploymentWords = []string{
	"ssl", "tls", "certificate", "x509", "handshake", "network", "dns", "lookup", "unreachable",
	"quota", "rate-limit", "rate limit", "usage limit", "too many requests", "insufficient_quota",
	"overloaded", "overload", "high demand", "capacity", "401", "403", "429", "500", "502", "503",
	"529", "unauthorized", "forbidden", "auth", "api key", "credential", "access token",
	"stream disconnected", "connection refused", "connection reset", "timed out", "dropped",
	"server error", "bad gateway", "Reconnecting... 1/5", "unexpected status 401 Unauthorized",
	"status 503", "Selected model is at capacity", "Quota exceeded", "error sending request",
}

// deploymentString draws a string of deployment words and random runes
// joined by sep-like characters.
func deploymentString(t *rapid.T, label string, seps string, maxWords int) string {
	n := rapid.IntRange(1, maxWords).Draw(t, label+"Words")
	var b strings.Builder
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(seps[rapid.IntRange(0, len(seps)-1).Draw(t, label+"Sep")])
		}
		if rapid.Bool().Draw(t, label+"Known") {
			b.WriteString(rapid.SampledFrom(deploymentWords).Draw(t, label+"Word"))
		} else {
			b.WriteString(rapid.StringMatching(`[A-Za-z0-9._~-]{1,12}`).Draw(t, label+"Random"))
		}
	}
	return b.String()
}

// PRB-5: the verdict for a real capture does not change when the base URL,
// the probe directory or the provider's body are replaced by any strings,
// however much they look like a failure class.
func TestClassifyCodex_DeploymentInvariant_PRB5(t *testing.T) {
	texts := loadRealCaptures(t)
	rapid.Check(t, func(t *rapid.T) {
		c := rapid.SampledFrom(realCaptures).Draw(t, "capture")
		host := strings.ReplaceAll(deploymentString(t, "host", "-.", 3), " ", "-")
		base := "https://" + host
		if rapid.Bool().Draw(t, "port") {
			base += ":" + rapid.SampledFrom([]string{"401", "403", "429", "443", "503", "529", "8443"}).Draw(t, "portNumber")
		}
		base += "/" + strings.ReplaceAll(deploymentString(t, "path", "/-_", 5), " ", "_")
		dir := "/" + strings.ReplaceAll(deploymentString(t, "dir", "/-_.", 6), " ", "-")
		body := deploymentString(t, "body", " :,;()\"'\n/-", 12)
		if parseFrame(body).kind != frameNone {
			// A provider message that begins with one of Codex's own frames
			// (a 404 body reading "stream disconnected …") is, where Codex
			// prints a provider's message alone, indistinguishable from
			// Codex: the property covers bodies that do not impersonate it.
			body = "provider " + body
		}
		stdout, stderr := texts[c.name].fill(base, dir, body)
		got := ClassifyCodex(CodexRun{Model: "openai/gpt-5", Stdout: stdout, Stderr: stderr, Exit: c.exit, TimedOut: c.timedOut})
		if got != c.want {
			t.Fatalf("%s with base %q, dir %q, body %q: got %+v, want %+v", c.name, base, dir, body, got, c.want)
		}
	})
}
