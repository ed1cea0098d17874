package compile

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/occkit/occkit"
)

// includeFiles are the names a fuzzed include tree may use; the input is
// split on "\n--\n" into the root document and these files in order.
var includeFiles = []string{"a.json", "b.json", "sub/c.json5"}

// FuzzIncludeTree: DOC-2/DOC-4 — any tree of up to four files either
// loads to a document within the limits that reloads to the same bytes,
// or is refused with a structured 400; never a panic, never a read
// outside the root.
func FuzzIncludeTree(f *testing.F) {
	for _, s := range []string{
		"{\"$include\": \"a.json\", \"k\": \"${A}\"}\n--\n{\"k\": \"x\", \"v\": \"${B}\", \"l\": [1]}",
		"{\"$include\": [\"a.json\", \"b.json\"], \"l\": [0]}\n--\n{\"l\": [1], \"o\": {\"x\": 1}}\n--\n{\"l\": [2], \"o\": {\"y\": \"$${A}\"}}",
		"{\"x\": {\"$include\": \"sub/c.json5\"}}\n--\n{}\n--\n{}\n--\n{$include: '../a.json', c: 0x10,}",
		"{\"$include\": \"a.json\"}\n--\n{\"$include\": \"a.json\"}",
		"{\"$include\": \"../../etc/passwd\"}", "{\"$include\": [\"a.json\", \"a.json\", \"a.json\"]}\n--\n[1, 2]",
		"{\"$include\": \"a.json\", \"z\": 1}\n--\n[1]", "{\"a\": {\"$include\": \"b.json\"}}\n--\n{}\n--\n\"${A}\"",
	} {
		f.Add([]byte(s))
	}
	dir, err := os.MkdirTemp("", "occkit-fuzz-include-")
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.MkdirAll(filepath.Join(dir, "sub"), 0o700); err != nil {
		f.Fatal(err)
	}
	lookup := func(name string) (string, bool) { return strings.Repeat("v", len(name)*5), name != "MISSING" }
	f.Fuzz(func(t *testing.T, in []byte) {
		parts := bytes.SplitN(in, []byte("\n--\n"), len(includeFiles)+1)
		for i, name := range includeFiles {
			p := filepath.Join(dir, name)
			if i+1 < len(parts) {
				if err := os.WriteFile(p, parts[i+1], 0o600); err != nil {
					t.Fatal(err)
				}
			} else if err := os.Remove(p); err != nil && !os.IsNotExist(err) {
				t.Fatal(err)
			}
		}
		opts := LoadOptions{Limits: Limits{MaxBytes: 512, MaxDepth: 16, MaxKeys: 64, MaxStringBytes: 128}, Lookup: lookup, IncludeRoots: []string{dir}}
		doc, err := Load(parts[0], opts)
		if err != nil {
			var e *occkit.Error
			if !errors.As(err, &e) || e.Code != occkit.CodeInvalidRequest || e.Rule == "" {
				t.Fatalf("unstructured error %#v", err)
			}
			return
		}
		out := doc.Bytes()
		if len(out) > opts.Limits.MaxBytes || !json.Valid(out) {
			t.Fatalf("output %q is invalid or over the size limit", out)
		}
		if bytes.Contains(out, []byte(`"$include":`)) {
			t.Fatalf("an include survived: %q", out)
		}
		again, err := Load(out, LoadOptions{Limits: opts.Limits})
		if err != nil || !again.Equal(doc) {
			t.Fatalf("reload differs: %q -> %q (%v)", out, again.String(), err)
		}
	})
}
