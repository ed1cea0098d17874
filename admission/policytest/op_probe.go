package policytest

// Handlers for the probe ops: thin adapters from case inputs to the probe
// package.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tidwall/gjson"

	"github.com/occkit/occkit/probe"
)

func ms(v gjson.Result) time.Duration { return time.Duration(v.Int()) * time.Millisecond }

// number reads a JSON number, or a string holding one ("2"); ok is false
// for anything else (absent, null, other text).
func number(v gjson.Result) (n int64, ok bool) {
	switch v.Type {
	case gjson.Number:
		return v.Int(), true
	case gjson.String:
		n, err := strconv.ParseInt(strings.TrimSpace(v.Str), 10, 64)
		return n, err == nil
	}
	return 0, false
}

// probeExit reads {code, signal, error}; an absent exit is a clean one and
// a null code means the process has none.
func probeExit(v gjson.Result) probe.Exit {
	if !v.Exists() || v.Type == gjson.Null {
		return probe.Exit{}
	}
	e := probe.Exit{Code: -1, Signal: v.Get("signal").String(), Err: v.Get("error").String()}
	if c, ok := number(v.Get("code")); ok {
		e.Code = int(c)
	}
	return e
}

func outcomeResult(o probe.Outcome) result {
	res := result{"code": string(o.Code)}
	if !o.Cause.IsZero() {
		res["cause"] = causeCheck(string(o.Cause.Kind), o.Cause.Detail)
	}
	res["failureClass"] = optString(string(o.FailureClass))
	return res
}

func opProbeOpenClaw(in input) (result, error) {
	var stdout []byte
	if out := in.Get("output"); out.Type == gjson.String {
		stdout = []byte(out.Str)
	} else if out.Exists() {
		stdout = []byte(out.Raw)
	}
	wait, waitKnown := number(in.Get("cpuWaitMs"))
	return outcomeResult(probe.ClassifyOpenClaw(probe.OpenClawRun{
		Provider:     in.Get("provider").String(),
		Model:        in.Get("model").String(),
		Stdout:       stdout,
		Exit:         probeExit(in.Get("exit")),
		TimedOut:     in.Get("timedOut").Bool(),
		Elapsed:      ms(in.Get("elapsedMs")),
		Cap:          ms(in.Get("capMs")),
		CPUWait:      time.Duration(wait) * time.Millisecond,
		CPUWaitKnown: waitKnown,
	})), nil
}

func opProbeCodex(in input) (result, error) {
	// Each event becomes one compact JSONL line; a string event is taken as
	// a raw line, so a case can present output that is not JSON.
	var lines [][]byte
	for _, ev := range in.Get("events").Array() {
		if ev.Type == gjson.String {
			lines = append(lines, []byte(ev.Str))
			continue
		}
		var buf bytes.Buffer
		if err := json.Compact(&buf, []byte(ev.Raw)); err != nil {
			return nil, caseErrorf("probe.codex: event is not JSON: %v", err)
		}
		lines = append(lines, buf.Bytes())
	}
	stdout := []byte(in.Get("stdout").String())
	if len(lines) > 0 {
		stdout = bytes.Join(lines, []byte("\n"))
	}
	return outcomeResult(probe.ClassifyCodex(probe.CodexRun{
		Model:    in.Get("model").String(),
		Stdout:   stdout,
		Stderr:   []byte(in.Get("stderr").String()),
		Exit:     probeExit(in.Get("exit")),
		TimedOut: in.Get("timedOut").Bool(),
	})), nil
}

func opProbeUpfront(in input) (result, error) {
	header := http.Header{}
	in.Get("headers").ForEach(func(k, v gjson.Result) bool {
		if v.Type == gjson.Null {
			return true // a null header is an absent one
		}
		if v.IsArray() {
			for _, x := range v.Array() {
				header.Add(k.String(), x.String())
			}
		} else {
			header.Add(k.String(), v.String())
		}
		return true
	})
	r := probe.ClassifyUpfront(probe.Provider(in.Get("provider").String()), int(in.Get("status").Int()),
		header, []byte(in.Get("body").String()))
	res := result{}
	if r.Code == "" {
		return res, nil
	}
	res["code"] = string(r.Code)
	res["providerCode"] = string(r.Provider)
	res["bodyShape"] = string(r.BodyShape)
	res["providerErrorCode"] = optString(r.ProviderErrorCode)
	res["providerErrorType"] = optString(r.ProviderErrorType)
	res["responseHeaderMarker"] = headerMarkerCheck(r.HeaderMarkers)
	return res, nil
}

