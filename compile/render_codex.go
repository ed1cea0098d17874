package compile

import (
	"strings"

	"github.com/pelletier/go-toml/v2"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/resolver"
)

// CodexOpenAIProvider is the model provider ID the Codex app-server
// configuration registers for the official OpenAI route. Codex does not let
// a configuration redefine its built-in `openai` provider, so the route
// that pins the Responses WebSocket transport (PRB-9) gets its own ID.
const CodexOpenAIProvider = "openai-ws"

// CodexOpenAIBaseURL is the official OpenAI Responses base URL.
const CodexOpenAIBaseURL = "https://api.openai.com/v1"

// CodexOptions are the inputs of [RenderCodexConfig] besides the admitted
// document. The zero value renders the official OpenAI route with Codex's
// own login.
type CodexOptions struct {
	// Endpoint, when set, is the custom OpenAI-compatible endpoint the
	// Harness reaches (CMP-1) over HTTPS Responses streaming (PRB-9).
	Endpoint *Endpoint
	// CredentialEnv names the environment variable that holds the API key
	// Codex sends (`env_key`). Empty leaves authentication to Codex's login
	// (`requires_openai_auth`): the api_key and codex_pat bindings log in
	// through stdin (AUTH-2), and a credential_source binding's proxy
	// inserts the key (AUTH-3). Only the name is ever rendered.
	CredentialEnv string
	// Plugins turns Codex's apps and plugin features on (a plugin is
	// selected for the revision); off by default.
	Plugins bool
}

type codexConfig struct {
	Model          string                   `toml:"model"`
	ModelProvider  string                   `toml:"model_provider"`
	ApprovalPolicy string                   `toml:"approval_policy"`
	Features       codexFeatures            `toml:"features"`
	Apps           map[string]codexApp      `toml:"apps"`
	Otel           codexOtel                `toml:"otel"`
	ModelProviders map[string]codexProvider `toml:"model_providers"`
}

type codexFeatures struct {
	Apps         bool `toml:"apps"`
	Plugins      bool `toml:"plugins"`
	RemotePlugin bool `toml:"remote_plugin"`
}

type codexApp struct {
	Enabled bool `toml:"enabled"`
}

type codexOtel struct {
	Exporter      string `toml:"exporter"`
	LogUserPrompt bool   `toml:"log_user_prompt"`
}

type codexProvider struct {
	Name               string `toml:"name"`
	BaseURL            string `toml:"base_url"`
	WireAPI            string `toml:"wire_api"`
	EnvKey             string `toml:"env_key,omitempty"`
	RequiresOpenAIAuth bool   `toml:"requires_openai_auth"`
	SupportsWebsockets bool   `toml:"supports_websockets"`
}

// RenderCodexConfig renders the Codex app-server configuration (TOML) of a
// dedicated Codex Harness from an admitted document (CMP-4), either the
// stored selection or its [CompileEndpoint] output:
//
//   - `model` is the selected primary's model ID (its `<ModelProvider>/`
//     segment dropped for a compiled custom-endpoint ref) and
//     `model_provider` the provider registered under `model_providers`;
//   - the official route ([CodexOpenAIProvider]) is Responses over
//     WebSocket; a custom endpoint is HTTPS Responses streaming with
//     WebSockets off (PRB-9);
//   - `approval_policy = "never"`: the Harness never waits for a human;
//   - `otel.exporter = "none"` and `otel.log_user_prompt = false` (LOG-4);
//   - apps and plugins are off unless [CodexOptions.Plugins].
//
// Credentials appear only as an environment variable name (`env_key`),
// never as a value. The primary must be on provider `codex` or `openai`
// (RES-12); errors are 400s naming the setting.
func RenderCodexConfig(doc occkit.Document, opts CodexOptions) ([]byte, error) {
	scopes, err := agentScopes(doc)
	if err != nil {
		return nil, err
	}
	primary, at, ok := scopesPrimary(scopes)
	if !ok {
		return nil, occkit.Invalid("RES-3", occkit.NewPath("agents", "defaults", "model"),
			"no primary model is selected for the codex harness")
	}
	ref, ok := resolver.ParseRef(primary)
	if !ok {
		return nil, occkit.Invalid("REF-3", at, "%s is not a valid provider/model ref", at.String())
	}
	if ref.Provider != "codex" && ref.Provider != "openai" {
		return nil, occkit.Invalid("RES-12", at, "dedicated codex accepts only provider codex or openai, not %s", ref.Provider)
	}
	if opts.CredentialEnv != "" && !envName.MatchString(opts.CredentialEnv) {
		return nil, occkit.Invalid("AUTH-2", occkit.Root(), "the credential variable must be an environment variable name")
	}
	provider := codexProvider{
		Name:               "OpenAI",
		BaseURL:            CodexOpenAIBaseURL,
		WireAPI:            "responses",
		SupportsWebsockets: true,
	}
	providerID := CodexOpenAIProvider
	model := ref.ID
	if opts.Endpoint != nil {
		if err := opts.Endpoint.Validate(); err != nil {
			return nil, err
		}
		providerID = opts.Endpoint.provider()
		provider = codexProvider{
			Name:    "OpenAI-compatible",
			BaseURL: strings.TrimSpace(opts.Endpoint.BaseURL),
			WireAPI: "responses",
		}
		if ref.Provider == "codex" {
			model = strings.TrimPrefix(model, providerID+"/")
		}
	}
	if opts.CredentialEnv != "" {
		provider.EnvKey = opts.CredentialEnv
	} else {
		provider.RequiresOpenAIAuth = true
	}
	cfg := codexConfig{
		Model:          model,
		ModelProvider:  providerID,
		ApprovalPolicy: "never",
		Features:       codexFeatures{Apps: opts.Plugins, Plugins: opts.Plugins, RemotePlugin: opts.Plugins},
		Apps:           map[string]codexApp{"_default": {Enabled: false}},
		Otel:           codexOtel{Exporter: "none", LogUserPrompt: false},
		ModelProviders: map[string]codexProvider{providerID: provider},
	}
	out, err := toml.Marshal(cfg)
	if err != nil {
		return nil, occkit.Invalid("CMP-4", occkit.Root(), "the codex configuration cannot be rendered")
	}
	return out, nil
}
