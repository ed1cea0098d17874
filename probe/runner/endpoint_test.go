package runner

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/occkit/occkit/probe"
)

// PRB-9: a compatible endpoint is reached over HTTPS Responses streaming
// with WebSockets off, the probe included; the official route adds nothing.
func TestCodexArgs_Endpoint_PRB9(t *testing.T) {
	const prompt = "Reply only READY. Do not use tools."
	tests := []struct {
		name      string
		endpoint  *CodexEndpoint
		overrides []string
	}{
		{"official route", nil, nil},
		{"endpoint with a key variable", &CodexEndpoint{Provider: "openai-compatible", BaseURL: "https://llm.example.com/v1", CredentialEnv: "VENDOR_API_KEY"}, []string{
			`model_provider="openai-compatible"`,
			`model_providers.openai-compatible.name="openai-compatible"`,
			`model_providers.openai-compatible.base_url="https://llm.example.com/v1"`,
			`model_providers.openai-compatible.wire_api="responses"`,
			`model_providers.openai-compatible.supports_websockets=false`,
			`model_providers.openai-compatible.env_key="VENDOR_API_KEY"`,
		}},
		{"endpoint with the stored login", &CodexEndpoint{Provider: "vendor_1", BaseURL: `https://llm.example.com/v1?q="x"\`}, []string{
			`model_provider="vendor_1"`,
			`model_providers.vendor_1.name="vendor_1"`,
			`model_providers.vendor_1.base_url="https://llm.example.com/v1?q=\"x\"\\"`,
			`model_providers.vendor_1.wire_api="responses"`,
			`model_providers.vendor_1.supports_websockets=false`,
			`model_providers.vendor_1.requires_openai_auth=true`,
		}},
	}
	base := CodexArgs("codex/vendor/organization/model", "/tmp/p")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := codexArgs("codex/vendor/organization/model", "/tmp/p", tt.endpoint)
			if args[len(args)-1] != prompt {
				t.Fatalf("the prompt is not last: %q", args)
			}
			if !slices.Equal(args[:len(base)-1], base[:len(base)-1]) {
				t.Errorf("the probe's own arguments changed: %q", args)
			}
			var got []string
			for i := len(base) - 1; i < len(args)-1; i += 2 {
				if args[i] != "-c" {
					t.Fatalf("override %d is %q, want -c", i, args[i])
				}
				got = append(got, args[i+1])
			}
			if diff := cmp.Diff(tt.overrides, got); diff != "" {
				t.Errorf("endpoint overrides (-want +got):\n%s", diff)
			}
			if i := slices.Index(args, "--model"); i < 0 || args[i+1] != "vendor/organization/model" {
				t.Errorf("--model is not the stored probe model's ID: %q", args)
			}
			if tt.endpoint != nil {
				compiled := codexArgs("codex/"+tt.endpoint.Provider+"/vendor/organization/model", "/tmp/p", tt.endpoint)
				if i := slices.Index(compiled, "--model"); compiled[i+1] != "vendor/organization/model" {
					t.Errorf("a compiled ref keeps its route in --model: %q", compiled[i+1])
				}
			}
		})
	}
}

// PRB-9, PRB-7: the endpoint's key variable is the only addition to the
// probe environment; an endpoint that cannot be rendered is UNAVAILABLE
// without starting Codex.
func TestCodex_Endpoint_PRB9(t *testing.T) {
	envFile := filepath.Join(t.TempDir(), "env")
	rec := &recorder{}
	r := codexRunner(t, rec, "env", envFile)
	r.Environ = append(r.Environ, "VENDOR_API_KEY=vk-PLANTED", "OTHER_KEY=x")
	r.Endpoint = &CodexEndpoint{Provider: "openai-compatible", BaseURL: "https://llm.example.com/v1", CredentialEnv: "VENDOR_API_KEY"}
	if got, err := r.Run(context.Background()); err != nil || got.Code != probe.Ready {
		t.Fatalf("got %+v, %v", got, err)
	}
	env := readFile(t, envFile)
	if !strings.Contains(env, "VENDOR_API_KEY=vk-PLANTED") || strings.Contains(env, "OTHER_KEY") || strings.Contains(env, "OPENAI_API_KEY") {
		t.Errorf("probe environment:\n%s", env)
	}

	for _, bad := range []CodexEndpoint{
		{Provider: "", BaseURL: "https://llm.example.com/v1"},
		{Provider: "a.b", BaseURL: "https://llm.example.com/v1"},
		{Provider: "vendor", BaseURL: "http://llm.example.com/v1"},
		{Provider: "vendor", BaseURL: "https://"},
		{Provider: "vendor", BaseURL: "https://llm.example.com/v1", CredentialEnv: "BAD NAME"},
	} {
		rec := &recorder{}
		r := codexRunner(t, rec, "env", filepath.Join(t.TempDir(), "env"))
		r.Endpoint = &bad
		got, err := r.Run(context.Background())
		if err != nil || got.Code != probe.Unavailable {
			t.Errorf("endpoint %+v: got %+v, %v; want UNAVAILABLE", bad, got, err)
		}
	}
}
