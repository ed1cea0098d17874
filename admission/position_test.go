package admission_test

import (
	"context"
	"testing"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/admission"
	"github.com/occkit/occkit/compile"
)

// Admit places its refusals about the Configuration in the text it was
// loaded from; a refusal about the Agent has no position, and a document
// without a source map is refused exactly as before.
func TestAdmitPlacesRefusals(t *testing.T) {
	a := newAdmitter(t, allow())
	src := "{\n  agents: {\n    defaults: {\n      maxConcurrent: 'four',\n    },\n  },\n}\n"
	doc, err := compile.Load([]byte(src), compile.LoadOptions{Filename: "cfg.json5"})
	if err != nil {
		t.Fatal(err)
	}
	req := embeddedRequest(embeddedConfig)
	req.Configuration = admission.StaticConfiguration{ID: "cfg_1", Generation: 1, Document: doc}
	_, err = a.Admit(context.Background(), req)
	e := occkit.First(err)
	if e == nil || e.Path.String() != "agents.defaults.maxConcurrent" || e.Position.String() != "cfg.json5:4:7" {
		t.Fatalf("refusal %+v at %v", err, e.Position)
	}
	req.Configuration = admission.StaticConfiguration{ID: "cfg_1", Generation: 1, Document: occkit.MustParseDocument(doc.String())}
	_, err = a.Admit(context.Background(), req)
	if e := occkit.First(err); e == nil || e.Position.IsValid() {
		t.Errorf("a document without a source map was placed: %+v", err)
	}
	ok, err := compile.Load([]byte(embeddedConfig), compile.LoadOptions{Filename: "cfg.json5"})
	if err != nil {
		t.Fatal(err)
	}
	req.Configuration = admission.StaticConfiguration{ID: "cfg_1", Generation: 1, Document: ok}
	req.Agent.HarnessAuth = occkit.Binding{Method: occkit.MethodRuntime}
	_, err = a.Admit(context.Background(), req)
	if e := occkit.First(err); e == nil || e.Position.IsValid() || e.Path.Len() == 0 || e.Path.String()[:11] != "harnessAuth" {
		t.Errorf("an Agent refusal: %+v at %v", err, e.Position)
	}
}
