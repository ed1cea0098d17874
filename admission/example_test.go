package admission_test

import (
	"context"
	"fmt"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/admission"
)

// Admit an embedded OpenClaw Agent on Kubernetes and read the frozen
// revision.
func Example() {
	a, err := admission.New(admission.Options{HarnessVersions: map[occkit.Harness]string{occkit.HarnessOpenClaw: "2026.9.6", occkit.HarnessCodex: "0.171.0"},
		Authorizer: admission.AuthorizerFunc(func(context.Context, admission.AuthorizeRequest) error { return nil }),
	})
	if err != nil {
		panic(err)
	}
	auth, err := admission.CreateHarnessAuth([]byte(
		`{"method":"api_key","source":{"kind":"secret","namespaceId":"ns_1","id":"sec_1"}}`))
	if err != nil {
		panic(err)
	}
	rev, err := a.Admit(context.Background(), admission.Request{
		Agent: admission.Agent{ID: "main", ConfigurationID: "cfg_1", HarnessAuth: auth},
		Configuration: admission.StaticConfiguration{ID: "cfg_1", Generation: 2,
			Document: occkit.MustParseDocument(`{"agents":{"defaults":{"model":"anthropic/claude-sonnet-4-6"}}}`)},
		Compute: admission.ComputeInfo{Kind: occkit.ComputeKubernetes},
		Level:   occkit.LevelWarn,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(rev.Harness(), rev.Mode(), rev.Primary())
	fmt.Println(rev.Document().Get(occkit.NewPath("logging", "consoleLevel")))
	fmt.Println(rev.Projection().Names(occkit.ProcessHarness))
	fmt.Println(string(rev.HarnessAuth().JSON()))
	// Output:
	// openclaw embedded anthropic/claude-sonnet-4-6
	// warn
	// [ANTHROPIC_API_KEY]
	// {"method":"api_key","source":{"id":"sec_1","kind":"secret","namespaceId":"ns_1"}}
}
