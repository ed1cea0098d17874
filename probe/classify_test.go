package probe

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func readTestdata(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func cause(kind CauseKind, detail string) Cause { return Cause{Kind: kind, Detail: detail} }

// PRB-2: the OpenClaw classifier over recorded `models status` outputs.
func TestClassifyOpenClaw_PRB2(t *testing.T) {
	ok := readTestdata(t, "openclaw/ok.json")
	tests := []struct {
		name string
		run  OpenClawRun
		want Outcome
	}{
		{"ok is ready", OpenClawRun{Model: "openai/gpt-4.1", Stdout: ok}, Outcome{Code: Ready}},
		{"auth status", OpenClawRun{Model: "openai/gpt-4.1", Stdout: readTestdata(t, "openclaw/auth.json")}, Outcome{Code: AuthenticationFailed}},
		{"timeout status", OpenClawRun{Model: "openai/gpt-4.1", Stdout: readTestdata(t, "openclaw/timeout.json")}, Outcome{Code: ModelProbeTimeout}},
		{"rate limit keeps its detail", OpenClawRun{Model: "openai/gpt-4.1", Stdout: readTestdata(t, "openclaw/rate-limit.json")},
			Outcome{Code: ModelProbeFailed, Cause: cause(CauseProbeStatus, "rate_limit")}},
		{"unknown status folds to other", OpenClawRun{Model: "openai/gpt-4.1", Stdout: readTestdata(t, "openclaw/mystery.json")},
			Outcome{Code: ModelProbeFailed, Cause: cause(CauseProbeStatus, "other")}},
		{"no results is the wrong shape", OpenClawRun{Model: "openai/gpt-4.1", Stdout: readTestdata(t, "openclaw/no-results.json")},
			Outcome{Code: ModelProbeFailed, Cause: cause(CauseInvalidOutput, "shape")}},
		{"another model is the wrong shape", OpenClawRun{Model: "openai/gpt-4o", Stdout: ok},
			Outcome{Code: ModelProbeFailed, Cause: cause(CauseInvalidOutput, "shape")}},
		{"another provider is the wrong shape", OpenClawRun{Provider: "openrouter", Model: "openrouter/x", Stdout: ok},
			Outcome{Code: ModelProbeFailed, Cause: cause(CauseInvalidOutput, "shape")}},
		{"not json", OpenClawRun{Model: "openai/gpt-4.1", Stdout: []byte("Error: boom")},
			Outcome{Code: ModelProbeFailed, Cause: cause(CauseInvalidOutput, "json")}},
		{"empty output is not json", OpenClawRun{Model: "openai/gpt-4.1"},
			Outcome{Code: ModelProbeFailed, Cause: cause(CauseInvalidOutput, "json")}},
		{"json of the wrong shape", OpenClawRun{Model: "openai/gpt-4.1", Stdout: []byte(`{"auth":[]}`)},
			Outcome{Code: ModelProbeFailed, Cause: cause(CauseInvalidOutput, "shape")}},
		{"exit 3 wins over a ready body", OpenClawRun{Model: "openai/gpt-4.1", Stdout: ok, Exit: Exit{Code: 3}},
			Outcome{Code: ModelProbeFailed, Cause: cause(CauseProcessExit, "exit-3")}},
		{"PRB-6 exit 1000 is off-vocabulary: the cause is dropped", OpenClawRun{Model: "openai/gpt-4.1", Stdout: ok, Exit: Exit{Code: 1000}},
			Outcome{Code: ModelProbeFailed}},
		{"PRB-6 lower-case errno is off-vocabulary: the cause is dropped", OpenClawRun{Model: "openai/gpt-4.1", Stdout: ok, Exit: Exit{Code: -1, Err: "enoent"}},
			Outcome{Code: ModelProbeFailed}},
		{"PRB-6 overlong signal name is off-vocabulary: the cause is dropped", OpenClawRun{Model: "openai/gpt-4.1", Stdout: ok, Exit: Exit{Code: -1, Signal: "SIGABCDEFGHIJK"}},
			Outcome{Code: ModelProbeFailed}},
		{"an exit reporting nothing keeps the bare kind", OpenClawRun{Model: "openai/gpt-4.1", Stdout: ok, Exit: Exit{Code: -1}},
			Outcome{Code: ModelProbeFailed, Cause: Cause{Kind: CauseProcessExit}}},
		{"signal", OpenClawRun{Model: "openai/gpt-4.1", Stdout: ok, Exit: Exit{Code: -1, Signal: "SIGSEGV"}},
			Outcome{Code: ModelProbeFailed, Cause: cause(CauseProcessExit, "signal-SIGSEGV")}},
		{"errno before status", OpenClawRun{Model: "openai/gpt-4.1", Stdout: ok, Exit: Exit{Code: 2, Err: "ENOENT"}},
			Outcome{Code: ModelProbeFailed, Cause: cause(CauseProcessExit, "error-ENOENT")}},
		{"PRB-6 off-vocabulary error drops the cause", OpenClawRun{Model: "openai/gpt-4.1", Stdout: ok, Exit: Exit{Code: -1, Err: "spawn failed"}},
			Outcome{Code: ModelProbeFailed}},
		{"model without provider is unavailable", OpenClawRun{Model: "gpt-4.1", Stdout: ok}, Outcome{Code: Unavailable}},
		{"cap with little wait times out", OpenClawRun{Model: "openai/gpt-4.1", TimedOut: true, Exit: Exit{Code: -1, Signal: "SIGKILL"},
			Elapsed: 65 * time.Second, Cap: 65 * time.Second, CPUWait: 16 * time.Second, CPUWaitKnown: true}, Outcome{Code: ModelProbeTimeout}},
		{"cap with over a quarter waiting is starved", OpenClawRun{Model: "openai/gpt-4.1", Exit: Exit{Code: -1, Err: "ETIMEDOUT"},
			Elapsed: 65 * time.Second, Cap: 65 * time.Second, CPUWait: 16300 * time.Millisecond, CPUWaitKnown: true}, Outcome{Code: CPUStarved}},
		{"elapsed at the cap counts as reaching it", OpenClawRun{Model: "openai/gpt-4.1", Exit: Exit{Code: -1, Signal: "SIGKILL"},
			Elapsed: 380 * time.Second, Cap: 380 * time.Second, CPUWait: 200 * time.Second, CPUWaitKnown: true}, Outcome{Code: CPUStarved}},
		{"unknown wait at the cap times out", OpenClawRun{Model: "openai/gpt-4.1", TimedOut: true, Elapsed: time.Minute, Cap: time.Minute},
			Outcome{Code: ModelProbeTimeout}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, ClassifyOpenClaw(tt.run)); diff != "" {
				t.Errorf("ClassifyOpenClaw (-want +got):\n%s", diff)
			}
		})
	}
}

