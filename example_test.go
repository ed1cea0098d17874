package occkit_test

import (
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
