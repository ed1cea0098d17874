package occkit_test

import (
	"fmt"

	"github.com/occkit/occkit"
)

func ExampleSuggest() {
	fmt.Println(occkit.Suggest("defualts", []string{"defaults", "entries", "list"}))
	fmt.Println(occkit.Suggest("kubernetse", []string{"kubernetes", "ssh", "docker"}))
	fmt.Printf("%q\n", occkit.Suggest("nomad", []string{"kubernetes", "ssh", "docker"}))
	// Output:
	// defaults
	// kubernetes
	// ""
}

// An Error with a Position prints it, and its source line, only when asked
// (%+v or Snippet); Error() stays as it was.
func ExampleError_Snippet() {
	e := occkit.Invalid("DOC-5", occkit.NewPath("agents", "defualts"), "unknown key; did you mean agents.defaults?")
	e.Position = occkit.Position{File: "openclaw.json5", Line: 4, Column: 5, Text: "    defualts: {},"}
	fmt.Println(e)
	fmt.Printf("%+v\n", e)
	// Output:
	// INVALID_REQUEST agents.defualts: unknown key; did you mean agents.defaults? [DOC-5]
	// openclaw.json5:4:5: INVALID_REQUEST agents.defualts: unknown key; did you mean agents.defaults? [DOC-5]
	// 4 |     defualts: {},
	//   |     ^
}
