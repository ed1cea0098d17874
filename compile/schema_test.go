package compile

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tidwall/gjson"

	"github.com/occkit/occkit"
)

func TestSchemaExported(t *testing.T) {
	s := Schema()
	if !json.Valid(s) {
		t.Fatal("schema is not JSON")
	}
	if got := gjson.GetBytes(s, "$schema").String(); got != "https://json-schema.org/draft/2020-12/schema" {
		t.Errorf("$schema = %q", got)
	}
	if got := gjson.GetBytes(s, "$id").String(); got != SchemaID {
		t.Errorf("$id = %q", got)
	}
	s[0] = 'x'
	if Schema()[0] != '{' {
		t.Error("Schema returns the embedded bytes, not a copy")
	}
	// DOC-3: unknown keys are never refused.
	for _, closed := range []string{`"additionalProperties": false`, `"unevaluatedProperties": false`, `"additionalProperties":false`} {
		if bytes.Contains(schemaJSON, []byte(closed)) {
			t.Errorf("schema closes an object with %s", closed)
		}
	}
	for _, part := range []string{"agents", "models", "plugins", "logging", "diagnostics"} {
		if !gjson.GetBytes(schemaJSON, "properties."+part).Exists() {
			t.Errorf("schema does not describe %s", part)
		}
	}
}

func TestValidate(t *testing.T) {
	inv := func(path string) wantErr { return wantErr{occkit.CodeInvalidRequest, path, "DOC-5"} }
	tests := []struct {
		name string
		doc  string
		want []wantErr
	}{
		{"DOC-5 a full valid configuration", `{
			"agents": {"defaults": {"model": {"primary": "openai/gpt-5", "fallbacks": ["openai/gpt-5-mini"]},
				"models": {"openai/gpt-5": {"agentRuntime": {"id": "codex"}, "alias": "g"}}, "maxConcurrent": 4,
				"subagents": {"model": "openai/gpt-5-mini", "maxConcurrent": 2}},
				"entries": {"main": {"model": "openai/gpt-5", "x-extra": 1}}, "list": [], "ownership": "explicit"},
			"models": {"providers": {"openai": {"baseUrl": "https://api.openai.com/v1", "api": "openai-responses",
				"headers": {"X-A": "b"}, "models": [{"id": "gpt-5", "contextWindow": 400000, "reasoning": true}]}}},
			"plugins": {"entries": {"codex": {"enabled": true, "config": {"appServer": {"transport": "websocket"}}}}},
			"logging": {"level": "info", "consoleLevel": "info", "consoleStyle": "json"},
			"diagnostics": {"otel": {"logs": false}}, "channels": {"any": "thing"}}`, nil},
		{"DOC-5 shapes other rules own pass", `{
			"agents": {"defaults": {"model": 5, "agentRuntime": "codex", "models": [], "subagents": "x"},
				"entries": {"main": "not an object"}, "list": {}, "ownership": "implicit"},
			"models": {"providers": {"p": "not an object", "q": {"models": ["bare", {"id": 7}], "agentRuntime": {"id": 1}}}},
			"logging": "verbose", "diagnostics": {"otel": {"logs": true}}}`, nil},
		{"DOC-5 logging values other rules own pass", `{"logging": {"level": null, "consoleLevel": 3, "consoleStyle": "pretty", "redactSensitive": "off"}, "diagnostics": "x"}`, nil},
		{"DOC-5 top level must be an object", `[]`, []wantErr{inv("")}},
		{"DOC-5 maxConcurrent type", `{"agents": {"defaults": {"maxConcurrent": "sk-live-123"}}}`, []wantErr{inv("agents.defaults.maxConcurrent")}},
		{"DOC-5 maxConcurrent minimum", `{"agents": {"defaults": {"maxConcurrent": 0}}}`, []wantErr{inv("agents.defaults.maxConcurrent")}},
		{"DOC-5 entry subagents", `{"agents": {"entries": {"main": {"subagents": {"maxConcurrent": 1.5}}}}}`, []wantErr{inv("agents.entries.main.subagents.maxConcurrent")}},
		{"DOC-5 provider fields", `{"models": {"providers": {"my.proxy": {"baseUrl": 1, "api": true, "headers": "sk-live-123"}}}}`,
			[]wantErr{inv(`models.providers["my.proxy"].api`), inv(`models.providers["my.proxy"].baseUrl`), inv(`models.providers["my.proxy"].headers`)}},
		{"DOC-5 catalog row", `{"models": {"providers": {"openai": {"models": [{"id": "a"}, {"id": "b", "reasoning": "yes"}]}}}}`, []wantErr{inv("models.providers.openai.models[1].reasoning")}},
		{"DOC-5 codex plugin", `{"plugins": {"entries": {"codex": {"enabled": "true", "config": {"appServer": {"transport": 1}}}}}}`,
			[]wantErr{inv("plugins.entries.codex.config.appServer.transport"), inv("plugins.entries.codex.enabled")}},
		{"DOC-5 policy map entry", `{"agents": {"defaults": {"models": {"openai/gpt-5": {"alias": 1}}}}}`, []wantErr{inv(`agents.defaults.models["openai/gpt-5"].alias`)}},
	}
	v, err := NewValidator()
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := occkit.MustParseDocument(tt.doc)
			err := v.Validate(doc)
			var got []wantErr
			for _, e := range occkit.Errors(err) {
				got = append(got, wantErr{e.Code, e.Path.String(), e.Rule})
				if strings.Contains(e.Error(), "sk-live") || strings.Contains(e.Error(), "expected") {
					t.Errorf("message quotes the validator or the value: %v", e)
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s\n%v", diff, err)
			}
			if shared := Validate(doc); (shared == nil) != (err == nil) {
				t.Errorf("Validate and Validator.Validate disagree: %v vs %v", shared, err)
			}
		})
	}
}

// TestValidateConformanceConfigurations: the schema refuses none of the
// public conformance Configurations, so it never pre-empts a rule that
// owns a shape (DOC-5 is permissive by design).
func TestValidateConformanceConfigurations(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "internal", "conformance", "testdata", "cases", "*.json"))
	if len(files) == 0 {
		t.Skip("no conformance cases")
	}
	n := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range gjson.ParseBytes(b).Array() {
			cfg := c.Get("input.configuration")
			if !cfg.Exists() {
				continue
			}
			n++
			doc, err := occkit.ParseDocument([]byte(cfg.Raw))
			if err != nil {
				continue
			}
			if err := Validate(doc); err != nil && cfg.IsObject() {
				t.Errorf("%s %q: %v", filepath.Base(f), c.Get("name").String(), err)
			}
		}
	}
	t.Logf("%d configurations validated", n)
}

func TestValidateConcurrent(t *testing.T) {
	doc := occkit.MustParseDocument(`{"agents": {"defaults": {"maxConcurrent": "x"}}}`)
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := Validate(doc); err == nil {
				t.Error("want error")
			}
		}()
	}
	wg.Wait()
}

func BenchmarkValidate(b *testing.B) {
	doc, err := Load(benchConfig(40), LoadOptions{})
	if err != nil {
		b.Fatal(err)
	}
	v, err := NewValidator()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := v.Validate(doc); err != nil {
			b.Fatal(err)
		}
	}
}
