package policytest_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/occkit/occkit/admission/policytest"
)

// A team's policy cases: one success expectation and one expected refusal.
// In a test, loop over the cases with t.Run and t.Error the explanation.
func Example() {
	dir, err := os.MkdirTemp("", "policies")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	cases := `[
	  {"op": "ref.parse", "name": "a provider-qualified ref",
	   "input": {"ref": "openai/gpt-5"},
	   "expect": {"provider": "openai", "id": "gpt-5"}},
	  {"op": "roster.check", "name": "agents.list is refused at save", "rule": "RES-10",
	   "input": {"configuration": {"agents": {"list": [{"id": "main"}]}}, "stage": "save"},
	   "expect": {"error": {"status": 400, "code": "INVALID_REQUEST"}}},
	  {"op": "ref.parse", "name": "a wrong expectation",
	   "input": {"ref": "openai/gpt-5"},
	   "expect": {"provider": "anthropic"}}
	]`
	if err := os.WriteFile(filepath.Join(dir, "team.json"), []byte(cases), 0o600); err != nil {
		fmt.Println(err)
		return
	}
	loaded, err := policytest.Load(dir)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range loaded {
		if failure := policytest.Run(c); failure != "" {
			fmt.Printf("FAIL %s: %s\n", c.Name, "expectation not met")
			continue
		}
		fmt.Printf("ok   %s\n", c.Name)
	}
	// Output:
	// ok   a provider-qualified ref
	// ok   agents.list is refused at save
	// FAIL a wrong expectation: expectation not met
}
