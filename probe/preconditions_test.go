package probe

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
	"pgregory.net/rapid"

	"github.com/occkit/occkit"
)

// PRB-3: what the OpenClaw probe reads from its configuration.
func TestReadOpenClawConfig_PRB3(t *testing.T) {
	tests := []struct {
		name   string
		config string
		model  string
		entry  string
		ok     bool
	}{
		{"model and entry", `{"agents":{"defaults":{"model":"openai/gpt-4.1"}},"models":{"providers":{"openai":{"api":"openai-responses"}}}}`, "openai/gpt-4.1", `{"api":"openai-responses"}`, true},
		{"no entry", `{"agents":{"defaults":{"model":"openai/gpt-4.1"}}}`, "openai/gpt-4.1", "", true},
		{"null entry", `{"models":{"providers":{"openai":null}}}`, "", "null", true},
		{"model not a string", `{"agents":{"defaults":{"model":{"primary":"openai/gpt-4.1"}}}}`, "", "", true},
		{"dotted provider is one key", `{"models":{"providers":{"a.b":{"x":1},"a":{"b":{"y":2}}}}}`, "", `{"x":1}`, true},
		{"not JSON", `{"agents":`, "", "", false},
		{"two values", `{} {}`, "", "", false},
		{"empty", ``, "", "", false},
		{"deep nesting is refused, not a crash", strings.Repeat("[", 200_000), "", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			provider := "openai"
			if strings.HasPrefix(tt.name, "dotted") {
				provider = "a.b"
			}
			model, entry, ok := ReadOpenClawConfig([]byte(tt.config), provider)
			if model != tt.model || string(entry) != tt.entry || ok != tt.ok {
				t.Errorf("got %q, %q, %v; want %q, %q, %v", model, entry, ok, tt.model, tt.entry, tt.ok)
			}
		})
	}
}

// The entry ReadOpenClawConfig returns judges the upfront check exactly as
// the configuration's own value does.
func TestReadOpenClawConfig_EntryIsTheValue_PRB3(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		provider := rapid.SampledFrom([]string{"openai", "anthropic", "groq"}).Draw(t, "provider")
		entry := map[string]any{}
		for _, k := range rapid.SliceOfDistinct(rapid.SampledFrom([]string{"baseUrl", "api", "models", "request", "headers"}), rapid.ID).Draw(t, "keys") {
			entry[k] = map[string]any{
				"baseUrl": rapid.SampledFrom([]any{"https://api.openai.com/v1", "https://api.anthropic.com/", "https://proxy.example", 3}).Draw(t, "base"),
				"api":     rapid.SampledFrom([]any{"openai-responses", "openai-completions", "anthropic-messages", nil}).Draw(t, "api"),
				"models":  rapid.SampledFrom([]any{[]any{}, []any{map[string]any{"id": "m", "api": "openai-completions"}}, []any{map[string]any{"headers": map[string]any{}}}}).Draw(t, "models"),
				"request": rapid.SampledFrom([]any{map[string]any{"allowPrivateNetwork": true}, map[string]any{"proxy": "p"}}).Draw(t, "request"),
				"headers": map[string]any{"x": "y"},
			}[k]
		}
		var value any = entry
		switch rapid.IntRange(0, 5).Draw(t, "shape") {
		case 0:
			value = nil
		case 1:
			value = "text"
		}
		providers := map[string]any{provider: value}
		if rapid.Bool().Draw(t, "absent") {
			providers = map[string]any{}
		}
		config, err := json.Marshal(map[string]any{"agents": map[string]any{"defaults": map[string]any{"model": provider + "/m"}},
			"models": map[string]any{"providers": providers}})
		if err != nil {
			t.Fatal(err)
		}
		model, raw, ok := ReadOpenClawConfig(config, provider)
		if !ok || model != provider+"/m" {
			t.Fatalf("ReadOpenClawConfig(%s) = %q, %v", config, model, ok)
		}
		in := gjson.GetBytes(config, occkit.NewPath("models", "providers").Key(provider).GJSON())
		api, eligible := UpfrontEligible(Provider(provider), raw)
		wantAPI, wantEligible := upfrontEligible(Provider(provider), in)
		if api != wantAPI || eligible != wantEligible {
			t.Fatalf("%s: from the entry %q, %v; from the value %q, %v", config, api, eligible, wantAPI, wantEligible)
		}
	})
}

// PRB-3, PRB-4: the preconditions of both probes and the provider of a
// model reference.
func TestPreconditions_PRB3_PRB4(t *testing.T) {
	for model, want := range map[string]bool{"openai/gpt-5": true, "codex/vendor/m": true, "openai/": false, "anthropic/claude": false, "gpt-5": false, "": false} {
		if got := (CodexPreconditions{Model: model}).Hold(); got != want {
			t.Errorf("CodexPreconditions{%q}.Hold() = %v, want %v", model, got, want)
		}
	}
	for model, want := range map[string]string{"openai/gpt-4.1": "openai", "codex/vendor/m": "codex", "/m": "", "gpt-4.1": "", "": ""} {
		if got := ModelProvider(model); got != want {
			t.Errorf("ModelProvider(%q) = %q, want %q", model, got, want)
		}
	}
	base := OpenClawPreconditions{Model: "openai/gpt-4.1", CredentialPresent: true, ProbeConfigModel: "openai/gpt-4.1"}
	if !base.Hold() {
		t.Error("the preconditions do not hold")
	}
	for name, p := range map[string]OpenClawPreconditions{
		"no credential":          {Model: "openai/gpt-4.1", ProbeConfigModel: "openai/gpt-4.1"},
		"other config model":     {Model: "openai/gpt-4.1", CredentialPresent: true, ProbeConfigModel: "openai/gpt-5"},
		"provider not a prefix":  {Provider: "anthropic", Model: "openai/gpt-4.1", CredentialPresent: true, ProbeConfigModel: "openai/gpt-4.1"},
		"model without provider": {Model: "gpt-4.1", CredentialPresent: true, ProbeConfigModel: "gpt-4.1"},
	} {
		if p.Hold() {
			t.Errorf("%s: the preconditions hold", name)
		}
	}
}

// PRB-6: a record logs as one line with the fields of its JSON, at Info
// for READY and Error otherwise.
func TestRecordLog_PRB6(t *testing.T) {
	for _, r := range []Record{
		{Event: EventCodex, Attempt: 2, ElapsedMs: 2101, Code: Ready},
		{Event: EventCodex, Attempt: 1, ExitCode: -1, Signal: "SIGKILL", Code: ModelProbeTimeout, FailureClass: ClassTimeout},
		{Event: EventOpenClaw, CapMs: 65000, CPUWaitMs: -1, Code: ModelProbeFailed, Cause: Cause{Kind: CauseProbeStatus, Detail: "rate_limit"}},
	} {
		var buf bytes.Buffer
		logger := slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey {
				return slog.Attr{}
			}
			return a
		}}))
		r.Log(context.Background(), logger)
		want, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		level := "INFO"
		if r.Code != Ready {
			level = "ERROR"
		}
		// The JSON record starts {"event":…; the log line carries the
		// same fields after its level and message.
		fields := strings.TrimPrefix(string(want), `{"event":"`+r.Event+`",`)
		if got, w := strings.TrimSpace(buf.String()), `{"level":"`+level+`","msg":"`+r.Event+`",`+fields; got != w {
			t.Errorf("log line\n got %s\nwant %s", got, w)
		}
	}
}
