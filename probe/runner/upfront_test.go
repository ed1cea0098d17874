package runner

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/occkit/occkit/probe"
)

const plantedKey = "sk-live-PLANTED-SECRET-0123456789"

// fakeProvider answers like a provider's default endpoint and records the
// request it saw.
type fakeProvider struct {
	mu      sync.Mutex
	method  string
	path    string
	header  http.Header
	body    string
	status  int
	headers map[string]string
	answer  string
	delay   time.Duration
}

func (f *fakeProvider) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	f.mu.Lock()
	f.method, f.path, f.header, f.body = r.Method, r.URL.Path, r.Header.Clone(), string(b)
	status, headers, answer, delay := f.status, f.headers, f.answer, f.delay
	f.mu.Unlock()
	if delay > 0 {
		select {
		case <-time.After(delay):
		case <-r.Context().Done():
			return
		}
	}
	for k, v := range headers {
		w.Header().Set(k, v)
	}
	w.WriteHeader(status)
	_, _ = io.WriteString(w, answer)
}

// PRB-3: the upfront request against servers that answer like OpenAI and
// Anthropic.
func TestUpfrontCheck_PRB3(t *testing.T) {
	tests := []struct {
		name       string
		provider   probe.Provider
		api        probe.API
		key        string
		fake       *fakeProvider
		wantPath   string
		wantHeader map[string]string
		want       probe.UpfrontResult
	}{
		{
			name: "openai rejects the key", provider: probe.ProviderOpenAI, api: probe.APIOpenAIResponses, key: plantedKey,
			fake: &fakeProvider{status: 401, headers: map[string]string{"X-Request-Id": "req_1", "Www-Authenticate": "Bearer", "Openai-Organization": "org", "Set-Cookie": "a=b"},
				answer: `{"error":{"message":"Incorrect API key provided: sk-live-***6789.","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}`},
			wantPath: "/v1/responses", wantHeader: map[string]string{"Authorization": "Bearer " + plantedKey, "Content-Type": "application/json"},
			want: probe.UpfrontResult{Code: probe.AuthenticationFailed, Provider: probe.ProviderOpenAI, HeaderMarkers: []string{"openai-organization", "www-authenticate", "x-request-id"},
				BodyShape: probe.BodyJSONErrorCode, ProviderErrorCode: "invalid_api_key", ProviderErrorType: "invalid_request_error"},
		},
		{
			name: "openai completions path", provider: probe.ProviderOpenAI, api: probe.APIOpenAICompletions, key: " " + plantedKey + "\n",
			fake:     &fakeProvider{status: 401, answer: ""},
			wantPath: "/v1/chat/completions", wantHeader: map[string]string{"Authorization": "Bearer " + plantedKey},
			want: probe.UpfrontResult{Code: probe.AuthenticationFailed, Provider: probe.ProviderOpenAI, HeaderMarkers: []string{}, BodyShape: probe.BodyEmpty},
		},
		{
			name: "anthropic rejects the key", provider: probe.ProviderAnthropic, api: probe.APIAnthropicMessages, key: plantedKey,
			fake: &fakeProvider{status: 401, headers: map[string]string{"Request-Id": "req_2", "Anthropic-Organization-Id": "o", "Cf-Ray": "r"},
				answer: `{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}`},
			wantPath: "/v1/messages", wantHeader: map[string]string{"X-Api-Key": plantedKey, "Anthropic-Version": "2023-06-01"},
			want: probe.UpfrontResult{Code: probe.AuthenticationFailed, Provider: probe.ProviderAnthropic, HeaderMarkers: []string{"anthropic-organization-id", "cf-ray", "request-id"},
				BodyShape: probe.BodyJSONErrorNoCode, ProviderErrorType: "authentication_error"},
		},
		{
			name: "400 for the empty body falls through", provider: probe.ProviderOpenAI, key: plantedKey,
			fake:     &fakeProvider{status: 400, answer: `{"error":{"message":"Missing required parameter: 'model'.","type":"invalid_request_error","code":"missing_required_parameter"}}`},
			wantPath: "/v1/responses", want: probe.UpfrontResult{},
		},
		{
			name: "403 falls through", provider: probe.ProviderAnthropic, key: plantedKey,
			fake:     &fakeProvider{status: 403, answer: `{"type":"error","error":{"type":"permission_error"}}`},
			wantPath: "/v1/messages", want: probe.UpfrontResult{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fake := tt.fake
			srv := httptest.NewServer(fake)
			defer srv.Close()
			u := Upfront{OpenAIBase: srv.URL + "/v1", AnthropicBase: srv.URL}
			got := u.Check(context.Background(), tt.provider, tt.api, tt.key)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Check (-want +got):\n%s", diff)
			}
			fake.mu.Lock()
			defer fake.mu.Unlock()
			if fake.method != http.MethodPost || fake.path != tt.wantPath || fake.body != "{}" {
				t.Errorf("request %s %s %q, want POST %s {}", fake.method, fake.path, fake.body, tt.wantPath)
			}
			for k, v := range tt.wantHeader {
				if fake.header.Get(k) != v {
					t.Errorf("header %s = %q, want %q", k, fake.header.Get(k), v)
				}
			}
			if s := fmt.Sprintf("%+v", got); strings.Contains(s, plantedKey) {
				t.Errorf("result carries the credential: %s", s)
			}
		})
	}
}

