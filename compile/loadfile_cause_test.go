package compile_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/compile"
)

// LoadFile of a missing file names the file and keeps fs.ErrNotExist
// (issue 12).
func TestLoadFileMissingNamesTheFile(t *testing.T) {
	name := filepath.Join(t.TempDir(), "agent.json5")
	_, err := compile.LoadFile(name, compile.LoadOptions{})
	if !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("LoadFile(missing) = %v, want fs.ErrNotExist reachable", err)
	}
	if !errors.Is(err, occkit.ErrInvalidRequest) || !strings.Contains(err.Error(), "agent.json5") {
		t.Errorf("LoadFile(missing) = %v, want a DOC-1 refusal naming the file", err)
	}
	var pe *fs.PathError
	if !errors.As(err, &pe) || pe.Path != name {
		t.Errorf("the *fs.PathError is not reachable: %v", err)
	}
}

// A missing file keeps fs.ErrNotExist for errors.Is through every loader
// and every $include, nested ones included (issue 31), while a refusal
// about an included file still quotes no path: the include path is a
// document value.
func TestMissingFilesKeepTheirCause(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("top.json", `{"$include":"absent-top.json"}`)
	write("outer.json", `{"a":{"$include":"inner.json"}}`)
	write("inner.json", `{"$include":["absent-inner.json"]}`)
	fsys := os.DirFS(dir)
	tests := []struct {
		name  string
		load  func() error
		names string // a path the message must not quote, if any
	}{
		{"LoadFS of a missing file", func() error { _, err := compile.LoadFS(fsys, "absent.json", compile.LoadOptions{}); return err }, ""},
		{"LoadFile, a missing include", func() error {
			_, err := compile.LoadFile(filepath.Join(dir, "top.json"), compile.LoadOptions{})
			return err
		}, "absent-top"},
		{"LoadFile, a missing nested include", func() error {
			_, err := compile.LoadFile(filepath.Join(dir, "outer.json"), compile.LoadOptions{})
			return err
		}, "absent-inner"},
		{"LoadFS, a missing include", func() error { _, err := compile.LoadFS(fsys, "top.json", compile.LoadOptions{}); return err }, "absent-top"},
		{"LoadFS, a missing nested include", func() error { _, err := compile.LoadFS(fsys, "outer.json", compile.LoadOptions{}); return err }, "absent-inner"},
		{"Load, a missing include", func() error {
			_, err := compile.Load([]byte(`{"$include":"absent-top.json"}`), compile.LoadOptions{IncludeRoots: []string{dir}})
			return err
		}, "absent-top"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.load()
			if !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("%v: fs.ErrNotExist is not reachable", err)
			}
			if !errors.Is(err, occkit.ErrInvalidRequest) {
				t.Errorf("%v: not a 400", err)
			}
			if tt.names != "" && strings.Contains(err.Error(), tt.names) {
				t.Errorf("the refusal quotes the include path: %v", err)
			}
		})
	}
}
