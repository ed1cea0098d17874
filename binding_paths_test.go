package occkit_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/occkit/occkit"
)

// TestBindingRefusalPaths: every refusal of ValidateAt names the setting
// it refuses and says why, each path and message written out here by
// hand (ValidateAt builds a path only for the refusal that names it).
func TestBindingRefusalPaths(t *testing.T) {
	secret := func(ns, id string) occkit.SourceRef {
		return occkit.SourceRef{Kind: occkit.SourceSecret, NamespaceID: ns, ID: id}
	}
	long := strings.Repeat("a", 257)
	tests := []struct {
		name   string
		b      occkit.Binding
		path   string
		detail string
	}{
		{"unknown method", occkit.Binding{Method: "password"}, "harnessAuth.method", ""},
		{"a source it does not take", occkit.Binding{Method: occkit.MethodRuntime, Source: secret("ns", "id")},
			"harnessAuth.source", "unknown key in harnessAuth: runtime takes no source"},
		{"a source id it does not take", occkit.Binding{Method: occkit.MethodRuntime, SourceID: "x"},
			"harnessAuth.sourceId", "unknown key in harnessAuth: runtime takes no sourceId"},
		{"a source type it does not take", occkit.Binding{Method: occkit.MethodAPIKey, Source: secret("ns", "id"), SourceType: occkit.SourceTypeAPIKey},
			"harnessAuth.sourceType", "unknown key in harnessAuth: api_key takes no sourceType"},
		{"api key from a service account", occkit.Binding{Method: occkit.MethodAPIKey, Source: occkit.SourceRef{Kind: occkit.SourceServiceAccount, NamespaceID: "ns", ID: "id"}},
			"harnessAuth.source.kind", "harnessAuth.source.kind must be secret for api_key"},
		{"a blank namespace", occkit.Binding{Method: occkit.MethodAPIKey, Source: secret(" ", "id")},
			"harnessAuth.source.namespaceId", "harnessAuth.source.namespaceId must be a non-blank, trimmed reference of at most 256 bytes"},
		{"a long id", occkit.Binding{Method: occkit.MethodAPIKey, Source: secret("ns", long)},
			"harnessAuth.source.id", "harnessAuth.source.id must be a non-blank, trimmed reference of at most 256 bytes"},
		{"an id of invalid UTF-8", occkit.Binding{Method: occkit.MethodAPIKey, Source: secret("ns", "a\xffb")},
			"harnessAuth.source.id", "harnessAuth.source.id must be valid UTF-8"},
		{"a control character", occkit.Binding{Method: occkit.MethodCredentialSource, SourceID: "a\x7fb", SourceType: occkit.SourceTypeAPIKey},
			"harnessAuth.sourceId", "harnessAuth.sourceId must not contain control characters"},
		{"an unknown source type", occkit.Binding{Method: occkit.MethodCredentialSource, SourceID: "src", SourceType: "token"},
			"harnessAuth.sourceType", "harnessAuth.sourceType must be api_key or codex-oauth"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var e *occkit.Error
			if err := tt.b.Validate(); !errors.As(err, &e) {
				t.Fatalf("Validate = %v, want an *occkit.Error", err)
			}
			if e.Rule != "AUTH-4a" || e.Path.String() != tt.path {
				t.Errorf("refused %s at %s, want AUTH-4a at %s", e.Rule, e.Path, tt.path)
			}
			if tt.detail != "" && e.Detail != tt.detail {
				t.Errorf("detail %q, want %q", e.Detail, tt.detail)
			}
		})
	}
	for _, b := range []occkit.Binding{
		{Method: occkit.MethodAPIKey, Source: secret("ns_1", "sec_1")},
		{Method: occkit.MethodCodexPAT, Source: occkit.SourceRef{Kind: occkit.SourceServiceAccount, NamespaceID: "ns", ID: "sa"}},
		{Method: occkit.MethodCredentialSource, SourceID: "src", SourceType: occkit.SourceTypeCodexOAuth},
		{Method: occkit.MethodRuntime},
	} {
		if err := b.Validate(); err != nil {
			t.Errorf("%+v refused: %v", b, err)
		}
	}
}
