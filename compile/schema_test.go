package compile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode/utf16"

	"github.com/google/go-cmp/cmp"
	"github.com/santhosh-tekuri/jsonschema/v5"
	"github.com/tidwall/gjson"
	"pgregory.net/rapid"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/compile/internal/schemacheck"
	"github.com/occkit/occkit/internal/docjson"
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
	inv := func(path string) occkit.ErrorMatcher {
		return occkit.ErrorMatcher{Code: occkit.CodeInvalidRequest, Path: path, Rule: "DOC-5"}
	}
	tests := []struct {
		name string
		doc  string
		want []occkit.ErrorMatcher
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
		{"DOC-5 top level must be an object", `[]`, []occkit.ErrorMatcher{inv("")}},
		{"DOC-5 maxConcurrent type", `{"agents": {"defaults": {"maxConcurrent": "sk-live-123"}}}`, []occkit.ErrorMatcher{inv("agents.defaults.maxConcurrent")}},
		{"DOC-5 maxConcurrent minimum", `{"agents": {"defaults": {"maxConcurrent": 0}}}`, []occkit.ErrorMatcher{inv("agents.defaults.maxConcurrent")}},
		{"DOC-5 entry subagents", `{"agents": {"entries": {"main": {"subagents": {"maxConcurrent": 1.5}}}}}`, []occkit.ErrorMatcher{inv("agents.entries.main.subagents.maxConcurrent")}},
		{"DOC-5 provider fields", `{"models": {"providers": {"my.proxy": {"baseUrl": 1, "api": true, "headers": "sk-live-123"}}}}`,
			[]occkit.ErrorMatcher{inv(`models.providers["my.proxy"].api`), inv(`models.providers["my.proxy"].baseUrl`), inv(`models.providers["my.proxy"].headers`)}},
		{"DOC-5 catalog row", `{"models": {"providers": {"openai": {"models": [{"id": "a"}, {"id": "b", "reasoning": "yes"}]}}}}`, []occkit.ErrorMatcher{inv("models.providers.openai.models[1].reasoning")}},
		{"DOC-5 codex plugin", `{"plugins": {"entries": {"codex": {"enabled": "true", "config": {"appServer": {"transport": 1}}}}}}`,
			[]occkit.ErrorMatcher{inv("plugins.entries.codex.config.appServer.transport"), inv("plugins.entries.codex.enabled")}},
		{"DOC-5 a key with non-ASCII, slash and percent is named as written", `{"models": {"providers": {"é/x%2F~": {"api": 1}}}}`,
			[]occkit.ErrorMatcher{inv(occkit.NewPath("models", "providers", "é/x%2F~", "api").String())}},
		{"DOC-5 policy map entry", `{"agents": {"defaults": {"models": {"openai/gpt-5": {"alias": 1}}}}}`, []occkit.ErrorMatcher{inv(`agents.defaults.models["openai/gpt-5"].alias`)}},
	}
	v, err := NewValidator()
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := occkit.MustParseDocument(tt.doc)
			err := v.Validate(doc)
			got := occkit.MatchersOf(err)
			for _, e := range occkit.Errors(err) {
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
	n := 0
	for _, c := range conformanceConfigurations(t) {
		n++
		doc, err := occkit.ParseDocument([]byte(c.cfg.Raw))
		if err != nil {
			continue
		}
		if err := Validate(doc); err != nil && c.cfg.IsObject() {
			t.Errorf("%s: %v", c.name, err)
		}
	}
	t.Logf("%d configurations validated", n)
}

// conformanceCase is the Configuration of a public conformance case,
// named by its file and its own name.
type conformanceCase struct {
	name string
	cfg  gjson.Result
}

// conformanceConfigurations is the Configuration of every public
// conformance case that has one.
func conformanceConfigurations(t *testing.T) []conformanceCase {
	files, _ := filepath.Glob(filepath.Join("..", "internal", "conformance", "testdata", "cases", "*.json"))
	if len(files) == 0 {
		t.Fatal("no conformance cases under internal/conformance/testdata/cases")
	}
	var out []conformanceCase
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range gjson.ParseBytes(b).Array() {
			if cfg := c.Get("input.configuration"); cfg.Exists() {
				out = append(out, conformanceCase{fmt.Sprintf("%s %q", filepath.Base(f), c.Get("name").String()), cfg})
			}
		}
	}
	return out
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

