package openclawdiff

import (
	"regexp"
	"slices"
	"strings"
)

// Table is the one table of deliberate divergences from OpenClaw
// 2026.9.6. Every disagreement the tier finds must be recognised by a row;
// DIVERGENCES.md is rendered from it.
//
// A row is a rule, not an excuse: its predicate holds only where its
// reason applies (computed from the input: the claimants, the override's
// compatibility, the variable named, the provider) and where the two
// answers differ only as the reason says (occkit's answer recomputed from
// OpenClaw's: OpenClaw asked again on the input as the reason reads it,
// or OpenClaw's answer with the one difference the reason names).
var Table = append(append(tableRefs, tableSelect...), append(tableDoctor, tableLoad...)...)

// Who wins where occkit and OpenClaw differ.
const (
	WinsSPEC        = "SPEC"        // the SPEC's explicit text
	WinsDeterminism = "determinism" // OpenClaw depends on key order or host collation
)

var tableRefs = []Divergence{
	{
		Fn: FnRefStrict, Class: "trailing-slash-invalid", Rule: "REF-3", Wins: WinsSPEC, Bound: 0.08,
		Reason: "a selected ref ending with `/` is invalid; OpenClaw's parser keeps `m/` as the model ID",
		Rests:  "SPEC REF-3: \"valid only if it is a non-empty string containing `/`, neither starting nor ending with `/`\"; OpenClaw parseModelCatalogRef only requires a character after the first slash",
		Match: func(c Case) bool {
			return trailingSlash(c.Occ.(RefOut), c.Claw.(RefAnswer).Strict)
		},
	},
	{
		Fn: FnRefStrict, Class: "tag-run", Rule: "REF-5", Wins: WinsSPEC, Bound: 0.12,
		Reason: "after a date or quantization tag the next `@` is tried under the same rule, so a run of tags (`m@q8_0@8bit`) stays in the ID; OpenClaw skips at most one date tag and then one quantization tag and reads the rest as the profile",
		Rests:  "SPEC REF-5: \"not when what follows `@` is an 8-digit date or a quantization tag (...); then the next `@` is tried\"; OpenClaw splitTrailingAuthProfile tests the date pattern once, then the quantization pattern once",
		Match: func(c Case) bool {
			return tagRun(c.Occ.(RefOut), c.Claw.(RefAnswer).Strict)
		},
	},
	{
		Fn: FnRefLenient, Class: "trailing-slash-invalid", Rule: "REF-3", Wins: WinsSPEC, Bound: 0.08,
		Reason: "as for strict refs: a ref ending with `/` is invalid in both modes (REF-5a)",
		Rests:  "SPEC REF-5a: \"empty input, `/`, `p/` and `/m` are invalid in both modes\" with REF-3; OpenClaw parseModelRef keeps `m/`",
		Match: func(c Case) bool {
			return trailingSlash(c.Occ.(RefOut), c.Claw.(RefAnswer).Lenient)
		},
	},
	{
		Fn: FnRefLenient, Class: "tag-run", Rule: "REF-5", Wins: WinsSPEC, Bound: 0.12,
		Reason: "as for strict refs: a run of date and quantization tags stays in the ID (compared after OpenClaw's own normalization of occkit's ID where its lenient parser normalizes, as in model-id-normalization)",
		Rests:  "SPEC REF-5 (see ref.strict tag-run)",
		Match: func(c Case) bool {
			o, a := c.Occ.(RefOut), c.Claw.(RefAnswer)
			n := a.OccNorm
			return tagRun(o, a.Lenient) || n.Valid && n.Provider == o.Provider && n.ID != o.ID && tagRun(n, a.Lenient)
		},
	},
	{
		Fn: FnRefLenient, Class: "model-id-normalization", Rule: "REF-2", Wins: WinsSPEC, Bound: 0.2,
		Reason: "the ID keeps its case and spelling; OpenClaw's lenient parser also rewrites built-in providers' model aliases (`anthropic/opus-4.6` → `claude-opus-4-6`) and strips a repeated provider prefix, which is catalog knowledge, not ref syntax. Provider and profile must agree, and OpenClaw's ID must be its own normalization of occkit's",
		Rests:  "SPEC REF-2: \"the ID is trimmed, case kept\" and REF-1: \"the model ID is the rest\"; OpenClaw parseModelRef ends in normalizeModelRef",
		Match: func(c Case) bool {
			o, a := c.Occ.(RefOut), c.Claw.(RefAnswer)
			return o.Valid && a.Lenient.Valid && o.Provider == a.Lenient.Provider && o.Profile == a.Lenient.Profile &&
				o.ID != a.Lenient.ID && a.OccNorm == a.Lenient
		},
	},
	{
		Fn: FnRefLenient, Class: "openrouter-auto-alias", Rule: "REF-5a", Wins: WinsSPEC, Bound: 0.03,
		Reason: "a bare ID gets the default provider, `openrouter:auto` too; OpenClaw's lenient parser reads that one spelling as `openrouter/openrouter/auto`, whatever the default provider",
		Rests:  "SPEC REF-5a: \"Lenient parsing (`strict: false`) gives a bare ID the default provider\"; OpenClaw parseModelRef's OPENROUTER_AUTO_COMPAT_ALIAS",
		Match: func(c Case) bool {
			in, _ := c.Input.(RefInput)
			o, a := c.Occ.(RefOut), c.Claw.(RefAnswer).Lenient
			if !a.Valid || a.Provider != "openrouter" || a.ID != "openrouter/auto" {
				return false
			}
			dp := fold(in.DefaultProvider)
			if dp == "" || strings.Contains(dp, "/") {
				return !o.Valid && strings.HasPrefix(fold(in.Raw), "openrouter:auto")
			}
			return o.Valid && o.Provider == dp && fold(o.ID) == "openrouter:auto" && o.Profile == a.Profile
		},
	},
}

