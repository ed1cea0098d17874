package occkit

import (
	"bytes"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tidwall/gjson"
	"pgregory.net/rapid"
)

// compactValueCompacting is compactValue as it was before a value that is
// compact already skipped encoding/json's compactor: every value
// compacted, then validated.
func compactValueCompacting(p Path, raw []byte) ([]byte, error) {
	var buf bytes.Buffer
	if err := compactJSON(&buf, raw); err != nil || !gjson.ValidBytes(buf.Bytes()) {
		return nil, Invalid("", p, "value for %s is not valid JSON", p.String())
	}
	if at, problem := checkDocument(buf.Bytes()); problem != docOK {
		return nil, checkError(problem, joinPath(p, at))
	}
	return buf.Bytes(), nil
}

// TestCompactValueMatchesCompacting: an edit's value is accepted, written
// and refused (code, rule, path, message) as when every value went
// through the compactor, on values drawn from JSON's alphabet (valid or
// not, compact or not, invalid UTF-8, repeated keys, lone surrogates,
// numbers beyond a double).
func TestCompactValueMatchesCompacting(t *testing.T) {
	pieces := []string{
		`{`, `}`, `[`, `]`, `,`, `:`, ` `, "\n", `"a"`, `"b"`, `"\u00e9"`, `"\ud800"`, `"\x"`, "\"\xff\"", "\"\x01\"",
		`"`, `\`, `0`, `-`, `1`, `.`, `5`, `e`, `E`, `+`, `01`, `1e999`, `-0`, `true`, `fals`, `null`, `nul`, `x`,
	}
	p := NewPath("logging", "level")
	rapid.Check(t, func(t *rapid.T) {
		var raw []byte
		for _, s := range rapid.SliceOfN(rapid.SampledFrom(pieces), 0, 12).Draw(t, "pieces") {
			raw = append(raw, s...)
		}
		if rapid.Bool().Draw(t, "valid") {
			// Mostly valid: a document's bytes, with white space or not.
			raw = []byte(genDocument(t).String())
			if rapid.Bool().Draw(t, "spaced") {
				raw = bytes.ReplaceAll(raw, []byte(`,`), []byte(", "))
			}
		}
		before := bytes.Clone(raw)
		got, err := compactValue(p, raw)
		want, werr := compactValueCompacting(p, raw)
		if !bytes.Equal(raw, before) {
			t.Fatalf("compactValue wrote its input")
		}
		if (err == nil) != (werr == nil) {
			t.Fatalf("compactValue(%q) = %q, %v; compacting: %q, %v", raw, got, err, want, werr)
		}
		if err != nil {
			var e, w *Error
			if !errors.As(err, &e) || !errors.As(werr, &w) {
				t.Fatalf("not *Error: %v, %v", err, werr)
			}
			if diff := cmp.Diff(w.Error(), e.Error()); diff != "" || e.Code != w.Code || e.Rule != w.Rule || e.Path.String() != w.Path.String() {
				t.Fatalf("compactValue(%q) refusal differs: %v vs %v", raw, err, werr)
			}
			return
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("compactValue(%q) = %q, compacting %q", raw, got, want)
		}
	})
}
