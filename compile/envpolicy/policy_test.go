package envpolicy_test

import (
	"slices"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/occkit/occkit/compile/envpolicy"
	"github.com/occkit/occkit/compile/openclawschema"
)

// Every release whose configuration contract the library carries has its
// own policy, generated from that release's package; the pinned one is
// the newest.
func TestReleases(t *testing.T) {
	p := envpolicy.Pinned()
	if p.Release() != openclawschema.Release() {
		t.Fatalf("pinned release = %q, want the newest carried, %q", p.Release(), openclawschema.Release())
	}
	schema := openclawschema.Releases()
	sort.Strings(schema)
	if d := cmp.Diff(schema, envpolicy.Releases()); d != "" {
		t.Errorf("releases (-schema +env policy):\n%s", d)
	}
	for _, r := range envpolicy.Releases() {
		q, ok := envpolicy.For(r)
		if !ok || q.Release() != r {
			t.Errorf("For(%q) = %v, %v", r, q, ok)
		}
		if again, _ := envpolicy.For(r); again != q {
			t.Errorf("For(%q) loads twice", r)
		}
	}
	for _, r := range []string{"", "1999.1.1", "latest", "../2026.9.6", "2026.9.6/../x", "releases/2026.8.2", "2026.8.2.json"} {
		if _, ok := envpolicy.For(r); ok {
			t.Errorf("For(%q) has a policy", r)
		}
	}
	if q, ok := envpolicy.For(p.Release()); !ok || q != p {
		t.Errorf("For(pinned) = %v, %v: not the one policy", q, ok)
	}
}

// A release's policy is its own, as each package says: 2026.9.5 added
// the radius provider (RADIUS_API_KEY), the apple-fm-local marker and
// HOMEBREW_CURL_PATH to its workspace .env refusals; 2026.9.4 stopped
// env.vars from setting OPENCLAW_CONFIG_READONLY.
func TestPoliciesDiffer(t *testing.T) {
	tests := []struct {
		release  string
		from95   bool // the 2026.9.5 additions
		readonly bool // env.vars applies OPENCLAW_CONFIG_READONLY
	}{
		{"2026.8.1", false, true},
		{"2026.8.2", false, true},
		{"2026.9.3", false, true},
		{"2026.9.4", false, false},
		{"2026.9.5", true, false},
		{"2026.9.6", true, false},
	}
	for _, tt := range tests {
		p, ok := envpolicy.For(tt.release)
		if !ok {
			t.Fatalf("%s is not carried", tt.release)
		}
		// Its own list refuses HOMEBREW_CURL_PATH, or the pinned one's.
		ref, _ := p.Refused("HOMEBREW_CURL_PATH")
		got := []bool{p.Inference("RADIUS_API_KEY"), p.NonSecretMarker("apple-fm-local"), ref.List == "OpenClaw "+tt.release+" workspace .env policy"}
		if d := cmp.Diff([]bool{tt.from95, tt.from95, tt.from95}, got); d != "" {
			t.Errorf("%s: RADIUS_API_KEY inference, apple-fm-local marker, HOMEBREW_CURL_PATH refused by its own list (-want +got):\n%s", tt.release, d)
		}
		if got := p.ConfigEnvApplies("OPENCLAW_CONFIG_READONLY"); got != tt.readonly {
			t.Errorf("%s: ConfigEnvApplies(OPENCLAW_CONFIG_READONLY) = %v, want %v", tt.release, got, tt.readonly)
		}
	}
}

