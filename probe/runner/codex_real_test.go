package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/occkit/occkit/internal/tiers"

	"github.com/occkit/occkit/probe"
)

// The real-Codex tier: probe.Codex runs the pinned Codex CLI
// (OCCKIT_CODEX, fetched by .ci/codex.sh and recorded by .ci/setup) end to
// end with occkit's own arguments and environment (CodexArgs with a
// CodexEndpoint, the minimal probe environment, a fresh probe directory)
// against loopback HTTPS Responses servers (codex_server_test.go), one per
// scripted behaviour. Each behaviour's final outcome, failure class, cause,
// retry decision and records are checked against PRB-3..PRB-6, and nothing
// Codex printed (provider bodies, the echoed key, the base URL, the probe
// directory) may reach a record, a log line, an outcome or an error.
//
// Run time. Codex retries by itself before it reports a failure: a 5xx
// about 30 requests over 25 s, a 401/403/429 or a dropped stream 6
// requests over about 10 s, and an unreachable endpoint never (it waits
// for the network until killed). Its start-up alone takes 2 s on an idle
// machine and over 20 s when a dozen start together on two loaded cores.
// So the behaviours run concurrently (at most realCodexParallel Codex
// processes at once, longest first), and each gets the retry policy under
// which its PRB outcome does not depend on the machine's load:
//   - behaviours Codex ends on its own (replies, rejections, limits,
//     dropped streams, persistent 5xx) get 120 s attempts in a 245 s
//     budget: the outcome is Codex's, never the cap's. Under the SPEC's
//     30 s cap a persistent 5xx (start-up plus 25 s of Codex's retries)
//     would end as MODEL_PROBE_TIMEOUT on a loaded machine — also retried,
//     but hiding the class Codex reports;
//   - unreachable endpoints get 40 s attempts: Codex's first "waiting for
//     network" notice comes about 3 s into the turn, and the class of the
//     capped attempt (network) needs it;
//   - one hang runs under the SPEC policy (30 s attempts, 61 s budget), the
//     other hangs under 20 s attempts in a 42 s budget: a capped attempt's
//     outcome does not depend on the cap.
//
// Every policy leaves the second attempt a full cap (budget > two caps plus
// the delay). On a machine starved of CPU even these caps can stop Codex
// before it reports a retried failure (a 5xx, an overload, a dropped
// stream, the network): such an attempt is then a capped one
// (MODEL_PROBE_TIMEOUT/timeout, retried just the same by PRB-5). Its
// behaviour runs again, alone (up to realCodexReruns rounds); a capped
// attempt left after that is accepted in place of Codex's verdict — but
// not for most such attempts of the tier, which would leave Codex's own
// verdicts unobserved.
//
// The tier takes two to three and a half minutes on two cores (measured
// under -race: 1m58s, and 3m21s with the machine at a load average of 30);
// the slowest behaviours are the unreachable endpoints (two capped
// attempts) and the persistent 5xx (two Codex runs of 30–40 s each).
const realCodexParallel = 8

// realCodexReruns bounds the rounds in which behaviours that a starved
// machine capped before Codex's verdict run again, one at a time.
const realCodexReruns = 2

// realCodexStagger spaces the starts of the first wave, so Codex start-ups
// do not all compete for the CPU at once.
const realCodexStagger = 500 * time.Millisecond

// realCodexKey is the credential the probe passes; servers echo it in a
// 401 body, so Codex's stdout repeats it.
const realCodexKey = "sk-live-PLANTED-codex-0123456789"

// Policies of the tier (see the comment above).
var (
	specPolicy  = probe.RetryPolicy{}
	roomyPolicy = probe.RetryPolicy{AttemptCap: 120 * time.Second, Budget: 245 * time.Second}
	waitPolicy  = probe.RetryPolicy{AttemptCap: 40 * time.Second, Budget: 82 * time.Second}
	hangPolicy  = probe.RetryPolicy{AttemptCap: 20 * time.Second, Budget: 42 * time.Second}
)

