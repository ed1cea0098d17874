package resolver_test

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/resolver"
)

func TestCheckShape(t *testing.T) {
	inv := func(path string) occkit.ErrorMatcher {
		return occkit.ErrorMatcher{Code: occkit.CodeInvalidRequest, Path: path, Rule: "RES-2"}
	}
	tests := []struct {
		name string
		doc  string
		want []occkit.ErrorMatcher
	}{
		{"empty", `{}`, nil},
		{"all objects", `{"agents":{"defaults":{},"entries":{"a":{},"b":{"model":"openai/gpt-5"}}}}`, nil},
		{"root an array", `[]`, []occkit.ErrorMatcher{inv("")}},
		{"agents null", `{"agents":null}`, []occkit.ErrorMatcher{inv("agents")}},
		{"agents a list, nothing beneath is read", `{"agents":[{"id":"a"}]}`, []occkit.ErrorMatcher{inv("agents")}},
		{"defaults a string", `{"agents":{"defaults":"x"}}`, []occkit.ErrorMatcher{inv("agents.defaults")}},
		{"entries null", `{"agents":{"entries":null}}`, []occkit.ErrorMatcher{inv("agents.entries")}},
		{"defaults and entries both wrong", `{"agents":{"defaults":1,"entries":[]}}`,
			[]occkit.ErrorMatcher{inv("agents.defaults"), inv("agents.entries")}},
		{"entry values", `{"agents":{"entries":{"a":{},"b":"x","c.d":null}}}`,
			[]occkit.ErrorMatcher{inv("agents.entries.b"), inv(`agents.entries["c.d"]`)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := resolver.CheckShape(occkit.MustParseDocument(tt.doc))
			if d := cmp.Diff(tt.want, occkit.MatchersOf(err)); d != "" {
				t.Errorf("refusals (-want +got):\n%s\n%v", d, err)
			}
		})
	}
}

// RES-2 is one check, whoever needs it: the roster check at save, the
// resolver, and compile all refuse a non-object agents.defaults alike.
func ExampleCheckShape() {
	doc := occkit.MustParseDocument(`{"agents":{"defaults":"openai/gpt-5"}}`)
	fmt.Println(resolver.CheckShape(doc))
	// Output:
	// INVALID_REQUEST agents.defaults: agents.defaults must be an object [RES-2]
}
