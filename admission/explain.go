package admission

import (
	"io"

	"github.com/occkit/occkit/resolver"
)

// Explain writes why the revision was admitted: a summary line (Harness,
// mode, primary and fallbacks), then one line per reason, "RULE path =
// value: note": the Harness decision's chain (SEL-9) and then each of the
// caller's rules that held ("company/no-codex-in-prod (request): held").
// A restored revision ([ParseRevision]) has no reason chain: the chain is
// not persisted.
func (r *Revision) Explain(w io.Writer) error {
	return resolver.Decision{
		Harness: r.harness.ID, Mode: r.mode, Primary: r.primary,
		Fallbacks: r.fallbacks, Reasons: r.reasons,
	}.Explain(w)
}
