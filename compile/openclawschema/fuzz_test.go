package openclawschema

import (
	"testing"

	"github.com/tidwall/gjson"

	"github.com/occkit/occkit"
)

// FuzzValidate: any document is checked without a panic, Valid and
// Validate agree, the byte walker agrees with the gjson oracle, and every
// refusal is a 400 DOC-5.
func FuzzValidate(f *testing.F) {
	for _, s := range []string{
		`{}`, `{"agents":{"defualts":{}}}`, `{"tools":{"profile":"everything"}}`,
		`{"agents":{"defaults":{"model":{"primary":"a/b","fallback":["x"]}}}}`,
		`{"bindings":[{"type":"acp","agentId":"main","match":{"channel":"slack","peer":{"kind":"group"}}}]}`,
		`{"accessGroups":{"g":{"type":"nope"}}}`, `{"gateway":{"port":1e400}}`,
		`{"agents":{"list":[{"id":"main"}]}}`, `{"channels":{"slack":{"enabled":true,"dmPolicy":"x"}}}`,
		`{"channels":{"salck":{}," mychan":{}},"plugins":{"entries":{"MyChan":{}}}}`,
	} {
		f.Add(s)
	}
	v, err := New()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, s string) {
		doc, err := occkit.ParseDocument([]byte(s))
		if err != nil || !doc.Root().IsObject() {
			return
		}
		verr := v.Validate(doc)
		if root := gjson.Parse(specView(doc).String()); v.root.valid(root) != v.root.oracleValid(root) {
			t.Fatalf("the byte walker and the gjson oracle disagree on %s", s)
		}
		if v.Valid(doc) != (verr == nil) {
			t.Fatalf("Valid and Validate disagree on %s: %v", s, verr)
		}
		for _, e := range occkit.Errors(verr) {
			if e.Code != occkit.CodeInvalidRequest || e.Rule != Rule {
				t.Fatalf("refusal %v", e)
			}
		}
	})
}
