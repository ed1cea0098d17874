package normalized_test

import (
	"fmt"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/internal/json5"
	"github.com/occkit/occkit/internal/normalized"
)

// The transcoder's output becomes a Document as it is.
func ExampleDocument() {
	n, err := json5.Normalize([]byte(`{agents: {list: [{id: 'main',},],}, // comment
}`), json5.Options{})
	if err != nil {
		panic(err)
	}
	d := normalized.Document[occkit.Document](n)
	fmt.Println(d)
	fmt.Println(normalized.Document[occkit.Document](json5.Normalized{}))
	// Output:
	// {"agents":{"list":[{"id":"main"}]}}
	// {}
}
