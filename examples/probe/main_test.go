package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/occkit/occkit/probe"
)

// fast keeps the SPEC policy's shape at test speed.
var fast = probe.RetryPolicy{AttemptCap: 10 * time.Second, Budget: 20 * time.Second, MinDelay: 10 * time.Millisecond, MaxDelay: 20 * time.Millisecond}

func TestRun(t *testing.T) {
	var out bytes.Buffer
	if err := demo(context.Background(), "", &out, fast); err != nil {
		t.Fatalf("run: %v\n%s", err, out.String())
	}
	got := out.String()
	for _, want := range []string{
		"ready.jsonl            READY\n",
		"reconnect-ready.jsonl  READY\n",
		"tool.jsonl             MODEL_PROBE_FAILED cause=PROBE_STATUS/tool-event failureClass=other\n",
		"truncated.jsonl        MODEL_PROBE_FAILED cause=INVALID_OUTPUT/json failureClass=other\n",
		"unauthorized.jsonl     AUTHENTICATION_FAILED failureClass=credential\n",
		`"attempt":1,`, `"code":"MODEL_PROBE_FAILED","causeKind":"PROBE_STATUS","causeDetail":"error-event","failureClass":"http_5xx"}`,
		`"attempt":2,`, `"exitCode":0,"signal":null,"code":"READY"}`,
		"final                  READY\n",
		"final                  AUTHENTICATION_FAILED failureClass=credential\n",
		`worker  deploymentCode="RUNTIME_AUTHENTICATION_FAILED" failsAtOnce=true redeploy=false`,
		"held    ready=true", "held    ready=false",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	// The 401 is not retried: exactly one record after its heading.
	_, auth, _ := strings.Cut(got, "a 401")
	if n := strings.Count(auth, "codex.model_probe"); n != 1 {
		t.Errorf("%d records for the 401 probe, want 1:\n%s", n, auth)
	}
	// Planted keys (in the recorded stream, the fake's output and the
	// parent environment) never appear.
	for _, secret := range []string{"sk-live", "PLANTED", "FAKE-0123"} {
		if strings.Contains(got, secret) {
			t.Errorf("output contains %q", secret)
		}
	}
}

func TestClassifyOneStream(t *testing.T) {
	var out bytes.Buffer
	if err := demo(context.Background(), "testdata/streams/tool.jsonl", &out, fast); err != nil {
		t.Fatal(err)
	}
	want := "== classify recorded streams (PRB-4)\ntool.jsonl             MODEL_PROBE_FAILED cause=PROBE_STATUS/tool-event failureClass=other\n"
	if out.String() != want {
		t.Errorf("output = %q, want %q", out.String(), want)
	}
}
