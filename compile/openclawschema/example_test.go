package openclawschema_test

import (
	"fmt"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/compile/openclawschema"
)

// A typo OpenClaw refuses at start-up is refused at its own path, with
// the key the schema allows there as a suggestion.
func ExampleValidator_Validate() {
	v, err := openclawschema.New()
	if err != nil {
		panic(err)
	}
	doc := occkit.MustParseDocument(`{"agents":{"defaults":{"model":{"primary":"openai/gpt-5.2","fallback":["anthropic/claude-opus-5"]}}}}`)
	err = v.Validate(doc)
	oe := occkit.First(err)
	fmt.Println(oe.HTTPStatus(), oe.Rule, oe.Path)
	fmt.Println(oe.Message())
	// Output:
	// 400 DOC-5 agents.defaults.model.fallback
	// OpenClaw 2026.9.6 does not accept the key "fallback" here; did you mean agents.defaults.model.fallbacks?
}

// OpenClaw refuses some documents through refinements its published
// schema does not carry; the check mirrors them at the setting OpenClaw
// names (here an agent reference to no configured agent).
func ExampleRefinements() {
	v, err := openclawschema.New()
	if err != nil {
		panic(err)
	}
	doc := occkit.MustParseDocument(`{"agents":{"entries":{"ops":{}}},"talk":{"agentId":"sales"}}`)
	oe := occkit.First(v.Validate(doc))
	fmt.Println(oe.HTTPStatus(), oe.Rule, oe.Path)
	fmt.Println(oe.Message())
	for _, r := range openclawschema.Refinements()[:2] {
		fmt.Println(r.Class)
	}
	// Output:
	// 400 DOC-5 talk.agentId
	// talk.agentId names no agent of agents.entries (OpenClaw 2026.9.6)
	// agent-reference
	// broadcast-key
}
