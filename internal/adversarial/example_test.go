package adversarial_test

import (
	"fmt"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/compile"
)

// A duplicate key is refused with a structured error naming the rule and
// the key, because two JSON readers would see two different documents.
func Example() {
	_, err := compile.Load([]byte(`{"logging":{"level":"info"},"logging":{"level":"debug"}}`), compile.LoadOptions{})
	e := occkit.First(err)
	fmt.Println(e.HTTPStatus(), e.Code, e.Path, e.Rule)
	// Output: 400 INVALID_REQUEST logging DOC-2
}