// headerMarkerCheck compares the recognised header names. The expectation
// is an array or a comma-joined string (spaces around the commas ignored);
// null, [] and "" all mean "no marker". Header names are case-insensitive,
// and the expectation is a set: the result must hold exactly those names,
// sorted (PRB-3), whatever order the case lists them in.
func headerMarkerCheck(got []string) checkFunc {
	return func(want gjson.Result) string {
		var w []string
		switch {
		case want.IsArray():
			for _, x := range want.Array() {
				w = append(w, x.String())
			}
		case want.Type == gjson.String:
			w = strings.Split(want.Str, ",")
		case want.Type != gjson.Null:
			return fmt.Sprintf("want %s, expected an array or a comma-joined string", want.Raw)
		}
		set := []string{}
		for _, x := range w {
			if x = strings.ToLower(strings.TrimSpace(x)); x != "" {
				set = append(set, x)
			}
		}
		slices.Sort(set)
		set = slices.Compact(set)
		if !slices.Equal(set, got) {
			return fmt.Sprintf("want %q, got %q", set, got)
		}
		if !slices.IsSorted(got) {
			return fmt.Sprintf("got %q, not sorted (PRB-3)", got)
		}
		return ""
	}
}

// causeCheck compares a cause with {kind, detail}, null (no cause) or the
// SPEC's "KIND/detail" spelling. A null or absent detail expects none:
// WRAPPER_ERROR carries no detail.
func causeCheck(kind, detail string) checkFunc {
	return func(want gjson.Result) string {
		var (
			wk, wd string
			raw    = want.Raw
		)
		switch {
		case want.Type == gjson.Null:
			return fmt.Sprintf("want no cause, got %s/%s", kind, detail)
		case want.Type == gjson.String:
			wk, wd, _ = strings.Cut(want.Str, "/")
		case want.IsObject():
			var bad []string
			want.ForEach(func(k, v gjson.Result) bool {
				switch {
				case k.String() == "kind" && v.Type == gjson.String:
					wk = v.Str
				case k.String() == "detail" && v.Type == gjson.String:
					wd = v.Str
				case k.String() == "detail" && v.Type == gjson.Null:
				default:
					bad = append(bad, k.String())
				}
				return true
			})
			if len(bad) > 0 {
				return fmt.Sprintf("cause %s: the runner cannot check %s", raw, strings.Join(bad, ", "))
			}
		default:
			return fmt.Sprintf("want %s, expected {kind, detail}, \"KIND/detail\" or null", raw)
		}
		if wk != kind || wd != detail {
			return fmt.Sprintf("want %s, got {kind: %q, detail: %q}", raw, kind, detail)
		}
		return ""
	}
}

func opProbeCap(in input) (result, error) {
	return result{"capMs": probe.Cap(in.Get("cpuMax").String()).Milliseconds()}, nil
}

