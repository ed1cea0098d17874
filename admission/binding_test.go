package admission_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tidwall/gjson"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/admission"
)

func TestParseBinding(t *testing.T) {
	secret := occkit.SourceRef{Kind: occkit.SourceSecret, NamespaceID: "ns_1", ID: "sec_1"}
	tests := []struct {
		name     string
		in       string
		want     occkit.Binding
		wantCode occkit.Code
		wantPath string
		// wantSuggestion is the refusal's did-you-mean.
		wantSuggestion string
	}{
		{name: "absent is no binding", in: ``},
		{name: "null is no binding", in: `null`},
		{name: "runtime", in: `{"method":"runtime"}`, want: occkit.Binding{Method: occkit.MethodRuntime}},
		{name: "api_key with a secret", in: `{"method":"api_key","source":{"kind":"secret","namespaceId":"ns_1","id":"sec_1"}}`,
			want: occkit.Binding{Method: occkit.MethodAPIKey, Source: secret}},
		{name: "codex_pat with a secret", in: `{"source":{"id":"sec_1","namespaceId":"ns_1","kind":"secret"},"method":"codex_pat"}`,
			want: occkit.Binding{Method: occkit.MethodCodexPAT, Source: secret}},
		{name: "codex_pat with a service account", in: `{"method":"codex_pat","source":{"kind":"service_account","namespaceId":"ns_1","id":"sa_1"}}`,
			want: occkit.Binding{Method: occkit.MethodCodexPAT, Source: occkit.SourceRef{Kind: occkit.SourceServiceAccount, NamespaceID: "ns_1", ID: "sa_1"}}},
		{name: "credential_source api_key", in: `{"method":"credential_source","sourceId":"cs_1","sourceType":"api_key"}`,
			want: occkit.Binding{Method: occkit.MethodCredentialSource, SourceID: "cs_1", SourceType: occkit.SourceTypeAPIKey}},
		{name: "credential_source codex-oauth", in: `{"method":"credential_source","sourceId":"cs_1","sourceType":"codex-oauth"}`,
			want: occkit.Binding{Method: occkit.MethodCredentialSource, SourceID: "cs_1", SourceType: occkit.SourceTypeCodexOAuth}},

		{name: "not an object", in: `"api_key"`, wantCode: occkit.CodeInvalidRequest, wantPath: "harnessAuth"},
		{name: "missing method", in: `{}`, wantCode: occkit.CodeInvalidRequest, wantPath: "harnessAuth.method"},
		{name: "method not a string", in: `{"method":1}`, wantCode: occkit.CodeInvalidRequest, wantPath: "harnessAuth.method"},
		{name: "unknown method", in: `{"method":"oauth"}`, wantCode: occkit.CodeInvalidRequest, wantPath: "harnessAuth.method"},
		{name: "chatgpt_service_account is not an occkit method", in: `{"method":"chatgpt_service_account","serviceAccountId":"sa_1"}`,
			wantCode: occkit.CodeInvalidRequest, wantPath: "harnessAuth.method"},
		{name: "runtime with extra key", in: `{"method":"runtime","source":{}}`, wantCode: occkit.CodeInvalidRequest, wantPath: "harnessAuth.source"},
		{name: "api_key without source", in: `{"method":"api_key"}`, wantCode: occkit.CodeInvalidRequest, wantPath: "harnessAuth.source"},
		{name: "api_key with service account", in: `{"method":"api_key","source":{"kind":"service_account","namespaceId":"ns_1","id":"sa_1"}}`,
			wantCode: occkit.CodeInvalidRequest, wantPath: "harnessAuth.source.kind"},
		{name: "source extra key", in: `{"method":"api_key","source":{"kind":"secret","namespaceId":"ns_1","id":"sec_1","value":"x"}}`,
			wantCode: occkit.CodeInvalidRequest, wantPath: "harnessAuth.source.value"},
		{name: "source missing id", in: `{"method":"api_key","source":{"kind":"secret","namespaceId":"ns_1"}}`,
			wantCode: occkit.CodeInvalidRequest, wantPath: "harnessAuth.source.id"},
		{name: "source id blank", in: `{"method":"api_key","source":{"kind":"secret","namespaceId":"ns_1","id":"  "}}`,
			wantCode: occkit.CodeInvalidRequest, wantPath: "harnessAuth.source.id"},
		{name: "source id not a string", in: `{"method":"api_key","source":{"kind":"secret","namespaceId":"ns_1","id":7}}`,
			wantCode: occkit.CodeInvalidRequest, wantPath: "harnessAuth.source.id"},
		{name: "source not an object", in: `{"method":"codex_pat","source":"sec_1"}`, wantCode: occkit.CodeInvalidRequest, wantPath: "harnessAuth.source"},
		{name: "codex_pat unknown kind", in: `{"method":"codex_pat","source":{"kind":"file","namespaceId":"ns_1","id":"x"}}`,
			wantCode: occkit.CodeInvalidRequest, wantPath: "harnessAuth.source.kind"},
		{name: "credential_source missing sourceType", in: `{"method":"credential_source","sourceId":"cs_1"}`,
			wantCode: occkit.CodeInvalidRequest, wantPath: "harnessAuth.sourceType"},
		{name: "credential_source unknown sourceType", in: `{"method":"credential_source","sourceId":"cs_1","sourceType":"oauth"}`,
			wantCode: occkit.CodeInvalidRequest, wantPath: "harnessAuth.sourceType"},
		{name: "credential_source with a secret source", in: `{"method":"credential_source","sourceId":"cs_1","sourceType":"api_key","source":{}}`,
			wantCode: occkit.CodeInvalidRequest, wantPath: "harnessAuth.source"},
		{name: "a typo of source", in: `{"method":"api_key","sorce":{"kind":"secret","namespaceId":"ns_1","id":"sec_1"}}`,
			wantCode: occkit.CodeInvalidRequest, wantPath: "harnessAuth.sorce", wantSuggestion: "harnessAuth.source"},
		{name: "a typo of a source key", in: `{"method":"api_key","source":{"kind":"secret","namespace":"ns_1","id":"sec_1"}}`,
			wantCode: occkit.CodeInvalidRequest, wantPath: "harnessAuth.source.namespace", wantSuggestion: "harnessAuth.source.namespaceId"},
		{name: "a typo of sourceId", in: `{"method":"credential_source","sourceid":"cs_1","sourceType":"api_key"}`,
			wantCode: occkit.CodeInvalidRequest, wantPath: "harnessAuth.sourceid", wantSuggestion: "harnessAuth.sourceId"},
		{name: "a typo of a method", in: `{"method":"api-key"}`,
			wantCode: occkit.CodeInvalidRequest, wantPath: "harnessAuth.method", wantSuggestion: "api_key"},
		{name: "duplicate key", in: `{"method":"runtime","method":"api_key"}`, wantCode: occkit.CodeInvalidRequest, wantPath: "harnessAuth.method"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := gjson.Parse(tt.in)
			got, err := admission.ParseBinding([]byte(v.Raw), admission.BindingPath())
			if tt.wantCode != "" {
				e := occkit.First(err)
				if e == nil {
					t.Fatalf("want %s at %s, got %+v", tt.wantCode, tt.wantPath, got)
				}
				if e.Code != tt.wantCode || e.Path.String() != tt.wantPath || e.Rule != "AUTH-4a" {
					t.Fatalf("got %s at %s (%s), want %s at %s (AUTH-4a)", e.Code, e.Path, e.Rule, tt.wantCode, tt.wantPath)
				}
				if e.Path.Doc() != occkit.DocAgent || e.Suggestion != tt.wantSuggestion {
					t.Fatalf("got suggestion %q in the %s, want %q in the agent", e.Suggestion, e.Path.Doc(), tt.wantSuggestion)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Fatal(diff)
			}
			// The snapshot parses back to the same binding.
			back, err := admission.ParseBinding(got.JSON(), admission.BindingPath())
			if err != nil || back != got {
				t.Fatalf("snapshot %s does not round-trip: %+v %v", got.JSON(), back, err)
			}
		})
	}
}

