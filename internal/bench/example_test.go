package bench_test

import (
	"fmt"

	"github.com/occkit/occkit/compile"
	"github.com/occkit/occkit/internal/bench"
)

func ExampleConfiguration() {
	doc, err := compile.Load(bench.Configuration(3), compile.LoadOptions{})
	if err != nil {
		panic(err)
	}
	fmt.Println(len(doc.Root().Get("agents.defaults.models").Map()), doc.Root().Get("agents.defaults.model.primary"))
	// Output: 3 anthropic/model-0
}
