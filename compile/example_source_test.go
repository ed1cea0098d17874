package compile_test

import (
	"fmt"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/compile"
)

// A document loaded with a name keeps a source map: a later refusal about
// it (Validate, resolver.Resolve and admission place theirs; Document.Place
// does it for any other) prints like go vet with %+v, the source line and
// a caret below. err.Error() itself names no position.
func Example_positions() {
	src := []byte(`{
  agents: {
    defaults: {maxConcurrent: "four"},
  },
}`)
	doc, err := compile.Load(src, compile.LoadOptions{Filename: "openclaw.json5"})
	if err != nil {
		panic(err)
	}
	err = compile.Validate(doc)
	fmt.Printf("%+v\n", occkit.First(err))
	// Output:
	// openclaw.json5:3:16: INVALID_REQUEST agents.defaults.maxConcurrent: agents.defaults.maxConcurrent has the wrong type: the schema wants integer, not string (schema keyword type) [DOC-5]
	// 3 |     defaults: {maxConcurrent: "four"},
	//   |                ^
}
