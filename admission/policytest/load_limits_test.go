package policytest

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestLoadLimits (issue 31): a case file is held to the limits of a
// document, checked before it is parsed. A file past them becomes one
// failing case naming the limit, and costs about its size: ten million
// '[' once overflowed the goroutine stack (a fatal error, not a panic)
// and four million levels used 907 MiB.
func TestLoadLimits(t *testing.T) {
	deep := func(n int, closed bool) string {
		s := strings.Repeat("[", n)
		if closed {
			s += strings.Repeat("]", n)
		}
		return s
	}
	// A case whose input carries a document nested MaxFileDepth-3 deep
	// (the case's array, object and input add three): within the limit.
	inner := deep(MaxFileDepth-4, true)
	within := `[{"op":"compile.load","name":"deep","input":{"document":` + inner + `}}]`
	for _, tc := range []struct {
		name, text string
		why        string // "" when the file loads its cases
	}{
		{"ten million '['", deep(10_000_000, false), "larger than the limit"},
		{"four million levels", deep(4_000_000, true), "nested deeper than the limit"},
		{"one level past the limit", deep(MaxFileDepth+1, true), "nested deeper than the limit"},
		{"brackets in strings do not count", `[{"op":"ref.parse","name":"s","input":{"ref":"` + deep(MaxFileDepth+5, false) + `"}}]`, ""},
		{"a document at the hard depth limit", within, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "c.json"), []byte(tc.text), 0o644); err != nil {
				t.Fatal(err)
			}
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			cases, err := Load(dir)
			runtime.ReadMemStats(&after)
			if err != nil {
				t.Fatal(err)
			}
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 2*uint64(len(tc.text))+4<<20 {
				t.Errorf("a %d-byte file allocated %d bytes", len(tc.text), alloc)
			}
			if len(cases) != 1 {
				t.Fatalf("%d cases, want 1", len(cases))
			}
			c := cases[0]
			if tc.why == "" {
				if c.Err != "" || c.Op == "" {
					t.Errorf("case %+v, want it read", c)
				}
				// Running it walks the input at that depth: no walker
				// may overflow.
				_ = Run(c)
				return
			}
			if !strings.Contains(c.Err, tc.why) || Run(c) == "" {
				t.Errorf("case error %q, want a failing case: %s", c.Err, tc.why)
			}
		})
	}
}

// A case directory that does not exist keeps fs.ErrNotExist for
// errors.Is (issue 31: causes kept through every loader).
func TestLoadKeepsTheCause(t *testing.T) {
	for _, dir := range []string{filepath.Join(t.TempDir(), "missing"), filepath.Join(t.TempDir(), "a", "b")} {
		if _, err := Load(dir); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("Load(%s) = %v, want fs.ErrNotExist", dir, err)
		}
	}
}
