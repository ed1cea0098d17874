package openclawschema

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/occkit/occkit"
)

// schemaPositions are the keywords whose value is a schema, a list of
// schemas or a map of schemas; every other keyword's value is data.
var (
	oneSchema  = map[string]bool{"additionalProperties": true, "propertyNames": true, "items": true, "additionalItems": true, "not": true, "contains": true, "if": true, "then": true, "else": true}
	listSchema = map[string]bool{"anyOf": true, "oneOf": true, "allOf": true, "items": true}
	mapSchema  = map[string]bool{"properties": true, "patternProperties": true, "definitions": true, "$defs": true, "dependencies": true}
)

// usedKeywords walks the raw schema and counts every keyword it uses.
func usedKeywords(s gjson.Result, out map[string]int, formats map[string]int) {
	if !s.IsObject() {
		return
	}
	s.ForEach(func(k, v gjson.Result) bool {
		key := k.String()
		out[key]++
		switch {
		case key == "format":
			formats[v.String()]++
		case mapSchema[key]:
			v.ForEach(func(_, x gjson.Result) bool { usedKeywords(x, out, formats); return true })
		case listSchema[key] && v.IsArray():
			for _, x := range v.Array() {
				usedKeywords(x, out, formats)
			}
		case oneSchema[key]:
			usedKeywords(v, out, formats)
		}
		return true
	})
}

// TestShippedSchemaKeywordsSupported: every keyword and format the
// shipped schema uses is one the compiler implements, and the schema
// compiles (no keyword, format or pattern left unchecked).
func TestShippedSchemaKeywordsSupported(t *testing.T) {
	for _, v := range Releases() {
		c, err := ContractFor(v)
		if err != nil {
			t.Fatal(err)
		}
		used, formatsUsed := map[string]int{}, map[string]int{}
		usedKeywords(gjson.ParseBytes(c.Schema()), used, formatsUsed)
		supported := SupportedKeywords()
		for kw, n := range used {
			if !slices.Contains(supported, kw) {
				t.Errorf("%s uses %q (%d times), which the compiler does not implement", v, kw, n)
			}
		}
		for f := range formatsUsed {
			if _, ok := formats[f]; !ok {
				t.Errorf("%s uses format %q, which the compiler does not know", v, f)
			}
		}
		if len(used) < 20 {
			t.Errorf("only %d keywords found: the walk is broken", len(used))
		}
		if _, err := ForRelease(v); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(c.Schema()), `"$schema":"http://json-schema.org/draft-07/schema#"`) {
			t.Errorf("the draft of %s is missing", v)
		}
	}
}

// TestCompileFailsClosed: a keyword, format or pattern feature the
// compiler does not implement is an error, never a partial check.
func TestCompileFailsClosed(t *testing.T) {
	for _, tt := range []struct{ name, schema string }{
		{"$ref", `{"$schema":"http://json-schema.org/draft-07/schema#","properties":{"a":{"$ref":"#/definitions/x"}}}`},
		{"patternProperties", `{"$schema":"http://json-schema.org/draft-07/schema#","patternProperties":{"^a":{}}}`},
		{"not", `{"$schema":"http://json-schema.org/draft-07/schema#","not":{"type":"string"}}`},
		{"unknown format", `{"$schema":"http://json-schema.org/draft-07/schema#","format":"hostname"}`},
		{"lookbehind", `{"$schema":"http://json-schema.org/draft-07/schema#","pattern":"(?<=a)b"}`},
		{"lookahead in a group", `{"$schema":"http://json-schema.org/draft-07/schema#","pattern":"^(a(?!b))"}`},
		{"lookahead after an unbounded prefix", `{"$schema":"http://json-schema.org/draft-07/schema#","pattern":"^a*(?!b)"}`},
		{"backreference", `{"$schema":"http://json-schema.org/draft-07/schema#","pattern":"(a)\\1"}`},
		{"draft 2020-12", `{"$schema":"https://json-schema.org/draft/2020-12/schema"}`},
		{"not JSON", `{`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := Compile([]byte(tt.schema), "1"); err == nil {
				t.Fatal("compiled")
			}
		})
	}
	if _, err := Compile([]byte(`{"$schema":"http://json-schema.org/draft-07/schema#"}`), ""); err == nil {
		t.Error("compiled without a version")
	}
}

