package probe

import (
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const plantedKey = "sk-live-PLANTED-SECRET-0123456789"

// PRB-3: the closed sets of a 401 body.
func TestClassifyUpfront_PRB3(t *testing.T) {
	tests := []struct {
		name string
		body string
		want UpfrontResult
	}{
		{"non json", "<html>denied</html>", UpfrontResult{BodyShape: BodyNonJSON}},
		{"empty", "  \n", UpfrontResult{BodyShape: BodyEmpty}},
		{"no error", `{"message":"no"}`, UpfrontResult{BodyShape: BodyJSONNoError}},
		{"null error", `{"error":null}`, UpfrontResult{BodyShape: BodyJSONNoError}},
		{"array", `[1]`, UpfrontResult{BodyShape: BodyJSONNoError}},
		{"string error", `{"error":"unauthorized"}`, UpfrontResult{BodyShape: BodyJSONErrorNoCode}},
		{"null code", `{"error":{"code":null,"type":"authentication_error"}}`, UpfrontResult{BodyShape: BodyJSONErrorNoCode, ProviderErrorType: "authentication_error"}},
		{"off-set values fold", `{"error":{"code":"sk-live-leak","type":"weird"}}`, UpfrontResult{BodyShape: BodyJSONErrorCode, ProviderErrorCode: "other", ProviderErrorType: "other"}},
		{"numeric code folds", `{"error":{"code":401}}`, UpfrontResult{BodyShape: BodyJSONErrorCode, ProviderErrorCode: "other"}},
		{"quota", `{"error":{"code":"insufficient_quota","type":"insufficient_quota"}}`, UpfrontResult{BodyShape: BodyJSONErrorCode, ProviderErrorCode: "insufficient_quota", ProviderErrorType: "insufficient_quota"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.want.Code, tt.want.Provider, tt.want.HeaderMarkers = AuthenticationFailed, ProviderOpenAI, []string{}
			if diff := cmp.Diff(tt.want, ClassifyUpfront(ProviderOpenAI, 401, http.Header{}, []byte(tt.body))); diff != "" {
				t.Errorf("ClassifyUpfront (-want +got):\n%s", diff)
			}
		})
	}
	if got := ClassifyUpfront("azure", 401, nil, nil); got.Code != "" {
		t.Errorf("unknown provider classified: %+v", got)
	}
}

// PRB-3: which provider fragments may use the default endpoint.
func TestUpfrontEligible_PRB3(t *testing.T) {
	tests := []struct {
		provider Provider
		fragment string
		api      API
		ok       bool
	}{
		{ProviderOpenAI, ``, APIOpenAIResponses, true},
		{ProviderOpenAI, `{"baseUrl":"https://api.openai.com/v1/","api":"openai-completions"}`, APIOpenAICompletions, true},
		{ProviderOpenAI, `{"request":{"allowPrivateNetwork":true},"models":[{"id":"gpt-5"}]}`, APIOpenAIResponses, true},
		{ProviderOpenAI, `{"baseUrl":"https://proxy.example/v1"}`, "", false},
		{ProviderOpenAI, `{"headers":{"x":"y"}}`, "", false},
		{ProviderOpenAI, `{"request":{"proxy":"http://p"}}`, "", false},
		{ProviderOpenAI, `{"models":[{"id":"m","headers":{}}]}`, "", false},
		{ProviderOpenAI, `{"models":[{"id":"m","api":"openai-completions"}]}`, "", false},
		{ProviderAnthropic, `{"api":"openai-responses"}`, "", false},
		{ProviderAnthropic, `{}`, APIAnthropicMessages, true},
		{"groq", `{}`, "", false},
	}
	for _, tt := range tests {
		api, ok := UpfrontEligible(tt.provider, []byte(tt.fragment))
		if api != tt.api || ok != tt.ok {
			t.Errorf("UpfrontEligible(%s, %s) = %q, %v; want %q, %v", tt.provider, tt.fragment, api, ok, tt.api, tt.ok)
		}
	}
}
