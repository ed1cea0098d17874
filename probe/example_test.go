package probe_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/occkit/occkit/probe"
)

func ExampleClassifyCodex() {
	stream := `{"type":"thread.started","thread_id":"t"}
{"type":"turn.started"}
{"type":"item.completed","item":{"type":"agent_message","text":"READY"}}
{"type":"turn.completed"}`
	o := probe.ClassifyCodex(probe.CodexRun{Model: "openai/gpt-5", Stdout: []byte(stream)})
	fmt.Println(o.Code)

	tool := `{"type":"turn.started"}
{"type":"item.started","item":{"type":"command_execution"}}`
	o = probe.ClassifyCodex(probe.CodexRun{Model: "openai/gpt-5", Stdout: []byte(tool), TimedOut: true})
	fmt.Println(o.Code, o.Cause, o.FailureClass)
	// Output:
	// READY
	// MODEL_PROBE_FAILED PROBE_STATUS/tool-event other
}

// Codex's own frame decides a failed turn's class; the provider's body and
// the base URL it repeats do not.
func ExampleClassifyCodex_failureClass() {
	failed := func(msg string) []byte {
		b, _ := json.Marshal(map[string]any{"type": "turn.failed", "error": map[string]string{"message": msg}})
		return []byte(`{"type":"turn.started"}` + "\n" + string(b))
	}
	for _, msg := range []string{
		"unexpected status 503 Service Unavailable: ssl quota 401, url: https://gw.example/ssl/v1/responses",
		"We’re currently experiencing high demand, which may cause temporary errors.",
		"Selected model is at capacity. Please try a different model.",
		"The model does not exist; network overloaded",
	} {
		o := probe.ClassifyCodex(probe.CodexRun{Model: "openai/gpt-5", Stdout: failed(msg), Exit: probe.Exit{Code: 1}})
		fmt.Println(o.Code, o.FailureClass, o.FailureClass.Retried())
	}
	// Output:
	// MODEL_PROBE_FAILED http_5xx true
	// MODEL_PROBE_FAILED http_5xx true
	// MODEL_PROBE_FAILED overloaded true
	// MODEL_PROBE_FAILED other false
}

func ExampleClassifyOpenClaw() {
	out := `{"auth":{"probes":{"results":[{"provider":"openai","model":"openai/gpt-4.1","source":"env","status":"rate_limit"}]}}}`
	o := probe.ClassifyOpenClaw(probe.OpenClawRun{Model: "openai/gpt-4.1", Stdout: []byte(out)})
	fmt.Println(o.Code, o.Cause)

	capped := probe.OpenClawRun{Model: "openai/gpt-4.1", TimedOut: true,
		Elapsed: 65 * time.Second, Cap: probe.Cap("50000 100000"), CPUWait: 30 * time.Second, CPUWaitKnown: true}
	fmt.Println(capped.Cap, probe.ClassifyOpenClaw(capped).Code)
	// Output:
	// MODEL_PROBE_FAILED PROBE_STATUS/rate_limit
	// 1m50s MODEL_PROBE_CPU_STARVED
}

func ExampleRetryPolicy_Simulate() {
	attempts := []probe.Attempt{
		{Code: probe.ModelProbeFailed, FailureClass: probe.ClassHTTP5xx, Elapsed: 800 * time.Millisecond},
		{Code: probe.Ready, Elapsed: 2 * time.Second},
	}
	t := probe.RetryPolicy{}.Simulate(attempts, func() float64 { return 0.5 })
	fmt.Println(t.Runs, t.Final, t.Delays, t.Timeouts)
	// Output: 2 READY [1.25s] [30s 30s]
}

func ExampleClassifyUpfront() {
	body := []byte(`{"error":{"message":"Incorrect API key provided","type":"invalid_request_error","code":"invalid_api_key"}}`)
	r := probe.ClassifyUpfront(probe.ProviderOpenAI, 401, http.Header{"X-Request-Id": {"req_1"}}, body)
	fmt.Println(r.Code, r.BodyShape, r.ProviderErrorCode, r.ProviderErrorType, r.HeaderMarkers)
	// Output: AUTHENTICATION_FAILED json-error-code invalid_api_key invalid_request_error [x-request-id]
}

func ExampleCode_Worker() {
	for _, c := range []probe.Code{probe.CPUStarved, probe.Unavailable, probe.ModelProbeTimeout, probe.Ready} {
		w := c.Worker()
		fmt.Printf("%s -> %q at once=%v redeploy=%v\n", c, w.DeploymentCode, w.FailsAtOnce, w.Redeploy)
	}
	// Output:
	// MODEL_PROBE_CPU_STARVED -> "RUNTIME_CPU_STARVED" at once=true redeploy=false
	// UNAVAILABLE -> "RUNTIME_STARTUP_FAILED" at once=true redeploy=false
	// MODEL_PROBE_TIMEOUT -> "RUNTIME_MODEL_PROBE_TIMEOUT" at once=true redeploy=true
	// READY -> "" at once=false redeploy=false
}

func ExampleRecord() {
	r := probe.Record{Event: probe.EventCodex, Attempt: 1, ElapsedMs: 30004, ExitCode: -1, Signal: "SIGKILL",
		Code: probe.ModelProbeTimeout, FailureClass: probe.ClassTimeout}
	b, _ := json.Marshal(r)
	fmt.Println(string(b))
	// Output: {"event":"codex.model_probe","attempt":1,"elapsedMs":30004,"exitCode":null,"signal":"SIGKILL","code":"MODEL_PROBE_TIMEOUT","failureClass":"timeout"}
}

// Before an OpenClaw probe starts, its preconditions are checked on what
// the runtime holds; when they fail the probe is UNAVAILABLE and nothing
// runs.
func ExampleReadOpenClawConfig() {
	config := []byte(`{"agents":{"defaults":{"model":"openai/gpt-4.1"}},"models":{"providers":{"openai":{"api":"openai-completions"}}}}`)
	model, entry, ok := probe.ReadOpenClawConfig(config, probe.ModelProvider("openai/gpt-4.1"))
	pre := probe.OpenClawPreconditions{Model: "openai/gpt-4.1", CredentialPresent: true, ProbeConfigModel: model}
	fmt.Println(ok, pre.Hold())
	fmt.Println(probe.UpfrontEligible(probe.ProviderOpenAI, entry))
	// Output:
	// true true
	// openai-completions true
}
