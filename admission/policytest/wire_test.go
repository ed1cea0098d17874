package policytest

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"
	"github.com/tidwall/gjson"

	"github.com/occkit/occkit"
)

// Every refusal the conformance cases provoke (the public set and the
// project's own) has a wire form that validates against occkit's error
// schema, decodes back to errors of the same code, rule and path (in the
// same document), and holds nothing a case says the error must never
// mention outside the snippet (the author's own masked line).
func TestRefusalsOnTheWire(t *testing.T) {
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2020
	const id = "https://github.com/occkit/occkit/errors.schema.json"
	if err := c.AddResource(id, bytes.NewReader(occkit.ErrorSchema())); err != nil {
		t.Fatal(err)
	}
	schema, err := c.Compile(id)
	if err != nil {
		t.Fatal(err)
	}
	var cases []Case
	for _, dir := range []string{"../../internal/conformance/testdata/cases", "../../internal/conformance/testdata/extra"} {
		cs, err := Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		cases = append(cases, cs...)
	}
	refusals := 0
	for _, cs := range cases {
		want := gjson.GetBytes(cs.Expect, "error")
		op, ok := opTable()[cs.Op]
		if !want.Exists() || !ok {
			continue
		}
		in := gjson.ParseBytes(cs.Input)
		if !in.Exists() {
			in = gjson.Parse("{}")
		}
		_, err := op(input{Result: in})
		var ce caseError
		if err == nil || errors.As(err, &ce) {
			continue
		}
		refusals++
		wire, merr := json.Marshal(occkit.Join(err))
		if merr != nil {
			t.Errorf("%s: %s: marshal: %v", cs.File, cs.Name, merr)
			continue
		}
		var v any
		_ = json.Unmarshal(wire, &v)
		if verr := schema.Validate(v); verr != nil {
			t.Errorf("%s: %s: %s does not validate: %v", cs.File, cs.Name, wire, verr)
		}
		back, derr := occkit.DecodeError(wire)
		if derr != nil {
			t.Errorf("%s: %s: decode: %v", cs.File, cs.Name, derr)
			continue
		}
		for _, e := range occkit.Errors(err) {
			if !errors.Is(back, &occkit.Error{Code: e.Code, Rule: e.Rule, Path: e.Path}) {
				t.Errorf("%s: %s: the decoded refusal lost %s", cs.File, cs.Name, e)
			}
		}
		// The snippet is the author's own line (masked as the render's
		// credential policy strips), for the file's author; everything
		// else is what any audience may see.
		bare := wire
		for _, e := range occkit.Errors(back) {
			if s, _ := json.Marshal(e.Snippet()); e.Snippet() != "" {
				bare = bytes.ReplaceAll(bare, s, nil)
			}
		}
		for _, n := range want.Get("neverMentions").Array() {
			if strings.Contains(string(bare), n.String()) {
				t.Errorf("%s: %s: the wire form mentions %q: %s", cs.File, cs.Name, n.String(), wire)
			}
		}
	}
	if refusals < 100 {
		t.Errorf("only %d refusals checked", refusals)
	}
	t.Logf("%d refusals on the wire", refusals)
}
