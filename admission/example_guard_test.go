package admission_test

import (
	"fmt"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/admission"
	"github.com/occkit/occkit/drivers"
)

// A harnessAuth binding the Compute cannot honour is refused with the
// setting it names.
func ExampleValidateHarnessAuth() {
	_, err := admission.ValidateHarnessAuth(drivers.AuthFacts{
		Compute: occkit.ComputeKubernetes, Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeEmbedded,
		Binding: occkit.Binding{Method: occkit.MethodRuntime},
	})
	e := occkit.First(err)
	fmt.Println(e.HTTPStatus(), e.Code, e.Path, e.Rule)
	// Output:
	// 409 RESOURCE_CONFLICT harnessAuth.method AUTH-4
}

// The activation guard never lets an older retry overwrite a newer
// selected version.
func ExampleGuard() {
	g := admission.NewGuard(occkit.ModeDedicated)
	g, _, _ = g.Deploy(1)
	g, _, _, _ = g.Activate(1)
	g, plan, _ := g.Deploy(2)
	fmt.Println(plan)
	g, _, plan, _ = g.Activate(2)
	fmt.Println(plan)
	g, outcome, _, _ := g.Activate(1)
	sel, _ := g.Selected()
	fmt.Println(outcome, sel, g.Audits())
	// Output:
	// [{stop 1} {prepare 2}]
	// [{start 2} {publish 2} {retire 1} {audit 2}]
	// superseded 2 2
}
