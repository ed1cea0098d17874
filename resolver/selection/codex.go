package selection

import (
	"net/url"
	"strings"

	"github.com/occkit/occkit"
)

// CodexHarness returns the built-in rules of the `codex` runtime as a
// [HarnessPlugin] (SEL-4..SEL-6). Register it to make Codex selectable:
//
//   - provider `openai`: supported on an official OpenAI route (see
//     [OfficialOpenAIRoute]) without request overrides; with overrides it
//     declares the OpenClaw fallback; any other route is unsupported;
//   - provider `codex` (the native Codex provider): supported, or the
//     OpenClaw fallback when request overrides are authored;
//   - every other provider: unsupported.
//
// It auto-selects for `codex` and `openai` (the latter only through the
// OpenAI rule of SEL-4) with priority 0.
func CodexHarness() HarnessPlugin { return codexHarness{} }

type codexHarness struct{}

func (codexHarness) ID() string              { return string(occkit.HarnessCodex) }
func (codexHarness) AutoProviders() []string { return []string{"codex", "openai"} }
func (codexHarness) Priority() int           { return 0 }

func (codexHarness) Supports(f RouteFacts) Support {
	switch f.Provider {
	case "codex":
		if f.HasOverrides() {
			return FallbackToOpenClaw("authored request overrides are reproduced by OpenClaw")
		}
		return Supported()
	case "openai":
		if !OfficialOpenAIRoute(f) {
			return Unsupported("route is not an official OpenAI Responses route")
		}
		if f.HasOverrides() {
			return FallbackToOpenClaw("authored request overrides are reproduced by OpenClaw")
		}
		return Supported()
	}
	return Unsupported("provider is not served by the codex harness")
}

// OfficialOpenAIRoute reports whether f describes one of the official
// HTTPS Responses routes of SEL-4, ignoring request overrides:
//
//   - the Platform route: base URL unset, or `https://api.openai.com` with
//     an empty path, `/`, `/v1` or `/v1/`, and adapter unset or
//     `openai-responses`;
//   - the ChatGPT Responses route: base URL `https://chatgpt.com/backend-api`
//     (OpenClaw's default for the ChatGPT adapter) or its Codex path
//     `https://chatgpt.com/backend-api/codex`, each optionally with a
//     trailing `/`, or unset, with adapter `openai-chatgpt-responses`
//     (unset is accepted with such a URL).
//
// Host names compare case-insensitively; an explicit port other than 443,
// plain `http`, userinfo, a query or a fragment make the route custom.
func OfficialOpenAIRoute(f RouteFacts) bool {
	api := strings.ToLower(strings.TrimSpace(f.API))
	if f.BaseURLStripped {
		return false
	}
	raw := strings.TrimSpace(f.BaseURL)
	if raw == "" {
		return api == "" || api == codexAPIResponses || api == codexAPIChatGPT
	}
	host, path, ok := httpsHostPath(raw)
	if !ok {
		return false
	}
	switch host {
	case "api.openai.com":
		switch path {
		case "", "/", "/v1", "/v1/":
			return api == "" || api == codexAPIResponses
		}
	case "chatgpt.com":
		switch path {
		case "/backend-api", "/backend-api/", "/backend-api/codex", "/backend-api/codex/":
			return api == "" || api == codexAPIChatGPT
		}
	}
	return false
}

const (
	codexAPIResponses = "openai-responses"
	codexAPIChatGPT   = "openai-chatgpt-responses"
)

// httpsHostPath splits an https URL into its lower-cased host and its
// path, refusing any other scheme, a non-443 port, userinfo, a query or a
// fragment.
func httpsHostPath(raw string) (host, path string, ok bool) {
	if plainURL(raw) { // read as url.Parse reads it, without parsing
		rest, https := strings.CutPrefix(raw, "https://")
		if !https {
			return "", "", false
		}
		host, path = rest, ""
		if i := strings.IndexByte(rest, '/'); i >= 0 {
			host, path = rest[:i], rest[i:]
		}
		if h, port, ok := strings.Cut(host, ":"); ok {
			if port != "" && port != "443" {
				return "", "", false
			}
			host = h
		}
		return strings.ToLower(host), path, true
	}
	u, err := url.Parse(raw)
	if err != nil || !strings.EqualFold(u.Scheme, "https") || u.Opaque != "" {
		return "", "", false
	}
	if u.User != nil || u.RawQuery != "" || u.ForceQuery || u.Fragment != "" || strings.Contains(raw, "#") {
		return "", "", false
	}
	if p := u.Port(); p != "" && p != "443" {
		return "", "", false
	}
	return strings.ToLower(u.Hostname()), u.EscapedPath(), true
}

// sanitizeURL returns raw without userinfo, query and fragment, and
// whether anything was removed. A value that does not parse as a URL is
// reported as "" and stripped, so it can never leak into facts or reasons.
func sanitizeURL(raw string) (string, bool) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return "", false
	}
	if plainURL(raw) {
		return raw, false
	}
	u, err := url.Parse(raw)
	if err != nil {
		return "", true
	}
	stripped := u.User != nil || u.RawQuery != "" || u.ForceQuery || u.Fragment != "" || strings.Contains(raw, "#")
	u.User, u.RawQuery, u.ForceQuery, u.Fragment, u.RawFragment = nil, "", false, "", ""
	return u.String(), stripped
}

// plainURL reports whether raw is a URL that url.Parse reads and
// [url.URL.String] writes back unchanged, with nothing to strip: a scheme
// of lower-case letters, "://", a host of ASCII letters, digits, dots and
// hyphens with an optional port of digits, and a path of unreserved
// characters and slashes (no escape, query, fragment or userinfo).
// sanitizeURL then returns raw itself, without parsing it: the base URL
// of almost every provider config. TestPlainURLParses holds it to
// url.Parse.
func plainURL(raw string) bool {
	i := 0
	for i < len(raw) && 'a' <= raw[i] && raw[i] <= 'z' {
		i++
	}
	if i == 0 || !strings.HasPrefix(raw[i:], "://") {
		return false
	}
	i += len("://")
	host := i
	for i < len(raw) && (isAlnum(raw[i]) || raw[i] == '.' || raw[i] == '-') {
		i++
	}
	if i == host {
		return false
	}
	if i < len(raw) && raw[i] == ':' {
		for i++; i < len(raw) && '0' <= raw[i] && raw[i] <= '9'; i++ {
		}
	}
	if i < len(raw) && raw[i] != '/' {
		return false
	}
	for ; i < len(raw); i++ {
		if c := raw[i]; !isAlnum(c) && c != '/' && c != '-' && c != '.' && c != '_' && c != '~' {
			return false
		}
	}
	return true
}

func isAlnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}