// realCodexBinary returns the Codex binary of the tier, skipping the tier
// when it is not set up unless OCCKIT_REQUIRE_INTEGRATION=1.
func realCodexBinary(t *testing.T) string {
	t.Helper()
	bin := os.Getenv("OCCKIT_CODEX")
	if bin == "" {
		tiers.Codex.Skip(t, "OCCKIT_CODEX is not set (run .ci/setup: it records the binary .ci/codex.sh fetches)")
	}
	if testing.Short() && !tiers.Required() {
		tiers.Codex.Skip(t, "-short (the real Codex tier takes minutes)")
	}
	if fi, err := os.Stat(bin); err != nil || fi.Mode()&0o111 == 0 {
		t.Fatalf("OCCKIT_CODEX=%s is not an executable: %v", bin, err)
	}
	return bin
}

// attemptWant is what one attempt's record must say.
type attemptWant struct {
	code  probe.Code
	cause probe.Cause
	class probe.FailureClass
}

func (a attemptWant) outcome() probe.Outcome {
	return probe.Outcome{Code: a.code, Cause: a.cause, FailureClass: a.class}
}

// realBehaviour is one scripted endpoint behaviour and the PRB verdict.
type realBehaviour struct {
	name string
	// script answers the endpoint's requests; nil with base set.
	script script
	// base, when set, returns the endpoint's base URL instead of a
	// scripted server's (unreachable endpoints).
	base func(t *testing.T, dir string) string
	// path is the base URL's path ("/v1" when empty).
	path string
	// dirWord names the probe directory's parent (deployment detail).
	dirWord string
	policy  probe.RetryPolicy
	// attempts are the records, in order; the final outcome is the last.
	attempts []attemptWant
	// secrets are strings of this behaviour's provider bodies that must
	// not leave Codex.
	secrets []string
}

var (
	ready        = attemptWant{code: probe.Ready}
	authFailed   = attemptWant{code: probe.AuthenticationFailed, class: probe.ClassCredential}
	timedOut     = attemptWant{code: probe.ModelProbeTimeout, class: probe.ClassTimeout}
	waitedForNet = attemptWant{code: probe.ModelProbeTimeout, class: probe.ClassNetwork}
)

func turnFailedWith(class probe.FailureClass) attemptWant {
	return attemptWant{code: probe.ModelProbeFailed, cause: cause(probe.CauseProbeStatus, "error-event"), class: class}
}

// providerBody is a JSON error body whose message carries a marker that
// must never leave Codex, and words that would mislead a text classifier.
func providerBody(marker, message, typ, code string) string {
	b, _ := json.Marshal(map[string]any{"error": map[string]any{
		"message": marker + " " + message, "type": typ, "code": code,
	}})
	return string(b)
}

