package probe

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/tidwall/gjson"
	"pgregory.net/rapid"
)

// codexReadyHolds is an independent statement of the READY conditions of
// PRB-4/PRB-7, written without the classifier's code.
func codexReadyHolds(r CodexRun) bool {
	if provider, id, _ := strings.Cut(r.Model, "/"); (provider != "openai" && provider != "codex") || id == "" {
		return false
	}
	if r.TimedOut || r.Exit.Code != 0 || r.Exit.Err != "" {
		return false
	}
	out := bytes.TrimSpace(r.Stdout)
	if len(out) == 0 {
		return false
	}
	var types []string
	reply, inTurn, reconnects := false, false, 0
	for _, line := range bytes.Split(out, []byte("\n")) {
		var ev map[string]any
		if json.Unmarshal(line, &ev) != nil {
			return false
		}
		typ, _ := ev["type"].(string)
		types = append(types, typ)
		item, _ := ev["item"].(map[string]any)
		itemType, _ := item["type"].(string)
		msg, _ := ev["message"].(string)
		switch {
		case typ == "turn.started":
			inTurn = true
		case typ == "turn.completed":
			inTurn = false
		case typ == "error":
			// Only the recognised reconnect notice, inside the turn, at most 10 times.
			if reconnects++; !inTurn || reconnects > 10 || !strings.HasPrefix(msg, "Reconnecting... ") {
				return false
			}
		case typ == "thread.started":
		case (typ == "item.started" || typ == "item.updated" || typ == "item.completed") &&
			(itemType == "agent_message" || itemType == "reasoning" || itemType == "error"):
			if text, _ := item["text"].(string); typ == "item.completed" && itemType == "agent_message" && strings.TrimSpace(text) != "" {
				reply = true
			}
		default:
			return false
		}
	}
	count := func(t string) int {
		n := 0
		for _, x := range types {
			if x == t {
				n++
			}
		}
		return n
	}
	return count("turn.started") == 1 && count("turn.completed") == 1 && types[len(types)-1] == "turn.completed" && reply
}

func genCodexRun(t *rapid.T) CodexRun {
	events := []string{
		`{"type":"thread.started","thread_id":"t"}`, `{"type":"turn.started"}`, `{"type":"turn.completed"}`,
		`{"type":"item.completed","item":{"type":"agent_message","text":"READY"}}`,
		`{"type":"item.completed","item":{"type":"agent_message","text":" "}}`,
		`{"type":"item.started","item":{"type":"reasoning"}}`,
		`{"type":"item.started","item":{"type":"command_execution"}}`,
		`{"type":"item.completed","item":{"type":"mcp_tool_call"}}`,
		`{"type":"error","message":"Reconnecting... 1/5 stream disconnected before completion"}`,
		`{"type":"error","message":"unexpected status 500"}`,
		`{"type":"turn.failed","error":{"message":"unexpected status 401 Unauthorized"}}`,
		`{"type":"session.configured"}`, `{"kind":"x"}`, `[1]`, `not json`, ``,
	}
	lines := rapid.SliceOfN(rapid.SampledFrom(events), 0, 8).Draw(t, "events")
	if rapid.Bool().Draw(t, "shaped") {
		// Most interesting streams are almost ready: one turn around a few
		// events, so a single wrong event must decide.
		lines = append(append([]string{events[1]}, lines...), events[3], events[2])
	}
	return CodexRun{
		Model:    rapid.SampledFrom([]string{"openai/gpt-5", "codex/gpt-5", "anthropic/x", "openai/", "gpt-5"}).Draw(t, "model"),
		Stdout:   []byte(strings.Join(lines, "\n")),
		Exit:     Exit{Code: rapid.SampledFrom([]int{0, 0, 0, 1, -1}).Draw(t, "code"), Err: rapid.SampledFrom([]string{"", "", "", "ETIMEDOUT"}).Draw(t, "err")},
		TimedOut: rapid.IntRange(0, 3).Draw(t, "timedOut") == 0,
	}
}

// PRB-1, PRB-4: no Codex input classifies as READY unless the READY
// conditions hold; every outcome is in the closed sets.
func TestCodexNeverReadyUnlessConditionsHold_PRB4(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		r := genCodexRun(t)
		o := ClassifyCodex(r)
		checkOutcome(t, o)
		if (o.Code == Ready) != codexReadyHolds(r) {
			t.Fatalf("ClassifyCodex = %+v but READY conditions hold = %v for %q", o, codexReadyHolds(r), r.Stdout)
		}
	})
}

// openClawReadyHolds states the READY conditions of PRB-2 independently.
func openClawReadyHolds(r OpenClawRun) bool {
	provider, _, ok := strings.Cut(r.Model, "/")
	if !ok || provider == "" || r.TimedOut || r.Exit.Code != 0 || r.Exit.Err != "" || (r.Cap > 0 && r.Elapsed >= r.Cap) {
		return false
	}
	var doc struct {
		Auth struct {
			Probes struct {
				Results []map[string]any `json:"results"`
			} `json:"probes"`
		} `json:"auth"`
	}
	if json.Unmarshal(r.Stdout, &doc) != nil || len(doc.Auth.Probes.Results) != 1 {
		return false
	}
	res := doc.Auth.Probes.Results[0]
	return res["provider"] == provider && res["model"] == r.Model && res["source"] == "env" && res["status"] == "ok"
}