// TestPatternsAreECMAScript: patterns keep their JavaScript meaning on RE2.
func TestPatternsAreECMAScript(t *testing.T) {
	for _, tt := range []struct {
		pattern, s string
		want       bool
	}{
		{`^\s*$`, "\u00a0\ufeff", true}, // JavaScript's \s is Unicode
		{`^\S+$`, "\u2028", false},
		{`^[\s\S]{2}$`, "a\n", true},
		{`^.$`, "\u2029", false}, // "." stops at line terminators
		{`^.$`, "é", true},
		{`^\/(?!\/)[^\0]*[^/\0]$`, "/run/x.sock", true},
		{`^\/(?!\/)[^\0]*[^/\0]$`, "//run/x", false},
		{`^\/(?!\/)[^\0]*[^/\0]$`, "/run/\x00x", false},
		{`^[Hh][Tt][Tt][Pp][Ss]?:\/\/(?![^/?#]*@)`, "https://host/p@x", true},
		{`^[Hh][Tt][Tt][Pp][Ss]?:\/\/(?![^/?#]*@)`, "https://user@host/", false},
		{`^(?!(?:constructor|prototype)$)[a-z0-9][a-z0-9_-]{0,63}$`, "prototype", false},
		{`^(?!(?:constructor|prototype)$)[a-z0-9][a-z0-9_-]{0,63}$`, "prototypes", true},
		{`^(?!\s)(?![\s\S]*\s$)[^\p{Cs}]{1,128}$`, " x", false},
		{`^(?!\s)(?![\s\S]*\s$)[^\p{Cs}]{1,128}$`, "x ", false},
		{`^(?!\s)(?![\s\S]*\s$)[^\p{Cs}]{1,128}$`, "x y", true},
		{`^[^.[\]]+$`, "a[b", false},
		{`^[^.[\]]+$`, "ab", true},
		{`\S`, "  ", false},
		{`^\d+$`, "١٢", false}, // \d stays ASCII
	} {
		p, err := compilePattern(tt.pattern)
		if err != nil {
			t.Errorf("%s: %v", tt.pattern, err)
			continue
		}
		if got := p.match(tt.s); got != tt.want {
			t.Errorf("%s on %q = %v, want %v", tt.pattern, tt.s, got, tt.want)
		}
	}
}

func TestSuggest(t *testing.T) {
	names := []string{"defaults", "entries", "list", "ownership", "fallbacks", "primary"}
	for _, tt := range []struct{ key, want string }{
		{"defualts", "defaults"},
		{"Defaults", "defaults"},
		{"fallback", "fallbacks"},
		{"entires", "entries"},
		{"lst", "list"},
		{"store", ""},
		{"x", ""},
		{"primaryModelOverride", ""},
	} {
		if got := suggest(tt.key, names); got != tt.want {
			t.Errorf("suggest(%q) = %q, want %q", tt.key, got, tt.want)
		}
	}
}

func TestValidURL(t *testing.T) {
	for _, tt := range []struct {
		s    string
		want bool
	}{
		{"https://example.com/v1", true},
		{" http://127.0.0.1:8080 ", true},
		{"http://[::1]:8080/x", true},
		{"mailto:a@b", true},
		{"file:///tmp/x", true},
		{"http://", false},
		{"http://host:99999", false},
		{"http://ho st", false},
		{"example.com", false},
		{"1http://x", false},
		{"", false},
	} {
		if got := validURL(tt.s); got != tt.want {
			t.Errorf("validURL(%q) = %v, want %v", tt.s, got, tt.want)
		}
	}
}