func realBehaviours() []realBehaviour {
	const (
		mark401  = "PROVIDER-TEXT-401-b7e1"
		mark403  = "PROVIDER-TEXT-403-c2d9"
		mark404  = "PROVIDER-TEXT-404-a4f0"
		mark400  = "PROVIDER-TEXT-400-9c3e"
		mark429r = "PROVIDER-TEXT-429R-5d21"
		mark429q = "PROVIDER-TEXT-429Q-e6a8"
		mark500  = "PROVIDER-TEXT-500-1f7b"
		mark502  = "PROVIDER-TEXT-502-3b9d"
		mark503  = "PROVIDER-TEXT-503-8e42"
		mark529  = "PROVIDER-TEXT-529-7a15"
		markFail = "PROVIDER-TEXT-FAILED-60cd"
		markRate = "PROVIDER-TEXT-SSE-RATE-d38f"
		markOver = "PROVIDER-TEXT-SSE-OVER-2ab4"
		markCtx  = "PROVIDER-TEXT-SSE-CTX-44e0"
		markQuo  = "PROVIDER-TEXT-SSE-QUOTA-0b57"
		markLong = "PROVIDER-TEXT-LONG-91ad"
	)
	body401 := providerBody(mark401, "Incorrect API key provided: "+realCodexKey+". network overloaded", "invalid_request_error", "invalid_api_key")
	body404 := providerBody(mark404, "The model does not exist; network unreachable, server overloaded, ssl quota", "invalid_request_error", "model_not_found")
	overloadedThenReady := stream(created(), failedResponse("server_is_overloaded", markOver+" network ssl quota"))
	return []realBehaviour{
		// Persistent server errors first: they take longest.
		{name: "http 500 persistent", script: status(500, providerBody(mark500, "ssl certificate quota exceeded 401", "server_error", "")),
			policy: roomyPolicy, attempts: []attemptWant{turnFailedWith(probe.ClassHTTP5xx), turnFailedWith(probe.ClassHTTP5xx)}, secrets: []string{mark500}},
		{name: "http 502 html body", script: status(502, "<html>"+mark502+" tls handshake quota 401</html>", "Content-Type", "text/html"),
			policy: roomyPolicy, attempts: []attemptWant{turnFailedWith(probe.ClassHTTP5xx), turnFailedWith(probe.ClassHTTP5xx)}, secrets: []string{mark502}},
		{name: "http 503 under an ssl base path", script: status(503, providerBody(mark503, "network", "server_error", "")), path: "/ssl/tls/certificate/v1",
			policy: roomyPolicy, attempts: []attemptWant{turnFailedWith(probe.ClassHTTP5xx), turnFailedWith(probe.ClassHTTP5xx)}, secrets: []string{mark503}},
		{name: "http 504 empty body", script: status(504, ""),
			policy: roomyPolicy, attempts: []attemptWant{turnFailedWith(probe.ClassHTTP5xx), turnFailedWith(probe.ClassHTTP5xx)}},
		{name: "http 529", script: status(529, providerBody(mark529, "quota ssl", "overloaded_error", "")),
			policy: roomyPolicy, attempts: []attemptWant{turnFailedWith(probe.ClassOverloaded), turnFailedWith(probe.ClassOverloaded)}, secrets: []string{mark529}},
		{name: "hang before headers (SPEC cap)", script: hangHeaders(),
			policy: specPolicy, attempts: []attemptWant{timedOut, timedOut}},
		{name: "refused port", base: func(t *testing.T, _ string) string { return "https://" + refusedAddr(t) + "/v1" },
			policy: waitPolicy, attempts: []attemptWant{waitedForNet, waitedForNet}},
		{name: "untrusted certificate", base: func(t *testing.T, dir string) string {
			return startResponses(t, newTestCA(t, dir, "untrusted"), reply("READY")).base("/v1")
		}, policy: waitPolicy, attempts: []attemptWant{waitedForNet, waitedForNet}},
		{name: "tcp closed at once", base: func(t *testing.T, _ string) string {
			return "https://" + rawServer(t, func(net.Conn) {}) + "/v1"
		}, policy: waitPolicy, attempts: []attemptWant{waitedForNet, waitedForNet}},
		{name: "plain http on the https port", base: func(t *testing.T, _ string) string {
			return "https://" + rawServer(t, func(c net.Conn) {
				_, _ = c.Write([]byte("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n"))
			}) + "/v1"
		}, policy: waitPolicy, attempts: []attemptWant{waitedForNet, waitedForNet}},
		{name: "hang after response.created", script: hang(created()),
			policy: hangPolicy, attempts: []attemptWant{timedOut, timedOut}},
		{name: "hang before headers", script: hangHeaders(), dirWord: "network-ssl-quota",
			policy: hangPolicy, attempts: []attemptWant{timedOut, timedOut}},
		{name: "dropped stream persistent", script: dropAfter(created()),
			policy: roomyPolicy, attempts: []attemptWant{turnFailedWith(probe.ClassConnectionDropped), turnFailedWith(probe.ClassConnectionDropped)}},
		{name: "stream closed before completion", script: stream(created()),
			policy: roomyPolicy, attempts: []attemptWant{turnFailedWith(probe.ClassConnectionDropped), turnFailedWith(probe.ClassConnectionDropped)}},
		{name: "response.failed with an unknown code", script: stream(created(), failedResponse("mystery", markFail+" tls certificate 401 quota")),
			policy: roomyPolicy, attempts: []attemptWant{turnFailedWith(probe.ClassConnectionDropped), turnFailedWith(probe.ClassConnectionDropped)}, secrets: []string{markFail}},
		{name: "http 401 echoing the key", script: status(401, body401),
			policy: roomyPolicy, attempts: []attemptWant{authFailed}, secrets: []string{mark401, "Incorrect API key"}},
		{name: "http 403", script: status(403, providerBody(mark403, "network 503 overloaded", "permission_error", "")),
			policy: roomyPolicy, attempts: []attemptWant{authFailed}, secrets: []string{mark403}},
		{name: "http 429 rate limit", script: status(429, providerBody(mark429r, "Rate limit reached; network ssl overloaded", "requests", "rate_limit_exceeded")),
			policy: roomyPolicy, attempts: []attemptWant{turnFailedWith(probe.ClassLimit)}, secrets: []string{mark429r}},
		{name: "in-stream rate limit", script: stream(created(), failedResponse("rate_limit_exceeded", markRate+" network overloaded 503")),
			policy: roomyPolicy, attempts: []attemptWant{turnFailedWith(probe.ClassLimit)}, secrets: []string{markRate}},
		{name: "recovered 503 after a reconnect notice", script: firstThen(5, status(503, providerBody(mark503, "x", "server_error", "")), reply("READY")),
			policy: roomyPolicy, attempts: []attemptWant{ready}},
		{name: "recovered 500 after a reconnect notice", script: firstThen(6, status(500, "{}"), reply("READY")),
			policy: roomyPolicy, attempts: []attemptWant{ready}},
		{name: "recovered dropped stream", script: firstThen(1, dropAfter(created()), reply("READY")),
			policy: roomyPolicy, attempts: []attemptWant{ready}},
		{name: "recovered single 502", script: firstThen(1, status(502, "bad gateway"), reply("READY")),
			policy: roomyPolicy, attempts: []attemptWant{ready}},
		// Answered at once.
		{name: "ready", script: reply("READY"), policy: roomyPolicy, attempts: []attemptWant{ready}},
		{name: "ready with a long reply", script: reply(strings.Repeat(markLong+" ", 40)),
			policy: roomyPolicy, attempts: []attemptWant{ready}, secrets: []string{markLong}},
		{name: "ready under a deployment-word directory", script: reply("READY"), dirWord: "ssl-network-overloaded-401",
			policy: roomyPolicy, attempts: []attemptWant{ready}},
		{name: "blank reply", script: reply("   "), policy: roomyPolicy,
			attempts: []attemptWant{{code: probe.ModelProbeFailed, cause: cause(probe.CauseProbeStatus, "no-reply"), class: probe.ClassOther}}},
		{name: "in-stream overload", script: overloadedThenReady,
			policy: roomyPolicy, attempts: []attemptWant{turnFailedWith(probe.ClassOverloaded), turnFailedWith(probe.ClassOverloaded)}, secrets: []string{markOver}},
		{name: "in-stream overload then ready", script: firstThen(1, overloadedThenReady, reply("READY")),
			policy: roomyPolicy, attempts: []attemptWant{turnFailedWith(probe.ClassOverloaded), ready}, secrets: []string{markOver}},
		{name: "in-stream quota", script: stream(created(), failedResponse("insufficient_quota", markQuo+" network 503")),
			policy: roomyPolicy, attempts: []attemptWant{turnFailedWith(probe.ClassLimit)}, secrets: []string{markQuo}},
		{name: "http 429 quota", script: status(429, providerBody(mark429q, "You exceeded your current quota; network overloaded", "insufficient_quota", "insufficient_quota")),
			policy: roomyPolicy, attempts: []attemptWant{turnFailedWith(probe.ClassLimit)}, secrets: []string{mark429q}},
		{name: "in-stream context window", script: stream(created(), failedResponse("context_length_exceeded", markCtx+" network overloaded")),
			policy: roomyPolicy, attempts: []attemptWant{turnFailedWith(probe.ClassOther)}, secrets: []string{markCtx}},
		{name: "http 404 model", script: status(404, body404),
			policy: roomyPolicy, attempts: []attemptWant{turnFailedWith(probe.ClassOther)}, secrets: []string{mark404}},
		{name: "http 404 model under a network directory", script: status(404, body404), dirWord: "network",
			policy: roomyPolicy, attempts: []attemptWant{turnFailedWith(probe.ClassOther)}, secrets: []string{mark404}},
		{name: "http 400 raw body", script: status(400, `{"`+mark400+`":"ssl network overloaded 503"}`),
			policy: roomyPolicy, attempts: []attemptWant{turnFailedWith(probe.ClassOther)}, secrets: []string{mark400}},
	}
}