// PRB-4, PRB-7: the Codex classifier over recorded `codex exec --json` streams.
func TestClassifyCodex_PRB4(t *testing.T) {
	stream := func(lines ...string) []byte { return []byte(strings.Join(lines, "\n") + "\n") }
	tests := []struct {
		name string
		run  CodexRun
		want Outcome
	}{
		{"recorded ready", CodexRun{Model: "openai/gpt-5", Stdout: readTestdata(t, "codex/ready.jsonl")}, Outcome{Code: Ready}},
		{"recovered reconnects", CodexRun{Model: "codex/gpt-5", Stdout: readTestdata(t, "codex/reconnect-ready.jsonl")}, Outcome{Code: Ready}},
		{"401 turn failure", CodexRun{Model: "openai/gpt-5", Stdout: readTestdata(t, "codex/unauthorized.jsonl"), Exit: Exit{Code: 1}},
			Outcome{Code: AuthenticationFailed, FailureClass: ClassCredential}},
		{"503 turn failure is a retried server error", CodexRun{Model: "openai/gpt-5", Stdout: readTestdata(t, "codex/server-error.jsonl"), Exit: Exit{Code: 1}},
			Outcome{Code: ModelProbeFailed, Cause: cause(CauseProbeStatus, "error-event"), FailureClass: ClassHTTP5xx}},
		{"usage limit is not retried", CodexRun{Model: "openai/gpt-5", Stdout: readTestdata(t, "codex/usage-limit.jsonl"), Exit: Exit{Code: 1}},
			Outcome{Code: ModelProbeFailed, Cause: cause(CauseProbeStatus, "error-event"), FailureClass: ClassLimit}},
		{"tool event", CodexRun{Model: "openai/gpt-5", Stdout: readTestdata(t, "codex/tool.jsonl")},
			Outcome{Code: ModelProbeFailed, Cause: cause(CauseProbeStatus, "tool-event"), FailureClass: ClassOther}},
		{"truncated line", CodexRun{Model: "openai/gpt-5", Stdout: readTestdata(t, "codex/truncated.jsonl"), TimedOut: true},
			Outcome{Code: ModelProbeFailed, Cause: cause(CauseInvalidOutput, "json"), FailureClass: ClassOther}},
		{"missing type", CodexRun{Model: "openai/gpt-5", Stdout: stream(`{"type":"turn.started"}`, `{"kind":1}`)},
			Outcome{Code: ModelProbeFailed, Cause: cause(CauseInvalidOutput, "shape"), FailureClass: ClassOther}},
		{"unexpected event", CodexRun{Model: "openai/gpt-5", Stdout: stream(`{"type":"turn.started"}`, `{"type":"session.configured"}`)},
			Outcome{Code: ModelProbeFailed, Cause: cause(CauseProbeStatus, "unexpected-event"), FailureClass: ClassOther}},
		{"turn failed without a status", CodexRun{Model: "openai/gpt-5", Stdout: stream(`{"type":"turn.started"}`, `{"type":"turn.failed","error":{"message":"stream disconnected before completion"}}`), Exit: Exit{Code: 1}},
			Outcome{Code: ModelProbeFailed, Cause: cause(CauseProbeStatus, "turn-failed"), FailureClass: ClassConnectionDropped}},
		{"error before the turn", CodexRun{Model: "openai/gpt-5", Stdout: stream(`{"type":"error","message":"Reconnecting... 1/5 stream disconnected before completion"}`, `{"type":"turn.started"}`)},
			Outcome{Code: ModelProbeFailed, Cause: cause(CauseProbeStatus, "error-event"), FailureClass: ClassConnectionDropped}},
		{"timeout with no events", CodexRun{Model: "codex/gpt-5", Exit: Exit{Code: -1, Signal: "SIGKILL"}, TimedOut: true},
			Outcome{Code: ModelProbeTimeout, FailureClass: ClassTimeout}},
		{"timeout mid-turn", CodexRun{Model: "codex/gpt-5", Stdout: stream(`{"type":"turn.started"}`, `{"type":"item.started","item":{"type":"reasoning"}}`), Exit: Exit{Code: -1, Err: "ETIMEDOUT"}},
			Outcome{Code: ModelProbeTimeout, FailureClass: ClassTimeout}},
		{"killed without timeout is retried", CodexRun{Model: "codex/gpt-5", Stdout: stream(`{"type":"turn.started"}`), Exit: Exit{Code: -1, Signal: "SIGTERM"}},
			Outcome{Code: ModelProbeFailed, Cause: cause(CauseProcessExit, "signal-SIGTERM"), FailureClass: ClassKilled}},
		{"network exit", CodexRun{Model: "codex/gpt-5", Stderr: []byte("Error: error sending request for url (https://api.openai.com/v1/responses)"), Exit: Exit{Code: 1}},
			Outcome{Code: ModelProbeFailed, Cause: cause(CauseProcessExit, "exit-1"), FailureClass: ClassNetwork}},
		{"tls exit is not retried", CodexRun{Model: "codex/gpt-5", Stderr: []byte("error sending request: invalid peer certificate: UnknownIssuer"), Exit: Exit{Code: 1}},
			Outcome{Code: ModelProbeFailed, Cause: cause(CauseProcessExit, "exit-1"), FailureClass: ClassTLS}},
		{"network exit naming a credential", CodexRun{Model: "codex/gpt-5", Stderr: []byte("error sending request: missing api key"), Exit: Exit{Code: 1}},
			Outcome{Code: ModelProbeFailed, Cause: cause(CauseProcessExit, "exit-1"), FailureClass: ClassCredential}},
		{"clean exit without reply", CodexRun{Model: "codex/gpt-5", Stdout: stream(`{"type":"turn.started"}`, `{"type":"item.completed","item":{"type":"agent_message","text":"  "}}`, `{"type":"turn.completed"}`)},
			Outcome{Code: ModelProbeFailed, Cause: cause(CauseProbeStatus, "no-reply"), FailureClass: ClassOther}},
		{"reply after completion", CodexRun{Model: "codex/gpt-5", Stdout: stream(`{"type":"turn.started"}`, `{"type":"turn.completed"}`, `{"type":"item.completed","item":{"type":"agent_message","text":"READY"}}`)},
			Outcome{Code: ModelProbeFailed, Cause: cause(CauseProbeStatus, "no-reply"), FailureClass: ClassOther}},
		{"crlf lines parse", CodexRun{Model: "codex/gpt-5", Stdout: []byte("{\"type\":\"turn.started\"}\r\n{\"type\":\"item.completed\",\"item\":{\"type\":\"agent_message\",\"text\":\"READY\"}}\r\n{\"type\":\"turn.completed\"}\r\n")},
			Outcome{Code: Ready}},
		{"model outside openai and codex", CodexRun{Model: "anthropic/claude", Stdout: readTestdata(t, "codex/ready.jsonl")},
			Outcome{Code: Unavailable, FailureClass: ClassOther}},
		{"bare provider prefix", CodexRun{Model: "openai/", Stdout: readTestdata(t, "codex/ready.jsonl")},
			Outcome{Code: Unavailable, FailureClass: ClassOther}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, ClassifyCodex(tt.run)); diff != "" {
				t.Errorf("ClassifyCodex (-want +got):\n%s", diff)
			}
		})
	}
}

