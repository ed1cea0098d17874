package occkit_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/santhosh-tekuri/jsonschema/v5"
	"pgregory.net/rapid"

	"github.com/occkit/occkit"
)

// tb is what checkWire needs of a *testing.T or a *rapid.T.
type tb interface {
	Helper()
	Fatal(...any)
	Fatalf(string, ...any)
}

func errorSchema(t tb) *jsonschema.Schema {
	t.Helper()
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2020
	const id = "https://github.com/occkit/occkit/errors.schema.json"
	if err := c.AddResource(id, bytes.NewReader(occkit.ErrorSchema())); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(id)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// checkWire marshals err's wire form (occkit.Join(err): an *Error or an
// *ErrorList), validates it against the schema, decodes it back and checks
// that the decoded error marshals to the same bytes and matches the same
// templates.
func checkWire(t tb, schema *jsonschema.Schema, err error) []byte {
	t.Helper()
	out, merr := json.Marshal(occkit.Join(err))
	if merr != nil {
		t.Fatalf("marshal %v: %v", err, merr)
	}
	var v any
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatal(err)
	}
	if verr := schema.Validate(v); verr != nil {
		t.Fatalf("%s does not validate: %#v", out, verr)
	}
	back, derr := occkit.DecodeError(out)
	if derr != nil {
		t.Fatalf("decode %s: %v", out, derr)
	}
	again, merr := json.Marshal(back)
	if merr != nil {
		t.Fatal(merr)
	}
	if !bytes.Equal(out, again) {
		t.Fatalf("round trip changed the wire form:\n%s\n%s", out, again)
	}
	for _, e := range occkit.Errors(err) {
		tmpl := &occkit.Error{Code: e.Code, Rule: e.Rule, Path: e.Path}
		if !errors.Is(back, tmpl) {
			t.Fatalf("decoded %s does not match %v at %s in %s", out, e.Code, e.Path, e.Path.Doc())
		}
	}
	return out
}

func TestWireForm(t *testing.T) {
	cause := errors.New("open /secret/token-sk-live-123: permission denied")
	e := occkit.Wrap(cause, occkit.CodeInvalidRequest, "DOC-5", occkit.NewPath("agents", "defaults", "model", "fallback"),
		"OpenClaw does not accept the key %q here\x1b[31m", "fallback")
	e.Suggestion = "agents.defaults.model.fallbacks"
	e.Position = occkit.Position{File: "agent.json5", Line: 7, Column: 9, Text: `        fallback: ["anthropic/claude-haiku-4-5"],`}
	out := checkWire(t, errorSchema(t), e)
	var got map[string]any
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"severity": "error", "code": "INVALID_REQUEST", "status": float64(400),
		"message": `OpenClaw does not accept the key "fallback" here?[31m`, "rule": "DOC-5",
		"document": "configuration", "path": "agents.defaults.model.fallback", "pointer": "/agents/defaults/model/fallback",
		"position":   map[string]any{"file": "agent.json5", "line": float64(7), "column": float64(9)},
		"snippet":    e.Snippet(),
		"suggestion": "agents.defaults.model.fallbacks",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("wire form (-want +got):\n%s", d)
	}
	if strings.Contains(string(out), "sk-live") || strings.Contains(string(out), "permission denied") {
		t.Errorf("the cause's text is on the wire: %s", out)
	}
	// encoding/json's own view of an Error used to be its fields: Err,
	// Detail and a capitalised Position.
	for _, k := range []string{`"Err"`, `"Detail"`, `"Line"`, `"Path":{}`} {
		if strings.Contains(string(out), k) {
			t.Errorf("wire form holds %s: %s", k, out)
		}
	}
}

func TestWireDocuments(t *testing.T) {
	schema := errorSchema(t)
	tests := []struct {
		name string
		path occkit.Path
		doc  string
	}{
		{"configuration", occkit.NewPath("agents", "defaults", "model"), "configuration"},
		{"agent", occkit.AgentPath("harnessAuth", "method"), "agent"},
		{"installation", occkit.InstallationPath("harnessVersions", "openclaw"), "installation"},
		{"render", occkit.RenderPath("kubernetes", "namespace"), "render"},
		{"revision", occkit.RevisionPath("digest"), "revision"},
		{"agent root", occkit.AgentPath(), "agent"},
		{"no setting", occkit.Root(), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := checkWire(t, schema, occkit.Conflict("AUTH-2", tt.path, "x"))
			var got struct {
				Document *string `json:"document"`
			}
			if err := json.Unmarshal(out, &got); err != nil {
				t.Fatal(err)
			}
			gotDoc := ""
			if got.Document != nil {
				gotDoc = *got.Document
			}
			if gotDoc != tt.doc {
				t.Errorf("document = %q, want %q (%s)", gotDoc, tt.doc, out)
			}
		})
	}
}