var tableSelect = []Divergence{
	{
		Fn: FnPolicy, Class: "key-order", Rule: "SEL-1", Wins: WinsDeterminism, Bound: 0.08,
		Reason: "when several keys name one model (or one agent or provider), OpenClaw takes the first in author order; occkit ranks them (the caller's provider, then provider-qualified, then the smallest key; the spelling equal to the normalized ID, then the smallest) so the same digest gives the same decision. OpenClaw, given the keys in occkit's ranked order, must answer as occkit",
		Rests:  "OpenClaw resolvePolicyMatch takes `candidates[0]`, resolveAgentEntry the first normalized match; occkit's resolver/selection package doc",
		Match: func(c Case) bool {
			v, ok := c.Claw.(PolicyAnswer).Variants[VarRanked]
			return ok && v == c.Occ.(PolicyOut)
		},
	},
	{
		Fn: FnSelect, Class: "incompatible-override-ignored", Rule: "SEL-8", Wins: WinsSPEC, Bound: 0.1,
		Reason: "an explicit session runtime override that cannot run the route (not openclaw, not the provider's CLI backend, not a registered harness supporting the route or declaring the OpenClaw fallback) is ignored with a reason recorded, and configured policy applies; OpenClaw fails the turn. occkit must answer as OpenClaw does without the override",
		Rests:  "SPEC SEL-8: \"a compatible explicit session runtime override wins over configured policy (an incompatible one is ignored, with a reason recorded)\"",
		Match:  func(c Case) bool { return SelectExplainedBy(c, VarNoOverride) },
	},
	{
		Fn: FnSelect, Class: "session-source", Rule: "SEL-8", Wins: WinsSPEC, Bound: 0.2,
		Reason: "a runtime the session decides (a locked owner naming a runtime, or a compatible override) reports source `session`; OpenClaw reports its policy source `model`. The runtime must be the same",
		Rests:  "SPEC SEL-9 (\"which rule ... so a control plane can show why\") and the conformance format's source set `model|provider|implicit|session`; OpenClaw resolveAgentHarnessAvailabilityDecision sets runtimeSource \"model\" for a pin or an override",
		Match:  func(c Case) bool { return SelectExplainedBy(c, RelSessionSource) },
	},
	{
		Fn: FnSelect, Class: "key-order", Rule: "SEL-1", Wins: WinsDeterminism, Bound: 0.08,
		Reason: "as for the policy lookup: OpenClaw's choice among keys naming one model, agent or provider follows author key order; given occkit's ranked order it must answer as occkit",
		Rests:  "OpenClaw resolvePolicyMatch, resolveAgentEntry (see runtime.policy key-order)",
		Match:  func(c Case) bool { return SelectExplainedBy(c, VarRanked) },
	},
	{
		Fn: FnSelect, Class: "priority-tie-byte-order", Rule: "SEL-3", Wins: WinsDeterminism, Bound: 0.02,
		Reason: "harnesses claiming an auto route with equal top priority are ordered by ID in byte order; OpenClaw uses localeCompare, whose order (`my_h` before `my-h`) depends on the ICU data of the node build, so the same digest could decide differently on two hosts. Both picks must be top-priority claimants of the route",
		Rests:  "SPEC SEL-3: \"Highest priority wins, ties by ID ascending\"; OpenClaw compareHarnessSupport uses `localeCompare`",
		Match:  func(c Case) bool { return SelectExplainedBy(c, RelTie) },
	},
	{
		Fn: FnSelect, Class: "runtime-controls-filtered", Rule: "SEL-6a", Wins: WinsSPEC, Bound: 0.05,
		Reason: "valid runtime controls (`thinking`, `fastMode`, positive fast seconds) are filtered from params at every scope (provider, catalog row, agents.defaults and entry params) and never count as request overrides; OpenClaw filters them only in models map params. OpenClaw, given the input without the controls it recognises, must answer as occkit",
		Rests:  "SPEC SEL-6a: \"Runtime controls are filtered at every scope (model row, provider, `agents.defaults.params`, entry params): they never count as overrides\"; seed 003: \"Model-level runtime controls such as fastMode and thinking also preserve native selection\"; OpenClaw createModelProviderRouteOverrideResolver and hasAuthoredProviderRequestParams",
		Match:  func(c Case) bool { return SelectExplainedBy(c, VarControlsDropped) },
	},
	{
		Fn: FnSelect, Class: "local-service-any-value", Rule: "SEL-6", Wins: WinsSPEC, Bound: 0.02,
		Reason: "a provider's `localService` is a request override whatever its value (not null or false); OpenClaw counts it only when it is an object. OpenClaw, given `{}` in its place, must answer as occkit",
		Rests:  "SPEC SEL-6: \"Request overrides: provider `headers`/`request`/`params` non-empty, `authHeader` boolean, numeric `timeoutSeconds`, `localService`\"; OpenClaw createModelProviderRouteOverrideResolver tests `asOptionalRecord(localService)`",
		Match:  func(c Case) bool { return SelectExplainedBy(c, VarLocalServiceObject) },
	},
}

