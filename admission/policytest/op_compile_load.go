package policytest

import (
	"github.com/occkit/occkit/compile"
)

// opCompileLoad loads input.text with compile.Load under input.limits.
func opCompileLoad(in input) (result, error) {
	opts := compile.LoadOptions{Limits: compile.Limits{
		MaxBytes: int(in.Get("limits.maxBytes").Int()),
		MaxDepth: int(in.Get("limits.maxDepth").Int()),
	}}
	doc, err := compile.Load([]byte(in.Get("text").String()), opts)
	if err != nil {
		return nil, err
	}
	return result{"configuration": doc, documentKey: doc}, nil
}