// projSchemas exercise the DOC-5 projection beyond the embedded schema:
// combinators, presence keywords, arrays, recursion, whole-value keywords
// and an older draft. Each must keep its projection.
var projSchemas = map[string]string{
	"combinators": `{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
		"properties": {
			"a": {"anyOf": [{"type": "string", "minLength": 2}, {"type": "object", "properties": {"n": {"type": "integer"}}}]},
			"b": {"oneOf": [{"type": "number", "maximum": 3}, {"type": "number", "minimum": 2}, {"properties": {"k": {"const": 1}}, "required": ["k"]}]},
			"c": {"not": {"type": "object", "required": ["bad"]}},
			"d": {"if": {"required": ["kind"], "properties": {"kind": {"const": "x"}}}, "then": {"required": ["x"], "properties": {"x": {"type": "boolean"}}},
				"else": {"properties": {"y": {"type": "null"}}}},
			"e": {"allOf": [{"properties": {"p": {"type": "string"}}}, {"additionalProperties": {"type": "array"}}]},
			"f": {"dependentRequired": {"u": ["v"]}, "dependentSchemas": {"w": {"properties": {"z": {"enum": [1, "two", null]}}}}}
		},
		"additionalProperties": {"properties": {"deep": {"properties": {"q": {"type": "integer", "exclusiveMaximum": 10}}}}}}`,
	"arrays": `{"$schema": "https://json-schema.org/draft/2020-12/schema",
		"properties": {
			"t": {"prefixItems": [{"type": "string"}, {"properties": {"k": {"type": "boolean"}}}], "items": {"type": "integer"}, "minItems": 1, "maxItems": 4},
			"u": {"uniqueItems": true},
			"c": {"contains": {"type": "string", "pattern": "^a"}, "minContains": 2},
			"o": {"items": {"properties": {"v": {"const": {"a": [1, 2]}}}}},
			"n": {"items": {"items": {"multipleOf": 0.5}}}
		}}`,
	"recursive": `{"$schema": "https://json-schema.org/draft/2020-12/schema", "$ref": "#/$defs/node",
		"$defs": {"node": {"type": "object", "required": ["value"],
			"properties": {"value": {"type": ["integer", "string"], "minimum": 0, "maxLength": 3}, "children": {"items": {"$ref": "#/$defs/node"}},
				"tag": {"format": "email"}, "meta": {"description": "annotation only", "properties": {"any": true}}}}}}`,
	"fast": `{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "required": ["id"],
		"properties": {
			"id": {"type": "string", "pattern": "^[a-z]+$", "minLength": 1, "maxLength": 5},
			"n": {"type": "integer", "minimum": -1, "maximum": 100},
			"list": {"type": "array", "prefixItems": [{"type": "boolean"}], "items": {"$ref": "#/$defs/row"}, "maxItems": 3},
			"pick": {"anyOf": [{"type": "null"}, {"allOf": [{"type": "number"}, {"exclusiveMinimum": 0}]}, false]}
		},
		"additionalProperties": {"$ref": "#/$defs/row"},
		"$defs": {"row": {"properties": {"k": {"type": "object", "required": ["a"]}}}}}`,
	"draft7": `{"$schema": "http://json-schema.org/draft-07/schema#",
		"properties": {
			"t": {"items": [{"type": "string"}, {"type": "integer"}], "additionalItems": false},
			"s": {"items": {"type": "boolean"}},
			"d": {"dependencies": {"a": ["b"], "c": {"properties": {"e": {"type": "string"}}}}}
		}}`,
}

// fallbackSchemas use a keyword whose outcome depends on keys no schema
// names: the projection refuses them.
var fallbackSchemas = map[string]string{
	"propertyNames":         `{"properties": {"a": {"propertyNames": {"maxLength": 2}}}}`,
	"additionalProperties":  `{"properties": {"a": {"properties": {"k": {"type": "string"}}, "additionalProperties": false}}}`,
	"minProperties":         `{"additionalProperties": {"minProperties": 2}}`,
	"maxProperties":         `{"maxProperties": 2}`,
	"patternProperties":     `{"patternProperties": {"^x": {"type": "string"}}}`,
	"unevaluatedProperties": `{"properties": {"k": {"type": "string"}}, "unevaluatedProperties": {"type": "number"}}`,
	"unevaluatedItems":      `{"prefixItems": [{"type": "string"}], "unevaluatedItems": false}`,
}

