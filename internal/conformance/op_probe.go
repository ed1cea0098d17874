package conformance

// Handlers for the probe ops: thin adapters from case inputs to the probe
// package.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/tidwall/gjson"

	"github.com/occkit/occkit/probe"
)

func ms(v gjson.Result) time.Duration { return time.Duration(v.Int()) * time.Millisecond }

// probeExit reads {code, signal, error}; an absent exit is a clean one and
// a null code means the process has none.
func probeExit(v gjson.Result) probe.Exit {
	if !v.Exists() || v.Type == gjson.Null {
		return probe.Exit{}
	}
	e := probe.Exit{Code: -1, Signal: v.Get("signal").String(), Err: v.Get("error").String()}
	if c := v.Get("code"); c.Type == gjson.Number {
		e.Code = int(c.Int())
	}
	return e
}

func outcomeResult(o probe.Outcome) Result {
	res := Result{"code": string(o.Code)}
	if !o.Cause.IsZero() {
		cause := map[string]any{"kind": string(o.Cause.Kind)}
		if o.Cause.Detail != "" {
			cause["detail"] = o.Cause.Detail
		}
		res["cause"] = cause
	}
	if o.FailureClass != "" {
		res["failureClass"] = string(o.FailureClass)
	}
	return res
}

func opProbeOpenClaw(in gjson.Result) (Result, error) {
	var stdout []byte
	if out := in.Get("output"); out.Type == gjson.String {
		stdout = []byte(out.Str)
	} else if out.Exists() {
		stdout = []byte(out.Raw)
	}
	wait := in.Get("cpuWaitMs")
	return outcomeResult(probe.ClassifyOpenClaw(probe.OpenClawRun{
		Provider:     in.Get("provider").String(),
		Model:        in.Get("model").String(),
		Stdout:       stdout,
		Exit:         probeExit(in.Get("exit")),
		TimedOut:     in.Get("timedOut").Bool(),
		Elapsed:      ms(in.Get("elapsedMs")),
		Cap:          ms(in.Get("capMs")),
		CPUWait:      ms(wait),
		CPUWaitKnown: wait.Type == gjson.Number,
	})), nil
}

func opProbeCodex(in gjson.Result) (Result, error) {
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
			return nil, fmt.Errorf("probe.codex: event is not JSON: %w", err)
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

func opProbeUpfront(in gjson.Result) (Result, error) {
	header := http.Header{}
	in.Get("headers").ForEach(func(k, v gjson.Result) bool {
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
	res := Result{}
	if r.Code == "" {
		return res, nil
	}
	res["code"] = string(r.Code)
	res["providerCode"] = string(r.Provider)
	res["bodyShape"] = string(r.BodyShape)
	if r.ProviderErrorCode != "" {
		res["providerErrorCode"] = r.ProviderErrorCode
	}
	if r.ProviderErrorType != "" {
		res["providerErrorType"] = r.ProviderErrorType
	}
	res["responseHeaderMarker"] = headerMarkerCheck(r.HeaderMarkers)
	return res, nil
}

// headerMarkerCheck accepts the marker list as an array or a comma-joined
// string (spaces around the commas ignored); null, [] and "" all mean "no
// marker".
func headerMarkerCheck(got []string) Check {
	return func(want gjson.Result) string {
		var w []string
		switch {
		case want.IsArray():
			for _, x := range want.Array() {
				w = append(w, x.String())
			}
		case want.Type == gjson.String && want.Str != "":
			for _, x := range strings.Split(want.Str, ",") {
				w = append(w, strings.TrimSpace(x))
			}
		}
		if strings.Join(w, ",") != strings.Join(got, ",") {
			return fmt.Sprintf("want %q, got %q", w, got)
		}
		return ""
	}
}

func opProbeCap(in gjson.Result) (Result, error) {
	return Result{"capMs": probe.Cap(in.Get("cpuMax").String()).Milliseconds()}, nil
}

// opProbeRetry runs the retry policy over the case's attempt outcomes. The
// delay is jittered, so the policy runs at both ends of the jitter range:
// runs and final must match one end, and each attempt cap must lie between
// the two ends.
func opProbeRetry(in gjson.Result) (Result, error) {
	var attempts []probe.Attempt
	for _, a := range in.Get("attempts").Array() {
		attempts = append(attempts, probe.Attempt{
			Code:         probe.Code(a.Get("code").String()),
			FailureClass: probe.FailureClass(a.Get("failureClass").String()),
			Elapsed:      ms(a.Get("elapsedMs")),
		})
	}
	var policy probe.RetryPolicy
	low := policy.Simulate(attempts, func() float64 { return 0 })
	high := policy.Simulate(attempts, func() float64 { return 1 })
	res := Result{
		"runs":              eitherCheck(float64(low.Runs), float64(high.Runs)),
		"final":             eitherCheck(string(low.Final), string(high.Final)),
		"attemptTimeoutsMs": timeoutsCheck(low.Timeouts, high.Timeouts),
	}
	if len(low.Delays) > 0 || len(high.Delays) > 0 {
		lo, hi := policy.Delays()
		res["delayMs"] = []int64{lo.Milliseconds(), hi.Milliseconds()}
	}
	return res, nil
}

func eitherCheck(a, b any) Check {
	return func(want gjson.Result) string {
		if diffJSON(want.Value(), a) == "" || diffJSON(want.Value(), b) == "" {
			return ""
		}
		return fmt.Sprintf("want %s, got %v (jitter 0) or %v (jitter 1)", want.Raw, a, b)
	}
}

func timeoutsCheck(a, b []time.Duration) Check {
	return func(want gjson.Result) string {
		w := want.Array()
		within := func(lo, hi []time.Duration) bool {
			if len(w) != len(lo) || len(w) != len(hi) {
				return false
			}
			for i := range w {
				l, h := min(lo[i], hi[i]), max(lo[i], hi[i])
				if v := time.Duration(w[i].Int()) * time.Millisecond; v < l || v > h {
					return false
				}
			}
			return true
		}
		if within(a, b) || within(a, a) || within(b, b) {
			return ""
		}
		return fmt.Sprintf("want %s, got %v (jitter 0) or %v (jitter 1)", want.Raw, a, b)
	}
}

func opProbeWorker(in gjson.Result) (Result, error) {
	w := probe.Code(in.Get("code").String()).Worker()
	res := Result{"failsAtOnce": w.FailsAtOnce}
	if w.DeploymentCode != "" {
		res["deploymentCode"] = w.DeploymentCode
	}
	return res, nil
}