// realResult is what one behaviour's run produced.
type realResult struct {
	outcome   probe.Outcome
	err       error
	published []probe.Outcome
	rec       *recorder
	server    *responsesServer
	base      string
	dir       string
	elapsed   time.Duration
}

// PRB-3..PRB-6, PRB-9: the real Codex CLI, run by Codex with
// occkit's own arguments and environment, against scripted endpoints.
func TestCodex_RealCodex_PRB4_PRB5(t *testing.T) {
	bin := realCodexBinary(t)
	run := tiers.Codex.Start(t)
	root := t.TempDir()
	ca := newTestCA(t, root, "probe-ca")
	behaviours := realBehaviours()
	results := make([]realResult, len(behaviours))
	// prepare makes a behaviour's probe directory and endpoint for one
	// round of runs (a fresh scripted server each time: scripts count
	// requests); execute runs the probe.
	prepare := func(i, round int) realResult {
		b := behaviours[i]
		res := realResult{rec: &recorder{}}
		// Each probe directory's parent is neutral or holds the
		// behaviour's deployment words; never the behaviour's name.
		res.dir = filepath.Join(root, fmt.Sprintf("d%02d-%d", i, round))
		if b.dirWord != "" {
			res.dir = filepath.Join(res.dir, b.dirWord)
		}
		if err := os.MkdirAll(res.dir, 0o700); err != nil {
			t.Fatal(err)
		}
		path := b.path
		if path == "" {
			path = "/v1"
		}
		if b.script != nil {
			res.server = startResponses(t, ca, b.script)
			res.base = res.server.base(path)
		} else {
			res.base = b.base(t, root)
		}
		return res
	}
	execute := func(res *realResult, b realBehaviour) {
		var mu sync.Mutex
		r := Codex{
			Model:    "openai/gpt-5",
			Binary:   bin,
			Endpoint: &CodexEndpoint{Provider: "vendor", BaseURL: res.base, CredentialEnv: "VENDOR_API_KEY"},
			Environ: []string{
				"PATH=/usr/bin:/bin", "SSL_CERT_FILE=" + ca.file, "VENDOR_API_KEY=" + realCodexKey,
				"OPENAI_API_KEY=sk-other-PLANTED", "CODEX_API_KEY=sk-other-PLANTED",
			},
			TempDir:  res.dir,
			Policy:   b.policy,
			Logger:   res.rec.logger(),
			OnRecord: res.rec.add,
			Publish: func(o probe.Outcome) {
				mu.Lock()
				defer mu.Unlock()
				res.published = append(res.published, o)
			},
		}
		t0 := time.Now()
		res.outcome, res.err = r.Run(context.Background())
		res.elapsed = time.Since(t0)
	}

	started := time.Now()
	sem := make(chan struct{}, realCodexParallel)
	var wg sync.WaitGroup
	for i, b := range behaviours {
		results[i] = prepare(i, 0)
		wg.Add(1)
		delay := time.Duration(min(i, realCodexParallel)) * realCodexStagger
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			time.Sleep(delay)
			execute(&results[i], b)
		}()
	}
	wg.Wait()
	t.Logf("real Codex tier: %d behaviours in %v (at most %d at once)", len(behaviours), time.Since(started).Round(time.Second), realCodexParallel)
	// A behaviour whose attempt the cap stopped before Codex reported its
	// retried failure runs again, alone: the first wave's load says
	// nothing about the runner, and a rerun on a quieter machine shows
	// Codex's own verdict. A runner that never sees those verdicts is
	// capped again every round, and fails below.
	for round := 1; round <= realCodexReruns; round++ {
		var again []int
		for i, b := range behaviours {
			if cappedStandIns(b, results[i]) > 0 {
				again = append(again, i)
			}
		}
		if len(again) == 0 {
			break
		}
		t.Logf("round %d: %d behaviours capped before Codex's own verdict run again, one at a time", round, len(again))
		for _, i := range again {
			res := prepare(i, round)
			execute(&res, behaviours[i])
			results[i] = res
		}
	}

	tolerable, capped := 0, 0
	for i, b := range behaviours {
		res := results[i]
		for _, a := range b.attempts {
			if capTolerable(a) {
				tolerable++
			}
		}
		t.Run(b.name, func(t *testing.T) {
			capped += checkRealBehaviour(t, b, res)
		})
		run.Done(1)
	}
	t.Logf("%d of %d attempts that end in a retried failure were capped under load", capped, tolerable)
	if tolerable > 0 && capped*2 > tolerable {
		t.Errorf("%d of %d retried failures ended at the cap: the machine is too loaded for the tier to see Codex's own verdicts", capped, tolerable)
	}
}

