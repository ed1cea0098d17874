package resolver

import (
	"github.com/occkit/occkit"
)

// Reason is one step of a decision's explanation (SEL-9): the rule that
// applied, the JSON path it examined and the value that decided.
type Reason struct {
	Rule  string
	Path  occkit.Path
	Value string
	// Note is a short human explanation.
	Note string
}
