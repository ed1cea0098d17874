package compile

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/occkit/occkit"
)

// FuzzLoad: DOC-1/DOC-2 — any input either loads to valid JSON that loads
// again to the same bytes, or is refused with a structured 400; never a
// panic. Strict JSON that loads means what encoding/json reads.
func FuzzLoad(f *testing.F) {
	for _, s := range []string{
		`{"agents": {"defaults": {"model": "openai/gpt-5"}}, "n": [1, 2.5, true, null]}`,
		`{"a": 1, "a": 2}`,
		"// c\n{agents: {entries: {main: {model: 'anthropic/claude',},},}, x: 0x1F, y: .5, z: +1,}",
		`{'k': "\x41\u00e9\uD83D\uDE00", \u0061b: Infinity}`,
		`[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]`,
		`{"$include": "x.json", "k": "${VAR}"}`,
		"\ufeff{}", `"\ud800"`, `{"a":"\u0000"}`,
	} {
		f.Add([]byte(s))
	}
	lookup := func(name string) (string, bool) { return "v-" + name, name != "MISSING" }
	f.Fuzz(func(t *testing.T, in []byte) {
		opts := LoadOptions{Limits: Limits{MaxDepth: 32, MaxKeys: 1000, MaxStringBytes: 4096}, Lookup: lookup}
		doc, err := Load(in, opts)
		if err != nil {
			var e *occkit.Error
			if !errors.As(err, &e) || e.Code != occkit.CodeInvalidRequest || e.Rule == "" {
				t.Fatalf("unstructured error %#v", err)
			}
			return
		}
		out := doc.Bytes()
		if !json.Valid(out) {
			t.Fatalf("invalid output %q", out)
		}
		again, err := Load(out, LoadOptions{Limits: opts.Limits})
		if err != nil || !again.Equal(doc) {
			t.Fatalf("reload differs: %q -> %q (%v)", out, again.String(), err)
		}
	})
}