// capTolerable reports whether an expected attempt may end at its cap on a
// starved machine: a retried failure, which a capped attempt (retried the
// same way) can stand in for.
func capTolerable(a attemptWant) bool {
	return a.code != probe.Ready && a.class.Retried() && a.class != probe.ClassTimeout
}

// cappedStandIns counts the attempts of res that are capped ones standing
// in for b's expected attempts (see cappedInstead).
func cappedStandIns(b realBehaviour, res realResult) int {
	n := 0
	for i, r := range res.rec.records {
		if i < len(b.attempts) && cappedInstead(b.attempts[i], r, b.policy) {
			n++
		}
	}
	return n
}

// cappedInstead reports whether record r is a capped attempt standing in
// for the expected attempt a (see capTolerable).
func cappedInstead(a attemptWant, r probe.Record, policy probe.RetryPolicy) bool {
	return capTolerable(a) && r.Code == probe.ModelProbeTimeout && r.Cause.IsZero() && r.FailureClass == probe.ClassTimeout &&
		r.ElapsedMs >= policy.Timeout(0).Milliseconds()
}

// checkRealBehaviour checks one behaviour's run and returns how many of
// its attempts were capped in place of a retried failure.
func checkRealBehaviour(t *testing.T, b realBehaviour, res realResult) int {
	t.Helper()
	capped := 0
	want := b.attempts[len(b.attempts)-1].outcome()
	var verdicts []string
	for _, r := range res.rec.records {
		verdicts = append(verdicts, fmt.Sprintf("%s/%s/%s", r.Code, r.Cause, r.FailureClass))
	}
	t.Logf("%v: final %s %s %s; attempts %v", res.elapsed.Round(100*time.Millisecond), res.outcome.Code, res.outcome.Cause, res.outcome.FailureClass, verdicts)
	if res.err != nil {
		t.Fatalf("Run error: %v", res.err)
	}
	if n := len(res.rec.records); n == len(b.attempts) && cappedInstead(b.attempts[n-1], res.rec.records[n-1], b.policy) {
		want = probe.Outcome{Code: probe.ModelProbeTimeout, FailureClass: probe.ClassTimeout}
	}
	if res.outcome != want {
		t.Errorf("final outcome %+v, want %+v", res.outcome, want)
	}
	if len(res.published) != 1 || res.published[0] != res.outcome {
		t.Errorf("published %+v, want exactly the final outcome once", res.published)
	}

	// Records: one per attempt, each with its own verdict (PRB-6).
	if len(res.rec.records) != len(b.attempts) {
		t.Fatalf("%d records, want %d: %+v", len(res.rec.records), len(b.attempts), res.rec.records)
	}
	for i, r := range res.rec.records {
		a := b.attempts[i]
		if cappedInstead(a, r, b.policy) {
			t.Logf("attempt %d was capped after %d ms before Codex reported its %s failure", i+1, r.ElapsedMs, a.class)
			a, capped = timedOut, capped+1
		}
		if r.Event != probe.EventCodex || r.Attempt != i+1 || r.Code != a.code || r.Cause != a.cause || r.FailureClass != a.class {
			t.Errorf("record %d = %+v, want attempt %d %+v", i, r, i+1, a)
		}
		switch {
		case a.code == probe.ModelProbeTimeout:
			if r.ExitCode != -1 || r.Signal != "SIGKILL" {
				t.Errorf("record %d: a capped attempt has exitCode %d signal %q, want null and SIGKILL", i, r.ExitCode, r.Signal)
			}
		case a.code == probe.Ready || a.cause.Detail == "no-reply":
			if r.ExitCode != 0 || r.Signal != "" {
				t.Errorf("record %d: a completed turn exited %d %q, want 0", i, r.ExitCode, r.Signal)
			}
		default:
			if r.ExitCode != 1 || r.Signal != "" {
				t.Errorf("record %d: a failed turn exited %d %q, want 1", i, r.ExitCode, r.Signal)
			}
		}
		if !r.Cause.Valid() || (a.code != probe.ModelProbeFailed && !r.Cause.IsZero()) {
			t.Errorf("record %d: cause %v outside PRB-6", i, r.Cause)
		}
	}

	// Retry decision (PRB-5): a second attempt exactly when the first
	// failed with a retried class; never a third.
	first := b.attempts[0]
	retried := probe.RetryPolicy{}.Next(1, probe.Attempt{Code: first.code, FailureClass: first.class}, 0, 0).Retry
	if got := len(res.rec.records) == 2; got != retried {
		t.Errorf("retried = %v, want %v for class %q", got, retried, first.class)
	}

	// The endpoint was reached as the Harness reaches it (PRB-9).
	if res.server != nil {
		n, auth, paths, protos := res.server.seen()
		if n == 0 && first.code != probe.ModelProbeTimeout {
			t.Errorf("the endpoint saw no request")
		}
		wantPath := "POST " + strings.TrimPrefix(res.base, res.server.srv.URL) + "/responses"
		for i := range auth {
			if auth[i] != "Bearer "+realCodexKey || paths[i] != wantPath || protos[i] != "HTTP/2.0" {
				t.Errorf("request %d: %q %q %q, want Bearer key, %q over HTTP/2", i, auth[i], paths[i], protos[i], wantPath)
				break
			}
		}
	}

	// Nothing Codex printed reaches a record, a log line, the outcome or an
	// error (PRB-6).
	assertRealNoLeak(t, b, res)
	return capped
}

