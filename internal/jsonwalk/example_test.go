package jsonwalk_test

import (
	"fmt"

	"github.com/occkit/occkit/internal/jsonwalk"
)

// A schema for {"port": integer} in a closed object; every other key is
// refused.
func ExampleValid() {
	port := jsonwalk.NewNode()
	port.Types = jsonwalk.Integer
	root := jsonwalk.NewNode()
	root.Types = jsonwalk.Object
	root.Props = map[string]*jsonwalk.Node{"port": port}
	root.Closed = true
	root.Required = []string{"port"}
	if err := jsonwalk.Seal(root); err != nil {
		panic(err)
	}
	for _, doc := range []string{`{"port": 8080}`, `{"port": 8080.5}`, `{"port": 1, "host": "x"}`, `{}`} {
		fmt.Println(jsonwalk.Valid(jsonwalk.Exact{}, root, doc))
	}
	// Output:
	// true
	// false
	// false
	// false
}