func compileTestSchema(t testing.TB, name, src string) *Validator {
	t.Helper()
	v, err := compileValidator("https://occkit.test/"+strings.ReplaceAll(name, " ", "-")+".json", []byte(src))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return v
}

// TestProjectionFallback: DOC-5 a schema whose verdict depends on keys it
// does not name is validated whole, and says so.
func TestProjectionFallback(t *testing.T) {
	for name, src := range fallbackSchemas {
		t.Run(name, func(t *testing.T) {
			v := compileTestSchema(t, name, src)
			if v.proj != nil || v.fast != nil {
				t.Errorf("projection kept for a schema using %s", name)
			}
		})
	}
	for name, src := range projSchemas {
		t.Run("keeps "+name, func(t *testing.T) {
			if v := compileTestSchema(t, name, src); v.proj == nil {
				_, _, err := schemacheck.Project(v.schema)
				t.Errorf("projection refused: %v", err)
			}
		})
	}
	v, err := NewValidator()
	if err != nil {
		t.Fatal(err)
	}
	if v.proj == nil || v.fast == nil {
		t.Error("the embedded schema lost its projection or its fast checker")
	}
}

// TestProjectionPrunes: DOC-5 what the embedded schema cannot look at is
// not decoded.
func TestProjectionPrunes(t *testing.T) {
	v, err := NewValidator()
	if err != nil {
		t.Fatal(err)
	}
	doc := occkit.MustParseDocument(`{"channels": {"slack": {"enabled": true}},
		"agents": {"defaults": {"maxConcurrent": 2, "model": {"primary": "a/b"},
			"models": {"a/b": {"alias": "x", "agentRuntime": {"id": "codex"}, "params": {"t": 1}}}},
			"list": [1], "entries": {"main": {"workspace": "/w", "subagents": {"maxConcurrent": 1, "x": 2}}}},
		"models": {"providers": {"p": {"api": "a", "models": [{"id": "m", "reasoning": true, "cost": {}}, 3]}}}}`)
	want := map[string]any{
		"agents": map[string]any{
			"defaults": map[string]any{"maxConcurrent": json.Number("2"),
				"models": map[string]any{"a/b": map[string]any{"alias": "x", "params": map[string]any{}}}},
			"entries": map[string]any{"main": map[string]any{"subagents": map[string]any{"maxConcurrent": json.Number("1")}}}},
		"models": map[string]any{"providers": map[string]any{"p": map[string]any{"api": "a",
			"models": []any{map[string]any{"reasoning": true}, json.Number("3")}}}},
	}
	if diff := cmp.Diff(want, v.proj.Prune(docjson.Root(doc))); diff != "" {
		t.Errorf("pruned instance (-want +got):\n%s", diff)
	}
}