// assertRealNoLeak checks records, slog lines, the outcome and the error
// for every string Codex's output carries that is not a closed token.
func assertRealNoLeak(t *testing.T, b realBehaviour, res realResult) {
	t.Helper()
	all := res.rec.everything(t) + fmt.Sprintf("%+v %v", res.outcome, res.err)
	forbidden := append([]string{
		realCodexKey, "PLANTED", "PROVIDER-TEXT", res.base, strings.TrimPrefix(res.base, "https://"),
		res.dir, filepath.Base(res.dir), "Reconnecting", "high demand", "capacity", "Quota exceeded",
		"unexpected status", "stream disconnected", "url:", "Bearer", "https:",
	}, b.secrets...)
	if b.dirWord != "" {
		forbidden = append(forbidden, b.dirWord)
	}
	if b.path != "" {
		forbidden = append(forbidden, b.path)
	}
	sort.Strings(forbidden)
	for _, s := range forbidden {
		if s != "" && strings.Contains(all, s) {
			t.Errorf("Codex output %q reached a record, log line, outcome or error:\n%s", s, all)
		}
	}
	// Every log line is one of the closed record shapes (PRB-6).
	for _, line := range strings.Split(strings.TrimSpace(res.rec.logs.String()), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Errorf("log line is not JSON: %s", line)
			continue
		}
		for k := range m {
			switch k {
			case "time", "level", "msg", "attempt", "elapsedMs", "exitCode", "signal", "code", "causeKind", "causeDetail", "failureClass":
			default:
				t.Errorf("log line has field %q outside PRB-6: %s", k, line)
			}
		}
	}
}
