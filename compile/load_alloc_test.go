package compile

import (
	"testing"

	"github.com/occkit/occkit/internal/bench"
)

// TestLoadAllocations bounds what loading a document without $include
// allocates: the transcoder's output (its key table for the model
// catalog is on its own stack at 40 models), and the Document's root
// index with the places of its root members the transcoder wrote down
// (which the Document's first lookup would otherwise find, and
// allocate), in one object. Include
// roots change nothing: the includer is made only for a document that
// holds $include.
func TestLoadAllocations(t *testing.T) {
	src := bench.Documents[0].Make(40)
	for _, opts := range []LoadOptions{{}, {IncludeRoots: []string{t.TempDir()}}} {
		got := testing.AllocsPerRun(10, func() {
			if _, err := Load(src, opts); err != nil {
				t.Fatal(err)
			}
		})
		if got > 2 {
			t.Errorf("Load with %d include roots allocates %v times, want at most 2", len(opts.IncludeRoots), got)
		}
	}
}