// genInstance writes a random JSON value shaped after the schemas of set:
// mostly the keys and elements they name, each of a random type, beside
// keys no schema names, repeated keys and escaped spellings.
func genInstance(t *rapid.T, set []*jsonschema.Schema, depth int) string {
	set = schemacheck.Closure(set)
	var names []string
	seen := map[string]bool{}
	name := func(k string) {
		if !seen[k] {
			seen[k] = true
			names = append(names, k)
		}
	}
	items := false
	for _, s := range set {
		for _, k := range slices.Sorted(maps.Keys(s.Properties)) {
			name(k)
		}
		for _, k := range s.Required {
			name(k)
		}
		for _, k := range slices.Sorted(maps.Keys(s.DependentRequired)) {
			name(k)
			for _, d := range s.DependentRequired[k] {
				name(d)
			}
		}
		for _, k := range slices.Sorted(maps.Keys(s.Dependencies)) {
			name(k)
			if deps, ok := s.Dependencies[k].([]string); ok {
				for _, d := range deps {
					name(d)
				}
			}
		}
		for _, k := range slices.Sorted(maps.Keys(s.DependentSchemas)) {
			name(k)
		}
		items = items || s.Items != nil || s.Items2020 != nil || len(s.PrefixItems) > 0 || s.Contains != nil
	}
	kind := rapid.IntRange(0, 9).Draw(t, "kind")
	conforming := rapid.Bool().Draw(t, "conforming")
	if conforming {
		// Half the values take a type every schema of set allows, so
		// whole documents pass often enough.
		allowed := map[string]bool{"object": true, "array": true, "scalar": true}
		for _, s := range set {
			if len(s.Types) == 0 {
				continue
			}
			mine := map[string]bool{}
			for _, ty := range s.Types {
				switch ty {
				case "object", "array":
					mine[ty] = true
				default:
					mine["scalar"] = true
				}
			}
			for k := range allowed {
				allowed[k] = allowed[k] && mine[k]
			}
		}
		switch {
		case allowed["object"] && !allowed["scalar"]:
			kind = 0
		case allowed["array"] && !allowed["scalar"]:
			kind = 5
		case allowed["scalar"] && !allowed["object"] && !allowed["array"]:
			kind = 9
		}
	}
	if depth > 6 {
		kind = 9
	}
	switch {
	case kind <= 2 || kind <= 4 && len(names) > 0:
		var b strings.Builder
		b.WriteByte('{')
		var keys []string
		for _, s := range set {
			for _, k := range s.Required {
				if rapid.IntRange(0, 9).Draw(t, "required") < 8 {
					keys = append(keys, k)
				}
			}
		}
		n := len(keys) + rapid.IntRange(0, len(names)+3).Draw(t, "keys")
		for i := 0; i < n; i++ {
			var k string
			if i < len(keys) {
				k = keys[i]
			} else if len(names) > 0 && rapid.IntRange(0, 9).Draw(t, "named") < 7 {
				k = rapid.SampledFrom(names).Draw(t, "name")
			} else {
				k = rapid.SampledFrom([]string{"x", "extra", "a/b", "a.b", "", "é", "Alias", "𝄞"}).Draw(t, "other")
			}
			var sub []*jsonschema.Schema
			for _, s := range set {
				if x, ok := s.Properties[k]; ok {
					sub = append(sub, x)
				} else if a, ok := s.AdditionalProperties.(*jsonschema.Schema); ok {
					sub = append(sub, a)
				}
			}
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(genString(t, k))
			b.WriteByte(':')
			b.WriteString(genInstance(t, sub, depth+1))
		}
		b.WriteByte('}')
		return b.String()
	case kind <= 6 && (items || kind == 5):
		var b strings.Builder
		b.WriteByte('[')
		n := rapid.IntRange(0, 5).Draw(t, "elems")
		for i := 0; i < n; i++ {
			var sub []*jsonschema.Schema
			for _, s := range set {
				if i < len(s.PrefixItems) {
					sub = append(sub, s.PrefixItems[i])
				} else if s.Items2020 != nil {
					sub = append(sub, s.Items2020)
				}
				switch it := s.Items.(type) {
				case *jsonschema.Schema:
					sub = append(sub, it)
				case []*jsonschema.Schema:
					if i < len(it) {
						sub = append(sub, it[i])
					}
				}
				if s.Contains != nil {
					sub = append(sub, s.Contains)
				}
			}
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(genInstance(t, sub, depth+1))
		}
		b.WriteByte(']')
		return b.String()
	}
	pool := []string{
		`null`, `true`, `false`, `0`, `1`, `-1`, `-2`, `2`, `3`, `1.5`, `1.0`, `1e2`, `2E-1`, `-0`, `0.5`, `11`,
		`123456789012345678901234567890`, `""`, `"a"`, `"ab"`, `"abcd"`, `"two"`, `"x"`, `"websocket"`,
		`"\u00e9t\u00e9"`, `"a\"b"`, `"\ud83d\ude00"`, `"\ud834\udd1e"`, `"é"`, `"a@b.c"`, `{}`, `[]`, `[1,2]`,
		`{"a":[1,2]}`, `{"a":[1,2.0]}`,
	}
	if conforming {
		var ok []string
		for _, c := range pool {
			dec := json.NewDecoder(strings.NewReader(c))
			dec.UseNumber()
			var x any
			if dec.Decode(&x) != nil {
				continue
			}
			fits := true
			for _, s := range set {
				fits = fits && s.Validate(x) == nil
			}
			if fits {
				ok = append(ok, c)
			}
		}
		if len(ok) > 0 {
			pool = ok
		}
	}
	return rapid.SampledFrom(pool).Draw(t, "scalar")
}

