package compile_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pelletier/go-toml/v2"
	"pgregory.net/rapid"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/compile"
)

const renderSource = `{"gateway":{"auth":{"token":"gw-secret"}},"agents":{"defaults":{"model":"openai/gpt-5.5","workspace":"/data/ws"},"entries":{"main":{"workspace":"/data/main"}}},
	"models":{"providers":{"openai":{"apiKey":"sk-live-123","headers":{"Authorization":"Bearer sk-live-123","X-Trace":"1"}},"codex":"bad"}},
	"env":{"OPENAI_API_KEY":"sk-live-123","OTHER":"1","vars":{"ANTHROPIC_API_KEY":"sk-ant"}},
	"channels":{"slack":{"botToken":"xoxb-1"}}}`

func TestGatewayDocument(t *testing.T) {
	in := occkit.MustParseDocument(renderSource)
	t.Run("embedded OpenClaw is one process: the admitted document", func(t *testing.T) {
		got, err := compile.GatewayDocument(in, occkit.HarnessOpenClaw, occkit.ModeEmbedded)
		if err != nil || !got.Equal(in) {
			t.Fatalf("embedded gateway = %s, %v", got, err)
		}
	})
	for _, h := range []occkit.Harness{occkit.HarnessCodex, occkit.HarnessOpenClaw} {
		t.Run("RES-12 AUTH-6 dedicated "+string(h), func(t *testing.T) {
			got, err := compile.GatewayDocument(in, h, occkit.ModeDedicated)
			if err != nil {
				t.Fatal(err)
			}
			want := `{"gateway":{"auth":{"token":"gw-secret"}},"agents":{"defaults":{"model":"openai/gpt-5.5","workspace":"/data/ws"},"entries":{"main":{"workspace":"/home/node/workspace"}}},
				"models":{"providers":{"openai":{},"codex":"bad"}},
				"env":{"OTHER":"1","vars":{}},
				"channels":{"slack":{"botToken":"xoxb-1"}}}`
			if d := cmp.Diff(jsonValue(t, want), jsonValue(t, got.String())); d != "" {
				t.Errorf("gateway document (-want +got):\n%s", d)
			}
			if strings.Contains(got.String(), "sk-") {
				t.Error("AUTH-6: inference credential reached the gateway")
			}
		})
	}
	t.Run("RES-12 without a main entry the defaults carry the workspace", func(t *testing.T) {
		got, err := compile.GatewayDocument(occkit.MustParseDocument(`{"agents":{"defaults":{"model":"codex/m"}}}`), occkit.HarnessCodex, occkit.ModeDedicated)
		if err != nil {
			t.Fatal(err)
		}
		if ws := got.Get(occkit.NewPath("agents", "defaults", "workspace")).String(); ws != compile.GatewayWorkspace {
			t.Errorf("workspace = %q", ws)
		}
	})
	t.Run("RES-11 codex is never embedded", func(t *testing.T) {
		_, err := compile.GatewayDocument(in, occkit.HarnessCodex, occkit.ModeEmbedded)
		wantError(t, err, occkit.CodeInvalidRequest, "", "RES-11")
	})
	t.Run("RES-1 unknown harness", func(t *testing.T) {
		_, err := compile.GatewayDocument(in, "claude", occkit.ModeDedicated)
		wantError(t, err, occkit.CodeInvalidRequest, "", "RES-1")
	})
}

func TestHarnessDocument(t *testing.T) {
	in := occkit.MustParseDocument(renderSource)
	got, err := compile.HarnessDocument(in, occkit.HarnessOpenClaw, occkit.ModeDedicated)
	if err != nil {
		t.Fatal(err)
	}
	if got.Has(occkit.NewPath("channels")) || !got.Has(occkit.NewPath("models", "providers", "openai", "apiKey")) ||
		got.Has(occkit.NewPath("gateway", "auth")) {
		t.Errorf("harness document = %s", got)
	}
	if _, err := compile.HarnessDocument(in, occkit.HarnessOpenClaw, occkit.ModeEmbedded); err == nil {
		t.Error("embedded OpenClaw has no separate Harness document")
	} else {
		wantError(t, err, occkit.CodeInvalidRequest, "", "RES-11")
	}
	if _, err := compile.HarnessDocument(in, occkit.HarnessCodex, occkit.ModeDedicated); err == nil {
		t.Error("codex has no OpenClaw Harness document")
	}
}