// TestMethodsClosedSet: every method has a shape and a snapshot.
func TestMethodsClosedSet(t *testing.T) {
	inputs := map[occkit.Method]string{
		occkit.MethodAPIKey:           `{"method":"api_key","source":{"kind":"secret","namespaceId":"n","id":"i"}}`,
		occkit.MethodCodexPAT:         `{"method":"codex_pat","source":{"kind":"secret","namespaceId":"n","id":"i"}}`,
		occkit.MethodCredentialSource: `{"method":"credential_source","sourceId":"c","sourceType":"api_key"}`,
		occkit.MethodRuntime:          `{"method":"runtime"}`,
	}
	for _, m := range occkit.AllMethods() {
		in, ok := inputs[m]
		if !ok {
			t.Fatalf("method %s has no test input", m)
		}
		b, err := admission.ParseBinding([]byte(in), admission.BindingPath())
		if err != nil || b.Method != m {
			t.Fatalf("method %s: %+v %v", m, b, err)
		}
		if gjson.GetBytes(b.JSON(), "method").String() != string(m) {
			t.Fatalf("snapshot of %s: %s", m, b.JSON())
		}
	}
	if len(inputs) != len(occkit.AllMethods()) {
		t.Fatal("AllMethods is missing a method")
	}
	for _, k := range occkit.AllSourceKinds() {
		in := `{"method":"codex_pat","source":{"kind":"` + string(k) + `","namespaceId":"n","id":"i"}}`
		if _, err := admission.ParseBinding([]byte(in), admission.BindingPath()); err != nil {
			t.Fatalf("source kind %s: %v", k, err)
		}
	}
	for _, st := range occkit.AllSourceTypes() {
		in := `{"method":"credential_source","sourceId":"c","sourceType":"` + string(st) + `"}`
		if _, err := admission.ParseBinding([]byte(in), admission.BindingPath()); err != nil {
			t.Fatalf("source type %s: %v", st, err)
		}
	}
}