var tableDoctor = []Divergence{
	{
		Fn: FnDoctor, Class: "catalog-retirement", Rule: "CMP-3", Wins: WinsSPEC, Bound: 0.6,
		Reason: "doctor also renames retired or noncanonical catalog models on every provider (its `models.canonical-model-refs` migration: `openai/gpt-5` → `openai/gpt-5.5`); that is catalog upkeep, not the runtime repair CMP-3 defines, and occkit keeps an authored ID as written (REF-2). Doctor, run again with that migration reduced to its syntax (the same walk and merge of keys, respelling refs without outer white space and the spaces around the profile `@` only), must answer as occkit",
		Rests:  "SPEC CMP-3 lists the legacy runtime providers it rewrites, and REF-2 keeps the ID; OpenClaw's `models.canonical-model-refs` migration (rewriteKnownModelRefs: normalizeKnownModelRef's canonicalizeKnownModelRef and Google model-ID normalization)",
		Match:  func(c Case) bool { return DoctorExplainedBy(c.Claw.(DoctorAnswer), DoctorCatalog) },
	},
	{
		Fn: FnDoctor, Class: "implicit-primary", Rule: "CMP-3", Wins: WinsSPEC, Bound: 0.1,
		Reason: "doctor writes an implied primary model into agents.defaults.model when none is set (its `runtime.utility-model-separation` migration, from the first provider catalog row); a Configuration without a primary is refused or resolved by RES-3/RES-4 instead of being given one. occkit's answer with OpenClaw's primary written in must be OpenClaw's",
		Rests:  "SPEC CMP-3 (the repair's edits) and RES-4: \"No model candidate at all ... → `openclaw`\"; OpenClaw's `runtime.utility-model-separation` migration",
		Match:  func(c Case) bool { return DoctorExplainedBy(c.Claw.(DoctorAnswer), DoctorImplicitPrim) },
	},
	{
		Fn: FnDoctor, Class: "key-order", Rule: "CMP-3", Wins: WinsSPEC, Bound: 0.02,
		Reason: "when legacy keys merge in one models map, doctor follows author key order: the first of a legacy key and its canonical key wins, and each legacy key's policy is written as it merges, so an earlier legacy key's policy beats a later one's pin; in occkit the canonical entry wins and a concrete pin any merged entry carries is kept. Doctor, given the canonical keys first and legacy keys with a concrete pin before the others, must answer as occkit",
		Rests:  "SPEC CMP-3: \"legacy map keys merge into canonical keys with the canonical entry winning; an existing concrete pin is never overwritten\"; OpenClaw normalizeLegacyRuntimeAllowlistModels",
		Match:  func(c Case) bool { return DoctorExplainedBy(c.Claw.(DoctorAnswer), DoctorKeyOrder) },
	},
	{
		Fn: FnDoctor, Class: "profiled-policy-key", Rule: "CMP-3", Wins: WinsSPEC, Bound: 0.06,
		Reason: "a legacy ref with an auth profile (`codex-cli/gpt-5.4@work`) gets its model-scoped runtime under the model's key (`openai/gpt-5.4`), the key the SEL-1 lookup reads; doctor writes it under the ref with its profile (`openai/gpt-5.4@work`), a key no model lookup matches, so the migrated route loses its runtime; a scope's whole-agent CLI pin on a profiled selection likewise. OpenClaw's answer with each such key moved to the model's key (in place of no policy, a blank or `auto`; a CLI pin's policy, written before the legacy keys merge, also in place of what they merged, not of an authored concrete pin) must be occkit's",
		Rests:  "SPEC CMP-3: legacy refs move \"with model-scoped `agentRuntime.id`\"; SEL-1: \"exact model key\"; REF-5: the profile is an auth-profile suffix, not part of the model; OpenClaw's legacy runtime migration keys the policy by migrateLegacyRuntimeModelRef's ref, profile included",
		Match:  func(c Case) bool { return DoctorExplainedBy(c.Claw.(DoctorAnswer), DoctorProfiledPolicy) },
	},
}

