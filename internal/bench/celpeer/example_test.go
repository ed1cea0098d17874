package celpeer_test

import (
	"fmt"

	"github.com/occkit/occkit/internal/bench"
	"github.com/occkit/occkit/internal/bench/celpeer"
)

func ExampleDecider_Decide() {
	d, err := celpeer.New(bench.Configuration(40))
	if err != nil {
		panic(err)
	}
	for _, q := range bench.Decisions(40) {
		rt, err := d.Decide(q.Provider, q.Model, q.AgentID)
		fmt.Println(q.Provider, q.Model, rt, err)
	}
	// Output:
	// anthropic model-0 openclaw <nil>
	// anthropic model-39 openclaw <nil>
	// anthropic model-unlisted openclaw <nil>
	//  anthropic/model-20 openclaw <nil>
}