// PRB-4: at most ten recognised reconnects inside the turn are tolerated.
func TestClassifyCodex_ReconnectBound_PRB4(t *testing.T) {
	build := func(n int) []byte {
		lines := []string{`{"type":"turn.started"}`}
		for i := 1; i <= n; i++ {
			lines = append(lines, `{"type":"error","message":"Reconnecting... `+strconv.Itoa(i)+`/10 stream disconnected before completion"}`)
		}
		lines = append(lines, `{"type":"item.completed","item":{"type":"agent_message","text":"READY"}}`, `{"type":"turn.completed"}`)
		return []byte(strings.Join(lines, "\n"))
	}
	if got := ClassifyCodex(CodexRun{Model: "openai/gpt-5", Stdout: build(10)}).Code; got != Ready {
		t.Errorf("ten reconnects: %s, want READY", got)
	}
	// An eleventh notice cannot be "n/10" with n ≤ 10, so repeat the last one.
	s := string(build(10))
	s = strings.Replace(s, `{"type":"item.completed"`, `{"type":"error","message":"Reconnecting... 10/10 stream disconnected before completion"}`+"\n"+`{"type":"item.completed"`, 1)
	if got := ClassifyCodex(CodexRun{Model: "openai/gpt-5", Stdout: []byte(s)}).Cause; got != cause(CauseProbeStatus, "error-event") {
		t.Errorf("eleven reconnects: %v, want PROBE_STATUS/error-event", got)
	}
	auth := `{"type":"turn.started"}` + "\n" + `{"type":"error","message":"Reconnecting... 1/5 stream disconnected before completion: 401 Unauthorized"}`
	if got := ClassifyCodex(CodexRun{Model: "openai/gpt-5", Stdout: []byte(auth)}).Cause; got != cause(CauseProbeStatus, "error-event") {
		t.Errorf("reconnect naming a credential: %v, want error-event", got)
	}
}

