package bench_test

import (
	"fmt"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/compile"
	"github.com/occkit/occkit/internal/bench"
)

func ExampleConfiguration() {
	doc, err := compile.Load(bench.Configuration(3), compile.LoadOptions{})
	if err != nil {
		panic(err)
	}
	models := 0
	doc.Get(occkit.NewPath("agents", "defaults", "models")).ForEach(func(_, _ occkit.Value) bool {
		models++
		return true
	})
	fmt.Println(models, doc.Get(occkit.NewPath("agents", "defaults", "model", "primary")))
	// Output: 3 anthropic/model-0
}