func decodeTOML(t testing.TB, b []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := toml.Unmarshal(b, &m); err != nil {
		t.Fatalf("invalid TOML: %v\n%s", err, b)
	}
	return m
}

func TestRenderCodexConfig(t *testing.T) {
	compiled, err := compile.CompileEndpoint(occkit.MustParseDocument(`{"agents":{"defaults":{"model":"codex/vendor/org/model"}}}`), testEndpoint)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		doc  occkit.Document
		opts compile.CodexOptions
		want map[string]any
	}{
		{
			name: "PRB-9 LOG-4 official route: Responses over WebSocket, Codex login",
			doc:  occkit.MustParseDocument(`{"agents":{"defaults":{"model":"openai/gpt-5.5"}}}`),
			want: map[string]any{
				"model": "gpt-5.5", "model_provider": "openai-ws", "approval_policy": "never",
				"features": map[string]any{"apps": false, "plugins": false, "remote_plugin": false},
				"apps":     map[string]any{"_default": map[string]any{"enabled": false}},
				"otel":     map[string]any{"exporter": "none", "log_user_prompt": false},
				"model_providers": map[string]any{"openai-ws": map[string]any{
					"name": "OpenAI", "base_url": "https://api.openai.com/v1", "wire_api": "responses",
					"requires_openai_auth": true, "supports_websockets": true,
				}},
			},
		},
		{
			name: "PRB-9 CMP-1 compiled custom endpoint: HTTPS Responses streaming, credential by name",
			doc:  compiled,
			opts: compile.CodexOptions{Endpoint: &testEndpoint, CredentialEnv: "OPENAI_API_KEY", Plugins: true},
			want: map[string]any{
				"model": "vendor/org/model", "model_provider": "openai-compatible", "approval_policy": "never",
				"features": map[string]any{"apps": true, "plugins": true, "remote_plugin": true},
				"apps":     map[string]any{"_default": map[string]any{"enabled": false}},
				"otel":     map[string]any{"exporter": "none", "log_user_prompt": false},
				"model_providers": map[string]any{"openai-compatible": map[string]any{
					"name": "OpenAI-compatible", "base_url": "https://llm.example.test/v1", "wire_api": "responses",
					"env_key": "OPENAI_API_KEY", "requires_openai_auth": false, "supports_websockets": false,
				}},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := compile.RenderCodexConfig(tt.doc, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tt.want, decodeTOML(t, b)); d != "" {
				t.Errorf("codex config (-want +got):\n%s", d)
			}
		})
	}
}

func TestRenderCodexConfigErrors(t *testing.T) {
	ok := occkit.MustParseDocument(`{"agents":{"defaults":{"model":"codex/m"}}}`)
	tests := []struct {
		name       string
		doc        occkit.Document
		opts       compile.CodexOptions
		path, rule string
	}{
		{"RES-12 other providers are refused", occkit.MustParseDocument(`{"agents":{"entries":{"main":{"model":"anthropic/x"}}}}`), compile.CodexOptions{}, "agents.entries.main.model", "RES-12"},
		{"RES-3 no primary", occkit.MustParseDocument(`{}`), compile.CodexOptions{}, "agents.defaults.model", "RES-3"},
		{"AUTH-2 the credential is a variable name, never a value", ok, compile.CodexOptions{CredentialEnv: "sk-live-123"}, "", "AUTH-2"},
		{"PRB-9 endpoint must be https", ok, compile.CodexOptions{Endpoint: &compile.Endpoint{BaseURL: "http://x", ModelProvider: "p"}}, "endpoint.baseUrl", "PRB-9"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := compile.RenderCodexConfig(tt.doc, tt.opts)
			wantError(t, err, occkit.CodeInvalidRequest, tt.path, tt.rule)
			if strings.Contains(err.Error(), "sk-live") {
				t.Errorf("error leaks a credential: %v", err)
			}
		})
	}
}