// PRB-3: the Codex login step.
func TestClassifyLogin_PRB3(t *testing.T) {
	tests := []struct {
		name   string
		exit   Exit
		stderr string
		want   Outcome
	}{
		{"clean", Exit{}, "", Outcome{Code: Ready}},
		{"rejected token", Exit{Code: 1}, "Error: unexpected status 401 Unauthorized: token sk-live-x", Outcome{Code: AuthenticationFailed, FailureClass: ClassCredential}},
		{"network", Exit{Code: 1}, "Error: error sending request for url", Outcome{Code: LoginFailed, FailureClass: ClassNetwork}},
		{"timeout", Exit{Code: -1, Signal: "SIGKILL", Err: "ETIMEDOUT"}, "", Outcome{Code: LoginFailed, FailureClass: ClassTimeout}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, ClassifyLogin(tt.exit, []byte(tt.stderr))); diff != "" {
				t.Errorf("ClassifyLogin (-want +got):\n%s", diff)
			}
		})
	}
}

// PRB-5: the closed failure class of Codex's failure text decides the retry.
// Codex's own exhausted retry budget ("exceeded retry limit, last status:
// …") is not a usage limit: the status it names decides; its overload
// notice for a 500 ("currently experiencing high demand") is a server
// error and its in-stream overload notice ("Selected model is at
// capacity") an overload, both transient.
func TestClassifyFailureText_PRB5(t *testing.T) {
	tests := []struct {
		text string
		want FailureClass
	}{
		{"exceeded retry limit, last status: 500 Internal Server Error", ClassHTTP5xx},
		{"exceeded retry limit, last status: 502 Bad Gateway, request id: req_1", ClassHTTP5xx},
		{"exceeded retry limit, last status: 503 Service Unavailable", ClassHTTP5xx},
		{"Exceeded Retry Limit, last status: 529", ClassOverloaded},
		{"exceeded retry limit, last status: 429 Too Many Requests", ClassLimit},
		{"exceeded retry limit, last status: 401 Unauthorized", ClassCredential},
		{"We're currently experiencing high demand, which may cause temporary errors.", ClassHTTP5xx},
		{"Reconnecting... 5/5 (We’re currently experiencing high demand.)", ClassHTTP5xx},
		{"Selected model is at capacity. Please try a different model.", ClassOverloaded},
		{"unexpected status 529 <unknown status code>: overloaded, url: https://h/v1/responses", ClassOverloaded},
		{"unexpected status 503 Service Unavailable: quota ssl 401, url: https://h/ssl/401/quota", ClassHTTP5xx},
		{"unexpected status 404 Not Found: network overloaded, url: https://network/v1", ClassOther},
		{"Quota exceeded. Check your plan and billing details.", ClassLimit},
		{"HTTP 401 Unauthorized", ClassCredential},
		{"status code: 503", ClassHTTP5xx},
		{"Codex ran out of room in the model's context window. Start a new thread.", ClassOther},
		{"rate limit exceeded: provider says network", ClassLimit},
		{"stream disconnected before completion: provider says ssl quota", ClassConnectionDropped},
		{"Reconnecting... waiting for network (Connection failed: error sending request)", ClassNetwork},
		{"error sending request for url (https://ssl.example/quota/v1/responses)", ClassNetwork},
		{"You exceeded your current quota, please check your plan and billing details.", ClassLimit},
		{"Rate limit exceeded", ClassLimit},
		{"5-hour limit reached, resets at 5am", ClassLimit},
		{"You have exceeded your monthly spend", ClassLimit},
		{"retry limit reached, last status: 502 Bad Gateway", ClassHTTP5xx},
		{"deadline exceeded: operation timed out", ClassNetwork},
		{"context_length_exceeded", ClassOther},
		{"You've hit your usage limit. Upgrade to Pro or try again later.", ClassLimit},
		{"unexpected status 503 Service Unavailable", ClassHTTP5xx},
		{"stream disconnected before completion: error sending request", ClassConnectionDropped},
		{"error sending request for url (https://api.openai.com/v1/responses)", ClassNetwork},
		{"Connection failed", ClassNetwork},
		{"Connection failed: tcp connect error", ClassNetwork},
		{"Connection failed: invalid peer certificate: UnknownIssuer", ClassTLS},
		{"Connection failed: 401 Unauthorized", ClassCredential},
		{"invalid peer certificate: UnknownIssuer", ClassTLS},
		{"something else entirely", ClassOther},
		{"", ClassOther},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			if got := classifyFailureText(tt.text); got != tt.want {
				t.Errorf("classifyFailureText(%q) = %s, want %s", tt.text, got, tt.want)
			}
		})
	}
}

