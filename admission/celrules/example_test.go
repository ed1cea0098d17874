package celrules_test

import (
	"context"
	"fmt"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/admission"
	"github.com/occkit/occkit/admission/celrules"
	"github.com/occkit/occkit/compile"
)

// A rule file's rules, compiled once and run by admission: the refusal
// names the rule and where the refused setting is written. A fault in an
// expression is reported where it is written in the rule file.
func Example() {
	specs, err := celrules.Parse("rules.yaml", []byte(`rules:
  - name: company/at-most-three-fallbacks
    expression: size(fallbacks) <= 3
    message: at most three fallbacks
    path: agents.defaults.model.fallbacks
`))
	if err != nil {
		panic(err)
	}
	rules, err := celrules.Compile(specs, celrules.Options{})
	if err != nil {
		panic(err)
	}
	a, err := admission.New(admission.Options{
		Authorizer:      admission.AuthorizerFunc(func(context.Context, admission.AuthorizeRequest) error { return nil }),
		HarnessVersions: map[occkit.Harness]string{occkit.HarnessOpenClaw: "2026.9.6"},
		Rules:           rules,
	})
	if err != nil {
		panic(err)
	}
	doc, err := compile.Load([]byte(`{
  agents: {defaults: {model: {
    primary: "anthropic/a",
    fallbacks: ["anthropic/b", "anthropic/c", "anthropic/d", "anthropic/e"],
  }}},
}`), compile.LoadOptions{Filename: "agent.json5"})
	if err != nil {
		panic(err)
	}
	_, err = a.Admit(context.Background(), admission.Request{
		Agent: admission.Agent{ID: "main", ConfigurationID: "cfg", HarnessAuth: occkit.Binding{Method: occkit.MethodAPIKey,
			Source: occkit.SourceRef{Kind: occkit.SourceSecret, NamespaceID: "ns_1", ID: "sec_1"}}},
		Configuration: admission.StaticConfiguration{ID: "cfg", Generation: 1, Document: doc},
	})
	e := occkit.First(err)
	fmt.Printf("%s: %v\n", e.Position, e)

	specs, _ = celrules.Parse("rules.yaml", []byte(`rules:
  - name: company/embedded
    expression: |
      mode == "embedded" &&
        harnes == "openclaw"
    message: embedded OpenClaw only
`))
	_, err = celrules.Compile(specs, celrules.Options{})
	e = occkit.First(err)
	fmt.Printf("%s: %v\n", e.Position, e)
	// Output:
	// agent.json5:4:5: INVALID_REQUEST agents.defaults.model.fallbacks: at most three fallbacks [company/at-most-three-fallbacks]
	// rules.yaml:5:9: INVALID_REQUEST rules[0].expression: undeclared reference to "harnes"; did you mean harness? [company/embedded]
}