// genString spells s as a JSON string, sometimes escaping every rune.
func genString(t *rapid.T, s string) string {
	if !rapid.Bool().Draw(t, "escape") {
		b, _ := json.Marshal(s)
		return string(b)
	}
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		if r > 0xffff {
			r1, r2 := utf16.EncodeRune(r)
			fmt.Fprintf(&b, `\u%04x\u%04x`, r1, r2)
		} else {
			fmt.Fprintf(&b, `\u%04x`, r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func errSet(err error) []string {
	var out []string
	for _, e := range occkit.Errors(err) {
		out = append(out, fmt.Sprintf("%s %s %s %s", e.Code, e.Path.String(), e.Rule, e.Detail))
	}
	return out
}

// TestProjectionEquivalent: DOC-5 for random documents, pruned validation,
// the fast acceptance and whole-document validation agree: the same
// verdict and the same errors at the same paths.
func TestProjectionEquivalent(t *testing.T) {
	embedded, err := NewValidator()
	if err != nil {
		t.Fatal(err)
	}
	validators := map[string]*Validator{"embedded": embedded}
	for name, src := range projSchemas {
		validators[name] = compileTestSchema(t, name, src)
	}
	for name, src := range fallbackSchemas {
		validators["fallback "+name] = compileTestSchema(t, name, src)
	}
	for name, v := range validators {
		t.Run(name, func(t *testing.T) {
			var valid, invalid, fast int
			// A round of 100 random documents can, rarely, land on one
			// side of a narrow schema only; further rounds (at most
			// ten) make the coverage check below a property of the
			// generator, not of one seed.
			for round := 0; round < 10 && (valid == 0 || invalid == 0 || v.fast != nil && fast == 0); round++ {
				rapid.Check(t, func(t *rapid.T) {
					src := genInstance(t, []*jsonschema.Schema{v.schema}, 0)
					doc, err := occkit.ParseDocument([]byte(src))
					if e := occkit.First(err); e != nil && e.Rule == "DOC-2" {
						t.Skip("a repeated key: not a Document")
					}
					if err != nil {
						t.Fatalf("generated invalid JSON %s: %v", src, err)
					}
					whole := v.validateWhole(doc)
					if whole == nil {
						valid++
					} else {
						invalid++
					}
					if diff := cmp.Diff(errSet(whole), errSet(v.Validate(doc))); diff != "" {
						t.Fatalf("Validate differs from whole validation of %s (-whole +got):\n%s", src, diff)
					}
					if v.proj == nil {
						return
					}
					if diff := cmp.Diff(errSet(whole), errSet(v.validatePruned(docjson.Root(doc)))); diff != "" {
						t.Fatalf("pruned validation differs from whole validation of %s (-whole +pruned):\n%s", src, diff)
					}
					if v.fast != nil {
						// The checker reproduces every keyword of a schema it
						// is built for, so on a document without repeated
						// keys it is exact, with any whitespace.
						var spaced bytes.Buffer
						if err := json.Indent(&spaced, []byte(src), " ", "\t"); err != nil {
							t.Fatal(err)
						}
						got, sgot := v.fast.Valid(doc.String()), v.fast.Valid(" "+spaced.String()+"\n")
						if got != (whole == nil) || sgot != got {
							t.Fatalf("fast check %v (%v indented) of %s, whole validation %v", got, sgot, src, whole)
						}
					}
					if v.fast != nil && v.fast.Valid(doc.String()) {
						fast++
						if whole != nil {
							t.Fatalf("fast acceptance of %s, which the schema refuses: %v", src, whole)
						}
					}
					// Numbers decode as the doubles they denote
					// (jsonwalk.Exact): the canonical form's spelling.
					dec := json.NewDecoder(bytes.NewReader(occkit.Canonical(doc)))
					dec.UseNumber()
					var want any
					if err := dec.Decode(&want); err != nil {
						t.Fatal(err)
					}
					if diff := cmp.Diff(want, schemacheck.DecodeAll(docjson.Root(doc))); diff != "" {
						t.Fatalf("DecodeAll of %s differs from encoding/json on its canonical form (-json +got):\n%s", src, diff)
					}
				})
			}
			t.Logf("%d valid, %d invalid, %d accepted fast", valid, invalid, fast)
			if valid == 0 || invalid == 0 {
				t.Errorf("the generator never produced a %s document", map[bool]string{true: "valid", false: "invalid"}[valid == 0])
			}
			if v.fast != nil && fast == 0 {
				t.Error("the fast checker never accepted a document")
			}
		})
	}
}

// A type refusal says which type was expected (and names no value).
func TestValidateSaysExpectedType(t *testing.T) {
	doc, err := Load([]byte(`{"agents": {"defaults": {"maxConcurrent": "four-secret"}}}`), LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	err = Validate(doc)
	if err == nil || !strings.Contains(err.Error(), "wants integer, not string") || strings.Contains(err.Error(), "four-secret") {
		t.Fatalf("got %v; want the expected type and not the value", err)
	}
}

// FuzzFastCheck: on any Document the fast check (the shared byte walker)
// gives the verdict of whole-document validation, and Validate agrees
// with both.
func FuzzFastCheck(f *testing.F) {
	for _, s := range []string{`{}`, `{"agents":{"defaults":{"maxConcurrent":2}}}`, `{"agents":{"defaults":{"maxConcurrent":"x"}}}`,
		`{"agents":{"entries":{"a":{"model":{"primary":"p/m"}}}}}`, `{"models":{"providers":{"p":{"models":[{"id":"m","contextWindow":1.5}]}}}}`,
		` {"logging" : {"level":"debug"} } `, `{"\u0061gents":{}}`, `[]`, `1e400`} {
		f.Add(s)
	}
	v, err := NewValidator()
	if err != nil || v.fast == nil {
		f.Fatalf("the embedded schema has no fast check: %v", err)
	}
	f.Fuzz(func(t *testing.T, s string) {
		doc, err := occkit.ParseDocument([]byte(s))
		if err != nil {
			return
		}
		whole := v.validateWhole(doc)
		if fast := v.fast.Valid(doc.String()); fast != (whole == nil) {
			t.Fatalf("fast check %v of %s, whole validation %v", fast, s, whole)
		}
		if got := v.Validate(doc); (got == nil) != (whole == nil) {
			t.Fatalf("Validate %v of %s, whole validation %v", got, s, whole)
		}
	})
}

// A number is validated as the double it denotes, whatever its spelling:
// the value compile.Load writes, the revision digest reads and OpenClaw
// sees. The fast check, the pruned validation and the whole-document
// reference agree, and a spelling with a huge exponent costs no more than
// a double does (math/big would build a million-digit denominator for
// 1e-1000000; found by FuzzFastCheck).
func TestValidateNumberSpellings(t *testing.T) {
	v, err := NewValidator()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		lit   string
		valid bool
	}{
		{"2", true},
		{"2.0", true},
		{"2e0", true},
		{"20e-1", true},
		{"0.2e1", true},
		{"1.0000000000000000001", true}, // the double 1
		{"1e21", true},
		{"1.5", false},
		{"0", false},
		{"1e-1000000", false}, // the double 0
		{"-1e-1000000", false},
		{"9e-1000000", false},
		{"0.99999999999999999999", true}, // the double 1
		{"0.9999999999999999", false},
	}
	for _, tt := range tests {
		t.Run(tt.lit, func(t *testing.T) {
			doc, err := occkit.ParseDocument([]byte(`{"agents":{"defaults":{"maxConcurrent":` + tt.lit + `}}}`))
			if err != nil {
				t.Fatal(err)
			}
			whole := v.validateWhole(doc)
			var got error
			n, _ := allocated(func() { got = v.Validate(doc) })
			if (got == nil) != tt.valid || (whole == nil) != tt.valid || v.fast.Valid(doc.String()) && !tt.valid {
				t.Fatalf("Validate %v, whole validation %v, want valid %v", got, whole, tt.valid)
			}
			if n > 64<<10 {
				t.Errorf("validating one number allocated %d bytes, want at most 64 KiB", n)
			}
		})
	}
}
