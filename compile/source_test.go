package compile_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"unicode/utf8"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/compile"
	"github.com/occkit/occkit/compile/sensitive"
)

func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// A tree of includes: the root's own keys, an included file, a file it
// includes in turn, and an array of includes where the later one wins.
var sourceTree = map[string]string{
	"main.json5": `{
  agents: {
    $include: "parts/agents.json5",
    defaults: {maxConcurrent: 2},
  },
  models: {$include: ["a.json5", "b.json5"]},
}
`,
	"parts/agents.json5": `{
  defaults: {
    model: {primary: "openai/gpt-5"},
    $include: "../deep/sub.json5",
  },
  entries: {main: {}},
}
`,
	"deep/sub.json5": "{\n  sandbox: {mode: 'off'},\n}\n",
	"a.json5":        "{mode: 'merge', providers: {x: {baseUrl: 'a'}}}\n",
	"b.json5":        "{\n providers: {x: {baseUrl: 'b'}},\n}\n",
}

func TestSourcePositions(t *testing.T) {
	dir := writeTree(t, sourceTree)
	doc, err := compile.LoadFile(filepath.Join(dir, "main.json5"), compile.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	m := doc.SourceMap()
	if m == nil {
		t.Fatal("LoadFile attached no source map")
	}
	name := func(rel string) string { return filepath.Join(dir, filepath.FromSlash(rel)) }
	for _, tc := range []struct {
		path       string
		file       string
		line, col  int
		unlocated  bool
		textPrefix string
	}{
		{path: "agents", file: "main.json5", line: 2, col: 3},
		// The including object's own key wins the merge.
		{path: "agents.defaults", file: "main.json5", line: 4, col: 5},
		{path: "agents.defaults.maxConcurrent", file: "main.json5", line: 4, col: 16},
		{path: "agents.defaults.model.primary", file: "parts/agents.json5", line: 3, col: 13},
		{path: "agents.entries.main", file: "parts/agents.json5", line: 6, col: 13},
		// Two levels down.
		{path: "agents.defaults.sandbox.mode", file: "deep/sub.json5", line: 2, col: 13},
		// The later include wins.
		{path: "models.providers.x.baseUrl", file: "b.json5", line: 2, col: 18},
		{path: "models.mode", file: "a.json5", line: 1, col: 2},
		// A key nobody writes: at the object that lacks it.
		{path: "agents.entries.main.model", file: "parts/agents.json5", line: 6, col: 13},
		{path: "agents.$include", file: "main.json5", line: 3, col: 5},
		{path: "harnessAuth.method", unlocated: true},
	} {
		p, err := occkit.ParsePath(tc.path)
		if err != nil {
			t.Fatal(err)
		}
		pos, ok := m.Position(p)
		if tc.unlocated {
			if ok {
				t.Errorf("%s placed at %v", tc.path, pos)
			}
			continue
		}
		if !ok || pos.File != name(tc.file) || pos.Line != tc.line || pos.Column != tc.col {
			t.Errorf("%s at %v, want %s:%d:%d", tc.path, pos, tc.file, tc.line, tc.col)
		}
	}
	// Names are relative to how the top-level file was named.
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	doc, err = compile.LoadFile("main.json5", compile.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	pos, _ := doc.SourceMap().Position(occkit.NewPath("agents", "defaults", "sandbox"))
	if want := filepath.Join("deep", "sub.json5"); pos.File != want {
		t.Errorf("relative name %q, want %q", pos.File, want)
	}
}

func TestSourceFS(t *testing.T) {
	fsys := fstest.MapFS{}
	for name, text := range sourceTree {
		fsys["cfg/"+name] = &fstest.MapFile{Data: []byte(text)}
	}
	doc, err := compile.LoadFS(fsys, "cfg/main.json5", compile.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	pos, ok := doc.SourceMap().Position(occkit.NewPath("agents", "defaults", "sandbox", "mode"))
	if !ok || pos.String() != "cfg/deep/sub.json5:2:13" {
		t.Errorf("fs.FS position %v", pos)
	}
	if pos.Text != "  sandbox: {mode: 'off'}," {
		t.Errorf("text %q", pos.Text)
	}
}

// What the loader refuses names the file and position, inside an
// included file too, with the rule and path kept as before.
func TestLoadRefusalPositions(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		path  string // refusal path
		pos   string // file:line:col relative to the tree
	}{
		{"syntax", map[string]string{"main.json5": "{\n  a: {b: 1,,},\n}\n"}, "a", "main.json5:2:12"},
		{"syntax in an included file", map[string]string{
			"main.json5": "{\n  a: {$include: 'p.json5'},\n}\n",
			"p.json5":    "{\n  ok: 1,\n  bad: [1 2],\n}\n",
		}, "a.$include", "p.json5:3:11"},
		{"duplicate key in a nested include", map[string]string{
			"main.json5": "{a: {$include: 'p.json5'}}",
			"p.json5":    "{b: {$include: 'q.json5'}}",
			"q.json5":    "{\n x: 1,\n x: 2,\n}",
		}, "a.b.$include", "q.json5:3:2"},
		{"include outside the roots, in an included file", map[string]string{
			"main.json5": "{a: {$include: 'p.json5'}}",
			"p.json5":    "{\n b: {\n  $include: '../../etc/passwd'}}",
		}, "a.b.$include", "p.json5:3:3"},
		{"missing variable in an included file", map[string]string{
			"main.json5": "{a: {$include: 'p.json5'}}",
			"p.json5":    "{\n b: '${NOPE}'}",
		}, "a.b", "p.json5:2:2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := writeTree(t, tc.files)
			_, err := compile.LoadFile(filepath.Join(dir, "main.json5"), compile.LoadOptions{
				Lookup: func(string) (string, bool) { return "", false },
			})
			e := occkit.First(err)
			if e == nil {
				t.Fatalf("loaded")
			}
			if e.Path.String() != tc.path {
				t.Errorf("path %s, want %s", e.Path, tc.path)
			}
			want := filepath.Join(dir, tc.pos)
			if got := e.Position.String(); got != want {
				t.Errorf("position %s, want %s (%v)", got, want, e)
			}
			if !strings.Contains(e.Snippet(), "^") {
				t.Errorf("no snippet: %q", e.Snippet())
			}
		})
	}
}

// Load keeps nothing unless asked; its own refusals still carry a line
// and column, and the name when one is given. LoadReader keeps its copy.
func TestLoadSourceOptIn(t *testing.T) {
	src := []byte("{\n  a: 1,\n}")
	doc, err := compile.Load(src, compile.LoadOptions{})
	if err != nil || doc.SourceMap() != nil {
		t.Fatalf("Load kept a source map without Filename (%v)", err)
	}
	doc, err = compile.Load(src, compile.LoadOptions{Filename: "req.json5"})
	if err != nil || doc.SourceMap() == nil {
		t.Fatalf("Load with Filename kept no source map (%v)", err)
	}
	if pos, _ := doc.SourceMap().Position(occkit.NewPath("a")); pos.String() != "req.json5:2:3" {
		t.Errorf("position %v", pos)
	}
	_, err = compile.Load([]byte("{\n  a: [1 2],\n}"), compile.LoadOptions{})
	if e := occkit.First(err); e == nil || e.Position.String() != "2:9" {
		t.Errorf("syntax error without a name: %+v", err)
	}
	doc, err = compile.LoadReader(strings.NewReader("{\n  a: 1,\n}"), compile.LoadOptions{})
	if err != nil || doc.SourceMap() == nil {
		t.Fatalf("LoadReader kept no source map (%v)", err)
	}
	// A refusal about the document, placed with Document.Place.
	refusal := occkit.Invalid("DOC-5", occkit.NewPath("a"), "wrong")
	var e *occkit.Error
	if !errors.As(doc.Place(refusal), &e) || e.Position.String() != "2:3" {
		t.Errorf("placed %+v", e)
	}
}

// A snippet never prints a value written after a credential-like key, or
// any string of a line whose path passes through one.
func TestSourceMasksCredentials(t *testing.T) {
	src := "{\n  models: {providers: {x: {apiKey: \"sk-live-123\", baseUrl: \"https://h\", 'token':'t0k', headers: {\"X-Custom\": \"h3ad\", n: [\"h4\"]}, api: \"x\"}}},\n  env: {\n    OPENAI_API_KEY: [\n      \"sk-in-array\"]},\n}"
	doc, err := compile.Load([]byte(src), compile.LoadOptions{Filename: "c.json5"})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []occkit.Path{
		occkit.NewPath("models", "providers", "x", "baseUrl"),
		occkit.NewPath("env", "OPENAI_API_KEY").Index(0),
	} {
		pos, ok := doc.SourceMap().Position(p)
		if !ok {
			t.Fatalf("%s not placed", p)
		}
		for _, secret := range []string{"sk-live-123", "t0k", "sk-in-array", "h3ad", "h4"} {
			if strings.Contains(pos.Text, secret) {
				t.Errorf("%s: snippet text %q shows a credential", p, pos.Text)
			}
		}
		if p.Len() == 4 && (!strings.Contains(pos.Text, `"https://h"`) || !strings.Contains(pos.Text, `"X-Custom`)) {
			t.Errorf("an ordinary value was masked: %q", pos.Text)
		}
		// The caret stays under the key after masking shortened the line.
		e := occkit.Invalid("DOC-5", p, "m")
		e.Position = pos
		lines := strings.Split(e.Snippet(), "\n")
		key := "baseUrl"
		if p.Len() != 4 {
			key = `"***"`
		}
		if len(lines) != 2 || strings.Index(lines[1], "^") != strings.Index(lines[0], key) {
			t.Errorf("caret not under %s:\n%s", key, e.Snippet())
		}
	}
}

// Placing any path in any loaded text never panics, stays inside the
// text, and its snippet has exactly one caret line.
func FuzzSourcePosition(f *testing.F) {
	f.Add([]byte("{\n  a: {b: [1, {c: 'x'}]},\n}"), "a", 0, "c")
	f.Add([]byte(`{"apiKey": "sk", "b": "\u00e9\t\u0001"}`), "b", 3, "")
	f.Add([]byte("{\r\n a: 1}"), "a", -1, "a")
	f.Fuzz(func(t *testing.T, src []byte, k1 string, i int, k2 string) {
		doc, err := compile.Load(src, compile.LoadOptions{Filename: "f.json5"})
		if err != nil {
			if e := occkit.First(err); e != nil && e.Position.IsValid() {
				_ = e.Snippet()
			}
			return
		}
		p := occkit.Root().Key(k1)
		if i >= 0 {
			p = p.Index(i % 8)
		}
		if k2 != "" {
			p = p.Key(k2)
		}
		pos, ok := doc.SourceMap().Position(p)
		if !ok {
			return
		}
		if pos.File != "f.json5" || pos.Line < 1 || pos.Column < 1 {
			t.Fatalf("position %+v", pos)
		}
		e := occkit.Invalid("DOC-5", p, "m")
		e.Position = pos
		if s := e.Snippet(); pos.Text != "" && strings.Count(s, "^") < 1 {
			t.Fatalf("snippet %q", s)
		}
	})
}

// On a long (minified) line the snippet is an excerpt around the column,
// and the caret still points at the key.
func TestSourceLongLine(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"agents":{"defaults":{`)
	for i := 0; i < 30; i++ {
		fmt.Fprintf(&b, `"k%02d":"v%02d",`, i, i)
	}
	b.WriteString(`"target":1,"token":"s3cr3t","é":"ü"}}}`)
	doc, err := compile.Load([]byte(b.String()), compile.LoadOptions{Filename: "min.json"})
	if err != nil {
		t.Fatal(err)
	}
	p := occkit.NewPath("agents", "defaults", "target")
	pos, ok := doc.SourceMap().Position(p)
	if !ok || pos.Line != 1 || pos.Column != strings.Index(b.String(), `"target"`)+1 {
		t.Fatalf("position %+v", pos)
	}
	e := occkit.Invalid("DOC-5", p, "m")
	e.Position = pos
	lines := strings.Split(e.Snippet(), "\n")
	if len(lines) != 2 || strings.Index(lines[1], "^") != utf8.RuneCountInString(lines[0][:strings.Index(lines[0], `"target"`)]) {
		t.Errorf("caret not under the key:\n%s", e.Snippet())
	}
	if strings.Contains(pos.Text, "s3cr3t") || !strings.HasPrefix(pos.Text, "…") {
		t.Errorf("excerpt %q", pos.Text)
	}
}

// Every loader masks the same: a document read from an fs.FS hides the
// values at OpenClaw's sensitive paths (the pinned release's, or the
// caller's) in its snippets as Load does.
func TestLoadFSMasksSensitivePaths(t *testing.T) {
	fsys := fstest.MapFS{"c.json5": {Data: []byte(`{channels: {googlechat: {serviceAccount: "SA", x: 1}}, custom: {field: "CF", x: 1}}`)}}
	for _, tc := range []struct {
		name  string
		paths []sensitive.Pattern
		shown string
		gone  string
	}{
		{"pinned release", nil, `"CF"`, "SA"},
		{"another release", []sensitive.Pattern{sensitive.Parse("custom.field")}, `"SA"`, "CF"},
	} {
		doc, err := compile.LoadFS(fsys, "c.json5", compile.LoadOptions{SensitivePaths: tc.paths})
		if err != nil {
			t.Fatal(err)
		}
		pos, _ := doc.SourceMap().Position(occkit.NewPath("custom", "x"))
		if !strings.Contains(pos.Text, tc.shown) || strings.Contains(pos.Text, tc.gone) {
			t.Errorf("%s: %q should show %s and hide %s", tc.name, pos.Text, tc.shown, tc.gone)
		}
	}
}
