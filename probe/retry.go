package probe

import (
	"math"
	"time"
)

// FailureClass is the closed class of a failed Codex probe or login attempt
// (PRB-5): the only thing its record says about why it failed. See
// [AllFailureClasses] and [FailureClass.Retried].
type FailureClass string

// The closed set of failure classes.
const (
	// ClassTimeout: the attempt reached its cap. Retried.
	ClassTimeout FailureClass = "timeout"
	// ClassKilled: the attempt was killed by a signal without timing out.
	// Retried.
	ClassKilled FailureClass = "killed"
	// ClassHTTP5xx: the provider answered with a server error (a 5xx
	// status; Codex prints a 500 as "currently experiencing high demand").
	// Retried.
	ClassHTTP5xx FailureClass = "http_5xx"
	// ClassOverloaded: the provider reported overload (a 529 status, or an
	// in-stream server_is_overloaded that Codex prints as "Selected model
	// is at capacity"). Retried.
	ClassOverloaded FailureClass = "overloaded"
	// ClassConnectionDropped: the stream or connection dropped. Retried.
	ClassConnectionDropped FailureClass = "connection_dropped"
	// ClassNetwork: the provider could not be reached; includes TLS and DNS
	// failures that Codex prints only as a failed connection, and an
	// attempt capped while Codex was waiting for the network. Retried.
	ClassNetwork FailureClass = "network"
	// ClassCredential: the failure names the credential (401/403, key,
	// authorization). Not retried.
	ClassCredential FailureClass = "credential"
	// ClassTLS: the failure names a TLS or certificate error. Not retried.
	ClassTLS FailureClass = "tls"
	// ClassLimit: the failure names a rate, usage or quota limit.
	// Not retried.
	ClassLimit FailureClass = "limit"
	// ClassOther: anything else (protocol, tool events, no reply, wrapper
	// errors). Not retried.
	ClassOther FailureClass = "other"
)

// AllFailureClasses lists every [FailureClass], retried ones first.
func AllFailureClasses() []FailureClass {
	return []FailureClass{
		ClassTimeout, ClassKilled, ClassHTTP5xx, ClassOverloaded, ClassConnectionDropped, ClassNetwork,
		ClassCredential, ClassTLS, ClassLimit, ClassOther,
	}
}

// Retried reports whether an attempt that failed with this class is retried
// once (PRB-5). Classes outside the set are not.
func (c FailureClass) Retried() bool {
	switch c {
	case ClassTimeout, ClassKilled, ClassHTTP5xx, ClassOverloaded, ClassConnectionDropped, ClassNetwork:
		return true
	}
	return false
}

// Valid reports whether c is a member of [AllFailureClasses].
func (c FailureClass) Valid() bool {
	for _, k := range AllFailureClasses() {
		if c == k {
			return true
		}
	}
	return false
}

// codexFailureClass derives the closed failure class of a classified
// attempt (PRB-5) from its code, its exit and what Codex reported, structure
// first: a timeout is [ClassTimeout], or [ClassNetwork] when Codex was still
// waiting for the network when the cap stopped it; a failed turn takes the
// class of the Codex frame in its turn.failed, error events or reconnect
// notices (the last one that Codex frames); a failed exit the class of its
// stderr failure lines; a kill without a timeout is [ClassKilled].
func codexFailureClass(r CodexRun, o Outcome) FailureClass {
	switch o.Code {
	case Ready:
		return ""
	case ModelProbeTimeout:
		events, _ := parseCodexStream(r.Stdout)
		if n := len(events); n > 0 && events[n-1].typ == "error" && frameWaitingRE.MatchString(stringAt(events[n-1].raw, "message")) {
			return ClassNetwork
		}
		return ClassTimeout
	case AuthenticationFailed:
		return ClassCredential
	case Unavailable:
		return ClassOther
	}
	switch o.Cause {
	case Cause{CauseProbeStatus, "error-event"}, Cause{CauseProbeStatus, "turn-failed"}:
		if c := eventFailureClass(r.Stdout); c != "" {
			return c
		}
		return stderrFailureClass(r.Stderr)
	}
	if o.Cause.Kind == CauseProcessExit {
		if r.Exit.Code < 0 && r.Exit.RecordSignal() != "" && r.Exit.Err == "" {
			return ClassKilled
		}
		return stderrFailureClass(r.Stderr)
	}
	return ClassOther
}

// eventFailureClass is the class of the failure Codex reported in its
// event stream: the turn.failed message first, then the error events from
// the last; a message Codex does not frame (a provider's own text) decides
// nothing. "" when no message is framed.
func eventFailureClass(stdout []byte) FailureClass {
	events, _ := parseCodexStream(stdout)
	var msgs []string
	for i := len(events) - 1; i >= 0; i-- {
		if events[i].typ == "turn.failed" {
			msgs = append(msgs, turnFailedText(events[i].raw))
		}
	}
	for i := len(events) - 1; i >= 0; i-- {
		if events[i].typ == "error" {
			msgs = append(msgs, stringAt(events[i].raw, "message"))
		}
	}
	for _, m := range msgs {
		if f := parseFrame(m); f.kind != frameNone {
			return f.class
		}
	}
	return ""
}

