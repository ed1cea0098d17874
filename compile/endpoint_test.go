package compile_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/compile"
)

var testEndpoint = compile.Endpoint{BaseURL: "https://llm.example.test/v1", ModelProvider: "openai-compatible"}

// jsonValue decodes a document or raw JSON for order-insensitive comparison.
func jsonValue(t testing.TB, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("invalid JSON %q: %v", s, err)
	}
	return v
}

// wantError checks err's code, path and rule.
func wantError(t *testing.T, err error, code occkit.Code, path, rule string) {
	t.Helper()
	if err := (occkit.ErrorMatcher{Code: code, Path: path, Rule: rule}).Check(err); err != nil {
		t.Fatal(err)
	}
}

func TestCompileEndpoint(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string
	}{
		{
			name: "CMP-1 every source ref is rewritten, aliases and other providers are not",
			in: `{"agents":{"defaults":{"model":{"primary":"codex/vendor/org/model","fallbacks":["codex/v/b","anthropic/c"]},
				"subagents":{"model":"fast"},"models":{"codex/vendor/org/model":{"alias":"Main"},"codex/*":{"agentRuntime":{"id":"codex"}},"anthropic/c":{}}},
				"entries":{"main":{"model":"codex/v/b","subagents":{"model":{"primary":"codex/v/s"}}}}}}`,
			want: `{"agents":{"defaults":{"model":{"primary":"codex/openai-compatible/vendor/org/model","fallbacks":["codex/openai-compatible/v/b","anthropic/c"]},
				"subagents":{"model":"fast"},"models":{"codex/openai-compatible/vendor/org/model":{"alias":"Main"},"codex/openai-compatible/*":{"agentRuntime":{"id":"codex"}},"anthropic/c":{}}},
				"entries":{"main":{"model":"codex/openai-compatible/v/b","subagents":{"model":{"primary":"codex/openai-compatible/v/s"}}}}},
				"models":{"providers":{"codex":{"models":[
					{"name":"vendor/org/model","id":"openai-compatible/vendor/org/model"},
					{"name":"v/b","id":"openai-compatible/v/b"},
					{"name":"v/s","id":"openai-compatible/v/s"}]}}}}`,
		},
		{
			name: "CMP-1 catalog rows keep metadata; unselected policy keys are projected only with a row",
			in: `{"agents":{"defaults":{"model":"codex/m1","models":{"codex/m2":{},"codex/m3":{}}}},
				"models":{"providers":{"codex":{"baseUrl":"x","models":[{"id":"codex/m1","contextWindow":1},{"id":"m2","name":"Two"},{"id":"other"}]}}}}`,
			want: `{"agents":{"defaults":{"model":"codex/openai-compatible/m1","models":{"codex/openai-compatible/m2":{},"codex/openai-compatible/m3":{}}}},
				"models":{"providers":{"codex":{"baseUrl":"x","models":[{"id":"openai-compatible/m1","contextWindow":1},{"id":"openai-compatible/m2","name":"Two"}]}}}}`,
		},
		{
			name: "CMP-1 an openai source provider moves under codex",
			in: `{"agents":{"defaults":{"model":"openai/gpt-5.5"}},
				"models":{"providers":{"openai":{"api":"openai-responses","models":[{"id":"gpt-5.5","reasoning":true}]},"anthropic":{"models":[]}}}}`,
			want: `{"agents":{"defaults":{"model":"codex/openai-compatible/gpt-5.5"}},
				"models":{"providers":{"anthropic":{"models":[]},"codex":{"api":"openai-responses","models":[{"id":"openai-compatible/gpt-5.5","reasoning":true}]}}}}`,
		},
		{
			name: "CMP-1 an auth-profile suffix is kept on the rewritten ref",
			in:   `{"agents":{"defaults":{"model":"codex/v/m@work"}}}`,
			want: `{"agents":{"defaults":{"model":"codex/openai-compatible/v/m@work"}},"models":{"providers":{"codex":{"models":[{"name":"v/m","id":"openai-compatible/v/m"}]}}}}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := occkit.MustParseDocument(tt.in)
			before := in.String()
			got, err := compile.CompileEndpoint(in, testEndpoint)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(jsonValue(t, tt.want), jsonValue(t, got.String())); d != "" {
				t.Errorf("compiled document (-want +got):\n%s", d)
			}
			if in.String() != before {
				t.Errorf("CMP-2: input changed")
			}
		})
	}
}

func TestCompileEndpointDefaultProvider(t *testing.T) {
	got, err := compile.CompileEndpoint(occkit.MustParseDocument(`{"agents":{"defaults":{"model":"codex/v/m"}}}`),
		compile.Endpoint{BaseURL: "https://llm.example.test/v1"})
	if err != nil {
		t.Fatal(err)
	}
	if m := got.Get(occkit.NewPath("agents", "defaults", "model")).String(); m != "codex/"+compile.DefaultModelProvider+"/v/m" {
		t.Errorf("model = %q", m)
	}
}

func TestCompileEndpointErrors(t *testing.T) {
	ok := `{"agents":{"defaults":{"model":"codex/m"}}}`
	tests := []struct {
		name             string
		in               string
		ep               compile.Endpoint
		path, rule, code string
	}{
		{"PRB-9 plain http is refused", ok, compile.Endpoint{BaseURL: "http://llm.test/v1", ModelProvider: "p"}, "endpoint.baseUrl", "PRB-9", ""},
		{"PRB-9 a credential in the query is refused", ok, compile.Endpoint{BaseURL: "https://llm.test/v1?key=sk-1", ModelProvider: "p"}, "endpoint.baseUrl", "PRB-9", ""},
		{"PRB-9 user info is refused", ok, compile.Endpoint{BaseURL: "https://u:sk-1@llm.test/v1", ModelProvider: "p"}, "endpoint.baseUrl", "PRB-9", ""},
		{"PRB-9 a missing base URL is refused", ok, compile.Endpoint{ModelProvider: "p"}, "endpoint.baseUrl", "PRB-9", ""},
		{"CMP-1 a provider with a slash is refused", ok, compile.Endpoint{BaseURL: "https://llm.test", ModelProvider: "a/b"}, "endpoint.modelProvider", "CMP-1", ""},
		{"CMP-1 a built-in provider is refused", ok, compile.Endpoint{BaseURL: "https://llm.test", ModelProvider: "openai"}, "endpoint.modelProvider", "CMP-1", ""},
		{"CMP-1 an upper-case provider is refused", ok, compile.Endpoint{BaseURL: "https://llm.test", ModelProvider: "Gateway"}, "endpoint.modelProvider", "CMP-1", ""},
		{"CMP-1 no primary", `{"agents":{"defaults":{"subagents":{"model":"codex/x"}}}}`, testEndpoint, "agents.defaults.model", "CMP-1", ""},
		{"REF-3 invalid primary", `{"agents":{"defaults":{"model":{"primary":"codex/"}}}}`, testEndpoint, "agents.defaults.model.primary", "REF-3", ""},
		{"RES-4 models must be an object", `{"agents":{"defaults":{"model":"codex/m"}},"models":[]}`, testEndpoint, "models", "RES-4", ""},
		{"RES-2 entries must hold objects", `{"agents":{"entries":{"main":"codex/m"}}}`, testEndpoint, "agents.entries.main", "RES-2", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := compile.CompileEndpoint(occkit.MustParseDocument(tt.in), tt.ep)
			wantError(t, err, occkit.CodeInvalidRequest, tt.path, tt.rule)
			if strings.Contains(err.Error(), "sk-1") {
				t.Errorf("error leaks a credential: %v", err)
			}
		})
	}
}

// TestCompileEndpointPreservesUntouched is a property (CMP-1, CMP-2, DOC-3):
// every top-level setting other than agents and models keeps its exact
// bytes, other providers' refs and aliases are unchanged, fallback order is
// kept, and the input never changes.
func TestCompileEndpointPreservesUntouched(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		id := rapid.StringMatching(`[a-z][a-z0-9.-]{0,8}(/[a-z0-9]{1,6})?`)
		other := rapid.SampledFrom([]string{"anthropic", "google", "openrouter"})
		var fallbacks []string
		var wantFallbacks []string
		for i, n := 0, rapid.IntRange(0, 5).Draw(t, "n"); i < n; i++ {
			if rapid.Bool().Draw(t, "own") {
				m := id.Draw(t, "fb")
				fallbacks = append(fallbacks, "codex/"+m)
				wantFallbacks = append(wantFallbacks, "codex/openai-compatible/"+m)
			} else {
				m := other.Draw(t, "p") + "/" + id.Draw(t, "fb")
				fallbacks = append(fallbacks, m)
				wantFallbacks = append(wantFallbacks, m)
			}
		}
		extra := map[string]any{}
		for i, n := 0, rapid.IntRange(0, 4).Draw(t, "extra"); i < n; i++ {
			extra[rapid.StringMatching(`x-[a-z]{1,6}`).Draw(t, "k")] = rapid.SampledFrom([]any{
				true, 1.5, "s", []any{"b", "a"}, map[string]any{"z": 1, "a": []any{}},
			}).Draw(t, "v")
		}
		alias := rapid.StringMatching(`[a-z]{1,8}`).Draw(t, "alias")
		src := map[string]any{
			"agents": map[string]any{"defaults": map[string]any{
				"model":     map[string]any{"primary": "codex/" + id.Draw(t, "primary"), "fallbacks": fallbacks},
				"subagents": map[string]any{"model": alias},
			}},
		}
		for k, v := range extra {
			src[k] = v
		}
		raw, _ := json.Marshal(src)
		in := occkit.MustParseDocument(string(raw))
		before := in.Bytes()
		out, err := compile.CompileEndpoint(in, testEndpoint)
		if err != nil {
			t.Fatal(err)
		}
		if string(in.Bytes()) != string(before) {
			t.Fatal("CMP-2: input changed")
		}
		for k := range extra {
			if got, want := out.Get(occkit.NewPath(k)).Raw(), in.Get(occkit.NewPath(k)).Raw(); got != want {
				t.Fatalf("DOC-3: %s changed: %s -> %s", k, want, got)
			}
		}
		if got := out.Get(occkit.NewPath("agents", "defaults", "subagents", "model")).String(); got != alias {
			t.Fatalf("alias changed to %q", got)
		}
		var gotFallbacks []string
		for _, f := range out.Get(occkit.NewPath("agents", "defaults", "model", "fallbacks")).Array() {
			gotFallbacks = append(gotFallbacks, f.String())
		}
		if d := cmp.Diff(wantFallbacks, gotFallbacks); d != "" {
			t.Fatalf("fallbacks (-want +got):\n%s", d)
		}
	})
}

func BenchmarkCompileEndpoint(b *testing.B) {
	var models []string
	for i := 0; i < 20; i++ {
		models = append(models, fmt.Sprintf(`"codex/v/m%d":{"alias":"m%d"}`, i, i))
	}
	doc := occkit.MustParseDocument(`{"agents":{"defaults":{"model":{"primary":"codex/v/m0","fallbacks":["codex/v/m1","codex/v/m2"]},"models":{` +
		strings.Join(models, ",") + `}},"entries":{"main":{"model":"codex/v/m0"}}},"channels":{"slack":{"enabled":true}},
		"models":{"providers":{"codex":{"models":[{"id":"v/m0","name":"zero"},{"id":"v/m1"}]}}}}`)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := compile.CompileEndpoint(doc, testEndpoint); err != nil {
			b.Fatal(err)
		}
	}
}

// TestCompileEndpointManyEntries: every entry is rewritten in place, in
// order, with its own refs, whatever the number of entries and whichever
// are untouched (CMP-1; the scopes are compiled one by one and written
// back once).
func TestCompileEndpointManyEntries(t *testing.T) {
	tests := []struct {
		name    string
		entries int
		every   int // every n-th entry selects a source ref; the others another provider
	}{
		{name: "one entry", entries: 1, every: 1},
		{name: "all entries rewritten", entries: 300, every: 1},
		{name: "some entries untouched", entries: 300, every: 7},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var in, want strings.Builder
			in.WriteString(`{"agents":{"defaults":{"model":"codex/v/p"},"entries":{`)
			want.WriteString(`{"defaults":{"model":"codex/openai-compatible/v/p"},"entries":{`)
			for i := 0; i < tt.entries; i++ {
				if i > 0 {
					in.WriteByte(',')
					want.WriteByte(',')
				}
				if i%tt.every == 0 {
					fmt.Fprintf(&in, `"e%d":{"model":"codex/v/m%d","models":{"codex/v/m%d":{"n":%d}}}`, i, i, i, i)
					fmt.Fprintf(&want, `"e%d":{"model":"codex/openai-compatible/v/m%d","models":{"codex/openai-compatible/v/m%d":{"n":%d}}}`, i, i, i, i)
				} else {
					fmt.Fprintf(&in, `"e%d":{"model":"anthropic/m%d"}`, i, i)
					fmt.Fprintf(&want, `"e%d":{"model":"anthropic/m%d"}`, i, i)
				}
			}
			in.WriteString(`}}}`)
			want.WriteString(`}}`)
			doc := occkit.MustParseDocument(in.String())
			out, err := compile.CompileEndpoint(doc, testEndpoint)
			if err != nil {
				t.Fatal(err)
			}
			if got := out.Get(occkit.NewPath("agents")).Raw(); got != want.String() {
				t.Errorf("agents:\n got %.300s\nwant %.300s", got, want.String())
			}
			if doc.String() != in.String() {
				t.Error("CMP-2: source changed")
			}
		})
	}
}

// TestCompileEndpointRowMatch: the first catalog row in array order that
// matches a ref (REF-4: the full ref or the ID after the first slash,
// trimmed, provider case-insensitive) keeps its metadata (CMP-1).
func TestCompileEndpointRowMatch(t *testing.T) {
	tests := []struct {
		name, rows, want string
	}{
		{name: "full ref before bare ID", rows: `[{"id":"codex/v/a","name":"full"},{"id":"v/a","name":"bare"}]`, want: "full"},
		{name: "bare ID before full ref", rows: `[{"id":"v/a","name":"bare"},{"id":"codex/v/a","name":"full"}]`, want: "bare"},
		{name: "trimmed and provider case-insensitive", rows: `[{"id":"x"},{"id":" CODEX/v/a ","name":"spaced"}]`, want: "spaced"},
		{name: "after-last-slash never matches", rows: `[{"id":"a","name":"last"}]`, want: "v/a"},
		{name: "non-string IDs are skipped", rows: `[{"id":7,"name":"seven"},{"id":"v/a","name":"bare"}]`, want: "bare"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := occkit.MustParseDocument(`{"agents":{"defaults":{"model":"codex/v/a"}},"models":{"providers":{"codex":{"models":` + tt.rows + `}}}}`)
			out, err := compile.CompileEndpoint(doc, testEndpoint)
			if err != nil {
				t.Fatal(err)
			}
			rows := out.Get(occkit.NewPath("models", "providers", "codex", "models")).Array()
			if len(rows) != 1 || rows[0].Key("name").String() != tt.want || rows[0].Key("id").String() != "openai-compatible/v/a" {
				t.Errorf("catalog = %s, want the row named %q", out.Get(occkit.NewPath("models", "providers", "codex", "models")).Raw(), tt.want)
			}
		})
	}
}
