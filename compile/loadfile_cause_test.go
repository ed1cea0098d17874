package compile_test

import (
	"errors"
	"io/fs"
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
