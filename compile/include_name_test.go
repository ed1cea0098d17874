package compile_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/compile"
)

// An include the author can fix names the file it could not read, as the
// author wrote it; the refusal without include roots speaks to the author
// and names nothing the document asked for.
func TestIncludeRefusalsNameTheFile(t *testing.T) {
	dir := t.TempDir()
	main := filepath.Join(dir, "main.json5")
	if err := os.WriteFile(main, []byte(`{agents: {$include: "parts/team.json5"}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := compile.LoadFile(main, compile.LoadOptions{})
	e := occkit.First(err)
	if e == nil || e.Rule != "DOC-4" || !strings.Contains(e.Message(), `"parts/team.json5"`) {
		t.Errorf("missing include: %v", err)
	}
	fsys := fstest.MapFS{"main.json5": {Data: []byte(`{agents: {$include: "team.json5"}}`)}}
	_, err = compile.LoadFS(fsys, "main.json5", compile.LoadOptions{})
	if e := occkit.First(err); e == nil || !strings.Contains(e.Message(), `"team.json5"`) {
		t.Errorf("missing include in a file system: %v", err)
	}
	_, err = compile.Load([]byte(`{agents: {$include: "secret-plan.json5"}}`), compile.LoadOptions{})
	e = occkit.First(err)
	if e == nil || strings.Contains(e.Message(), "secret-plan") || strings.Contains(e.Message(), "roots") {
		t.Errorf("include without roots: %v", err)
	}
}
