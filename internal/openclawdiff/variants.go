package openclawdiff

import (
	"slices"
	"sort"
	"strings"
)

// A divergence row states a reason, and its predicate checks that the
// reason alone explains the disagreement: where the reason is a
// difference of input reading (key order, an ignored override, filtered
// runtime controls), OpenClaw is asked again on the input as occkit reads
// it (a variant) and must give occkit's answer. Variants are built here,
// from the SPEC's rules, never from occkit's code.

// Variant names.
const (
	// VarRanked: every object listing its keys in the order occkit's
	// ranking reads them (SEL-1): in models maps a key naming the
	// request's provider first, then provider-qualified keys, then byte
	// order; agent entries and providers with the key equal to its
	// normalized ID first, then by trimmed key and key.
	VarRanked = "ranked"
	// VarNoOverride: the session override removed (SEL-8: an
	// incompatible override is ignored and configured policy applies).
	VarNoOverride = "no-override"
	// VarControlsDropped: the runtime controls OpenClaw itself recognises
	// (its isAgentRuntimeModelParam) removed from every params object of
	// a provider, a catalog row and an agent scope (SEL-6a).
	VarControlsDropped = "controls-dropped"
	// VarLocalServiceObject: every `localService` value that is present,
	// not null, not false and not an object replaced by {} (SEL-6 lists
	// `localService` as an override whatever its value).
	VarLocalServiceObject = "local-service-object"
	// VarCanonicalFirst: every models map listing its canonical keys
	// before the legacy ones (CMP-3: the canonical entry wins a merge).
	VarCanonicalFirst = "canonical-first"
	// VarSyntaxOnly: doctor with its catalog migration (canonical model
	// refs) reduced to its syntax: the same walk and merge of map keys,
	// respelling refs without outer white space and the spaces around the
	// profile `@` only; no retired-ID renames, no Google model aliases
	// (REF-2: occkit keeps an authored ID).
	VarSyntaxOnly = "syntax-only"
	// VarCanonicalFirstSyntax: both.
	VarCanonicalFirstSyntax = "canonical-first-syntax-only"
)

