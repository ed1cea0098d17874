package compile_test

import (
	"errors"
	"fmt"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/compile"
)

// Load reads JSON5 as users write it and returns compact JSON in the
// author's key order; ${VAR} references resolve only through Lookup.
func ExampleLoad() {
	src := []byte(`// openclaw.json5
{
  agents: {
    defaults: {model: 'openai/gpt-5', maxConcurrent: 0x10,},
  },
  models: {providers: {openai: {headers: {'X-Team': '${TEAM}'}}}},
}`)
	env := map[string]string{"TEAM": "platform"}
	doc, err := compile.Load(src, compile.LoadOptions{
		Lookup: func(name string) (string, bool) { v, ok := env[name]; return v, ok },
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(doc)

	// Limits refuse with a structured error and the offending path.
	_, err = compile.Load([]byte(`{"a": {"b": {"c": 1}}}`), compile.LoadOptions{Limits: compile.Limits{MaxDepth: 2}})
	var e *occkit.Error
	if errors.As(err, &e) {
		fmt.Println(e.HTTPStatus(), e.Code, e.Path, e.Rule)
	}
	// Output:
	// {"agents":{"defaults":{"model":"openai/gpt-5","maxConcurrent":16}},"models":{"providers":{"openai":{"headers":{"X-Team":"platform"}}}}}
	// 400 INVALID_REQUEST a.b DOC-2
}

// Validate checks the parts occkit interprets against the embedded schema.
func ExampleValidate() {
	doc := occkit.MustParseDocument(`{"agents": {"defaults": {"maxConcurrent": "eight"}}, "custom": true}`)
	for _, e := range occkit.Errors(compile.Validate(doc)) {
		fmt.Println(e.Path, e.Rule)
	}
	// Output:
	// agents.defaults.maxConcurrent DOC-5
}
