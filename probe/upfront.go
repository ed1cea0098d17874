package probe

import (
	"bytes"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/tidwall/gjson"
)

// Provider is a provider whose default endpoint the upfront check knows
// (PRB-3). The set is closed: see [AllProviders].
type Provider string

// The providers with a default endpoint.
const (
	// ProviderOpenAI: https://api.openai.com/v1, Bearer authorization.
	ProviderOpenAI Provider = "openai"
	// ProviderAnthropic: https://api.anthropic.com, x-api-key and
	// anthropic-version headers; setup tokens (sk-ant-oat…) are skipped.
	ProviderAnthropic Provider = "anthropic"
)

// AllProviders lists every [Provider].
func AllProviders() []Provider { return []Provider{ProviderOpenAI, ProviderAnthropic} }

// API is the model API a provider configuration selects; it decides the
// path of the upfront request, since a key may be scoped to one endpoint.
type API string

// The APIs of the default endpoints.
const (
	APIOpenAIResponses   API = "openai-responses"
	APIOpenAICompletions API = "openai-completions"
	APIAnthropicMessages API = "anthropic-messages"
)

// Default endpoint bases.
const (
	DefaultOpenAIBase    = "https://api.openai.com/v1"
	DefaultAnthropicBase = "https://api.anthropic.com"
)

// UpfrontTimeout bounds the upfront request.
const UpfrontTimeout = 8 * time.Second

// BodyShape is the closed shape of a 401 answer's body (PRB-3).
type BodyShape string

// The body shapes.
const (
	BodyJSONErrorCode   BodyShape = "json-error-code"
	BodyJSONErrorNoCode BodyShape = "json-error-no-code"
	BodyJSONNoError     BodyShape = "json-no-error"
	BodyNonJSON         BodyShape = "non-json"
	BodyEmpty           BodyShape = "empty"
)

// AllBodyShapes lists every [BodyShape].
func AllBodyShapes() []BodyShape {
	return []BodyShape{BodyJSONErrorCode, BodyJSONErrorNoCode, BodyJSONNoError, BodyNonJSON, BodyEmpty}
}

// ResponseHeaderMarkers are the header names the upfront check may report,
// sorted. Values are never read.
func ResponseHeaderMarkers() []string {
	return []string{"anthropic-organization-id", "cf-ray", "openai-organization", "request-id", "www-authenticate", "x-request-id"}
}

// ProviderErrorCodes is the closed set of error.code values reported as
// themselves; any other value is "other".
func ProviderErrorCodes() []string {
	return []string{"invalid_api_key", "invalid_x_api_key", "invalid_authentication", "account_deactivated",
		"insufficient_quota", "authentication_error", "permission_error", "other"}
}

// ProviderErrorTypes is the closed set of error.type values reported as
// themselves; any other value is "other".
func ProviderErrorTypes() []string {
	return []string{"invalid_request_error", "authentication_error", "permission_error", "insufficient_quota", "other"}
}

// UpfrontResult is the verdict of the upfront check. Only a 401 from a
// known provider's default endpoint is a verdict; everything else falls
// through to the full probe (Code "").
type UpfrontResult struct {
	// Code is [AuthenticationFailed] on a 401, "" to fall through.
	Code Code
	// Provider is whose default endpoint answered (set with a verdict).
	Provider Provider
	// HeaderMarkers are the recognised header names present, sorted.
	HeaderMarkers []string
	// BodyShape is the shape of the 401 body.
	BodyShape BodyShape
	// ProviderErrorCode and ProviderErrorType come from error.code and
	// error.type, folded to "other" off the closed sets; "" when missing.
	ProviderErrorCode string
	ProviderErrorType string
}