// #31.4: names that make the gateway or a program it starts load code,
// or change whom it trusts or talks through, are never bindable; the
// grounds are the issue's, not the code's.
func TestRefused(t *testing.T) {
	p := envpolicy.Pinned()
	tests := []struct {
		name   string
		ground string // "" when bindable
	}{
		{"LD_PRELOAD", envpolicy.GroundCode},
		{"LD_AUDIT", envpolicy.GroundCode},
		{"ld_library_path", envpolicy.GroundCode},
		{"DYLD_INSERT_LIBRARIES", envpolicy.GroundCode},
		{"GLIBC_TUNABLES", envpolicy.GroundCode},
		{"NODE_OPTIONS", envpolicy.GroundCode},
		{"NODE_PATH", envpolicy.GroundCode},
		{"NODE_REPL_EXTERNAL_MODULE", envpolicy.GroundCode},
		{"BASH_ENV", envpolicy.GroundCode},
		{"ENV", envpolicy.GroundCode},
		{"PYTHONPATH", envpolicy.GroundCode},
		{"PYTHONSTARTUP", envpolicy.GroundCode},
		{"PERL5OPT", envpolicy.GroundCode},
		{"RUBYOPT", envpolicy.GroundCode},
		{"JAVA_TOOL_OPTIONS", envpolicy.GroundCode},
		{"_JAVA_OPTIONS", envpolicy.GroundCode},
		{"DOTNET_STARTUP_HOOKS", envpolicy.GroundCode},
		{"GIT_SSH_COMMAND", envpolicy.GroundCode},
		{"GIT_CONFIG_VALUE_0", envpolicy.GroundCode},
		{"NPM_CONFIG_PREFIX", envpolicy.GroundCode},
		{"PROMPT_COMMAND", envpolicy.GroundCode},
		{"BROWSER", envpolicy.GroundCode},
		{"SSL_CERT_FILE", envpolicy.GroundTrust},
		{"SSL_CERT_DIR", envpolicy.GroundTrust},
		{"NODE_EXTRA_CA_CERTS", envpolicy.GroundCode},
		{"NODE_TLS_REJECT_UNAUTHORIZED", envpolicy.GroundCode},
		{"REQUESTS_CA_BUNDLE", envpolicy.GroundTrust},
		{"CURL_CA_BUNDLE", envpolicy.GroundTrust},
		{"HTTP_PROXY", envpolicy.GroundTrust},
		{"HTTPS_PROXY", envpolicy.GroundTrust},
		{"https_proxy", envpolicy.GroundTrust},
		{"All_Proxy", envpolicy.GroundTrust},
		{"no_proxy", envpolicy.GroundTrust},
		{"SOCKS5_PROXY", envpolicy.GroundTrust},
		{"SSLKEYLOGFILE", envpolicy.GroundCode},
		{"KUBECONFIG", envpolicy.GroundTrust},
		{"OPENAI_BASE_URL", envpolicy.GroundTrust},
		{"SLACK_API_URL", envpolicy.GroundTrust},
		{"MY_SERVICE_ENDPOINT", envpolicy.GroundTrust},
		{"SMS_DANGEROUSLY_DISABLE_SIGNATURE_VALIDATION", envpolicy.GroundTrust},
		{"HOSTALIASES", envpolicy.GroundCode},
		// Channel and feature credentials are what bindings are for.
		{"TELEGRAM_BOT_TOKEN", ""},
		{"SLACK_BOT_TOKEN", ""},
		{"SLACK_APP_TOKEN", ""},
		{"DISCORD_BOT_TOKEN", ""},
		{"GITHUB_TOKEN", ""},
		{"DATABASE_URL", ""},
		{"MEMORY_KEY", ""},
		{"AWS_SECRET_ACCESS_KEY", ""},
		{"MOONSHOT_API_KEY", ""},
	}
	for _, tt := range tests {
		r, refused := p.Refused(tt.name)
		switch {
		case tt.ground == "" && refused:
			t.Errorf("%s is refused (%+v), want bindable", tt.name, r)
		case tt.ground != "" && !refused:
			t.Errorf("%s is bindable, want refused", tt.name)
		case refused && r.List == "":
			t.Errorf("%s: refusal names no list", tt.name)
		}
	}
}

// AUTH-6: the inference credentials of OpenClaw's provider table (and
// AWS SDK auth, and the rotation forms) never reach a dedicated gateway.
func TestInference(t *testing.T) {
	p := envpolicy.Pinned()
	for _, n := range []string{
		"OPENAI_API_KEY", "ANTHROPIC_API_KEY", "CODEX_ACCESS_TOKEN", "CODEX_API_KEY",
		"MOONSHOT_API_KEY", "KIMI_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY", "DEEPSEEK_API_KEY",
		"AWS_SECRET_ACCESS_KEY", "AWS_BEARER_TOKEN_BEDROCK", "AWS_ACCESS_KEY_ID",
		"OPENAI_API_KEYS", "OPENAI_API_KEY_2", "GEMINI_API_KEYS", "openrouter_api_key",
		// GitHub Copilot's model credential, in OpenClaw's own list.
		"GITHUB_TOKEN", "GH_TOKEN", "COPILOT_GITHUB_TOKEN",
	} {
		if !p.Inference(n) {
			t.Errorf("%s is not an inference credential", n)
		}
	}
	for _, n := range []string{"TELEGRAM_BOT_TOKEN", "GITLAB_TOKEN", "SLACK_APP_TOKEN", "MEMORY_KEY", "DATABASE_URL"} {
		if p.Inference(n) {
			t.Errorf("%s is an inference credential", n)
		}
	}
	names := p.InferenceNames()
	if len(names) < 80 {
		t.Errorf("%d inference names: the provider table did not load", len(names))
	}
}

