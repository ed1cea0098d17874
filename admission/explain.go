package admission

import (
	"fmt"
	"io"
	"strings"

	"github.com/occkit/occkit/resolver"
)

// Explain writes why the revision was admitted: a summary line (Harness,
// mode, primary and fallbacks), then one line per reason, "RULE path =
// value: note": the Harness decision's chain (SEL-9) and then each of the
// caller's rules that held ("company/no-codex-in-prod (request): held");
// then each warning ([Revision.Warnings]) as "  warning RULE path:
// message". A restored revision ([ParseRevision]) has no reason chain and
// no warnings: neither is persisted.
func (r *Revision) Explain(w io.Writer) error {
	d := resolver.Decision{Harness: r.harness.ID, Mode: r.mode, Primary: r.primary,
		Fallbacks: r.Fallbacks(), Reasons: r.Reasons()}
	var b strings.Builder
	if err := d.Explain(&b); err != nil {
		return err
	}
	for _, x := range r.warnings {
		fmt.Fprintf(&b, "  warning %s %v: %s\n", x.Rule, x.Path, x.Message())
	}
	_, err := io.WriteString(w, b.String())
	return err
}
