package compile

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/internal/json5"
)

// refSubstitute is the obvious definition substitute must agree with:
// walk the tree, substitute each string value in document order with no
// limit, and refuse once a string is longer than MaxStringBytes or the
// document, as rewritten so far, longer than MaxBytes.
func refSubstitute(src []byte, lookup func(string) (string, bool), l Limits) ([]byte, error) {
	size := len(src)
	var walk func(v gjson.Result) ([]byte, error)
	walk = func(v gjson.Result) ([]byte, error) {
		switch {
		case v.IsObject():
			out := []byte{'{'}
			first := true
			var err error
			v.ForEach(func(k, val gjson.Result) bool {
				if !first {
					out = append(out, ',')
				}
				first = false
				out = append(out, k.Raw...)
				out = append(out, ':')
				var sub []byte
				if sub, err = walk(val); err != nil {
					return false
				}
				out = append(out, sub...)
				return true
			})
			return append(out, '}'), err
		case v.IsArray():
			out := []byte{'['}
			var err error
			for i, e := range v.Array() {
				if i > 0 {
					out = append(out, ',')
				}
				var sub []byte
				if sub, err = walk(e); err != nil {
					return nil, err
				}
				out = append(out, sub...)
			}
			return append(out, ']'), nil
		case v.Type == gjson.String && strings.Contains(v.Raw, "$"):
			s, _ := json5.Unquote([]byte(v.Raw))
			got, changed, err := substituteString(s, 1<<62, lookup)
			if err != nil {
				return nil, err
			}
			if !changed {
				return []byte(v.Raw), nil
			}
			if len(got) > l.MaxStringBytes {
				return nil, errLdSubstLimit
			}
			enc := json5.AppendString(nil, got)
			if size += len(enc) - len(v.Raw); size > l.MaxBytes {
				return nil, errLdSubstLimit
			}
			return enc, nil
		}
		return []byte(v.Raw), nil
	}
	return walk(gjson.ParseBytes(src))
}

// FuzzSubstitute: DOC-2/DOC-4 — the streaming substitution gives exactly
// what the tree definition gives, refuses exactly when it does (a limit,
// a missing variable, a secret reference), never exceeds a limit, and
// errors are structured.
func FuzzSubstitute(f *testing.F) {
	for _, s := range []string{
		`{"a":"${A}","b":["$${A}","${lower}","${MISSING}"],"${A}":"k"}`,
		`{"a":"x${A}y${BB}z$${C}${pass:x}"}`, `{"a":"${A}${A}${A}${A}${A}${A}${A}${A}"}`,
		`{"a":["${A}","${A}","${A}","${A}","${A}","${A}","${A}","${A}","${A}"]}`,
		`{"a":"$${a${B}}","b":"${A","c":"$","d":"$$","e":"${}"}`, `{"a":{"b":[{"c":"\n${BB}\u0001"}]}}`,
	} {
		f.Add([]byte(s), uint8(40), uint8(16))
	}
	lookup := func(name string) (string, bool) {
		switch name {
		case "MISSING":
			return "", false
		case "EMPTY":
			return "", true
		}
		return strings.Repeat(name, len(name)*3) + "\"\n", true
	}
	f.Fuzz(func(t *testing.T, in []byte, maxBytes, maxString uint8) {
		l := Limits{MaxBytes: 1 + int(maxBytes)*4, MaxStringBytes: 1 + int(maxString)*2}.withDefaults()
		norm, err := json5.Transcode(in, json5.Options{MaxDepth: 32, RejectDuplicateKeys: true, CanonicalNumbers: true, RejectLoneSurrogates: true})
		if err != nil || len(norm) > l.MaxBytes {
			return
		}
		got, err := substitute(norm, lookup, l)
		want, werr := refSubstitute(norm, lookup, l)
		if (err == nil) != (werr == nil) {
			t.Fatalf("%s: streaming %v, definition %v", norm, err, werr)
		}
		if err != nil {
			var e *occkit.Error
			if !errors.As(err, &e) || e.Code != occkit.CodeInvalidRequest || (e.Rule != "DOC-2" && e.Rule != "DOC-4") {
				t.Fatalf("unstructured error %#v", err)
			}
			// Which problem is reported first may differ inside one
			// string (the streaming pass stops at a limit before it
			// reaches a later missing variable); that both refuse is
			// the property.
			return
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("%s:\nstreaming  %s\ndefinition %s", norm, got, want)
		}
		if len(got) > l.MaxBytes || !json.Valid(got) {
			t.Fatalf("output %q is invalid or longer than %d", got, l.MaxBytes)
		}
	})
}