// TestValidate places refusals as OpenClaw names them (DOC-5).
func TestValidate(t *testing.T) {
	v, err := New()
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, doc string
		paths     []occkit.Path
		mentions  string
	}{
		{"empty document", `{}`, nil, ""},
		{"defaults filled in by OpenClaw", `{"channels":{"slack":{"enabled":true}}}`, nil, ""},
		{"legacy roster migrated by OpenClaw", `{"agents":{"list":[{"id":"main"}]}}`, nil, ""},
		{"open map keeps any key", `{"agents":{"defaults":{"params":{"x-anything":{"deep":[1]}}}}}`, nil, ""},
		{"typo", `{"agents":{"defualts":{}}}`, []occkit.Path{occkit.NewPath("agents", "defualts")}, "did you mean agents.defaults?"},
		{"typo in the object form of a union", `{"agents":{"defaults":{"model":{"primary":"a/b","fallback":[]}}}}`,
			[]occkit.Path{occkit.NewPath("agents", "defaults", "model", "fallback")}, "agents.defaults.model.fallbacks"},
		{"enum", `{"tools":{"profile":"everything"}}`, []occkit.Path{occkit.NewPath("tools", "profile")}, `"coding", "full", "messaging", "minimal"`},
		{"type", `{"gateway":{"port":"18789"}}`, []occkit.Path{occkit.NewPath("gateway", "port")}, "must be an integer"},
		{"unknown top-level key", `{"routing":{"allowFrom":[]}}`, []occkit.Path{occkit.NewPath("routing")}, ""},
		{"empty roster beside entries is the SPEC's (RES-10)", `{"agents":{"entries":{"main":{}},"list":[]}}`, nil, ""},
		{"legacy roster beside entries", `{"agents":{"entries":{"main":{}},"list":[{"id":"main"}]}}`, []occkit.Path{occkit.NewPath("agents", "list")}, ""},
		{"redactSensitive is the logging rules' (LOG-1, LOG-3)", `{"logging":{"redactSensitive":"off","level":"info"}}`, nil, ""},
		{"two problems", `{"cron":{"store":"x"},"gateway":{"port":true}}`, []occkit.Path{occkit.NewPath("cron", "store"), occkit.NewPath("gateway", "port")}, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			doc := occkit.MustParseDocument(tt.doc)
			err := v.Validate(doc)
			if v.Valid(doc) != (err == nil) {
				t.Fatalf("Valid and Validate disagree: %v", err)
			}
			var got []occkit.Path
			for _, e := range occkit.Errors(err) {
				if e.Code != occkit.CodeInvalidRequest || e.Rule != Rule || e.HTTPStatus() != 400 {
					t.Errorf("refusal %v is not a 400 %s", e, Rule)
				}
				got = append(got, e.Path)
			}
			if !slices.EqualFunc(got, tt.paths, occkit.Path.Equal) {
				t.Fatalf("paths %v, want %v (%v)", got, tt.paths, err)
			}
			if tt.mentions != "" && !strings.Contains(err.Error(), tt.mentions) {
				t.Errorf("%v does not mention %s", err, tt.mentions)
			}
		})
	}
}

// TestRefusalsQuoteNoValues: a refusal names settings and the schema's
// own values, never the document's.
func TestRefusalsQuoteNoValues(t *testing.T) {
	v, err := New()
	if err != nil {
		t.Fatal(err)
	}
	const secret = "sk-live-0123456789"
	for _, doc := range []string{
		`{"tools":{"profile":"` + secret + `"}}`,
		`{"gateway":{"port":"` + secret + `"}}`,
		`{"models":{"providers":{"p":{"baseUrl":"` + secret + `","models":[],"apiKey":{"source":"` + secret + `"}}}}}`,
	} {
		err := v.Validate(occkit.MustParseDocument(doc))
		if err == nil {
			t.Fatalf("%s admitted", doc)
		}
		if strings.Contains(err.Error(), secret) {
			t.Errorf("refusal quotes a value: %v", err)
		}
	}
}

func TestSensitive(t *testing.T) {
	s := Sensitive()
	if !slices.IsSorted(s) || !slices.Contains(s, "models.providers.*.apiKey") || len(s) < 100 {
		t.Errorf("sensitive paths: %d, sorted %v", len(s), slices.IsSorted(s))
	}
}

func TestValidatorIsErrorsTemplate(t *testing.T) {
	v, _ := New()
	err := v.Validate(occkit.MustParseDocument(`{"agents":{"defualts":{}}}`))
	if !errors.Is(err, occkit.ErrInvalidRequest) {
		t.Fatal(err)
	}
}
