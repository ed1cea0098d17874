package schemacheck_test

import (
	"fmt"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v5"
	"github.com/tidwall/gjson"

	"github.com/occkit/occkit/compile/internal/schemacheck"
)

func compileSchema(src string) *jsonschema.Schema {
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2020
	if err := c.AddResource("https://occkit.test/example.json", strings.NewReader(src)); err != nil {
		panic(err)
	}
	return c.MustCompile("https://occkit.test/example.json")
}

// A schema that asserts one setting: the projection keeps only that
// setting, and the checker accepts a document whose setting fits and is
// "not sure" of one whose setting does not.
func Example() {
	s := compileSchema(`{"type": "object", "properties": {
		"agents": {"properties": {"maxConcurrent": {"type": "integer", "minimum": 1}}}}}`)
	proj, vacuous, err := schemacheck.Project(s)
	if err != nil {
		panic(err)
	}
	check := schemacheck.NewChecker(s, vacuous)
	for _, doc := range []string{
		`{"agents": {"maxConcurrent": 2, "list": [1, 2]}, "channels": {"x": true}}`,
		`{"agents": {"maxConcurrent": 0}}`,
	} {
		r := gjson.Parse(doc)
		fmt.Println(check.Valid(doc), proj.Prune(r))
	}
	// Output:
	// true map[agents:map[maxConcurrent:2]]
	// false map[agents:map[maxConcurrent:0]]
}

// A schema whose verdict depends on keys it does not name has no
// projection; compile.Validator then validates the whole document.
func ExampleProject_refused() {
	_, _, err := schemacheck.Project(compileSchema(`{"maxProperties": 2}`))
	fmt.Println(err != nil)
	// Output:
	// true
}
