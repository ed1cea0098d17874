package openclawdiff

import "strings"

// Table is the one table of deliberate divergences from OpenClaw
// 2026.9.6. Every disagreement the tier finds must be recognised by a row;
// DIVERGENCES.md is rendered from it.
var Table = append(append(tableMain, tableDoctor...), tableLoad...)

var tableLoad = []Divergence{
	{
		Fn: FnLoad, Class: "missing-variable-is-an-error", Rule: "DOC-4",
		Reason: "a `${VAR}` whose variable the lookup does not know is an error naming the variable; OpenClaw's loader warns and keeps the literal `${VAR}`",
		Match: func(c Case) bool {
			o, a := c.Occ.(LoadOut), c.Claw.(LoadAnswer)
			return o.Err && o.MissingVar && !a.Err && len(a.Missing) > 0
		},
	},
}

var tableMain = []Divergence{
	{
		Fn: FnRefStrict, Class: "trailing-slash-invalid", Rule: "REF-3",
		Reason: "a selected ref ending with `/` is invalid; OpenClaw's parser keeps `m/` as the model ID",
		Match: func(c Case) bool {
			return !c.Occ.(RefOut).Valid && c.Claw.(RefAnswer).Strict.Valid && strings.HasSuffix(c.Claw.(RefAnswer).Strict.ID, "/")
		},
	},
	{
		Fn: FnRefLenient, Class: "trailing-slash-invalid", Rule: "REF-3",
		Reason: "as for strict refs: a ref ending with `/` is invalid in both modes (REF-5a)",
		Match: func(c Case) bool {
			return !c.Occ.(RefOut).Valid && c.Claw.(RefAnswer).Lenient.Valid && strings.HasSuffix(c.Claw.(RefAnswer).Lenient.ID, "/")
		},
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
	{
		Fn: FnSelect, Class: "incompatible-override-ignored", Rule: "SEL-8",
		Reason: "an incompatible explicit session runtime override (not registered, or not supporting the route) is ignored with a reason recorded and configured policy applies; OpenClaw fails the turn",
		Match: func(c Case) bool {
			return c.Input.(SelectInput).Override != "" && c.Occ.(SelectOut).OverrideIgnored && c.Claw.(SelectAnswer).R.Err
		},
	},
	{
		Fn: FnSelect, Class: "key-order", Rule: "SEL-1",
		Reason: "as for the policy lookup: OpenClaw's choice among keys naming one model follows author key order; occkit's does not",
		Match: func(c Case) bool {
			a, o := c.Claw.(SelectAnswer), c.Occ.(SelectOut)
			same := func(x SelectOut) bool { return x.Runtime == o.Runtime && x.Err == o.Err }
			return a.OrderDependent() && (same(a.R) || same(a.Asc) || same(a.Desc))
		},
	},
	{
		Fn: FnSelect, Class: "priority-tie-byte-order", Rule: "SEL-3",
		Reason: "harnesses claiming a route with equal priority are ordered by ID in byte order; OpenClaw uses localeCompare, whose order (`my_h` before `my-h`) depends on the ICU data of the node build, so the same digest could decide differently on two hosts",
		Match: func(c Case) bool {
			a, o := c.Claw.(SelectAnswer), c.Occ.(SelectOut)
			if a.R.Err || o.Err {
				return false
			}
			pri := map[string]int{}
			for _, h := range c.Input.(SelectInput).Harnesses {
				pri[h.ID] = h.Priority
			}
			po, okO := pri[o.Runtime]
			pc, okC := pri[a.R.Runtime]
			return okO && okC && po == pc && collateDiffers(o.Runtime, a.R.Runtime)
		},
	},
}

var tableDoctor = []Divergence{
	{
		Fn: FnDoctor, Class: "catalog-retirement", Rule: "CMP-3",
		Reason: "doctor also renames retired or noncanonical catalog models on every provider (its `models.canonical-model-refs` migration: `openai/gpt-5` → `openai/gpt-5.5`); that is catalog upkeep, not the runtime repair CMP-3 defines, and occkit keeps an authored ID as written (REF-2). The retired IDs of refs migrated off the legacy runtime providers are renamed as doctor does",
		Match:  func(c Case) bool { return DoctorExplainedBy(c.Claw.(DoctorAnswer), "catalog") },
	},
	{
		Fn: FnDoctor, Class: "implicit-primary", Rule: "CMP-3",
		Reason: "doctor writes an implied primary model into agents.defaults.model when none is set (its `runtime.utility-model-separation` migration, from the first provider catalog row); a Configuration without a primary is refused or resolved by RES-3/RES-4 instead of being given one",
		Match:  func(c Case) bool { return DoctorExplainedBy(c.Claw.(DoctorAnswer), "implicitPrimary") },
	},
	{
		Fn: FnDoctor, Class: "key-order", Rule: "CMP-3",
		Reason: "when several legacy keys of one models map migrate to the same canonical key, doctor keeps the first in author key order; occkit merges them in a fixed order (the canonical entry wins), so the same digest repairs the same way",
		Match:  func(c Case) bool { return DoctorExplainedBy(c.Claw.(DoctorAnswer), "key-order") },
	},
}

// collateDiffers reports whether byte order and a locale collation that
// sorts punctuation before letters and digits (`_` before `-`) order a and
// b differently.
func collateDiffers(a, b string) bool {
	key := func(s string) string {
		return strings.NewReplacer("_", "\x01", "-", "\x02", ".", "\x03").Replace(s)
	}
	return (a < b) != (key(a) < key(b))
}