var tableLoad = []Divergence{
	{
		Fn: FnLoad, Class: "missing-variable-is-an-error", Rule: "DOC-4", Wins: WinsSPEC, Bound: 0.45,
		Reason: "a `${VAR}` whose variable the lookup does not know is an error naming the variable; OpenClaw's loader warns and keeps the literal `${VAR}`. occkit's load recomputed with the variables OpenClaw reported missing kept as that literal must be OpenClaw's answer (a variable it did not report may occur only inside a `__proto__` member, see proto-key-kept)",
		Rests:  "SPEC DOC-4: \"a missing variable is an error naming the variable\"; OpenClaw resolveConfigEnvVars onMissing",
		Match: func(c Case) bool {
			o := c.Occ.(LoadOut)
			return o.Err && o.MissingVar != "" && slices.Contains(LoadExplained(c), LoadMissingVar)
		},
	},
	{
		Fn: FnLoad, Class: "duplicate-key-refused", Rule: "DOC-2", Wins: WinsSPEC, Bound: 0.05,
		Reason: "a duplicate object key is refused; OpenClaw's JSON and JSON5 parsers keep the last value. The input must hold a duplicate key",
		Rests:  "SPEC DOC-2: \"Duplicate object keys are refused\"",
		Match: func(c Case) bool {
			in, _ := c.Input.(LoadInput)
			o, a := c.Occ.(LoadOut), c.Claw.(LoadAnswer)
			return in.Duplicate && o.Err && o.Duplicate && !a.Err
		},
	},
	{
		Fn: FnLoad, Class: "proto-key-kept", Rule: "DOC-3", Wins: WinsSPEC, Bound: 0.05,
		Reason: "a `__proto__` member is data like any unknown key and is kept; OpenClaw's loader drops it. occkit's answer without its `__proto__` members must be OpenClaw's",
		Rests:  "SPEC DOC-3: \"Unknown keys are preserved byte-for-byte through every rewrite\"",
		Match:  func(c Case) bool { return slices.Contains(LoadExplained(c), LoadProto) },
	},
}

// trailingSlash: occkit refuses the ref and OpenClaw's ID ends with `/`.
func trailingSlash(o, a RefOut) bool {
	return !o.Valid && a.Valid && strings.HasSuffix(a.ID, "/")
}

var tagRE = regexp.MustCompile(`(?i)^(?:\d{8}|i?q\d+(?:_[a-z0-9]+)*|\d+bit)$`)

// isTag reports a REF-5 model-variant tag: an 8-digit date or a
// quantization tag.
func isTag(s string) bool { return tagRE.MatchString(strings.TrimSpace(s)) }

// tagRun: both parse the ref with the same provider, OpenClaw's ID is a
// prefix of occkit's ending in a tag it skipped, and what occkit keeps in
// the ID after it is a run of tags that OpenClaw read as (the start of)
// the profile.
func tagRun(o, a RefOut) bool {
	if !o.Valid || !a.Valid || o.Provider != a.Provider || a.Profile == "" {
		return false
	}
	rest, ok := strings.CutPrefix(o.ID, a.ID)
	if !ok {
		return false
	}
	rest, ok = strings.CutPrefix(strings.TrimLeft(rest, " "), "@")
	if !ok || !isTag(a.ID[strings.LastIndexByte(a.ID, '@')+1:]) {
		return false
	}
	for _, seg := range strings.Split(rest, "@") {
		if !isTag(seg) {
			return false
		}
	}
	want := strings.TrimSpace(rest)
	if o.Profile != "" {
		want += "@" + o.Profile
	}
	squash := func(s string) string { return strings.Join(strings.Fields(strings.ReplaceAll(s, "@", " @ ")), "") }
	return squash(want) == squash(a.Profile)
}

// withoutProto is the canonical JSON of doc without `__proto__` members.
func withoutProto(doc string) string {
	var v any
	if err := jsonUnmarshal(doc, &v); err != nil {
		return ""
	}
	var drop func(any) any
	drop = func(v any) any {
		switch x := v.(type) {
		case map[string]any:
			delete(x, "__proto__")
			for k, e := range x {
				x[k] = drop(e)
			}
		case []any:
			for i, e := range x {
				x[i] = drop(e)
			}
		}
		return v
	}
	return canonValue(drop(v))
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
