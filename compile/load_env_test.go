package compile

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/occkit/occkit"
)

// TestLoadEnvSection: DOC-4 — the document's env section defines
// variables for its own ${NAME} references as OpenClaw's loader applies
// it (config-env-vars, then env-substitution, in 2026.9.6): env.vars and
// the string shorthand keys beside it, the shorthand last; the process
// environment's non-blank values first; names OpenClaw will not take from
// a configuration, blank values and values holding a reference define
// nothing; the section's own strings are substituted like any other.
func TestLoadEnvSection(t *testing.T) {
	tests := []struct {
		name, in string
		env      map[string]string
		want     string
		err      *occkit.ErrorMatcher
	}{
		{"env.vars defines", `{"env":{"vars":{"A":"v"}},"a":"${A}"}`, nil,
			`{"env":{"vars":{"A":"v"}},"a":"v"}`, nil},
		{"the process environment wins", `{"env":{"vars":{"A":"v"}},"a":"${A}"}`, map[string]string{"A": "p"},
			`{"env":{"vars":{"A":"v"}},"a":"p"}`, nil},
		{"a blank environment value does not", `{"env":{"vars":{"A":"v"}},"a":"${A}"}`, map[string]string{"A": " \t"},
			`{"env":{"vars":{"A":"v"}},"a":"v"}`, nil},
		{"an empty environment value does not", `{"env":{"vars":{"A":"v"}},"a":"${A}"}`, map[string]string{"A": ""},
			`{"env":{"vars":{"A":"v"}},"a":"v"}`, nil},
		{"shorthand key", `{"env":{"A":"s"},"a":"${A}"}`, nil,
			`{"env":{"A":"s"},"a":"s"}`, nil},
		{"shorthand wins over vars, written before", `{"env":{"A":"s","vars":{"A":"v"}},"a":"${A}"}`, nil,
			`{"env":{"A":"s","vars":{"A":"v"}},"a":"s"}`, nil},
		{"shorthand wins over vars, written after", `{"env":{"vars":{"A":"v"},"A":"s"},"a":"${A}"}`, nil,
			`{"env":{"vars":{"A":"v"},"A":"s"},"a":"s"}`, nil},
		{"names are trimmed", `{"env":{"vars":{" A\u00a0":"v"}},"a":"${A}"}`, nil,
			"{\"env\":{\"vars\":{\" A\u00a0\":\"v\"}},\"a\":\"v\"}", nil},
		{"values are not trimmed", `{"env":{"vars":{"A":" v "}},"a":"<${A}>"}`, nil,
			`{"env":{"vars":{"A":" v "}},"a":"< v >"}`, nil},
		{"an escaped value is taken as written", `{"env":{"vars":{"A":"$${B}"}},"a":"${A}"}`, nil,
			`{"env":{"vars":{"A":"${B}"}},"a":"$${B}"}`, nil},
		{"the section's own references are substituted", `{"env":{"vars":{"A":"${B}"}}}`, map[string]string{"B": "b"},
			`{"env":{"vars":{"A":"b"}}}`, nil},
		{"an include defines", `{"$include":"inc.json","a":"${A}"}`, nil,
			`{"env":{"vars":{"A":"i"}},"a":"i"}`, nil},
		{"Z_AI_API_KEY defines ZAI_API_KEY", `{"env":{"vars":{"Z_AI_API_KEY":"z"}},"a":"${ZAI_API_KEY}"}`, nil,
			`{"env":{"vars":{"Z_AI_API_KEY":"z"}},"a":"z"}`, nil},
		{"the environment's Z_AI_API_KEY wins", `{"env":{"vars":{"ZAI_API_KEY":"d"}},"a":"${ZAI_API_KEY}"}`, map[string]string{"Z_AI_API_KEY": "e"},
			`{"env":{"vars":{"ZAI_API_KEY":"d"}},"a":"e"}`, nil},

		{"a value holding a reference defines nothing", `{"env":{"vars":{"A":"${B}"}},"a":"${A}"}`, map[string]string{"B": "b"},
			"", &occkit.ErrorMatcher{Code: occkit.CodeInvalidRequest, Path: "a", Rule: "DOC-4"}},
		{"a blank value defines nothing", `{"env":{"vars":{"A":"\u3000"}},"a":"${A}"}`, nil,
			"", &occkit.ErrorMatcher{Code: occkit.CodeInvalidRequest, Path: "a", Rule: "DOC-4"}},
		{"a number defines nothing", `{"env":{"vars":{"A":1}},"a":"${A}"}`, nil,
			"", &occkit.ErrorMatcher{Code: occkit.CodeInvalidRequest, Path: "a", Rule: "DOC-4"}},
		{"a blocked name defines nothing", `{"env":{"vars":{"NODE_OPTIONS":"--require x"}},"a":"${NODE_OPTIONS}"}`, nil,
			"", &occkit.ErrorMatcher{Code: occkit.CodeInvalidRequest, Path: "a", Rule: "DOC-4"}},
		{"a blocked prefix defines nothing", `{"env":{"LD_AUDIT":"x"},"a":"${LD_AUDIT}"}`, nil,
			"", &occkit.ErrorMatcher{Code: occkit.CodeInvalidRequest, Path: "a", Rule: "DOC-4"}},
		{"shellEnv is no variable", `{"env":{"shellEnv":"x"},"a":"${shellEnv}${SHELLENV}"}`, nil,
			"", &occkit.ErrorMatcher{Code: occkit.CodeInvalidRequest, Path: "a", Rule: "DOC-4"}},
		{"a nested env defines nothing", `{"x":{"env":{"vars":{"A":"v"}}},"a":"${A}"}`, nil,
			"", &occkit.ErrorMatcher{Code: occkit.CodeInvalidRequest, Path: "a", Rule: "DOC-4"}},
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"inc.json": `{"env":{"vars":{"A":"i"}}}`})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lookup := func(n string) (string, bool) { v, ok := tt.env[n]; return v, ok }
			doc, err := Load([]byte(tt.in), LoadOptions{Lookup: lookup, IncludeRoots: []string{dir}})
			checkLoaded(t, doc, err, tt.want, tt.err)
		})
	}
}

// TestDefinedEnvAsLoaded: DOC-4 — the names a document defines for
// itself are those the loader applies: white space trimmed as JavaScript
// trims it, the shorthand beside vars, the ZAI pair.
func TestDefinedEnvAsLoaded(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string
	}{
		{"none", `{"a":1}`, []string{}},
		{"not an object", `{"env":"A=1"}`, []string{}},
		{"vars and shorthand", `{"env":{"vars":{"B":"1","A":"2"},"C":"3","shellEnv":{"enabled":true}}}`, []string{"A", "B", "C"}},
		{"portable lower-case names count", `{"env":{"vars":{"lower":"1","9X":"2","A-B":"3"}}}`, []string{"lower"}},
		{"blocked, blank, referencing and non-string values do not", `{"env":{"vars":{"LD_PRELOAD":"x","BASH_ENV":"x","B":" ","C":"${D}","E":true,"F":"$${G}"}}}`, []string{"F"}},
		{"the ZAI pair", `{"env":{"Z_AI_API_KEY":"z"}}`, []string{"ZAI_API_KEY", "Z_AI_API_KEY"}},
		{"JavaScript white space", "{\"env\":{\"vars\":{\"\ufeffA\":\"1\",\"\u0085B\":\"2\",\"C\":\"\ufeff\"}}}", []string{"A"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := Load([]byte(tt.in), LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, DefinedEnv(doc, SecretPolicyFor(""))); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
