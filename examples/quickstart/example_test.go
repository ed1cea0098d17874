package main

import (
	"context"
	"fmt"
	"github.com/occkit/occkit"
	"log"

	"github.com/occkit/occkit/admission"
	"github.com/occkit/occkit/compile"
	"github.com/occkit/occkit/resolver"
)

func check(err error) {
	if err != nil {
		log.Fatal(err)
	}
}

// The code sample of the README, kept compiling and correct by go test:
// load a JSON5 Configuration, resolve its Harness, admit it.
func Example_readme() {
	doc, err := compile.Load([]byte(`{agents: {defaults: {model: 'anthropic/claude-sonnet-4-6'}}}`), compile.LoadOptions{})
	check(err)
	d, err := resolver.Resolve(doc, resolver.Request{}) // embedded, on Kubernetes
	check(err)
	fmt.Println(d.Harness, d.Mode, d.Primary)

	allow := admission.AuthorizerFunc(func(context.Context, admission.AuthorizeRequest) error { return nil })
	versions := map[occkit.Harness]string{occkit.HarnessOpenClaw: "2026.9.6"}
	a, err := admission.New(admission.Options{Authorizer: allow, HarnessVersions: versions})
	check(err)
	key := occkit.Binding{Method: occkit.MethodAPIKey,
		Source: occkit.SourceRef{Kind: occkit.SourceSecret, NamespaceID: "ns_1", ID: "sec_1"}}
	rev, err := a.Admit(context.Background(), admission.Request{
		Agent:         admission.Agent{ID: "support", ConfigurationID: "cfg_1", HarnessAuth: key},
		Configuration: admission.StaticConfiguration{ID: "cfg_1", Document: doc},
	})
	check(err) // a refusal is an *occkit.Error: Code, HTTPStatus(), Path, Rule
	fmt.Println(rev.Harness(), rev.Digest()[:12], rev.Projection().Names(occkit.ProcessHarness))
	// Output:
	// openclaw embedded anthropic/claude-sonnet-4-6
	// openclaw 6ccff72899ff [ANTHROPIC_API_KEY]
}
