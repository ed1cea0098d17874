package openclawdiff

import "strings"

// Table is the one table of deliberate divergences from OpenClaw
// 2026.9.6. Every disagreement the tier finds must be recognised by a row;
// DIVERGENCES.md is rendered from it.
var Table = []Divergence{
	{
		Fn: FnRefStrict, Class: "trailing-slash-invalid", Rule: "REF-3",
		Reason: "a selected ref ending with `/` is invalid; OpenClaw's parser keeps `m/` as the model ID",
		Match:  func(c Case) bool { return !c.Occ.(RefOut).Valid && c.Claw.(RefAnswer).Strict.Valid && strings.HasSuffix(c.Claw.(RefAnswer).Strict.ID, "/") },
	},
	{
		Fn: FnRefLenient, Class: "trailing-slash-invalid", Rule: "REF-3",
		Reason: "as for strict refs: a ref ending with `/` is invalid in both modes (REF-5a)",
		Match:  func(c Case) bool { return !c.Occ.(RefOut).Valid && c.Claw.(RefAnswer).Lenient.Valid && strings.HasSuffix(c.Claw.(RefAnswer).Lenient.ID, "/") },
	},
	{
		Fn: FnRefLenient, Class: "model-id-normalization", Rule: "REF-2",
		Reason: "the ID keeps its case and spelling; OpenClaw's lenient parser also rewrites built-in providers' model aliases (`anthropic/opus-4.6` → `claude-opus-4-6`), which is catalog knowledge, not ref syntax",
		Match: func(c Case) bool {
			o, a := c.Occ.(RefOut), c.Claw.(RefAnswer)
			return o.Valid && a.Lenient.Valid && a.OccNorm == a.Lenient && o.ID != a.Lenient.ID
		},
	},
	{
		Fn: FnPolicy, Class: "key-order", Rule: "SEL-1",
		Reason: "when several keys name one model OpenClaw takes the first in author order; occkit ranks them (caller's provider, then provider-qualified, then smallest key) so the same digest gives the same decision",
		Match: func(c Case) bool {
			a := c.Claw.(PolicyAnswer)
			return a.OrderDependent() && a.Any(c.Occ.(PolicyOut))
		},
	},
}