// TestRenderCodexConfigNoSecrets: whatever the model ID, endpoint and
// variable name, the rendered TOML parses and holds no credential value
// from the document (providers' apiKey, env values).
func TestRenderCodexConfigNoSecrets(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		secret := "sk-" + rapid.StringMatching(`[A-Za-z0-9]{8,16}`).Draw(t, "secret")
		model := rapid.StringMatching(`[a-z0-9][a-z0-9./_-]{0,20}`).Draw(t, "model")
		doc := occkit.MustParseDocument(`{"agents":{"defaults":{"model":"openai/` + model + `"}},"models":{"providers":{"openai":{"apiKey":"` +
			secret + `"}}},"env":{"OPENAI_API_KEY":"` + secret + `"}}`)
		opts := compile.CodexOptions{CredentialEnv: rapid.SampledFrom([]string{"", "OPENAI_API_KEY", "CODEX_KEY"}).Draw(t, "env")}
		if rapid.Bool().Draw(t, "endpoint") {
			opts.Endpoint = &compile.Endpoint{BaseURL: "https://" + rapid.StringMatching(`[a-z]{1,8}\.test`).Draw(t, "host") + "/v1", ModelProvider: "gw"}
		}
		b, err := compile.RenderCodexConfig(doc, opts)
		if err != nil {
			if _, ok := err.(*occkit.Error); !ok || strings.Contains(err.Error(), secret) {
				t.Fatalf("bad error %v", err)
			}
			return
		}
		var m map[string]any
		if err := toml.Unmarshal(b, &m); err != nil {
			t.Fatalf("invalid TOML: %v", err)
		}
		if strings.Contains(string(b), secret) {
			t.Fatalf("secret rendered:\n%s", b)
		}
	})
}

