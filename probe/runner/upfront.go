package runner

import (
	"context"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/occkit/occkit/probe"
)

// maxUpfrontBody caps how much of the answer is read to classify it.
const maxUpfrontBody = 64 << 10

// Upfront sends OpenClaw's first, empty request to a provider's default
// endpoint to find a rejected credential before the full probe (PRB-3).
// The zero value uses the real endpoints and an 8 s limit.
type Upfront struct {
	// Client sends the request; nil means a client with [probe.UpfrontTimeout].
	Client *http.Client
	// OpenAIBase and AnthropicBase override the endpoint bases (tests).
	OpenAIBase, AnthropicBase string
	// Timeout bounds the request; 0 means [probe.UpfrontTimeout].
	Timeout time.Duration
}

// Check sends one POST with an empty JSON body ("{}") to the path of api,
// with the credential only in the authorization header, and classifies the
// answer with [probe.ClassifyUpfront]. A transport error, a timeout or an
// unsupported provider, API or credential falls through (Code ""); the
// credential never appears in the result.
func (u Upfront) Check(ctx context.Context, provider probe.Provider, api probe.API, credential string) probe.UpfrontResult {
	key := strings.TrimSpace(credential)
	if key == "" {
		return probe.UpfrontResult{}
	}
	var url string
	header := http.Header{"Content-Type": {"application/json"}}
	switch {
	case provider == probe.ProviderOpenAI && (api == probe.APIOpenAIResponses || api == probe.APIOpenAICompletions || api == ""):
		path := "/responses"
		if api == probe.APIOpenAICompletions {
			path = "/chat/completions"
		}
		url = strings.TrimRight(orDefault(u.OpenAIBase, probe.DefaultOpenAIBase), "/") + path
		header.Set("Authorization", "Bearer "+key)
	case provider == probe.ProviderAnthropic && (api == probe.APIAnthropicMessages || api == "") && !strings.HasPrefix(key, "sk-ant-oat"):
		url = strings.TrimRight(orDefault(u.AnthropicBase, probe.DefaultAnthropicBase), "/") + "/v1/messages"
		header.Set("X-Api-Key", key)
		header.Set("Anthropic-Version", "2023-06-01")
	default:
		return probe.UpfrontResult{}
	}
	timeout := u.Timeout
	if timeout <= 0 {
		timeout = probe.UpfrontTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader("{}"))
	if err != nil {
		return probe.UpfrontResult{}
	}
	req.Header = header
	client := u.Client
	if client == nil {
		// Never follow a redirect: only the default endpoint's own answer
		// is evidence, and the credential must not travel elsewhere.
		client = &http.Client{Timeout: timeout, CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		}}
	}
	resp, err := client.Do(req)
	if err != nil {
		return probe.UpfrontResult{}
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, maxUpfrontBody))
	return probe.ClassifyUpfront(provider, resp.StatusCode, resp.Header, body)
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
