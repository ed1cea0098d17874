package resolver_test

import (
	"fmt"

	"github.com/occkit/occkit/resolver"
)

func ExampleParseRef() {
	for _, s := range []string{
		"openai/vendor/model",
		"anthropic/claude-sonnet@work",
		"ollama/llama3@q4_k_m",
		"gpt-5.1",
	} {
		r, ok := resolver.ParseRef(s)
		fmt.Printf("%-30s ok=%-5v provider=%q id=%q profile=%q\n", s, ok, r.Provider, r.ID, r.Profile)
	}
	r, _ := resolver.ParseRef("openai/vendor/model")
	fmt.Println(resolver.MatchRow(r, "vendor/model"), resolver.MatchRow(r, "model"))
	// Output:
	// openai/vendor/model            ok=true  provider="openai" id="vendor/model" profile=""
	// anthropic/claude-sonnet@work   ok=true  provider="anthropic" id="claude-sonnet" profile="work"
	// ollama/llama3@q4_k_m           ok=true  provider="ollama" id="llama3@q4_k_m" profile=""
	// gpt-5.1                        ok=false provider="" id="" profile=""
	// true false
}
