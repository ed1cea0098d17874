package json5

import (
	"strings"
	"testing"

	"github.com/occkit/occkit/internal/bench"
)

// TestNormalizeAllocations bounds what Normalize allocates besides its
// output: nothing for a document whose nesting and objects fit the
// parser's own arrays, two buffers (the decoded value and its canonical
// form, each reused) once it holds a string with an escape, and one key
// table for each object of more than 48 keys (the benchmark documents'
// model catalog, at 40 models, fits the parser's own slots).
func TestNormalizeAllocations(t *testing.T) {
	small := `{"a":{"b":[1,2.50,{"c":"d","e":null}],"f":true},"g":"h"}`
	for _, c := range []struct {
		name string
		src  []byte
		want float64
	}{
		{"canonical compact", []byte(`{"a":{"b":[1,2.5,{"c":"d","e":null}],"f":true},"g":"h"}`), 1},
		{"rewritten", []byte(small), 1},
		{"indented", []byte(strings.ReplaceAll(small, ",", ",\n  ")), 1},
		{"escapes", []byte(`{"a":"x\ny","b":"\u00e9","c":"\/"}`), 3},
		{"sixteen deep", []byte(strings.Repeat(`{"k":`, 16) + "1" + strings.Repeat("}", 16)), 1},
		{"bench compact", bench.Documents[0].Make(40), 1},
		{"bench indented", bench.Documents[1].Make(40), 1},
	} {
		got := testing.AllocsPerRun(10, func() {
			if _, err := Normalize(c.src, Options{MaxDepth: 64}); err != nil {
				t.Fatal(err)
			}
		})
		if got > c.want {
			t.Errorf("%s: Normalize allocates %v times, want at most %v", c.name, got, c.want)
		}
	}
}
