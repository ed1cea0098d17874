package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/occkit/occkit/internal/canarydoc"
)

// maxEntryBytes bounds one printed refusal (doc.go, "Output"): a file
// name, a path and a message of at most 256 characters each, a rule, and
// a snippet of two lines of at most 100 characters; in JSON, with field
// names and escapes.
const maxEntryBytes = 8 << 10

// catalog is a document whose model rows all sit on one line (or one row
// a line), each refused: the shape that once made occcheck print 190 KB
// for 69 KB.
func catalog(rows int, oneLine bool) string {
	sep := ","
	if !oneLine {
		sep = ",\n"
	}
	var b strings.Builder
	b.WriteString(`{"agents":{"defaults":{"model":"p/m0"}},"models":{"providers":{"p":{"baseUrl":"https://h","api":"openai-completions","models":[`)
	for i := 0; i < rows; i++ {
		if i > 0 {
			b.WriteString(sep)
		}
		fmt.Fprintf(&b, `{"id":"m%d","name":"n","contextWindow":"x%d"}`, i, i)
	}
	b.WriteString("]}}}}\n")
	return b.String()
}

// TestOutputBounded (issue 31): whatever a file holds, occcheck prints at
// most -max refusals of it (DefaultMax by default) and one line counting
// the rest, each entry bounded, in every output form.
func TestOutputBounded(t *testing.T) {
	dir := t.TempDir()
	for _, rows := range []int{250, 1000, 4000} {
		for _, oneLine := range []bool{true, false} {
			name := filepath.Join(dir, fmt.Sprintf("c%d-%v.json", rows, oneLine))
			src := catalog(rows, oneLine)
			if err := os.WriteFile(name, []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			for _, flags := range [][]string{nil, {"-json"}, {"-snippet"}, {"-json", "-snippet"}} {
				out, errOut, code := runCheck(t, append(flags, name)...)
				if code != 1 || errOut != "" {
					t.Fatalf("%v: exit %d, %s", flags, code, errOut)
				}
				if len(out) > (DefaultMax+1)*maxEntryBytes {
					t.Errorf("%d rows %v: %d bytes of output", rows, flags, len(out))
				}
				var entries []Finding
				if len(flags) > 0 && flags[0] == "-json" {
					dec := json.NewDecoder(strings.NewReader(out))
					for dec.More() {
						var f Finding
						if err := dec.Decode(&f); err != nil {
							t.Fatal(err)
						}
						entries = append(entries, f)
					}
					last := entries[len(entries)-1]
					if len(entries) != DefaultMax+1 || last.Omitted != rows-DefaultMax {
						t.Errorf("%d rows: %d entries, the last omitting %d", rows, len(entries), last.Omitted)
					}
				} else if want := fmt.Sprintf("and %d more refusals", rows-DefaultMax); !strings.Contains(out, want) {
					t.Errorf("%d rows %v: no %q", rows, flags, want)
				}
				t.Logf("%d rows, one line %v, %d-byte file %v: %d bytes", rows, oneLine, len(src), flags, len(out))
			}
		}
	}
	// -max 0 prints them all.
	name := filepath.Join(dir, "c250-true.json")
	out, _, _ := runCheck(t, "-json", "-max", "0", name)
	if n := strings.Count(out, "\n"); n != 250 {
		t.Errorf("-max 0: %d entries, want 250", n)
	}
	if _, _, code := runCheck(t, "-max", "-1", name); code != 2 {
		t.Errorf("-max -1: exit %d", code)
	}
}

// Each entry stays bounded whatever the document writes: a huge unknown
// key (path and message) and a line of a megabyte.
func TestEntryBounded(t *testing.T) {
	dir := t.TempDir()
	key := strings.Repeat(`<"\`, 100_000)
	src := `{"agents":{"defaults":{"model":"p/m0",` + fmt.Sprintf("%q", key) + `:1, "x": "` + strings.Repeat("é", 300_000) + `"}}}`
	name := filepath.Join(dir, strings.Repeat("n", 200)+".json")
	if err := os.WriteFile(name, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, flags := range [][]string{nil, {"-json", "-snippet"}, {"-snippet"}} {
		out, _, code := runCheck(t, append(flags, name)...)
		if code != 1 {
			t.Fatalf("exit %d", code)
		}
		sep := "\n" + dir
		if len(flags) > 0 && flags[0] == "-json" {
			sep = "\n"
		}
		entries := strings.Split(strings.TrimSpace(out), sep)
		most := 0
		for _, entry := range entries {
			most = max(most, len(entry))
		}
		if len(entries) < 2 || most > maxEntryBytes {
			t.Errorf("%v: %d entries, the largest %d bytes", flags, len(entries), most)
		}
	}
}

// TestCanaryInEveryForm (issue 31): occcheck prints no canary credential
// (canarydoc) in any form, text, -json, -snippet or both, whatever
// refusal points at its line.
func TestCanaryInEveryForm(t *testing.T) {
	base := t.TempDir()
	n := 0
	rapid.Check(t, func(t *rapid.T) {
		c := canarydoc.Draw(t)
		if c.Lookup != nil || c.MaxStringBytes != 0 {
			// occcheck loads without substitution and with the default
			// limits.
			return
		}
		n++
		dir := filepath.Join(base, fmt.Sprint(n))
		for name, text := range c.Files {
			if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(name)), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		for _, flags := range [][]string{nil, {"-json"}, {"-snippet"}, {"-json", "-snippet"}} {
			var out, errOut strings.Builder
			run(t.Context(), append(flags, filepath.Join(dir, canarydoc.Main)), &out, &errOut)
			if strings.Contains(out.String()+errOut.String(), c.Canary) {
				t.Fatalf("occcheck %v (%s, %s, %s) prints the canary:\n%s%s\n--- main.json5:\n%s", flags, c.Place, c.Encoding, c.Refusal, out.String(), errOut.String(), c.Files[canarydoc.Main])
			}
		}
	})
}
