package occkit_test

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/occkit/occkit"
)

func ExampleError() {
	err := occkit.Invalid("RES-10", occkit.NewPath("agents", "list"), "must be an empty array")
	fmt.Println(err)
	fmt.Println(err.HTTPStatus(), errors.Is(err, occkit.ErrInvalidRequest))
	// Output:
	// INVALID_REQUEST agents.list: must be an empty array [RES-10]
	// 400 true
}

func ExamplePath() {
	p := occkit.NewPath("agents", "defaults", "models", "openai/gpt-5.4").Key("agentRuntime")
	fmt.Println(p)
	fmt.Println(p.Pointer())
	// Output:
	// agents.defaults.models["openai/gpt-5.4"].agentRuntime
	// /agents/defaults/models/openai~1gpt-5.4/agentRuntime
}

func ExampleDocument() {
	doc := occkit.MustParseDocument(`{"z":1,"agents":{"defaults":{"model":"openai/gpt-5.4"}}}`)
	next, _ := doc.Set(occkit.NewPath("logging", "level"), "warn")
	fmt.Println(doc)
	fmt.Println(next)
	fmt.Println(string(occkit.Canonical(next)))
	// Output:
	// {"z":1,"agents":{"defaults":{"model":"openai/gpt-5.4"}}}
	// {"z":1,"agents":{"defaults":{"model":"openai/gpt-5.4"}},"logging":{"level":"warn"}}
	// {"agents":{"defaults":{"model":"openai/gpt-5.4"}},"logging":{"level":"warn"},"z":1}
}

func ExampleCanonical() {
	a := occkit.MustParseDocument(`{"timeout":1.5e3,"name":"\u00e9","n":-0}`)
	b := occkit.MustParseDocument(`{"n":0,"name":"é","timeout":1500.0}`)
	fmt.Println(string(occkit.Canonical(a)))
	fmt.Println(occkit.CanonicalDigest(a) == occkit.CanonicalDigest(b))
	_, err := occkit.ParseDocument([]byte(`{"name":"\ud800"}`))
	fmt.Println(err)
	// Output:
	// {"n":0,"name":"é","timeout":1500}
	// true
	// INVALID_REQUEST name: a string or key holds a lone UTF-16 surrogate, which has no canonical form [DOC-1]
}

func ExamplePathAt() {
	doc := []byte(`{"agents":{"list":[{"id":"a"},{"id":"b"}]}}`)
	at := bytes.Index(doc, []byte(`"b"`))
	fmt.Println(occkit.PathAt(doc, at))
	// Output:
	// agents.list[1].id
}