// TestStripInferenceEveryProvider: a dedicated gateway loses the
// inference credentials of every provider, and only those (AUTH-6).
func TestStripInferenceEveryProvider(t *testing.T) {
	tests := []struct {
		name, providers, want string
	}{
		{name: "keys and credential headers of several providers",
			providers: `{"a":{"apiKey":"k1","baseUrl":"u"},"b":{"headers":{"x-api-key":"k2","Accept":"j"}},"c":{"apiKey":{"source":"env"},"headers":{" Authorization ":"k3"}}}`,
			want:      `{"a":{"baseUrl":"u"},"b":{},"c":{}}`},
		{name: "nothing to strip", providers: `{"a":{"baseUrl":"u","models":[{"id":"m","maxTokens":8}]},"b":"bad"}`, want: `{"a":{"baseUrl":"u","models":[{"id":"m","maxTokens":8}]},"b":"bad"}`},
		{name: "header keys needing escapes", providers: `{"a.b":{"headers":{"Authorization":"k","x.y":"1"}}}`, want: `{"a.b":{}}`},
		{name: "model-row headers and odd casings", providers: `{"p":{"models":[{"id":"m","headers":{"X-GOOG-API-KEY":"k"},"Api_Key":"k","params":{"temperature":1,"x-auth-token":"k"}}]}}`,
			want: `{"p":{"models":[{"id":"m","params":{"temperature":1}}]}}`},
		{name: "URL credentials", providers: `{"p":{"baseUrl":"https://u:k@llm.test:8443/v1/k?key=k#f"},"q":{"baseUrl":"svc:k@host.test/v1"},"r":{"request":{"proxy":{"url":"http://u:k@proxy.test"}}}}`,
			want: `{"p":{"baseUrl":"https://llm.test:8443"},"q":{"baseUrl":"svc://host.test"},"r":{"request":{"proxy":{"url":"http://proxy.test"}}}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := occkit.MustParseDocument(`{"agents":{"defaults":{"model":"codex/m"}},"models":{"providers":` + tt.providers + `}}`)
			got, err := compile.GatewayDocument(doc, occkit.HarnessCodex, occkit.ModeDedicated)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(jsonValue(t, tt.want), jsonValue(t, got.Get(occkit.NewPath("models", "providers")).Raw())); d != "" {
				t.Errorf("providers (-want +got):\n%s", d)
			}
		})
	}
}

// TestStripInferenceLaunchSpecs: AUTH-6 — how a process would be started
// is a place a credential rides (an argument array, a command line, an
// environment map, a variable those reference): a dedicated gateway
// keeps none of it, on every dedicated topology and Compute, while the
// dedicated OpenClaw Harness, which infers, keeps its local model server.
func TestStripInferenceLaunchSpecs(t *testing.T) {
	// Literals where nothing marks a credential (so admission's ADM-7
	// check lets them through) and a variable the document defines for
	// them: all must be gone from the gateway.
	const secret = "SECRET-31"
	src := `{"agents":{"defaults":{"model":"codex/m","models":{"p/m":{"alias":"m","params":{"extraArgs":["` + secret + `"],"temperature":1}}}}},` +
		`"env":{"vars":{"TEAM":"core","UPSTREAM_ARG":"` + secret + `"}},` +
		`"models":{"providers":{"p":{"baseUrl":"http://127.0.0.1:8080/v1","api":"openai-completions",` +
		`"localService":{"command":"/usr/bin/llama-server --upstream ` + secret + `","args":["--upstream-key","${UPSTREAM_ARG}","--k2","` + secret + `"],` +
		`"cwd":"/srv","healthUrl":"http://127.0.0.1:8080/health"},` +
		`"params":{"extraArgs":["` + secret + `"],"cmd":"` + secret + `"},` +
		`"models":[{"id":"m","params":{"argv":["` + secret + `"],"setupCommand":"` + secret + `","top_p":0.5}}]}}}}`
	doc := occkit.MustParseDocument(src)
	planned := 0
	for _, h := range occkit.AllHarnesses() {
		for _, c := range occkit.BundledComputes() {
			t.Run(string(h)+" on "+string(c), func(t *testing.T) {
				in := compile.PlanInput{Harness: h, Mode: occkit.ModeDedicated, Compute: c, Level: occkit.LevelInfo,
					Document:    stamped(t, src),
					Credentials: occkit.Projection{Harness: []occkit.EnvVar{{Name: "OPENAI_API_KEY", From: planKey}}}}
				if h == occkit.HarnessCodex {
					in.Credentials.StdinLogin = true
					in.Credentials.Harness = append(in.Credentials.Harness, occkit.EnvVar{Name: "CODEX_LOGIN_MODE", Value: "api_key"})
				}
				plan, err := compile.BuildPlan(in, compile.PlanOptions{Namespace: "ns"})
				if err != nil {
					t.Skipf("this Compute plans no such revision: %v", err)
				}
				planned++
				gw, _ := plan.Process(occkit.ProcessGateway)
				f, _ := gw.File(compile.FileNativeDocument)
				if strings.Contains(string(f.Data), secret) || strings.Contains(string(f.Data), "UPSTREAM_ARG") {
					t.Errorf("the gateway document holds the credential or its reference:\n%s", f.Data)
				}
				got := occkit.MustParseDocument(string(f.Data))
				if got.Has(occkit.NewPath("models", "providers", "p", "localService")) || !got.Has(occkit.NewPath("models", "providers", "p", "baseUrl")) {
					t.Errorf("the provider is not stripped as it should be: %s", got.Get(occkit.NewPath("models", "providers", "p")).Raw())
				}
				if !got.Has(occkit.NewPath("env", "vars", "TEAM")) || !got.Has(occkit.NewPath("models", "providers", "p", "models")) {
					t.Errorf("the gateway lost more than credentials: %s", f.Data)
				}
			})
		}
	}
	if planned < len(occkit.AllHarnesses()) {
		t.Fatalf("only %d dedicated plans were built", planned)
	}
	harness, err := compile.HarnessDocument(doc, occkit.HarnessOpenClaw, occkit.ModeDedicated)
	if err != nil {
		t.Fatal(err)
	}
	if !harness.Has(occkit.NewPath("models", "providers", "p", "localService", "args")) {
		t.Errorf("the Harness lost its local model server: %s", harness)
	}
	// Environment maps go too (admission refuses literals there, ADM-7,
	// but the strip does not rely on it).
	withEnv := occkit.MustParseDocument(`{"models":{"providers":{"p":{"baseUrl":"http://h","localService":{"command":"/s","env":{"A":"` + secret + `"}},` +
		`"params":{"env":{"B":"` + secret + `"},"passEnv":["` + secret + `"]}}}}}`)
	got, err := compile.StripInference(withEnv)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(got.String(), secret) {
		t.Errorf("an environment map survived: %s", got)
	}
}