func TestWireAggregate(t *testing.T) {
	err := occkit.Join(
		occkit.Conflict("RES-13", occkit.AgentPath("executionMode"), "needs a SandboxDriver"),
		occkit.Invalid("RES-13", occkit.AgentPath("executionMode"), "needs native workers"),
		occkit.Invalid("RES-3", occkit.NewPath("agents", "defaults", "model"), "no primary"),
	)
	out := checkWire(t, errorSchema(t), err)
	var got struct {
		Code   string
		Status int
		Errors []struct{ Path, Document string }
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	first := occkit.First(err)
	if got.Code != string(first.Code) || got.Status != first.HTTPStatus() || len(got.Errors) != 3 {
		t.Errorf("aggregate = %s", out)
	}
	back, _ := occkit.DecodeError(out)
	if !errors.Is(back, &occkit.Error{Code: occkit.CodeResourceConflict, Path: occkit.AgentPath("executionMode")}) {
		t.Errorf("the decoded aggregate lost its 409")
	}
	if errors.Is(back, &occkit.Error{Path: occkit.NewPath("executionMode")}) {
		t.Errorf("an Agent path matched a Configuration template")
	}
}

func TestWireWarningAndPlainErrors(t *testing.T) {
	schema := errorSchema(t)
	w := occkit.Warn("REF-4", occkit.NewPath("agents", "defaults", "model", "primary"), "not in the catalog")
	w.Suggestion = "anthropic/claude-sonnet-4-6"
	out, err := json.Marshal(w)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	_ = json.Unmarshal(out, &v)
	if err := schema.Validate(v); err != nil {
		t.Fatalf("%s: %v", out, err)
	}
	var back occkit.Error
	if err := json.Unmarshal(out, &back); err != nil {
		t.Fatal(err)
	}
	if !back.IsWarning() || back.HTTPStatus() != 0 || back.Code != "" {
		t.Errorf("decoded warning = %#v", back)
	}
	if _, err := occkit.DecodeError(out); err == nil {
		t.Errorf("a warning decoded as a refusal")
	}
	// A plain error is a server fault on the wire: 500, no text.
	out = checkWire(t, schema, context.DeadlineExceeded)
	if strings.Contains(string(out), "deadline") {
		t.Errorf("plain error text on the wire: %s", out)
	}
}

func TestWireDecodeRefuses(t *testing.T) {
	for name, in := range map[string]string{
		"unknown code":      `{"severity":"error","code":"TEAPOT","status":418,"message":"m"}`,
		"wrong status":      `{"severity":"error","code":"INVALID_REQUEST","status":409,"message":"m"}`,
		"pointer mismatch":  `{"severity":"error","code":"INVALID_REQUEST","status":400,"message":"m","document":"agent","path":"a.b","pointer":"/a/c"}`,
		"path alone":        `{"severity":"error","code":"INVALID_REQUEST","status":400,"message":"m","path":"a"}`,
		"unknown document":  `{"severity":"error","code":"INVALID_REQUEST","status":400,"message":"m","document":"x","path":"a","pointer":"/a"}`,
		"unknown field":     `{"severity":"error","code":"INVALID_REQUEST","status":400,"message":"m","Err":"boom"}`,
		"warning with code": `{"severity":"warning","code":"INVALID_REQUEST","status":400,"message":"m"}`,
		"empty aggregate":   `{"code":"INVALID_REQUEST","status":400,"message":"m","errors":[]}`,
		"aggregate code":    `{"code":"FORBIDDEN","status":403,"message":"m","errors":[{"severity":"error","code":"INVALID_REQUEST","status":400,"message":"m"}]}`,
	} {
		if _, err := occkit.DecodeError([]byte(in)); err == nil {
			t.Errorf("%s: decoded %s", name, in)
		}
	}
}

// Every error, whatever its fields, marshals to a form that validates and
// decodes back to the same wire form and the same templates.
func TestWireProperties(t *testing.T) {
	schema := errorSchema(t)
	docs := occkit.AllDocs()
	genErr := rapid.Custom(func(t *rapid.T) *occkit.Error {
		p := occkit.Root().In(rapid.SampledFrom(docs).Draw(t, "doc"))
		for i, n := 0, rapid.IntRange(0, 4).Draw(t, "depth"); i < n; i++ {
			if rapid.Bool().Draw(t, "index") {
				p = p.Index(rapid.IntRange(0, 20).Draw(t, "i"))
			} else {
				p = p.Key(rapid.StringN(0, 12, -1).Draw(t, "key"))
			}
		}
		e := occkit.New(rapid.SampledFrom(occkit.AllCodes()).Draw(t, "code"),
			rapid.SampledFrom([]string{"", "DOC-5", "AUTH-4a", "RES-13"}).Draw(t, "rule"), p,
			"%s", rapid.String().Draw(t, "detail"))
		e.Suggestion = rapid.String().Draw(t, "suggestion")
		if rapid.Bool().Draw(t, "positioned") {
			e.Position = occkit.Position{File: rapid.String().Draw(t, "file"),
				Line: rapid.IntRange(1, 1000).Draw(t, "line"), Column: rapid.IntRange(1, 200).Draw(t, "col"),
				Text: rapid.String().Draw(t, "text")}
		}
		if rapid.Bool().Draw(t, "caused") {
			e.Err = errors.New("cause")
		}
		return e
	})
	rapid.Check(t, func(rt *rapid.T) {
		list := rapid.SliceOfN(genErr, 1, 5).Draw(rt, "errs")
		errs := make([]error, len(list))
		for i, e := range list {
			errs[i] = e
		}
		checkWire(rt, schema, occkit.Join(errs...))
	})
}
