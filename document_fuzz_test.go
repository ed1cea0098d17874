package occkit_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"regexp"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/occkit/occkit"
)

// hasDuplicateKey is an oracle for ParseDocument's duplicate-key check
// built on encoding/json's token stream, independent of the scanner in
// dupkeys.go: keys compare as decoded strings.
func hasDuplicateKey(b []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(b))
	var walk func() bool
	walk = func() bool {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		switch tok {
		case json.Delim('{'):
			seen := map[string]bool{}
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					return false
				}
				key, _ := k.(string)
				if seen[key] {
					return true
				}
				seen[key] = true
				if walk() {
					return true
				}
			}
			_, _ = dec.Token()
		case json.Delim('['):
			for dec.More() {
				if walk() {
					return true
				}
			}
			_, _ = dec.Token()
		}
		return false
	}
	return walk()
}

func decodeAny(t *testing.T, b []byte) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("decode %q: %v", b, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		t.Fatalf("trailing data after %q", b)
	}
	return v
}

// unrepresentable is a loose independent check for what has no RFC 8785
// form: invalid UTF-8, any surrogate escape (a pair is fine, so this
// over-approximates) or a number that is not a finite double.
func unrepresentable(b []byte) bool {
	if !utf8.Valid(b) || surrogateEscape.Match(b) {
		return true
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	for {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		if n, ok := tok.(json.Number); ok {
			if _, err := n.Float64(); err != nil {
				return true
			}
		}
	}
}

var surrogateEscape = regexp.MustCompile(`\\u[dD][89a-fA-F]`)

// FuzzParseDocument: ParseDocument accepts exactly the valid JSON without
// a repeated key and with an RFC 8785 form, keeps its value, and refuses
// everything else with a structured DOC-1 or DOC-2 error.
func FuzzParseDocument(f *testing.F) {
	for _, s := range []string{
		`{}`, `[]`, `"x"`, `0`, `{"a":1,"b":{"a":2}}`, `{"a":1,"a":2}`, `{"a":[{},"a"]}`,
		`{"a":{},"b":1,"a":2}`, `{"a":1,"\u0061":2}`, "{\"\xff\":1,\"\xfe\":2}", `[{"a":1},{"a":1}]`,
		` { "a" : [ 1 , 2 ] } `, `{"a":"\"}`, `[1,]`, `{"x":[0,{"k":1,"k":1}]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		d, err := occkit.ParseDocument(b)
		valid := json.Valid(b)
		if err == nil {
			if !valid {
				t.Fatalf("accepted invalid JSON %q", b)
			}
			if hasDuplicateKey(b) {
				t.Fatalf("accepted a repeated key: %q", b)
			}
			if diff := cmp.Diff(decodeAny(t, b), decodeAny(t, d.Bytes())); diff != "" {
				t.Fatalf("value changed (-in +doc):\n%s", diff)
			}
			if c := occkit.Canonical(d); !json.Valid(c) {
				t.Fatalf("canonical form %q is not JSON", c)
			}
			return
		}
		var e *occkit.Error
		if !errors.As(err, &e) || e.Code != occkit.CodeInvalidRequest {
			t.Fatalf("unstructured error %v", err)
		}
		switch e.Rule {
		case "DOC-1":
			if valid && !unrepresentable(b) {
				t.Fatalf("valid JSON %q refused as invalid", b)
			}
		case "DOC-2":
			if !valid || !hasDuplicateKey(b) {
				t.Fatalf("%q refused for a repeated key it does not have (%v)", b, err)
			}
		default:
			t.Fatalf("rule %q for %q", e.Rule, b)
		}
	})
}
