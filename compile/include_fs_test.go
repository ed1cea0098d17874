package compile_test

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/compile"
)

func fsFile(s string) *fstest.MapFile { return &fstest.MapFile{Data: []byte(s)} }

func TestLoadFS(t *testing.T) {
	deep := fstest.MapFS{}
	for i := 0; i <= compile.MaxIncludeDepth+1; i++ {
		deep[fmt.Sprintf("d/%d.json5", i)] = fsFile(fmt.Sprintf(`{$include: "%d.json5", k%d: 1}`, i+1, i))
	}
	deep[fmt.Sprintf("d/%d.json5", compile.MaxIncludeDepth+2)] = fsFile(`{}`)
	wide := fstest.MapFS{"main.json": fsFile(`{"$include": [` + strings.Repeat(`"x.json",`, compile.MaxIncludeFiles) + `"x.json"]}`), "x.json": fsFile(`{"a":1}`)}
	tests := []struct {
		name    string
		fsys    fstest.MapFS
		file    string
		opts    compile.LoadOptions
		want    string
		rule    string
		path    string
		errPart string
	}{
		{name: "plain", fsys: fstest.MapFS{"c.json": fsFile(`{"a":1}`)}, file: "c.json", want: `{"a":1}`},
		{name: "nested includes relative to includer", file: "conf/main.json5",
			fsys: fstest.MapFS{
				"conf/main.json5":         fsFile(`{agents: {$include: "parts/agents.json5", x: 2}, list: [{$include: ["parts/a.json", "parts/b.json"]}]}`),
				"conf/parts/agents.json5": fsFile(`{x: 1, y: {$include: "y.json"}}`),
				"conf/parts/y.json":       fsFile(`{"z": true}`),
				"conf/parts/a.json":       fsFile(`{"a": 1}`),
				"conf/parts/b.json":       fsFile(`{"b": 2}`),
			},
			want: `{"agents":{"x":2,"y":{"z":true}},"list":[{"a":1,"b":2}]}`},
		{name: "parent dir inside fs", file: "a/main.json",
			fsys: fstest.MapFS{"a/main.json": fsFile(`{"$include": "../shared.json"}`), "shared.json": fsFile(`{"s":1}`)},
			want: `{"s":1}`},
		{name: "escape fs", file: "main.json", fsys: fstest.MapFS{"main.json": fsFile(`{"$include": "../x.json"}`)},
			rule: "DOC-4", path: "$include", errPart: "outside"},
		{name: "absolute", file: "main.json", fsys: fstest.MapFS{"main.json": fsFile(`{"$include": "/etc/passwd"}`)},
			rule: "DOC-4", path: "$include", errPart: "relative"},
		{name: "outside root", file: "a/main.json", opts: compile.LoadOptions{IncludeRoots: []string{"a"}},
			fsys: fstest.MapFS{"a/main.json": fsFile(`{"$include": "../b/x.json"}`), "b/x.json": fsFile(`{}`)},
			rule: "DOC-4", path: "$include", errPart: "outside"},
		{name: "cycle", file: "a.json",
			fsys: fstest.MapFS{"a.json": fsFile(`{"$include": "b.json"}`), "b.json": fsFile(`{"$include": "./a.json"}`)},
			rule: "DOC-4", path: "$include", errPart: "cycle"},
		{name: "missing", file: "a.json", fsys: fstest.MapFS{"a.json": fsFile(`{"k": {"$include": "nope.json"}}`)},
			rule: "DOC-4", path: "k.$include", errPart: "cannot be read"},
		{name: "directory", file: "a.json", fsys: fstest.MapFS{"a.json": fsFile(`{"$include": "d"}`), "d/x": fsFile(`1`)},
			rule: "DOC-4", path: "$include", errPart: "not a regular file"},
		{name: "too deep", file: "d/0.json5", fsys: deep, rule: "DOC-4", errPart: "nest deeper"},
		{name: "too many", file: "main.json", fsys: wide, rule: "DOC-4", errPart: "more than"},
		{name: "too large", file: "a.json", opts: compile.LoadOptions{Limits: compile.Limits{MaxBytes: 64}},
			fsys: fstest.MapFS{"a.json": fsFile(`{"$include": "b.json"}`), "b.json": fsFile(`{"b": "` + strings.Repeat("x", 80) + `"}`)},
			rule: "DOC-2", path: "$include", errPart: "limit of 64"},
		{name: "together too large", file: "a.json", opts: compile.LoadOptions{Limits: compile.Limits{MaxBytes: 64}},
			fsys: fstest.MapFS{"a.json": fsFile(`{"$include": ["b.json","c.json"]}`), "b.json": fsFile(`{"b":"` + strings.Repeat("x", 40) + `"}`), "c.json": fsFile(`{"c":"` + strings.Repeat("x", 40) + `"}`)},
			rule: "DOC-2", path: "$include[1]", errPart: "together"},
		{name: "error inside included file", file: "a.json", fsys: fstest.MapFS{"a.json": fsFile(`{"$include": "b.json"}`), "b.json": fsFile(`{"b": [1,}`)},
			rule: "DOC-1", path: "$include", errPart: "included file"},
		{name: "top file missing", file: "a.json", fsys: fstest.MapFS{}, rule: "DOC-1", errPart: "cannot be read"},
		{name: "invalid name", file: "../a.json", fsys: fstest.MapFS{}, rule: "DOC-1", errPart: "valid path"},
		{name: "substitution in included", file: "a.json",
			opts: compile.LoadOptions{Lookup: func(string) (string, bool) { return "v", true }},
			fsys: fstest.MapFS{"a.json": fsFile(`{"$include": "b.json"}`), "b.json": fsFile(`{"b": "${X}"}`)},
			want: `{"b":"v"}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			doc, err := compile.LoadFS(tc.fsys, tc.file, tc.opts)
			if tc.rule == "" {
				if err != nil {
					t.Fatalf("LoadFS: %v", err)
				}
				if got := doc.String(); got != tc.want {
					t.Fatalf("got %s, want %s", got, tc.want)
				}
				return
			}
			var e *occkit.Error
			if !errors.As(err, &e) {
				t.Fatalf("got %v, want an occkit error", err)
			}
			if e.Rule != tc.rule || (tc.path != "" && e.Path.String() != tc.path) || !strings.Contains(e.Error(), tc.errPart) {
				t.Fatalf("got %s at %s: %v; want %s at %s containing %q", e.Rule, e.Path, e, tc.rule, tc.path, tc.errPart)
			}
		})
	}
}

// The same tree loads to the same document from an fs.FS and from disk.
func TestLoadFSMatchesLoadFile(t *testing.T) {
	files := map[string]string{
		"main.json5":  `{a: {$include: "sub/a.json5"}, b: [1, {$include: "sub/b.json"}]}`,
		"sub/a.json5": `{x: 1, $include: "c.json"}`,
		"sub/c.json":  `{"y": 2}`,
		"sub/b.json":  `{"z": [3]}`,
	}
	dir := t.TempDir()
	mfs := fstest.MapFS{}
	for name, data := range files {
		mfs[name] = fsFile(data)
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fromFS, err := compile.LoadFS(mfs, "main.json5", compile.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	fromDisk, err := compile.LoadFile(dir+"/main.json5", compile.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if fromFS.String() != fromDisk.String() {
		t.Fatalf("fs %s != disk %s", fromFS, fromDisk)
	}
}

type endless struct{ n int }

func (e *endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = ' '
	}
	e.n += len(p)
	return len(p), nil
}

type failing struct{}

func (failing) Read([]byte) (int, error) { return 0, errors.New("disk on fire") }

func TestLoadReader(t *testing.T) {
	doc, err := compile.LoadReader(strings.NewReader(`{a: 1, // c
}`), compile.LoadOptions{})
	if err != nil || doc.String() != `{"a":1}` {
		t.Fatalf("got %v, %v", doc, err)
	}
	r := &endless{}
	_, err = compile.LoadReader(r, compile.LoadOptions{Limits: compile.Limits{MaxBytes: 1000}})
	var e *occkit.Error
	if !errors.As(err, &e) || e.Rule != "DOC-2" {
		t.Fatalf("endless stream: got %v", err)
	}
	if r.n > 1000+1+64*1024 {
		t.Fatalf("read %d bytes of an endless stream with a limit of 1000", r.n)
	}
	_, err = compile.LoadReader(failing{}, compile.LoadOptions{})
	if !errors.As(err, &e) || e.Rule != "DOC-1" {
		t.Fatalf("failing reader: got %v", err)
	}
	_, err = compile.LoadReader(io.LimitReader(&endless{}, 1000), compile.LoadOptions{Limits: compile.Limits{MaxBytes: 1000}})
	if !errors.As(err, &e) || e.Rule != "DOC-1" {
		t.Fatalf("exactly at the limit (all spaces) should parse and be refused as not JSON: %v", err)
	}
}

// LoadFS reads a Configuration and its includes from any fs.FS: an
// embed.FS shipped in a binary, or an in-memory tree as here.
func ExampleLoadFS() {
	fsys := fstest.MapFS{
		"openclaw.json5":     {Data: []byte(`{agents: {$include: "parts/agents.json5"}, gateway: {port: 18789}}`)},
		"parts/agents.json5": {Data: []byte(`{defaults: {model: "openai/gpt-5"}}`)},
	}
	doc, err := compile.LoadFS(fsys, "openclaw.json5", compile.LoadOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(doc)
	// Output:
	// {"agents":{"defaults":{"model":"openai/gpt-5"}},"gateway":{"port":18789}}
}

// A refusal of the text carries its position as a SyntaxPosition cause.
func TestLoadSyntaxPosition(t *testing.T) {
	_, err := compile.Load([]byte("{\n  a: {b: 1,,},\n}"), compile.LoadOptions{})
	var pos *compile.SyntaxPosition
	if !errors.As(err, &pos) || pos.Line != 2 || pos.Column != 12 {
		t.Fatalf("got %v (%+v), want a position at 2:12", err, pos)
	}
	var e *occkit.Error
	if !errors.As(err, &e) || e.Rule != "DOC-1" || e.Path.String() != "a" {
		t.Fatalf("got %v", err)
	}
	// Inside an included file the position would be another file's: none.
	_, err = compile.LoadFS(fstest.MapFS{"a.json": fsFile(`{"$include": "b.json"}`), "b.json": fsFile("{\n,}")}, "a.json", compile.LoadOptions{})
	if errors.As(err, &pos) {
		t.Fatalf("an included file's error carries a position: %+v", pos)
	}
}