// opProbeRetry runs the retry policy over the case's attempt outcomes. The
// delay is jittered, so the policy runs over the whole jitter range;
// the expectation (runs, final, attemptTimeoutsMs, delayMs) must hold as a
// whole for one trace the policy can produce (see retryTraces).
func opProbeRetry(in input) (result, error) {
	var attempts []probe.Attempt
	for _, a := range in.Get("attempts").Array() {
		attempts = append(attempts, probe.Attempt{
			Code:         probe.Code(a.Get("code").String()),
			FailureClass: probe.FailureClass(a.Get("failureClass").String()),
			Elapsed:      ms(a.Get("elapsedMs")),
		})
	}
	var policy probe.RetryPolicy
	lo, hi := policy.Delays()
	t := newRetryTraces(policy, attempts)
	return result{
		"runs": t.check(func(tr retryTrace, want gjson.Result) bool {
			return diffJSON(want, float64(tr.runs)) == ""
		}),
		"final": t.check(func(tr retryTrace, want gjson.Result) bool {
			return diffJSON(want, string(tr.final)) == ""
		}),
		"attemptTimeoutsMs": t.check(func(tr retryTrace, want gjson.Result) bool {
			w := want.Array() // a lone number is a list of one
			if len(w) != len(tr.lo) {
				return false
			}
			for i := range w {
				l, h := min(tr.lo[i], tr.hi[i]), max(tr.lo[i], tr.hi[i])
				if v := time.Duration(w[i].Int()) * time.Millisecond; v < l || v > h {
					return false
				}
			}
			return true
		}),
		// The delay range, for a trace that retried; null for one that
		// did not.
		"delayMs": t.check(func(tr retryTrace, want gjson.Result) bool {
			if want.Type == gjson.Null {
				return !tr.retried
			}
			return tr.retried && diffJSON(want, []int64{lo.Milliseconds(), hi.Milliseconds()}) == ""
		}),
	}, nil
}

// retryTrace is one kind of outcome of the jittered policy; lo and hi
// bound each attempt's cap over the jitter values that give it.
type retryTrace struct {
	name    string
	runs    int
	final   probe.Code
	lo, hi  []time.Duration
	retried bool
}

// retryTraces are the outcomes the policy can produce over its jitter
// range, sampled finely from jitter 0 to jitter 1 and grouped by runs,
// final and retrying; within a group each attempt cap may lie anywhere
// between the group's extremes (a cap moves continuously with the delay).
// Each expected key narrows the set; a key that would empty it fails, so
// runs from one outcome and final from another do not pass together.
type retryTraces struct {
	traces []retryTrace
	alive  []bool
}

// retryJitterSteps is how finely the jitter range is sampled: the delay
// range is 500 ms wide, so a step moves a cap by half a millisecond.
const retryJitterSteps = 1000

func newRetryTraces(policy probe.RetryPolicy, attempts []probe.Attempt) *retryTraces {
	r := &retryTraces{}
	for i := 0; i <= retryJitterSteps; i++ {
		j := float64(i) / retryJitterSteps
		t := policy.Simulate(attempts, func() float64 { return j })
		retried := len(t.Delays) > 0
		k := slices.IndexFunc(r.traces, func(x retryTrace) bool {
			return x.runs == t.Runs && x.final == t.Final && x.retried == retried && len(x.lo) == len(t.Timeouts)
		})
		if k < 0 {
			r.traces = append(r.traces, retryTrace{
				name: fmt.Sprintf("jitter %g", j), runs: t.Runs, final: t.Final, retried: retried,
				lo: slices.Clone(t.Timeouts), hi: slices.Clone(t.Timeouts),
			})
			continue
		}
		x := &r.traces[k]
		x.name = strings.SplitN(x.name, "..", 2)[0] + fmt.Sprintf("..%g", j)
		for n, c := range t.Timeouts {
			x.lo[n], x.hi[n] = min(x.lo[n], c), max(x.hi[n], c)
		}
	}
	r.alive = make([]bool, len(r.traces))
	for i := range r.alive {
		r.alive[i] = true
	}
	return r
}

func (r *retryTraces) check(fits func(retryTrace, gjson.Result) bool) checkFunc {
	return func(want gjson.Result) string {
		next := make([]bool, len(r.traces))
		found := false
		for i, tr := range r.traces {
			next[i] = r.alive[i] && fits(tr, want)
			found = found || next[i]
		}
		if !found {
			var d []string
			for i, tr := range r.traces {
				if r.alive[i] {
					d = append(d, fmt.Sprintf("%s: runs %d, final %s, caps %v..%v, retried %t", tr.name, tr.runs, tr.final, tr.lo, tr.hi, tr.retried))
				}
			}
			return fmt.Sprintf("want %s; the traces that fit the other expectations give %s", want.Raw, strings.Join(d, "; "))
		}
		r.alive = next
		return ""
	}
}

func opProbeWorker(in input) (result, error) {
	w := probe.Code(in.Get("code").String()).Worker()
	return result{"failsAtOnce": w.FailsAtOnce, "deploymentCode": optString(w.DeploymentCode)}, nil
}
