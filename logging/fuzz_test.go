package logging

import (
	"testing"

	"github.com/tidwall/gjson"

	"github.com/occkit/occkit"
)

// FuzzStamp: on any JSON object, Stamp succeeds, never mutates its input,
// is idempotent and yields a document the guard admits at the same level;
// on anything else it refuses with a structured 400.
func FuzzStamp(f *testing.F) {
	for _, s := range []string{
		`{}`, `{"logging":"verbose","diagnostics":[]}`,
		`{"logging":{"redactSensitive":"tools","level":"debug"},"diagnostics":{"otel":{"logs":true,"x":1}}}`,
		`{"a.b":{"logging":1},"logging":{"level":null},"diagnostics":{"otel":"on"}}`,
		`{"logging":{"level":"info","level":"debug"}}`, `[]`, `"x"`, `{"\u006cogging":{}}`,
	} {
		f.Add([]byte(s), uint8(1))
	}
	f.Fuzz(func(t *testing.T, b []byte, lv uint8) {
		doc, err := occkit.ParseDocument(b)
		if err != nil {
			return
		}
		level := occkit.AllLogLevels()[int(lv)%len(occkit.AllLogLevels())]
		before := doc.String()
		out, err := Stamp(doc, level, occkit.OwnedByPlatform)
		if doc.String() != before {
			t.Fatal("input mutated")
		}
		if !doc.Root().IsObject() {
			if e := occkit.First(err); e == nil || e.Code != occkit.CodeInvalidRequest {
				t.Fatalf("non-object %s: %v", b, err)
			}
			return
		}
		if err != nil {
			t.Fatalf("Stamp(%s): %v", b, err)
		}
		if !gjson.Valid(out.String()) {
			t.Fatalf("invalid output %s", out)
		}
		if hasDuplicateKeys(doc) {
			return // gjson and sjson may disagree on which duplicate is the value (DOC-2 refuses these at load)
		}
		again, err := Stamp(out, level, occkit.OwnedByPlatform)
		if err != nil || !again.Equal(out) {
			t.Fatalf("not idempotent: %s -> %s", out, again)
		}
		if l, err := CheckStamp(out); err != nil || l != level {
			t.Fatalf("CheckStamp(%s) = %q, %v", out, l, err)
		}
	})
}

// hasDuplicateKeys reports a duplicate key in any object of d.
func hasDuplicateKeys(d occkit.Document) bool {
	var walk func(v occkit.Value) bool
	walk = func(v occkit.Value) bool {
		if !v.IsObject() && !v.IsArray() {
			return false // ForEach on a scalar yields the scalar itself
		}
		dup := false
		seen := map[string]bool{}
		v.ForEach(func(k, val occkit.Value) bool {
			if v.IsObject() {
				if seen[k.String()] {
					dup = true
					return false
				}
				seen[k.String()] = true
			}
			if walk(val) {
				dup = true
				return false
			}
			return true
		})
		return dup
	}
	return walk(d.Root())
}

// FuzzParseLevel: only the four exact spellings are admitted.
func FuzzParseLevel(f *testing.F) {
	for _, s := range []string{`"info"`, `"INFO"`, `null`, `1`, `""`, `"warn "`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !gjson.Valid(s) {
			return
		}
		v := gjson.Parse(s)
		l, err := ParseLevel([]byte(v.Raw))
		valid := v.Type == gjson.String && occkit.LogLevel(v.Str).Valid()
		if valid != (err == nil) || (valid && l != occkit.LogLevel(v.Str)) {
			t.Fatalf("ParseLevel(%s) = %q, %v", s, l, err)
		}
		if err != nil && occkit.First(err).Code != occkit.CodeInvalidRequest {
			t.Fatalf("ParseLevel(%s): %v", s, err)
		}
	})
}