// PRB-1, PRB-2: no OpenClaw input classifies as READY unless the READY
// conditions hold.
func TestOpenClawNeverReadyUnlessConditionsHold_PRB2(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		result := map[string]any{}
		for _, k := range []string{"provider", "model", "source", "status"} {
			if rapid.IntRange(0, 5).Draw(t, k+"?") > 0 {
				result[k] = rapid.SampledFrom(map[string][]string{
					"provider": {"openai", "anthropic"}, "model": {"openai/gpt-4.1", "openai/gpt-4o"},
					"source": {"env", "profile"}, "status": {"ok", "auth", "timeout", "format", "weird"},
				}[k]).Draw(t, k)
			}
		}
		results := make([]any, rapid.IntRange(0, 2).Draw(t, "n"))
		for i := range results {
			results[i] = result
		}
		body, _ := json.Marshal(map[string]any{"auth": map[string]any{"probes": map[string]any{"results": results}}})
		if rapid.Bool().Draw(t, "garble") {
			body = body[:rapid.IntRange(0, len(body)).Draw(t, "cut")]
		}
		r := OpenClawRun{
			Model:  rapid.SampledFrom([]string{"openai/gpt-4.1", "gpt-4.1"}).Draw(t, "model"),
			Stdout: body,
			Exit:   Exit{Code: rapid.SampledFrom([]int{0, 0, 2, -1}).Draw(t, "exit")},
			Cap:    65 * time.Second, Elapsed: time.Duration(rapid.Int64Range(0, 70000).Draw(t, "elapsed")) * time.Millisecond,
		}
		o := ClassifyOpenClaw(r)
		checkOutcome(t, o)
		if (o.Code == Ready) != openClawReadyHolds(r) {
			t.Fatalf("ClassifyOpenClaw = %+v but READY conditions hold = %v for %s", o, openClawReadyHolds(r), body)
		}
	})
}

// checkOutcome asserts the closed sets of PRB-1 and PRB-6.
func checkOutcome(t interface{ Fatalf(string, ...any) }, o Outcome) {
	if !o.Code.Valid() {
		t.Fatalf("code %q outside PRB-1", o.Code)
	}
	if !o.Cause.Valid() || (!o.Cause.IsZero() && o.Code != ModelProbeFailed) {
		t.Fatalf("cause %+v with code %s", o.Cause, o.Code)
	}
	if o.FailureClass != "" && !o.FailureClass.Valid() {
		t.Fatalf("failure class %q", o.FailureClass)
	}
}

// PRB-5: the policy never starts more than two attempts, never exceeds
// the budget with its caps and delays, and publishes a valid code.
func TestRetryPolicyBudget_PRB5(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		attempts := rapid.SliceOfN(rapid.Custom(func(t *rapid.T) Attempt {
			return Attempt{
				Code:         rapid.SampledFrom(append(AllCodes(), "BOGUS")).Draw(t, "code"),
				FailureClass: rapid.SampledFrom(append(AllFailureClasses(), "")).Draw(t, "class"),
				Elapsed:      time.Duration(rapid.Int64Range(0, 70000).Draw(t, "ms")) * time.Millisecond,
			}
		}), 0, 3).Draw(t, "attempts")
		j := rapid.Float64Range(0, 1).Draw(t, "jitter")
		tr := RetryPolicy{}.Simulate(attempts, func() float64 { return j })
		if tr.Runs < 1 || tr.Runs > 2 || !tr.Final.Valid() {
			t.Fatalf("trace %+v", tr)
		}
		for _, d := range tr.Delays {
			if d < 1e9 || d > 15e8 {
				t.Fatalf("delay %v", d)
			}
		}
		for _, c := range tr.Timeouts {
			if c <= 0 || c > 30e9 {
				t.Fatalf("cap %v", c)
			}
		}
		if tr.Runs == 2 && len(attempts) > 0 {
			if spent := attempts[0].Elapsed + tr.Delays[0] + tr.Timeouts[1]; spent > 61e9 {
				t.Fatalf("caps and delay exceed the budget: %v", spent)
			}
		}
	})
}

// PRB-6: records never carry anything but closed tokens and numbers.
func TestRecordsClosed_PRB6(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		r := genCodexRun(t)
		r.Stderr = []byte("Incorrect API key " + plantedKey)
		o := ClassifyCodex(r)
		b, err := json.Marshal(Record{Event: EventCodex, Attempt: 1, ExitCode: r.Exit.Code, Signal: "SIGKILL", Code: o.Code, Cause: o.Cause, FailureClass: o.FailureClass})
		if err != nil {
			t.Fatal(err)
		}
		gjson.ParseBytes(b).ForEach(func(k, v gjson.Result) bool {
			if v.Type == gjson.String && strings.ContainsAny(v.Str, " :") {
				t.Fatalf("record field %s carries text %q", k.Str, v.Str)
			}
			return true
		})
	})
}