// TestHarnessAuthLifecycle: AUTH-1 create/update/deploy semantics.
func TestHarnessAuthLifecycle(t *testing.T) {
	runtime := occkit.Binding{Method: occkit.MethodRuntime}
	created, err := admission.CreateHarnessAuth(nil)
	if err != nil || !created.IsZero() {
		t.Fatalf("create without harnessAuth: %+v %v", created, err)
	}
	if err := admission.RequireHarnessAuth(created); occkit.First(err) == nil || occkit.First(err).HTTPStatus() != 409 {
		t.Fatalf("deployment without a binding: %v", err)
	}
	kept, _ := admission.UpdateHarnessAuth(runtime, nil)
	if kept != runtime {
		t.Fatalf("update omitting harnessAuth: %+v", kept)
	}
	cleared, _ := admission.UpdateHarnessAuth(runtime, []byte(`null`))
	if !cleared.IsZero() {
		t.Fatalf("update with null: %+v", cleared)
	}
	replaced, _ := admission.UpdateHarnessAuth(occkit.Binding{}, []byte(`{"method":"runtime"}`))
	if replaced != runtime || admission.RequireHarnessAuth(replaced) != nil {
		t.Fatalf("update with a value: %+v", replaced)
	}
	if _, err := admission.UpdateHarnessAuth(runtime, []byte(`{"method":"x"}`)); err == nil {
		t.Fatal("update with a malformed binding accepted")
	}
}

func FuzzParseBinding(f *testing.F) {
	for _, s := range []string{
		`{"method":"runtime"}`,
		`{"method":"api_key","source":{"kind":"secret","namespaceId":"ns_1","id":"sec_1"}}`,
		`{"method":"codex_pat","source":{"kind":"service_account","namespaceId":"ns_1","id":"sa_1"}}`,
		`{"method":"credential_source","sourceId":"cs_1","sourceType":"codex-oauth"}`,
		`null`, `{}`, `[]`, `{"method":"api_key","source":{"kind":"secret","kind":"x"}}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v := gjson.Parse(s)
		b, err := admission.ParseBinding([]byte(v.Raw), admission.BindingPath())
		if err != nil {
			e := occkit.First(err)
			if e == nil || e.Code != occkit.CodeInvalidRequest {
				t.Fatalf("refusal is not a structured 400: %v", err)
			}
			return
		}
		back, err := admission.ParseBinding(b.JSON(), admission.BindingPath())
		if err != nil || back != b {
			t.Fatalf("snapshot %s does not round-trip: %v", b.JSON(), err)
		}
	})
}