// PRB-5: a Codex turn that failed on an exhausted 5xx or an overload is a
// retried transient failure; one that failed on an exhausted 429 is a limit.
func TestClassifyCodex_TransientFailureClass_PRB5(t *testing.T) {
	failedTurn := func(msg string) []byte {
		return []byte(strings.Join([]string{
			`{"type":"thread.started","thread_id":"t"}`, `{"type":"turn.started"}`,
			`{"type":"error","message":"` + msg + `"}`,
			`{"type":"turn.failed","error":{"message":"` + msg + `"}}`,
		}, "\n"))
	}
	tests := []struct {
		name    string
		msg     string
		want    FailureClass
		retried bool
	}{
		{"exhausted 502", "exceeded retry limit, last status: 502 Bad Gateway", ClassHTTP5xx, true},
		{"exhausted 503", "exceeded retry limit, last status: 503 Service Unavailable", ClassHTTP5xx, true},
		{"high demand", "We're currently experiencing high demand, which may cause temporary errors.", ClassHTTP5xx, true},
		{"at capacity", "Selected model is at capacity. Please try a different model.", ClassOverloaded, true},
		{"quota", "Quota exceeded. Check your plan and billing details.", ClassLimit, false},
		{"provider text", "The model does not exist or is overloaded", ClassOther, false},
		{"exhausted 429", "exceeded retry limit, last status: 429 Too Many Requests", ClassLimit, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := ClassifyCodex(CodexRun{Model: "openai/gpt-5", Stdout: failedTurn(tt.msg), Exit: Exit{Code: 1}})
			want := Outcome{Code: ModelProbeFailed, Cause: cause(CauseProbeStatus, "error-event"), FailureClass: tt.want}
			if diff := cmp.Diff(want, o); diff != "" {
				t.Errorf("ClassifyCodex (-want +got):\n%s", diff)
			}
			if got := o.FailureClass.Retried(); got != tt.retried {
				t.Errorf("Retried() = %v, want %v", got, tt.retried)
			}
		})
	}
}