func fold(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

// keyProvider is the normalized provider part of a models map key, "" for
// a key without a slash.
func keyProvider(k string) (string, bool) {
	p, _, ok := strings.Cut(strings.TrimSpace(k), "/")
	if !ok {
		return "", false
	}
	return fold(p), true
}

// isModelsMap reports whether the object at path is an agent scope's
// models map (agents.defaults.models, agents.entries.<id>.models,
// agents.list[].models).
func isModelsMap(path Path) bool {
	switch {
	case len(path) == 3 && path[0] == "agents" && path[1] == "defaults" && path[2] == "models":
		return true
	case len(path) == 4 && path[0] == "agents" && path[1] == "entries" && path[3] == "models":
		return true
	case len(path) == 3 && path[0] == "agents" && path[1] == "list" && path[2] == "models":
		return true
	}
	return false
}

func isSpellingMap(path Path) bool {
	return len(path) == 2 && (path[0] == "agents" && path[1] == "entries" || path[0] == "models" && path[1] == "providers")
}

// Ranked is config with the key order occkit's ranking reads for a
// request naming provider (see [VarRanked]).
func Ranked(config Obj, provider string) Obj {
	p := fold(provider)
	rank := func(k string) (int, string) {
		kp, qualified := keyProvider(k)
		switch {
		case p != "" && qualified && kp == p:
			return 0, k
		case qualified:
			return 1, k
		}
		return 2, k
	}
	spell := func(k string) (int, string, string) {
		if k == fold(k) {
			return 0, "", k
		}
		return 1, strings.TrimSpace(k), k
	}
	return Reorder(config, func(path Path, a, b string) bool {
		switch {
		case isModelsMap(path):
			ra, ka := rank(a)
			rb, kb := rank(b)
			return ra < rb || ra == rb && ka < kb
		case isSpellingMap(path):
			ra, ta, ka := spell(a)
			rb, tb, kb := spell(b)
			if ra != rb {
				return ra < rb
			}
			if ta != tb {
				return ta < tb
			}
			return ka < kb
		}
		return false
	}).(Obj)
}

var legacyRuntimeProviders = map[string]bool{"codex": true, "codex-cli": true, "claude-cli": true, "anthropic-cli": true, "google-gemini-cli": true}

// CanonicalFirst is config with every models map listing the keys that
// are not legacy runtime refs (CMP-3) first, then the legacy keys whose
// entry carries a concrete pin, then the other legacy keys, each in their
// authored order: the order in which doctor's merge gives occkit's
// answer (the canonical entry wins; a concrete pin is never overwritten).
func CanonicalFirst(config Obj) Obj {
	out := Clone(config).(Obj)
	Walk(out, func(_ Path, o Obj) {
		for _, m := range o {
			if mm, ok := m.V.(Obj); ok && m.K == "models" {
				sort.SliceStable(mm, func(i, j int) bool { return mergeRank(mm[i]) < mergeRank(mm[j]) })
			}
		}
	})
	return out
}

// mergeRank orders a models map member for [CanonicalFirst].
func mergeRank(m Member) int {
	if p, ok := keyProvider(m.K); !ok || !legacyRuntimeProviders[p] {
		return 0
	}
	e, _ := m.V.(Obj)
	v, _ := e.Obj("agentRuntime").Get("id")
	if id, ok := v.(string); ok && fold(id) != "" && fold(id) != "auto" {
		return 1
	}
	return 2
}

// LocalServiceObject is config with every provider's `localService` that
// is present, not null, not false and not an object replaced by {}, and
// whether anything was replaced (see [VarLocalServiceObject]).
func LocalServiceObject(config Obj) (Obj, bool) {
	out := Clone(config).(Obj)
	changed := false
	Walk(out, func(path Path, o Obj) {
		if len(path) != 3 || path[0] != "models" || path[1] != "providers" {
			return
		}
		for i, m := range o {
			if m.K != "localService" {
				continue
			}
			switch m.V.(type) {
			case Obj, nil:
				continue
			case bool:
				if m.V == false {
					continue
				}
			}
			o[i].V = Obj{}
			changed = true
		}
	})
	return out, changed
}

// claims reports whether the data-driven harness h claims the route as
// auto selection asks it (SEL-3): it is asked for the provider (no list,
// or a list naming it) and supports the route.
func claims(h HarnessSpec, provider, model string) bool {
	p := fold(provider)
	if h.AutoProviders != nil && !slices.ContainsFunc(h.AutoProviders, func(x string) bool { return fold(x) == p }) {
		return false
	}
	return supports(h, p, model) == "supported"
}

// supports applies the data-driven rules of a harness (oracle.mjs
// makeHarness): "supported", "fallback" or "unsupported".
func supports(h HarnessSpec, provider, model string) string {
	names := slices.Contains(h.SupportsProviders, "*") || slices.Contains(h.SupportsProviders, provider)
	refused := false
	for _, pre := range h.RefusePrefixes {
		refused = refused || strings.HasPrefix(model, pre)
	}
	switch {
	case names && !refused:
		return "supported"
	case h.Fallback:
		return "fallback"
	}
	return "unsupported"
}

// cliProviders are the CLI backends and the one provider each serves
// (SEL-7).
var cliProviders = map[string]string{"claude-cli": "anthropic", "google-gemini-cli": "google"}

// refRuntime is a runtime ID as REF-6 reads it: trimmed, lower-cased, the
// aliases resolved, "" for automatic.
func refRuntime(s string) string {
	switch r := fold(s); r {
	case "", "auto", "default":
		return ""
	case "pi":
		return "openclaw"
	case "codex-app-server":
		return "codex"
	default:
		return r
	}
}

// overrideIncompatible reports whether the session override of in can
// not be honoured (SEL-8): it names a runtime (not automatic) that is not
// openclaw, not the CLI backend of the request's provider, and not a
// registered harness that supports the route or declares the OpenClaw
// fallback for it.
func overrideIncompatible(in SelectInput) bool {
	rt := refRuntime(in.Override)
	if rt == "" || rt == "openclaw" {
		return false
	}
	p := fold(in.Provider)
	if want, cli := cliProviders[rt]; cli {
		return want != p
	}
	for _, h := range in.Harnesses {
		if h.ID == rt {
			return supports(h, p, modelOf(in)) == "unsupported"
		}
	}
	return true
}

// modelOf is the request's model ID without the provider's own prefix.
func modelOf(in SelectInput) string {
	m := strings.TrimSpace(in.ModelID)
	if pre, rest, ok := strings.Cut(m, "/"); ok && fold(pre) == fold(in.Provider) && strings.TrimSpace(rest) != "" {
		return strings.TrimSpace(rest)
	}
	return m
}

// sessionDecides reports whether the session decides the runtime
// (SEL-8): a locked owner that names a runtime, else a compatible
// override.
func sessionDecides(in SelectInput) bool {
	if strings.TrimSpace(in.LockedOwner) != "" {
		return refRuntime(in.LockedOwner) != ""
	}
	return refRuntime(in.Override) != "" && !overrideIncompatible(in)
}

// PolicyVariants lists the variants the policy rows need for in.
func PolicyVariants(in PolicyInput) []any {
	return []any{map[string]any{"name": VarRanked, "config": Ranked(in.Config, in.Provider)}}
}

// selectTransforms are the input readings the selection rows name, in
// the order a combined variant's name lists them.
var selectTransforms = []string{VarRanked, VarControlsDropped, VarNoOverride, VarLocalServiceObject}

// SelectVariants lists the variants the selection rows need for in: every
// non-empty combination of the readings that apply to it (the ranked key
// order and the dropped controls always; the override removed when there
// is one; `localService` as an object when one is not), named by its
// readings joined with "+" in [selectTransforms] order. A disagreement
// may have two reasons at once (an ignored override and a priority tie or
// a key order): each row then checks its own reading together with the
// others.
func SelectVariants(in SelectInput) []any {
	var apply []string
	for _, t := range selectTransforms {
		switch t {
		case VarNoOverride:
			if in.Override == "" {
				continue
			}
		case VarLocalServiceObject:
			if _, ok := LocalServiceObject(in.Config); !ok {
				continue
			}
		}
		apply = append(apply, t)
	}
	var vs []any
	for mask := 1; mask < 1<<len(apply); mask++ {
		var names []string
		cfg, reread := in.Config, false
		item := map[string]any{}
		for i, t := range apply {
			if mask&(1<<i) == 0 {
				continue
			}
			names = append(names, t)
			switch t {
			case VarRanked:
				cfg, reread = Ranked(cfg, in.Provider), true
			case VarControlsDropped:
				item["dropControls"] = true
			case VarNoOverride:
				item["override"] = ""
			case VarLocalServiceObject:
				cfg, _ = LocalServiceObject(cfg)
				reread = true
			}
		}
		item["name"] = strings.Join(names, "+")
		if reread {
			item["config"] = cfg
		}
		vs = append(vs, item)
	}
	return vs
}

// Relations between occkit's answer and OpenClaw's (on the input or on a
// variant) that a row explains without a variant.
const (
	// RelTie: both picked a top-priority claimant of an auto route,
	// occkit the smallest ID in byte order, OpenClaw another one that a
	// locale collation puts first (SEL-3).
	RelTie = "priority-tie"
	// RelSessionSource: the session decided the same runtime; occkit
	// reports source `session`, OpenClaw `model` (SEL-8).
	RelSessionSource = "session-source"
)

// SelectExplained returns the smallest set of reasons under which
// occkit's answer is OpenClaw's for the case: readings of the input
// (variants, see [SelectVariants]) and relations ([RelTie],
// [RelSessionSource]), or nil. The override removed counts only where
// occkit ignored an incompatible override that OpenClaw failed on.
func SelectExplained(c Case) []string {
	in, _ := c.Input.(SelectInput)
	o, a := c.Occ.(SelectOut), c.Claw.(SelectAnswer)
	ignored := strings.TrimSpace(in.LockedOwner) == "" && overrideIncompatible(in) && a.R.Err && o.OverrideIgnored
	var best []string
	try := func(readings []string, t SelectOut, reason string) {
		if slices.Contains(readings, VarNoOverride) && !ignored {
			return
		}
		why := slices.Clone(readings)
		switch {
		case t.Same(o):
		case tieDiffers(in, o, t, reason):
			why = append(why, RelTie)
		case sessionSourceDiffers(in, o, t):
			why = append(why, RelSessionSource)
		default:
			return
		}
		if len(why) > 0 && (best == nil || len(why) < len(best)) {
			best = why
		}
	}
	try(nil, a.R, a.Reason)
	for name, v := range a.Variants {
		try(strings.Split(name, "+"), v, a.VariantReasons[name])
	}
	return best
}

// SelectExplainedBy reports whether reason is among [SelectExplained].
func SelectExplainedBy(c Case, reason string) bool {
	return slices.Contains(SelectExplained(c), reason)
}

// tieDiffers: both picked a top-priority claimant of the auto route in,
// occkit the smallest in byte order and OpenClaw (reason auto_plugin)
// another that sorts first under a locale collation.
func tieDiffers(in SelectInput, o, a SelectOut, reason string) bool {
	if o.Err || a.Err || reason != "auto_plugin" || o.Source != a.Source {
		return false
	}
	top, best := []string(nil), 0
	for _, h := range in.Harnesses {
		if !claims(h, in.Provider, modelOf(in)) {
			continue
		}
		switch {
		case top == nil || h.Priority > best:
			top, best = []string{h.ID}, h.Priority
		case h.Priority == best:
			top = append(top, h.ID)
		}
	}
	return len(top) > 1 && o.Runtime == slices.Min(top) && a.Runtime != o.Runtime &&
		slices.Contains(top, a.Runtime) && collateDiffers(o.Runtime, a.Runtime)
}

// sessionSourceDiffers: the session decides in, both chose the same
// runtime, occkit reports source `session` and OpenClaw `model`.
func sessionSourceDiffers(in SelectInput, o, a SelectOut) bool {
	return sessionDecides(in) && !o.Err && !a.Err && o.Runtime == a.Runtime &&
		o.Source == "session" && a.Source == "model"
}
