package probe

import (
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestDeepOutputIsInvalidJSON: probe output nested past 10,000 levels is
// classified as not JSON (PRB-2, PRB-3, PRB-4) instead of exhausting the
// stack in a recursive validator.
func TestDeepOutputIsInvalidJSON(t *testing.T) {
	deep := []byte(strings.Repeat("[", 20<<20))
	deepObj := []byte(strings.Repeat(`{"error":`, 2<<20))
	for _, tt := range []struct {
		name string
		got  func() any
		want any
	}{
		{"codex stream", func() any { return ClassifyCodex(CodexRun{Model: "openai/gpt-5", Stdout: deep}) },
			Outcome{Code: ModelProbeFailed, Cause: cause(CauseInvalidOutput, "json"), FailureClass: ClassOther}},
		{"codex line after a valid one", func() any {
			return ClassifyCodex(CodexRun{Model: "openai/gpt-5", Stdout: append([]byte("{\"type\":\"thread.started\"}\n"), deep...)})
		}, Outcome{Code: ModelProbeFailed, Cause: cause(CauseInvalidOutput, "json"), FailureClass: ClassOther}},
		{"openclaw status", func() any { return ClassifyOpenClaw(OpenClawRun{Model: "openai/gpt-5", Stdout: deepObj}) },
			Outcome{Code: ModelProbeFailed, Cause: cause(CauseInvalidOutput, "json")}},
		{"upfront 401 body", func() any {
			return ClassifyUpfront(ProviderOpenAI, http.StatusUnauthorized, http.Header{}, deepObj).BodyShape
		}, BodyNonJSON},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, tt.got()); diff != "" {
				t.Fatal(diff)
			}
		})
	}
	if !validJSON([]byte(strings.Repeat("[", 10_000) + strings.Repeat("]", 10_000))) {
		t.Error("10,000 levels refused")
	}
}