// ClassifyUpfront classifies an answer to the upfront request (PRB-3).
func ClassifyUpfront(provider Provider, status int, header http.Header, body []byte) UpfrontResult {
	if status != http.StatusUnauthorized || (provider != ProviderOpenAI && provider != ProviderAnthropic) {
		return UpfrontResult{}
	}
	r := UpfrontResult{Code: AuthenticationFailed, Provider: provider, HeaderMarkers: []string{}}
	for _, name := range ResponseHeaderMarkers() {
		if _, ok := header[http.CanonicalHeaderKey(name)]; ok {
			r.HeaderMarkers = append(r.HeaderMarkers, name)
		}
	}
	sort.Strings(r.HeaderMarkers)
	trimmed := bytes.TrimSpace(body)
	switch {
	case len(trimmed) == 0:
		r.BodyShape = BodyEmpty
		return r
	case !validJSON(trimmed):
		r.BodyShape = BodyNonJSON
		return r
	}
	doc := gjson.ParseBytes(trimmed)
	errValue := doc.Get("error")
	if !doc.IsObject() || !errValue.Exists() || errValue.Type == gjson.Null {
		r.BodyShape = BodyJSONNoError
		return r
	}
	code := errValue.Get("code")
	if errValue.IsObject() && code.Exists() && code.Type != gjson.Null {
		r.BodyShape = BodyJSONErrorCode
	} else {
		r.BodyShape = BodyJSONErrorNoCode
	}
	if errValue.IsObject() {
		r.ProviderErrorCode = closedToken(code, ProviderErrorCodes())
		r.ProviderErrorType = closedToken(errValue.Get("type"), ProviderErrorTypes())
	}
	return r
}

// closedToken folds a value onto a closed set: "" when missing, the value
// when a member, "other" otherwise.
func closedToken(v gjson.Result, set []string) string {
	if !v.Exists() || v.Type == gjson.Null {
		return ""
	}
	if v.Type == gjson.String {
		for _, s := range set {
			if v.Str == s {
				return s
			}
		}
	}
	return "other"
}

// UpfrontEligible reports whether a provider's configuration fragment
// (models.providers.<provider>) uses the default endpoint unchanged, and
// which API it selects. A custom endpoint, API, headers, request options
// other than allowPrivateNetwork, or a model overriding the API or
// endpoint skips the upfront request. A missing fragment is eligible.
//
// fragment is the JSON text of the fragment; nil or empty is missing.
func UpfrontEligible(provider Provider, fragment []byte) (API, bool) {
	return upfrontEligible(provider, jsonValue(fragment))
}

// upfrontEligible is the parser behind the exported function, on a value already read.
func upfrontEligible(provider Provider, fragment gjson.Result) (API, bool) {
	var base string
	var apis []API
	switch provider {
	case ProviderOpenAI:
		base, apis = DefaultOpenAIBase, []API{APIOpenAIResponses, APIOpenAICompletions}
	case ProviderAnthropic:
		base, apis = DefaultAnthropicBase, []API{APIAnthropicMessages}
	default:
		return "", false
	}
	if fragment.Exists() && fragment.Type != gjson.Null && !fragment.IsObject() {
		return "", false
	}
	ok := true
	fragment.ForEach(func(k, _ gjson.Result) bool {
		switch k.String() {
		case "baseUrl", "api", "models", "request":
		default:
			ok = false
		}
		return ok
	})
	fragment.Get("request").ForEach(func(k, _ gjson.Result) bool {
		ok = ok && k.String() == "allowPrivateNetwork"
		return ok
	})
	if !ok {
		return "", false
	}
	if b := fragment.Get("baseUrl"); b.Exists() && strings.TrimRight(b.String(), "/") != base {
		return "", false
	}
	api := apis[0]
	if a := fragment.Get("api"); a.Exists() {
		api = API(a.String())
	}
	known := false
	for _, a := range apis {
		known = known || a == api
	}
	if !known || strings.Contains(fragment.Get("models").Raw, `"headers"`) {
		return "", false
	}
	for _, m := range fragment.Get("models").Array() {
		if a := m.Get("api"); (a.Exists() && API(a.String()) != api) || m.Get("baseUrl").Exists() {
			return "", false
		}
	}
	return api, true
}

// jsonValue reads raw JSON text as a gjson value; nil or empty raw is an
// absent value (so absent and JSON null stay distinct).
func jsonValue(raw []byte) gjson.Result {
	if len(raw) == 0 {
		return gjson.Result{}
	}
	return gjson.ParseBytes(raw)
}
