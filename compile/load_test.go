package compile

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/occkit/occkit"
)

// errOf is err's first refusal by code, path and rule, never text.
func errOf(t *testing.T, err error) occkit.ErrorMatcher {
	t.Helper()
	m := occkit.MatchersOf(err)
	if len(m) == 0 {
		t.Fatalf("want a refusal, got %v", err)
	}
	return m[0]
}

// checkLoaded compares what a load gave with the document want, or with
// the refusal werr when that is set.
func checkLoaded(t *testing.T, doc occkit.Document, err error, want string, werr *occkit.ErrorMatcher) {
	t.Helper()
	if werr != nil {
		if diff := cmp.Diff(*werr, errOf(t, err)); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, doc.String()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestLoad(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"DOC-1 strict JSON keeps order", `{"z": 1, "a": {"y": [1, 2.50, true, null]}}`, `{"z":1,"a":{"y":[1,2.5,true,null]}}`},
		{"DOC-1 numbers take their RFC 8785 form", `{"n": [16, 16.0, 1.6e1, 1.6E1, 0x10, +16, 16., 1e6, -0, 1e21, 1e-7, 12345678901234567890, 1e-400]}`,
			`{"n":[16,16,16,16,16,16,16,1000000,0,1e+21,1e-7,12345678901234567000,0]}`},
		{"DOC-1 a surrogate pair is one character", `{"a": "\ud83d\ude00", 'b': '\uD83D\uDE00'}`, "{\"a\":\"\U0001F600\",\"b\":\"\U0001F600\"}"},
		{"DOC-1 JSON5 when strict fails", "// c\n{agents: {defaults: {model: 'openai/gpt-5',},},}", `{"agents":{"defaults":{"model":"openai/gpt-5"}}}`},
		{"DOC-1 escapes normalize", `{"a": "\u0041\/"}`, `{"a":"A/"}`},
		{"DOC-1 JSON and JSON5 agree", `{'a': "\x41/"}`, `{"a":"A/"}`},
		{"DOC-3 unknown keys kept", `{"x-vendor": {"k": 1}, "agents": {}}`, `{"x-vendor":{"k":1},"agents":{}}`},
		{"DOC-4 no lookup keeps references", `{"k": "${OPENAI_API_KEY}", "e": "$${X}"}`, `{"k":"${OPENAI_API_KEY}","e":"$${X}"}`},
		{"DOC-2 exactly at depth 64", `{"a":` + strings.Repeat("[", 63) + strings.Repeat("]", 63) + `}`, `{"a":` + strings.Repeat("[", 63) + strings.Repeat("]", 63) + `}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := Load([]byte(tt.in), LoadOptions{})
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			if diff := cmp.Diff(tt.want, doc.String()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestLoadErrors(t *testing.T) {
	inv := func(path, rule string) occkit.ErrorMatcher {
		return occkit.ErrorMatcher{Code: occkit.CodeInvalidRequest, Path: path, Rule: rule}
	}
	tests := []struct {
		name   string
		in     string
		limits Limits
		want   occkit.ErrorMatcher
	}{
		{"DOC-1 not JSON5", `{a: }`, Limits{}, inv("a", "DOC-1")},
		{"DOC-1 empty", ``, Limits{}, inv("", "DOC-1")},
		{"DOC-1 Infinity", `{a: {b: Infinity}}`, Limits{}, inv("a.b", "DOC-1")},
		{"DOC-1 NaN in array", `[1, NaN]`, Limits{}, inv("[1]", "DOC-1")},
		{"DOC-1 invalid UTF-8", "{\"a\": \"\xff\"}", Limits{}, inv("", "DOC-1")},
		{"DOC-1 lone high surrogate", `{"a": {"b": "x\ud800"}}`, Limits{}, inv("a.b", "DOC-1")},
		{"DOC-1 lone low surrogate in JSON5", `{a: ['\udc00y']}`, Limits{}, inv("a[0]", "DOC-1")},
		{"DOC-1 reversed surrogate pair", `{"a": "\ude00\ud83d"}`, Limits{}, inv("a", "DOC-1")},
		{"DOC-1 lone surrogate in a key", `{"a": {"\ud800": 1}}`, Limits{}, inv("a", "DOC-1")},
		{"DOC-1 number beyond a double", `{"a": [1.8e308]}`, Limits{}, inv("a[0]", "DOC-1")},
		{"DOC-1 negative number beyond a double", `{"a": -1e999}`, Limits{}, inv("a", "DOC-1")},
		{"DOC-1 integer beyond a double", `{"a": 1` + strings.Repeat("0", 309) + `}`, Limits{}, inv("a", "DOC-1")},
		{"DOC-1 hexadecimal beyond a double", `{a: 0x1` + strings.Repeat("0", 256) + `}`, Limits{}, inv("a", "DOC-1")},
		{"DOC-2 maxBytes", `{"a": 1}`, Limits{MaxBytes: 7}, inv("", "DOC-2")},
		{"DOC-2 maxDepth object", `{"a": {"b": {"c": 1}}}`, Limits{MaxDepth: 2}, inv("a.b", "DOC-2")},
		{"DOC-2 maxDepth array", `{"a": [[1]]}`, Limits{MaxDepth: 2}, inv("a[0]", "DOC-2")},
		{"DOC-2 default depth 65", strings.Repeat("[", 65) + strings.Repeat("]", 65), Limits{}, inv(strings.Repeat("[0]", 64), "DOC-2")},
		{"DOC-2 depth in JSON5", `{a: {'b': [ /* [[[ */ {}]}}`, Limits{MaxDepth: 3}, inv("a.b[0]", "DOC-2")},
		{"DOC-2 string length", `{"a": "12345"}`, Limits{MaxStringBytes: 4}, inv("a", "DOC-2")},
		{"DOC-2 key length", `{"abcde": 1}`, Limits{MaxStringBytes: 4}, inv("", "DOC-2")},
		{"DOC-2 key count", `{"a": 1, "b": {"c": 2}}`, Limits{MaxKeys: 2}, inv("b.c", "DOC-2")},
		{"DOC-2 duplicate key", `{"a": {"x": 1, "x": 2}}`, Limits{}, inv("a.x", "DOC-2")},
		{"DOC-2 duplicate key via escape", `{"a": 1, "\u0061": 2}`, Limits{}, inv("a", "DOC-2")},
		{"DOC-2 duplicate key in JSON5", `{a: 1, 'a': 2,}`, Limits{}, inv("a", "DOC-2")},
		{"DOC-4 include without roots", `{"agents": {"$include": "a.json"}}`, Limits{}, inv("agents.$include", "DOC-4")},
		{"DOC-4 include list without roots", `{"agents": {"$include": ["a.json"]}}`, Limits{}, inv("agents.$include", "DOC-4")},
		{"DOC-4 empty include list without roots", `{"a": 1, "$include": []}`, Limits{}, inv("$include", "DOC-4")},
		{"DOC-1 top-level array", `[]`, Limits{}, inv("", "DOC-1")},
		{"DOC-1 top-level array in JSON5", `[{a: 1},]`, Limits{}, inv("", "DOC-1")},
		{"DOC-1 top-level string", `"x"`, Limits{}, inv("", "DOC-1")},
		{"DOC-1 top-level number", ` 42 `, Limits{}, inv("", "DOC-1")},
		{"DOC-1 top-level boolean", `true`, Limits{}, inv("", "DOC-1")},
		{"DOC-1 top-level null", `null`, Limits{}, inv("", "DOC-1")},
		{"DOC-2 depth before DOC-1 object check", strings.Repeat("[", 65) + strings.Repeat("]", 65), Limits{}, inv(strings.Repeat("[0]", 64), "DOC-2")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Load([]byte(tt.in), LoadOptions{Limits: tt.limits})
			if err == nil {
				t.Fatal("want error")
			}
			if diff := cmp.Diff(tt.want, errOf(t, err)); diff != "" {
				t.Errorf("(-want +got):\n%s\n%v", diff, err)
			}
			if got := occkit.First(err).HTTPStatus(); got != 400 {
				t.Errorf("status %d", got)
			}
		})
	}
}

// TestLoadErrorsNeverQuoteValues: DOC errors name settings, not values.
func TestLoadErrorsNeverQuoteValues(t *testing.T) {
	for _, in := range []string{
		`{"apiKey": sk-live-123}`, `{"apiKey": "sk-live-123", "apiKey": "sk-live-123"}`,
		`{"apiKey": "sk-live-123`, `{"$include": "sk-live-123.json"}`, `{"k": "${SK_LIVE_123X}", x: Infinity}`,
	} {
		_, err := Load([]byte(in), LoadOptions{Lookup: func(string) (string, bool) { return "", false }})
		if err == nil {
			t.Fatalf("%s: want error", in)
		}
		if strings.Contains(err.Error(), "sk-live") {
			t.Errorf("%s: error quotes a value: %v", in, err)
		}
	}
}

func TestLoadSubstitution(t *testing.T) {
	env := map[string]string{"API_KEY": "k-1", "EMPTY": "", "_X9": "v"}
	lookup := func(n string) (string, bool) { v, ok := env[n]; return v, ok }
	tests := []struct {
		name, in, want string
		err            *occkit.ErrorMatcher
	}{
		{"DOC-4 whole string", `{"a": "${API_KEY}"}`, `{"a":"k-1"}`, nil},
		{"DOC-4 inside text and arrays", `{"a": ["x-${_X9}-${API_KEY}"]}`, `{"a":["x-v-k-1"]}`, nil},
		{"DOC-4 escape", `{"a": "$${API_KEY} $${lower}"}`, `{"a":"${API_KEY} $${lower}"}`, nil},
		{"DOC-4 not a reference", `{"a": "${lower} ${1X} $API_KEY ${API_KEY"}`, `{"a":"${lower} ${1X} $API_KEY ${API_KEY"}`, nil},
		{"DOC-4 keys untouched", `{"${API_KEY}": 1}`, `{"${API_KEY}":1}`, nil},
		{"DOC-4 value with quotes", `{"a": "${API_KEY}\"${_X9}"}`, `{"a":"k-1\"v"}`, nil},
		{"DOC-4 missing variable", `{"m": {"p": ["${NOPE}"]}}`, "", &occkit.ErrorMatcher{Code: occkit.CodeInvalidRequest, Path: "m.p[0]", Rule: "DOC-4"}},
		{"DOC-4 empty variable", `{"a": "${EMPTY}"}`, "", &occkit.ErrorMatcher{Code: occkit.CodeInvalidRequest, Path: "a", Rule: "DOC-4"}},
		{"DOC-4 secret store", `{"a": "${pass:team/key}"}`, "", &occkit.ErrorMatcher{Code: occkit.CodeInvalidRequest, Path: "a", Rule: "DOC-4"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := Load([]byte(tt.in), LoadOptions{Lookup: lookup})
			checkLoaded(t, doc, err, tt.want, tt.err)
		})
	}
	_, err := Load([]byte(`{"a": "${NOPE}"}`), LoadOptions{Lookup: lookup})
	if !strings.Contains(err.Error(), "NOPE") {
		t.Errorf("missing variable not named: %v", err)
	}
}

// writeFiles creates files (name → content) under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestLoadIncludes(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"base.json5":         `{agents: {defaults: {model: 'openai/gpt-5', maxConcurrent: 4}, list: [1]}, logging: {level: 'info'}}`,
		"more.json":          `{"agents": {"list": [2], "defaults": {"extra": true}}, "n": 1}`,
		"array.json":         `[1, 2]`,
		"array2.json":        `[3]`,
		"sub/models.json5":   `{providers: {$include: './providers.json'}}`,
		"sub/providers.json": `{"openai": {"baseUrl": "https://api.openai.com/v1"}}`,
		"scalar.json":        `"just a string"`,
	})
	tests := []struct {
		name, in, want string
	}{
		{"DOC-4 single include, siblings win, arrays concatenate",
			`{"$include": "base.json5", "agents": {"defaults": {"maxConcurrent": 8}, "list": [9]}}`,
			`{"agents":{"defaults":{"model":"openai/gpt-5","maxConcurrent":8},"list":[1,9]},"logging":{"level":"info"}}`},
		{"DOC-4 array include merges left to right",
			`{"$include": ["base.json5", "more.json"]}`,
			`{"agents":{"defaults":{"model":"openai/gpt-5","maxConcurrent":4,"extra":true},"list":[1,2]},"logging":{"level":"info"},"n":1}`},
		{"DOC-4 nested include relative to the including file",
			`{"models": {"$include": "sub/models.json5", "mode": "merge"}}`,
			`{"models":{"providers":{"openai":{"baseUrl":"https://api.openai.com/v1"}},"mode":"merge"}}`},
		{"DOC-4 include alone may be any value", `{"a": {"$include": "scalar.json"}, "b": [{"$include": "array.json"}]}`, `{"a":"just a string","b":[[1,2]]}`},
		{"DOC-4 arrays of arrays concatenate", `{"a": {"$include": ["array.json", "array2.json"]}}`, `{"a":[1,2,3]}`},
		{"DOC-4 empty include list", `{"a": {"$include": []}}`, `{"a":{}}`},
		{"DOC-4 absolute path inside root", `{"a": {"$include": "` + filepath.Join(dir, "array.json") + `"}}`, `{"a":[1,2]}`},
		{"DOC-4 dotdot that stays inside", `{"a": {"$include": "sub/../array.json"}}`, `{"a":[1,2]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := Load([]byte(tt.in), LoadOptions{IncludeRoots: []string{dir}})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, doc.String()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestLoadIncludedStringsSubstituted: DOC-4 — substitution applies to the
// whole merged document, as in OpenClaw: strings that come from an
// included file are substituted (and $${...} unescaped) even when the
// including file holds no reference itself (issue 14).
func TestLoadIncludedStringsSubstituted(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"keys.json":     `{"models": {"providers": {"openai": {"apiKey": "${API_KEY}", "note": "$${API_KEY}"}}}}`,
		"list.json5":    `['${API_KEY}', "plain"]`,
		"sub/deep.json": `{"$include": "leaf.json"}`,
		"sub/leaf.json": `{"v": "x-${API_KEY}"}`,
		"missing.json":  `{"k": "${NOPE}"}`,
		"no-refs.json":  `{"k": "$${lower} ${lower}"}`,
	})
	lookup := func(n string) (string, bool) { return "k-1", n == "API_KEY" }
	tests := []struct{ name, in, want string }{
		{"from an included object", `{"$include": "keys.json"}`, `{"models":{"providers":{"openai":{"apiKey":"k-1","note":"${API_KEY}"}}}}`},
		{"from an included array", `{"a": {"$include": "list.json5"}}`, `{"a":["k-1","plain"]}`},
		{"two levels down", `{"d": {"$include": "sub/deep.json"}}`, `{"d":{"v":"x-k-1"}}`},
		{"not a reference stays", `{"$include": "no-refs.json"}`, `{"k":"$${lower} ${lower}"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := Load([]byte(tt.in), LoadOptions{IncludeRoots: []string{dir}, Lookup: lookup})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, doc.String()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	_, err := Load([]byte(`{"x": {"$include": "missing.json"}}`), LoadOptions{IncludeRoots: []string{dir}, Lookup: lookup})
	if diff := cmp.Diff(occkit.ErrorMatcher{Code: occkit.CodeInvalidRequest, Path: "x.k", Rule: "DOC-4"}, errOf(t, err)); diff != "" {
		t.Errorf("missing variable in an included file (-want +got):\n%s", diff)
	}
}

// TestLoadIncludeBudget: DOC-2 — the included files together hold at most
// MaxBytes, checked against each file's size before it is read.
func TestLoadIncludeBudget(t *testing.T) {
	dir := t.TempDir()
	body := `{"v": "` + strings.Repeat("x", 600) + `"}`
	writeFiles(t, dir, map[string]string{"a.json": body, "b.json": body, "c.json": `{"w": 1}`})
	opts := LoadOptions{IncludeRoots: []string{dir}, Limits: Limits{MaxBytes: 1024}}
	if _, err := Load([]byte(`{"$include": ["a.json", "c.json"]}`), opts); err != nil {
		t.Fatalf("within the budget: %v", err)
	}
	_, err := Load([]byte(`{"$include": ["a.json", "c.json", "b.json"]}`), opts)
	if diff := cmp.Diff(occkit.ErrorMatcher{Code: occkit.CodeInvalidRequest, Path: "$include[2]", Rule: "DOC-2"}, errOf(t, err)); diff != "" {
		t.Errorf("over the budget (-want +got):\n%s\n%v", diff, err)
	}
}

func TestLoadIncludeErrors(t *testing.T) {
	top := t.TempDir()
	dir := filepath.Join(top, "root")
	outside := filepath.Join(top, "outside")
	writeFiles(t, top, map[string]string{
		"outside/secret.json": `{"stolen": true}`,
		"root/self.json":      `{"$include": "self.json"}`,
		"root/a.json":         `{"x": {"$include": "b.json"}}`,
		"root/b.json":         `{"y": {"$include": "a.json"}}`,
		"root/obj.json":       `{"k": 1}`,
		"root/nest.json":      `{"k": {"j": 1}}`,
		"root/arr.json":       `[1]`,
		"root/bad.json":       `{"k": 1, "k": 2}`,
		"root/broken.json5":   `{k: }`,
		"root/big.json":       `{"k": "` + strings.Repeat("x", 200) + `"}`,
	})
	// A chain of twelve files: c0 includes c1 … c11.
	for i := 0; i < 12; i++ {
		next := `{"leaf": true}`
		if i < 11 {
			next = `{"n": {"$include": "c` + string(rune('a'+i+1)) + `.json"}}`
		}
		writeFiles(t, dir, map[string]string{"c" + string(rune('a'+i)) + ".json": next})
	}
	mustSymlink := func(target, link string) {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Skipf("symlinks unavailable: %v", err)
		}
	}
	mustSymlink(filepath.Join(outside, "secret.json"), "link-out.json")
	mustSymlink(outside, "dir-out")
	mustSymlink(filepath.Join(dir, "obj.json"), "link-in.json")
	if err := os.Link(filepath.Join(outside, "secret.json"), filepath.Join(dir, "hard.json")); err != nil {
		t.Logf("no hard link: %v", err)
	}
	inv := func(path, rule string) *occkit.ErrorMatcher {
		return &occkit.ErrorMatcher{Code: occkit.CodeInvalidRequest, Path: path, Rule: rule}
	}
	tests := []struct {
		name   string
		in     string
		limits Limits
		want   *occkit.ErrorMatcher
	}{
		{"DOC-4 dotdot escape", `{"a": {"$include": "../outside/secret.json"}}`, Limits{}, inv("a.$include", "DOC-4")},
		{"DOC-4 absolute path outside roots", `{"a": {"$include": "` + filepath.Join(outside, "secret.json") + `"}}`, Limits{}, inv("a.$include", "DOC-4")},
		{"DOC-4 symlink out of root", `{"a": {"$include": "link-out.json"}}`, Limits{}, inv("a.$include", "DOC-4")},
		{"DOC-4 symlinked directory out of root", `{"a": {"$include": "dir-out/secret.json"}}`, Limits{}, inv("a.$include", "DOC-4")},
		{"DOC-4 hard link refused", `{"a": {"$include": "hard.json"}}`, Limits{}, inv("a.$include", "DOC-4")},
		{"DOC-4 symlink inside root is fine", `{"a": {"$include": "link-in.json"}}`, Limits{}, nil},
		{"DOC-4 self cycle", `{"$include": "self.json"}`, Limits{}, inv("$include", "DOC-4")},
		{"DOC-4 two-file cycle", `{"$include": "a.json"}`, Limits{}, inv("x.y.$include", "DOC-4")},
		{"DOC-4 depth 10 is fine", `{"$include": "cc.json"}`, Limits{}, nil},
		{"DOC-4 depth 11 refused", `{"$include": "cb.json"}`, Limits{}, inv(strings.Repeat("n.", 10)+"$include", "DOC-4")},
		{"DOC-4 missing file", `{"$include": "nope.json"}`, Limits{}, inv("$include", "DOC-4")},
		{"DOC-4 directory", `{"$include": "."}`, Limits{}, inv("$include", "DOC-4")},
		{"DOC-4 bad include value", `{"$include": 5}`, Limits{}, inv("$include", "DOC-4")},
		{"DOC-4 bad include entry", `{"$include": ["obj.json", true]}`, Limits{}, inv("$include[1]", "DOC-4")},
		{"DOC-4 empty path", `{"$include": ""}`, Limits{}, inv("$include", "DOC-4")},
		{"DOC-4 siblings need an object", `{"$include": "arr.json", "k": 1}`, Limits{}, inv("$include", "DOC-4")},
		{"DOC-1 a top-level include must yield an object", `{"$include": "arr.json"}`, Limits{}, inv("", "DOC-1")},
		{"DOC-2 duplicate inside an included file", `{"p": {"$include": "bad.json"}}`, Limits{}, inv("p.$include", "DOC-2")},
		{"DOC-1 syntax inside an included file", `{"p": {"$include": ["obj.json", "broken.json5"]}}`, Limits{}, inv("p.$include[1]", "DOC-1")},
		{"DOC-2 included file too large", `{"$include": "big.json"}`, Limits{MaxBytes: 100}, inv("$include", "DOC-2")},
		{"DOC-2 merged document too deep", `{"a": {"b": {"$include": "nest.json"}}}`, Limits{MaxDepth: 3}, inv("a.b.k", "DOC-2")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Load([]byte(tt.in), LoadOptions{IncludeRoots: []string{dir}, Limits: tt.limits})
			if tt.want == nil {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil {
				t.Fatal("want error")
			}
			if diff := cmp.Diff(*tt.want, errOf(t, err)); diff != "" {
				t.Errorf("(-want +got):\n%s\n%v", diff, err)
			}
			if strings.Contains(err.Error(), top) {
				t.Errorf("error names a file path: %v", err)
			}
		})
	}
}

func TestLoadFile(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"openclaw.json5":     `{$include: './parts/agents.json5', logging: {level: '${LEVEL}'}}`,
		"parts/agents.json5": `{agents: {defaults: {model: 'anthropic/claude'}}}`,
	})
	lookup := func(n string) (string, bool) { return map[string]string{"LEVEL": "debug"}[n], n == "LEVEL" }
	doc, err := LoadFile(filepath.Join(dir, "openclaw.json5"), LoadOptions{Lookup: lookup})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"agents":{"defaults":{"model":"anthropic/claude"}},"logging":{"level":"debug"}}`
	if diff := cmp.Diff(want, doc.String()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if _, err := LoadFile(filepath.Join(dir, "missing.json"), LoadOptions{}); errOf(t, err).Rule != "DOC-1" {
		t.Errorf("missing file: %v", err)
	}
	if _, err := LoadFile(dir, LoadOptions{}); errOf(t, err).Code != occkit.CodeInvalidRequest {
		t.Errorf("directory: %v", err)
	}
}

func TestLimitsDefaults(t *testing.T) {
	got := Limits{MaxDepth: HardMaxDepth + 1}.withDefaults()
	want := Limits{MaxBytes: DefaultMaxBytes, MaxDepth: HardMaxDepth, MaxStringBytes: DefaultMaxStringBytes, MaxKeys: DefaultMaxKeys}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestLoadMatchesEncodingJSON: strict JSON loads to the value encoding/json
// reads (DOC-1).
func TestLoadMatchesEncodingJSON(t *testing.T) {
	in := `{"a": [1, -2.5e3, "x\ty\u00e9", {"b": null}], "c": true, "\u00e9": "\/"}`
	doc, err := Load([]byte(in), LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var a, b any
	if err := json.Unmarshal([]byte(in), &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(doc.Bytes(), &b); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(a, b); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// jsonValue draws a JSON value of bounded depth for property tests.
func jsonValue(t *rapid.T, depth int) any {
	kinds := 6
	if depth > 3 {
		kinds = 4
	}
	switch rapid.IntRange(0, kinds-1).Draw(t, "kind") {
	case 0:
		return nil
	case 1:
		return rapid.Bool().Draw(t, "bool")
	case 2:
		return rapid.Float64Range(-1e9, 1e9).Draw(t, "num")
	case 3:
		return rapid.String().Draw(t, "str")
	case 4:
		n := rapid.IntRange(0, 4).Draw(t, "len")
		a := make([]any, n)
		for i := range a {
			a[i] = jsonValue(t, depth+1)
		}
		return a
	}
	m := map[string]any{}
	for _, k := range rapid.SliceOfNDistinct(rapid.String(), 0, 4, func(s string) string { return s }).Draw(t, "keys") {
		m[k] = jsonValue(t, depth+1)
	}
	return m
}

// TestLoadProperties: DOC-1 — strict JSON loads to the value encoding/json
// reads, loading is idempotent, and indentation never changes the bytes.
// The value is wrapped in an object: a Configuration is one.
func TestLoadProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		v := map[string]any{"v": jsonValue(t, 0)}
		compact, err := json.Marshal(v)
		if err != nil {
			t.Skip()
		}
		indented, _ := json.MarshalIndent(v, "", "\t")
		a, err := Load(compact, LoadOptions{})
		if err != nil {
			t.Fatalf("Load(%s): %v", compact, err)
		}
		b, err := Load(indented, LoadOptions{})
		if err != nil || !a.Equal(b) {
			t.Fatalf("indentation changed the result: %s vs %s (%v)", a, b, err)
		}
		again, err := Load(a.Bytes(), LoadOptions{})
		if err != nil || !again.Equal(a) {
			t.Fatalf("not idempotent: %s -> %s (%v)", a, again, err)
		}
		var got any
		if err := json.Unmarshal(a.Bytes(), &got); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(v, got); diff != "" {
			t.Fatalf("value changed (-want +got):\n%s", diff)
		}
	})
}
