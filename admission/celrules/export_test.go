package celrules

import "github.com/occkit/occkit/admission"

// Tracked is r always run with cel-go's runtime cost tracking.
func Tracked(r admission.Rule) admission.Rule {
	c := *r.(*rule)
	c.untracked = nil
	return &c
}

// RunsUntracked reports whether r runs without cost tracking over v.
func RunsUntracked(r admission.Rule, v *admission.View) bool {
	c := r.(*rule)
	return c.untracked != nil && c.bound.covers(inputSize(v, v.Agent(), v.Tenant()))
}