// RetryPolicy is the Codex probe retry policy (PRB-5). The zero value is
// the policy of the SPEC: one retry after 1–1.5 s, each attempt capped at
// 30 s within one 61 s budget that includes the delay.
type RetryPolicy struct {
	// AttemptCap caps each attempt; 0 means 30 s.
	AttemptCap time.Duration
	// Budget bounds all attempts and delays together; 0 means 61 s.
	Budget time.Duration
	// MinDelay and MaxDelay bound the jittered delay before the retry;
	// both 0 means 1 s and 1.5 s.
	MinDelay, MaxDelay time.Duration
}

func (p RetryPolicy) withDefaults() RetryPolicy {
	if p.AttemptCap <= 0 {
		p.AttemptCap = 30 * time.Second
	}
	if p.Budget <= 0 {
		p.Budget = 61 * time.Second
	}
	if p.MinDelay <= 0 && p.MaxDelay <= 0 {
		p.MinDelay, p.MaxDelay = time.Second, 1500*time.Millisecond
	}
	if p.MaxDelay < p.MinDelay {
		p.MaxDelay = p.MinDelay
	}
	return p
}

// Delays returns the bounds of the jittered delay.
func (p RetryPolicy) Delays() (min, max time.Duration) {
	p = p.withDefaults()
	return p.MinDelay, p.MaxDelay
}

// Delay maps a jitter sample in [0, 1] to a delay within the bounds.
func (p RetryPolicy) Delay(jitter float64) time.Duration {
	p = p.withDefaults()
	if math.IsNaN(jitter) || jitter < 0 {
		jitter = 0
	}
	if jitter > 1 {
		jitter = 1
	}
	return p.MinDelay + time.Duration(math.Round(jitter*float64(p.MaxDelay-p.MinDelay)))
}

// Timeout is the cap of an attempt that starts after spent of the budget
// has gone: min(AttemptCap, Budget − spent), whole milliseconds. A
// non-positive result means the attempt must not start.
func (p RetryPolicy) Timeout(spent time.Duration) time.Duration {
	p = p.withDefaults()
	left := (p.Budget - spent).Truncate(time.Millisecond)
	if left < p.AttemptCap {
		return left
	}
	return p.AttemptCap
}

// Attempt is the outcome of one started attempt, as the policy sees it.
type Attempt struct {
	Code         Code
	FailureClass FailureClass
	Elapsed      time.Duration
}

// retried reports whether this failed attempt earns the one retry: its
// class decides; without a class only a timeout does. Readiness, a rejected
// credential and unmet preconditions never retry.
func (a Attempt) retried() bool {
	switch a.Code {
	case Ready, AuthenticationFailed, Unavailable:
		return false
	}
	if a.FailureClass != "" {
		return a.FailureClass.Retried()
	}
	return a.Code == ModelProbeTimeout
}

// Step is the policy's decision after an attempt.
type Step struct {
	// Retry reports that another attempt starts after Delay, capped at
	// Timeout. When false, Final is the code to publish.
	Retry   bool
	Delay   time.Duration
	Timeout time.Duration
	Final   Code
}

// Next decides what follows the attempt-th attempt (1-based), given the
// budget already spent (attempts and delays so far, this attempt included)
// and a jitter sample in [0, 1]. Only the first attempt may be retried; a
// retry whose cap, after the delay, is not positive becomes
// [ModelProbeTimeout] without starting (PRB-5). An attempt code outside
// [AllCodes] is final as [ModelProbeFailed].
func (p RetryPolicy) Next(attempt int, a Attempt, spent time.Duration, jitter float64) Step {
	if attempt == 1 && a.retried() {
		delay := p.Delay(jitter)
		timeout := p.Timeout(spent + delay)
		if timeout <= 0 {
			return Step{Final: ModelProbeTimeout}
		}
		return Step{Retry: true, Delay: delay, Timeout: timeout}
	}
	if !a.Code.Valid() {
		return Step{Final: ModelProbeFailed}
	}
	return Step{Final: a.Code}
}

// Trace is the whole course of the policy over a sequence of attempt
// outcomes.
type Trace struct {
	// Runs is the number of attempts actually started.
	Runs int
	// Final is the published code.
	Final Code
	// Timeouts are the caps of the started attempts.
	Timeouts []time.Duration
	// Delays are the delays slept before retries.
	Delays []time.Duration
}

// Simulate runs the policy over outcomes (the attempts as they would end;
// each Elapsed as measured) with the given jitter source, starting
// attempts until the policy stops. A missing outcome for a started attempt
// counts as [ModelProbeFailed]. It is the pure core of the Codex runner
// (package probe/runner).
func (p RetryPolicy) Simulate(outcomes []Attempt, jitter func() float64) Trace {
	var t Trace
	spent := time.Duration(0)
	timeout := p.Timeout(0)
	for attempt := 1; ; attempt++ {
		if timeout <= 0 {
			t.Final = ModelProbeTimeout
			return t
		}
		t.Runs++
		t.Timeouts = append(t.Timeouts, timeout)
		a := Attempt{Code: ModelProbeFailed}
		if attempt <= len(outcomes) {
			a = outcomes[attempt-1]
		}
		spent += a.Elapsed
		j := 0.0
		if jitter != nil {
			j = jitter()
		}
		step := p.Next(attempt, a, spent, j)
		if !step.Retry {
			t.Final = step.Final
			return t
		}
		t.Delays = append(t.Delays, step.Delay)
		spent += step.Delay
		timeout = step.Timeout
	}
}
