package policytest_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/admission"
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

// A team tests its own admission rule like occkit's: a case expects its
// refusal, by its name, path and position in the configuration file the
// case names (kept apart from the cases, which Load reads all of).
func ExampleRunner() {
	dir, err := os.MkdirTemp("", "policies")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	files := map[string]string{
		"configs/prod.json5": "{\n  agents: {defaults: {model: {\n    primary: 'anthropic/a',\n    fallbacks: ['anthropic/b', 'anthropic/c'],\n  }}},\n}\n",
		"cases.json5": `[{op: 'admission.admit', name: 'prod has one fallback at most',
  input: {configurationFile: 'configs/prod.json5',
          agent: {harnessAuth: {method: 'api_key', source: {kind: 'secret', namespaceId: 'ns_1', id: 'sec_1'}}}},
  expect: {error: {rule: 'team/one-fallback', path: 'agents.defaults.model.fallbacks', position: 'configs/prod.json5:4:5'}}}]`,
	}
	if err := os.Mkdir(filepath.Join(dir, "configs"), 0o700); err != nil {
		fmt.Println(err)
		return
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
			fmt.Println(err)
			return
		}
	}
	r := policytest.Runner{Rules: []admission.Rule{
		admission.RuleFunc("team/one-fallback", func(_ context.Context, v *admission.View) error {
			if len(v.Fallbacks()) > 1 {
				return occkit.Invalid("", occkit.NewPath("agents", "defaults", "model", "fallbacks"), "at most one fallback")
			}
			return nil
		}),
	}}
	cases, err := policytest.Load(dir)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range cases {
		if failure := r.Run(c); failure != "" {
			fmt.Printf("FAIL %s: %s\n", c.Name, failure)
			continue
		}
		fmt.Printf("ok   %s\n", c.Name)
	}
	// Output:
	// ok   prod has one fallback at most
}