// roundTripper is an http.RoundTripper made of a function.
type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// PRB-3: the limit holds: the request carries a deadline Timeout after the
// check starts, and a provider that never answers falls through once it
// passes. Nothing here measures how long the check took.
func TestUpfrontCheck_Limit_PRB3(t *testing.T) {
	const limit = 100 * time.Millisecond
	var entered, deadline time.Time
	var hasDeadline bool
	u := Upfront{OpenAIBase: "https://provider.invalid/v1", Timeout: limit, Client: &http.Client{Transport: roundTripper(func(r *http.Request) (*http.Response, error) {
		entered = time.Now()
		deadline, hasDeadline = r.Context().Deadline()
		<-r.Context().Done() // a provider that never answers
		return nil, r.Context().Err()
	})}}
	before := time.Now()
	got := checkInBackground(t, u, probe.ProviderOpenAI, plantedKey)
	if got.Code != "" {
		t.Errorf("a provider that never answers: %+v", got)
	}
	if !hasDeadline || deadline.Before(before.Add(limit)) || deadline.After(entered.Add(limit)) {
		t.Errorf("request deadline %v (set %v), want %v after the check started (between %v and %v)",
			deadline, hasDeadline, limit, before.Add(limit), entered.Add(limit))
	}
}

// checkInBackground runs u.Check, failing t if it never returns.
func checkInBackground(t *testing.T, u Upfront, p probe.Provider, key string) probe.UpfrontResult {
	t.Helper()
	done := make(chan probe.UpfrontResult, 1)
	go func() { done <- u.Check(context.Background(), p, "", key) }()
	select {
	case got := <-done:
		return got
	case <-time.After(hangLimit):
		t.Fatal("Check did not return: its limit does not hold")
		return probe.UpfrontResult{}
	}
}

// PRB-3: no request without a usable credential; an Anthropic setup token
// and an endpoint that never answers fall through.
func TestUpfrontCheck_FallsThrough_PRB3(t *testing.T) {
	fake := &fakeProvider{status: 401, delay: 2 * hangLimit} // answers only once the client gave up
	srv := httptest.NewServer(fake)
	defer srv.Close()
	u := Upfront{OpenAIBase: srv.URL, AnthropicBase: srv.URL, Timeout: 100 * time.Millisecond}
	if got := checkInBackground(t, u, probe.ProviderOpenAI, plantedKey); got.Code != "" {
		t.Errorf("slow endpoint: %+v", got)
	}
	fake.mu.Lock()
	fake.method = ""
	fake.mu.Unlock()
	for _, c := range []struct {
		p   probe.Provider
		api probe.API
		key string
	}{{probe.ProviderAnthropic, "", "sk-ant-oat01-abc"}, {probe.ProviderOpenAI, "", "  "}, {"mistral", "", plantedKey}, {probe.ProviderOpenAI, probe.APIAnthropicMessages, plantedKey}} {
		if got := u.Check(context.Background(), c.p, c.api, c.key); got.Code != "" {
			t.Errorf("%s %q: %+v", c.p, c.key, got)
		}
	}
	fake.mu.Lock()
	defer fake.mu.Unlock()
	if fake.method != "" {
		t.Errorf("a skipped check sent a request")
	}
	dead := Upfront{OpenAIBase: "http://127.0.0.1:1"}
	if got := dead.Check(context.Background(), probe.ProviderOpenAI, "", plantedKey); got.Code != "" {
		t.Errorf("unreachable endpoint: %+v", got)
	}
}
