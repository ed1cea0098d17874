package policytest

// Handlers for the logging ops. Each is a thin adapter over package logging.

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/tidwall/gjson"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/logging"
)

func opLoggingLevel(in input) (result, error) {
	l, err := logging.ParseLevel([]byte(in.Get("value").Raw))
	if err != nil {
		return nil, err
	}
	return result{"level": string(l)}, nil
}

func opLoggingStamp(in input) (result, error) {
	doc, err := inputDocument(in, "configuration")
	if err != nil {
		return nil, err
	}
	level, err := logging.ParseLevel([]byte(in.Get("level").Raw))
	if err != nil {
		return nil, err
	}
	owner, err := loggingString(in.Result, "runtimeLogging")
	if err != nil {
		return nil, err
	}
	out, err := logging.Stamp(doc, level, occkit.LogOwnership(owner))
	if err != nil {
		return nil, err
	}
	return result{"configuration": out, documentKey: out}, nil
}

func opLoggingCheckStamp(in input) (result, error) {
	doc, err := inputDocument(in, "configuration")
	if err != nil {
		return nil, err
	}
	l, err := logging.CheckStamp(doc)
	if err != nil {
		return nil, err
	}
	return result{"level": string(l)}, nil
}

func opLoggingRender(in input) (result, error) {
	harness, err := loggingString(in.Result, "harness")
	if err != nil {
		return nil, err
	}
	if harness == "" {
		harness = string(occkit.HarnessOpenClaw) // the default Harness
	}
	mode, err := loggingString(in.Result, "executionMode")
	if err != nil {
		return nil, err
	}
	container, err := loggingString(in.Result, "container")
	if err != nil {
		return nil, err
	}
	level, err := logging.ParseLevel([]byte(in.Get("level").Raw))
	if err != nil {
		return nil, err
	}
	r, err := logging.Render(occkit.Harness(harness), occkit.Mode(mode), occkit.Process(container), level)
	if err != nil {
		return nil, err
	}
	argv := r.Command
	if argv == nil {
		argv = r.Args
	}
	if r.ReadsDocument {
		// LOG-4 as the reference Kubernetes Compute places the document:
		// read-only under /etc/openclaw.
		r.Env = append(r.Env, occkit.EnvVar{Name: logging.EnvConfigPath, Value: kubernetesConfigPath})
	}
	return result{"env": envCheck(r), "args": argsCheck(argv)}, nil
}

// kubernetesConfigPath is where the reference Kubernetes driver mounts an
// OpenClaw process's native document (LOG-4).
const kubernetesConfigPath = "/etc/openclaw/openclaw.json"

// envCheck: each named variable has exactly the expected value; null means
// the variable must be absent.
func envCheck(r logging.Rendered) checkFunc {
	return func(want gjson.Result) string {
		var diffs []string
		want.ForEach(func(k, v gjson.Result) bool {
			got, ok := r.Lookup(k.String())
			switch {
			case v.Type == gjson.Null && ok:
				diffs = append(diffs, fmt.Sprintf("%s: want absent, got %q", k.String(), got))
			case v.Type != gjson.Null && !ok:
				diffs = append(diffs, fmt.Sprintf("%s: absent, want %s", k.String(), v.Raw))
			case v.Type != gjson.Null && got != v.String():
				diffs = append(diffs, fmt.Sprintf("%s: got %q, want %s", k.String(), got, v.Raw))
			}
			return true
		})
		return strings.Join(diffs, "\n")
	}
}

// argsCheck: the expected arguments appear, in order, among argv.
func argsCheck(argv []string) checkFunc {
	return func(want gjson.Result) string {
		i := 0
		for _, w := range want.Array() {
			for i < len(argv) && argv[i] != w.String() {
				i++
			}
			if i == len(argv) {
				got, _ := json.Marshal(argv)
				return fmt.Sprintf("%s is not an ordered subsequence of %s", want.Raw, got)
			}
			i++
		}
		return ""
	}
}

func opLoggingStartupPhase(in input) (result, error) {
	var fields [4]string
	for i, k := range []string{"container", "phase", "outcome", "code"} {
		// null is the same omission as absence: the library decides.
		if v := in.Get(k); v.Type == gjson.String {
			fields[i] = v.Str
		} else if v.Exists() && v.Type != gjson.Null && k != "code" {
			return nil, occkit.Invalid("LOG-7", occkit.NewPath(k), "%s must be a string", k)
		}
	}
	var times [3]time.Time
	for i, k := range []string{"originMs", "startedAtMs", "nowMs"} {
		v := in.Get(k)
		if v.Type == gjson.Null {
			v = gjson.Result{} // null is the same omission as absence
		}
		n, ok := number(v) // a number, or a string holding one
		if v.Exists() && !ok {
			return nil, occkit.Invalid("LOG-7", occkit.NewPath(k), "%s must be a number", k)
		}
		if !v.Exists() && k == "startedAtMs" {
			continue // zero: the library times the phase from the origin
		}
		times[i] = time.UnixMilli(n)
	}
	container, err := logging.ParseStartupContainer(fields[0])
	if err != nil {
		return nil, err
	}
	rec, err := logging.StartupPhase(logging.StartupEvent{
		Container: container,
		Phase:     logging.Phase(fields[1]),
		Outcome:   logging.PhaseOutcome(fields[2]),
		Code:      fields[3],
		Origin:    times[0], StartedAt: times[1], Now: times[2],
	})
	if err != nil {
		return nil, err
	}
	b, err := rec.MarshalJSON()
	if err != nil {
		return nil, err
	}
	return result{"record": json.RawMessage(b)}, nil
}

// loggingString reads an optional string input ("" when absent).
func loggingString(in gjson.Result, key string) (string, error) {
	v := in.Get(key)
	switch {
	case !v.Exists() || v.Type == gjson.Null:
		return "", nil
	case v.Type == gjson.String:
		return v.Str, nil
	}
	return "", occkit.Invalid("", occkit.NewPath(key), "%s must be a string", key)
}