func TestNonSecretMarker(t *testing.T) {
	p := envpolicy.Pinned()
	for _, v := range []string{"ollama-local", " secretref-managed ", "oauth:openai", "oauth:minimax-portal", "custom-local"} {
		if !p.NonSecretMarker(v) {
			t.Errorf("%q is no marker", v)
		}
	}
	for _, v := range []string{"", "oauth:", "oauth:Sk-Live", "sk-live-123", "ollama-local2"} {
		if p.NonSecretMarker(v) {
			t.Errorf("%q is a marker", v)
		}
	}
}

func TestConfigEnvApplies(t *testing.T) {
	p := envpolicy.Pinned()
	for n, want := range map[string]bool{
		"REGION": true, "_X": true, "my_var": true,
		"": false, "A-B": false, "1X": false, "NODE_OPTIONS": false, "LD_PRELOAD": false,
		"OPENCLAW_INCLUDE_ROOTS": false, "HOME": false, "HTTPS_PROXY": false,
	} {
		if got := p.ConfigEnvApplies(n); got != want {
			t.Errorf("ConfigEnvApplies(%q) = %v, want %v", n, got, want)
		}
	}
}

// TestNilPolicyIsPinned checks that a nil *Policy (the zero
// compile.SecretPolicy's) answers as the pinned release's.
func TestNilPolicyIsPinned(t *testing.T) {
	var nilPol *envpolicy.Policy
	pin := envpolicy.Pinned()
	if nilPol.Release() != pin.Release() {
		t.Errorf("Release %q, want %q", nilPol.Release(), pin.Release())
	}
	for _, name := range []string{"OPENAI_API_KEY", "NODE_OPTIONS", "TEAM", "LD_PRELOAD", "1BAD", ""} {
		if got, want := nilPol.ConfigEnvApplies(name), pin.ConfigEnvApplies(name); got != want {
			t.Errorf("ConfigEnvApplies(%q) = %v, want %v", name, got, want)
		}
		if got, want := nilPol.Inference(name), pin.Inference(name); got != want {
			t.Errorf("Inference(%q) = %v, want %v", name, got, want)
		}
		gr, gok := nilPol.Refused(name)
		wr, wok := pin.Refused(name)
		if gr != wr || gok != wok {
			t.Errorf("Refused(%q) = %v %v, want %v %v", name, gr, gok, wr, wok)
		}
	}
	if !slices.Equal(nilPol.InferenceNames(), pin.InferenceNames()) || nilPol.NonSecretMarker("ollama-local") != pin.NonSecretMarker("ollama-local") {
		t.Error("a nil policy lists other inference names or markers than the pinned one")
	}
}

// The pinned release's refusals are a floor for every older release: an
// endpoint 2026.9.5 learned to refuse is no safer to bind on 2026.8.2.
func TestRefusedFloor(t *testing.T) {
	pinned := envpolicy.Pinned()
	for _, r := range envpolicy.Releases() {
		p, _ := envpolicy.For(r)
		for _, n := range []string{"DISCORD_API_URL", "HOMEBREW_CURL_PATH", "LD_PRELOAD", "NODE_OPTIONS", "HTTPS_PROXY"} {
			if _, ok := p.Refused(n); !ok {
				t.Errorf("%s: %s is bindable", r, n)
			}
		}
		for _, n := range pinned.InferenceNames() {
			if _, ok := pinned.Refused(n); ok {
				continue
			}
			if ref, ok := p.Refused(n); ok {
				t.Errorf("%s: the credential %s is refused (%v), which the pinned release binds", r, n, ref)
			}
		}
	}
}
