package resolver

import (
	"github.com/tidwall/gjson"

	"github.com/occkit/occkit"
)

// This file evaluates the indexed Configuration: the candidates (RES-3,
// RES-4), their policies (RES-5, RES-6, RES-7), catalogs (RES-8) and
// provider rows (RES-9).

// resSource is one explicit runtime policy of a candidate (RES-5).
type resSource struct {
	id   string
	path occkit.Path // the agentRuntime.id setting
	what string
}

// resOutcome is the evaluation of one candidate in one scope.
type resOutcome struct {
	harness Harness // "" when unknown (a problem was reported)
	reasons []Reason
}

// resSources gathers the candidate's policies in precedence order: the
// entry's models[ref], agents.defaults.models[ref], the matching provider
// rows, the provider (RES-5). bad reports that a policy holder was already
// refused (RES-1, RES-4), so nothing more should be concluded.
func (x *resIndex) resSources(ref Ref, e *resEntry) (out []resSource, bad bool) {
	fromCat := func(c *resCatalog, what string) {
		if c == nil || !c.present || c.bad {
			return
		}
		for _, i := range c.byKey[ref.Key()] {
			k := c.keys[i]
			switch k.rtSt {
			case resRtBad:
				bad = true
			case resRtOK:
				out = append(out, resSource{id: k.rt, path: c.keyPath(int(i)).Key("agentRuntime").Key("id"), what: what})
			}
		}
	}
	if e != nil {
		fromCat(&e.models, "Agent entry model policy")
	}
	fromCat(&x.catalog, "default model policy")
	for _, p := range x.providers[ref.Provider] {
		for _, i := range p.rowsFor(ref) {
			r := p.rows[i]
			switch r.rtSt {
			case resRtBad:
				bad = true
			case resRtOK:
				out = append(out, resSource{id: r.rt, path: p.rowPath(int(i)).Key("agentRuntime").Key("id"), what: "provider model row policy"})
			}
		}
		switch p.rtSt {
		case resRtBad:
			bad = true
		case resRtOK:
			out = append(out, resSource{id: p.rt, path: p.path.Key("agentRuntime").Key("id"), what: "provider policy"})
		}
	}
	return out, bad
}

// resNeedsPolicy reports whether provider needs an explicit runtime policy
// (RES-6): openai, codex, any provider configured under models.providers
// and any provider with plugin routing.
func (x *resIndex) resNeedsPolicy(provider string) bool {
	if provider == "openai" || provider == string(HarnessCodex) {
		return true
	}
	if len(x.providers[provider]) > 0 {
		return true
	}
	return x.routed[provider]
}

// resEvaluate decides the Harness of one candidate in the scope of entry e
// (nil: agents.defaults), appending any problem to errs.
func (x *resIndex) resEvaluate(c resRefAt, e *resEntry, errs *[]error) resOutcome {
	srcs, bad := x.resSources(c.ref, e)
	if bad {
		return resOutcome{}
	}
	if len(srcs) == 0 {
		if x.resNeedsPolicy(c.ref.Provider) {
			*errs = append(*errs, occkit.Invalid("RES-6", c.loc,
				"provider %q requires an explicit supported runtime policy (agentRuntime.id \"openclaw\" or \"codex\") for %s",
				c.ref.Provider, c.loc))
			return resOutcome{}
		}
		return resOutcome{harness: HarnessOpenClaw, reasons: []Reason{{
			Rule: "RES-6", Path: c.loc, Value: c.ref.Provider,
			Note: "built-in provider without runtime policy, custom provider entry or plugin routing selects openclaw",
		}}}
	}
	first := srcs[0]
	for _, s := range srcs[1:] {
		if s.id != first.id {
			*errs = append(*errs, occkit.Invalid("RES-5", s.path,
				"conflicting Harness runtime policies for the model at %s: %s and %s differ",
				c.loc, first.path, s.path))
			return resOutcome{}
		}
	}
	out := resOutcome{harness: Harness(first.id)}
	for _, s := range srcs {
		out.reasons = append(out.reasons, Reason{Rule: "RES-5", Path: s.path, Value: s.id, Note: s.what})
	}
	if out.harness == HarnessCodex {
		r, err := x.resCodexAllowed(c, first.path)
		if err != nil {
			*errs = append(*errs, err)
			return resOutcome{}
		}
		out.reasons = append(out.reasons, r)
	}
	return out
}

// resCodexAllowed applies RES-7: the codex runtime needs provider codex, or
// provider openai with the Codex plugin enabled on the websocket
// app-server transport.
func (x *resIndex) resCodexAllowed(c resRefAt, policy occkit.Path) (Reason, error) {
	const need = `the codex runtime on provider openai requires plugins.entries.codex.enabled true and plugins.entries.codex.config.appServer.transport "websocket"`
	switch c.ref.Provider {
	case string(HarnessCodex):
		return Reason{Rule: "RES-7", Path: c.loc, Value: c.ref.Provider, Note: "native codex provider"}, nil
	case "openai":
		plug := x.codex
		if !plug.Exists() || !plug.IsObject() {
			return Reason{}, occkit.Invalid("RES-7", resPathCodexPlug, "%s", need)
		}
		if plug.Get("enabled").Type != gjson.True {
			return Reason{}, occkit.Invalid("RES-7", resPathCodexPlug.Key("enabled"), "%s", need)
		}
		tp := resPathCodexPlug.Key("config").Key("appServer").Key("transport")
		t := plug.Get("config.appServer.transport")
		if t.Type != gjson.String || t.Str != "websocket" {
			return Reason{}, occkit.Invalid("RES-7", tp, "%s", need)
		}
		return Reason{Rule: "RES-7", Path: tp, Value: t.Str, Note: "openai on codex through the enabled Codex plugin's websocket app-server"}, nil
	}
	return Reason{}, occkit.Invalid("RES-7", policy,
		`the codex runtime requires the codex provider, or openai with the Codex plugin (plugins.entries.codex) enabled on the "websocket" app-server transport; %s is on provider %q`,
		c.loc, c.ref.Provider)
}

// resCheckCatalog applies RES-8 (and RES-4 for a catalog without any
// primary) to one selectable catalog whose selected primary is primary.
func resCheckCatalog(c *resCatalog, primary Ref, hasPrimary bool, errs *[]error) {
	if !c.present || c.bad || len(c.keys) == 0 {
		return
	}
	if !hasPrimary {
		*errs = append(*errs, occkit.Invalid("RES-4", c.path,
			"%s lists models but no primary model is configured (agents.defaults.model or an entry's model)", c.path))
		return
	}
	pk := primary.Key()
	prim := -1
	var others []int
	for i := range c.keys {
		k := &c.keys[i]
		switch {
		case !k.valid:
			*errs = append(*errs, occkit.Invalid("RES-8", c.keyPath(i),
				"%s must be a provider/model ref on the selected provider", c.keyPath(i)))
		case k.ref.Provider != primary.Provider:
			*errs = append(*errs, occkit.Invalid("RES-8", c.keyPath(i),
				"%s must keep the selected provider %q", c.keyPath(i), primary.Provider))
		case k.ref.Key() == pk:
			if prim < 0 {
				prim = i
			}
		default:
			others = append(others, i)
		}
	}
	if len(others) == 0 {
		return
	}
	primRt := ""
	switch {
	case prim < 0:
		*errs = append(*errs, occkit.Invalid("RES-8", c.path,
			"%s lists models besides the primary, so it must also list the primary with an explicit agentRuntime", c.path))
	case c.keys[prim].rtSt == resRtNone:
		at := c.keyPath(prim).Key("agentRuntime")
		*errs = append(*errs, occkit.Invalid("RES-8", at,
			"%s is required: %s lists other models, which need a runtime matching the primary's on both keys", at, c.path))
	case c.keys[prim].rtSt == resRtOK:
		primRt = c.keys[prim].rt
	}
	for _, i := range others {
		k := &c.keys[i]
		switch k.rtSt {
		case resRtNone:
			at := c.keyPath(i).Key("agentRuntime")
			*errs = append(*errs, occkit.Invalid("RES-8", at,
				"%s is required: a catalog model other than the primary needs an explicit runtime matching the primary's Harness", at))
		case resRtOK:
			if primRt != "" && k.rt != primRt {
				at := c.keyPath(i).Key("agentRuntime").Key("id")
				*errs = append(*errs, occkit.Invalid("RES-8", at,
					"%s must match the primary's runtime in %s", at, c.path))
			}
		}
	}
}

// resPrepare runs the whole Configuration side of resolution.
func resPrepare(doc occkit.Document) *Prepared {
	x := resBuildIndex(doc)
	errs := x.errs
	p := &Prepared{harness: HarnessOpenClaw}
	if !x.shapeOK {
		p.err = occkit.Join(errs...)
		return p
	}

	// RES-3: the reference primary is the defaults' primary, else the
	// first entry's own primary (entries in ID order).
	var ref *resSelection
	var refEntry *resEntry
	complete := !x.defaults.present || x.defaults.complete
	if x.defaults.present {
		ref = &x.defaults
	}
	for _, e := range x.entries {
		if e.sel.present {
			complete = complete && e.sel.complete
			if ref == nil {
				ref, refEntry = &e.sel, e
			}
		} else if !x.defaults.present {
			at := e.path.Key("model")
			errs = append(errs, occkit.Invalid("RES-3", at,
				"%s is required: agents.defaults.model is not set", at))
			complete = false
		}
	}
	haveRef := ref != nil && ref.ok
	if ref != nil && !ref.ok {
		complete = false
	}

	// Evaluate every candidate in its scope.
	var reasons []Reason
	refHarness := Harness("")
	evalSel := func(s *resSelection, e *resEntry, record bool) Harness {
		if !s.ok {
			return ""
		}
		out := x.resEvaluate(s.primary, e, &errs)
		if record {
			reasons = append(reasons, Reason{Rule: "RES-3", Path: s.primary.loc, Value: s.primary.ref.String(), Note: "primary model"})
			reasons = append(reasons, out.reasons...)
		}
		for _, f := range s.fallbacks {
			fo := x.resEvaluate(f, e, &errs)
			if fo.harness == "" || out.harness == "" {
				continue
			}
			if fo.harness != out.harness {
				errs = append(errs, occkit.Invalid("RES-8", f.loc,
					"%s resolves to the %s Harness, but the primary resolves to %s: fallbacks must resolve to the same Harness",
					f.loc, fo.harness, out.harness))
				continue
			}
			if record {
				reasons = append(reasons, Reason{Rule: "RES-8", Path: f.loc, Value: f.ref.String(),
					Note: "fallback resolves to the primary's Harness"})
			}
		}
		return out.harness
	}
	if haveRef {
		refHarness = evalSel(ref, refEntry, true)
	}
	for _, e := range x.entries {
		var h Harness
		switch {
		case e.sel.present:
			if !e.sel.ok {
				continue
			}
			if haveRef && e.sel.primary.ref.String() != ref.primary.ref.String() {
				errs = append(errs, occkit.Invalid("RES-3", e.sel.primary.loc,
					"%s must equal the primary model %s: all Agent entries resolve to one primary model",
					e.sel.primary.loc, ref.primary.loc))
				continue
			}
			if e == refEntry {
				h = refHarness
				break
			}
			h = evalSel(&e.sel, e, false)
			if h != "" {
				reasons = append(reasons, Reason{Rule: "RES-3", Path: e.sel.primary.loc, Value: e.sel.primary.ref.String(),
					Note: "Agent entry selects the same primary model"})
			}
		case x.defaults.ok:
			// An inherited selection is re-evaluated only when the entry's
			// own catalog adds a policy; otherwise it is the defaults'.
			if !resEntryAddsPolicy(e, &x.defaults) {
				h = refHarness
			} else {
				h = evalSel(&x.defaults, e, false)
			}
			if h != "" {
				reasons = append(reasons, Reason{Rule: "RES-3", Path: e.path, Value: x.defaults.primary.ref.String(),
					Note: "Agent entry inherits agents.defaults.model"})
			}
		default:
			continue
		}
		if h != "" && refHarness != "" && h != refHarness {
			at := e.path
			if e.sel.present {
				at = e.sel.primary.loc
			}
			errs = append(errs, occkit.Invalid("RES-3", at,
				"%s resolves to the %s Harness but %s resolves to %s: all Agent entries resolve to one Harness",
				e.path, h, ref.primary.loc, refHarness))
		}
	}

	// RES-8 (RES-4): selectable catalogs.
	var primary Ref
	if haveRef {
		primary = ref.primary.ref
	}
	if haveRef || complete {
		resCheckCatalog(&x.catalog, primary, haveRef, &errs)
	}
	for _, e := range x.entries {
		switch {
		case e.sel.present && e.sel.ok:
			resCheckCatalog(&e.models, e.sel.primary.ref, true, &errs)
		case !e.sel.present && x.defaults.ok:
			resCheckCatalog(&e.models, x.defaults.primary.ref, true, &errs)
		}
	}

	// RES-9: provider rows list only selected models, once each.
	x.resCheckRows(complete, &errs)

	if len(errs) > 0 {
		p.err = occkit.Join(errs...)
		return p
	}
	if !haveRef {
		p.reasons = []Reason{{Rule: "RES-4", Path: occkit.Root(), Note: "no model candidate selects openclaw"}}
		p.fallbacks = []string{}
		return p
	}
	p.harness = refHarness
	p.primary = ref.primary.ref.String()
	p.fallbacks = make([]string, len(ref.fallbacks))
	for i, f := range ref.fallbacks {
		p.fallbacks[i] = f.ref.String()
	}
	if p.harness == HarnessCodex {
		reasons = append(reasons, Reason{Rule: "RES-12", Path: ref.primary.loc, Value: ref.primary.ref.Provider,
			Note: "dedicated Codex accepts this provider"})
	}
	p.reasons = reasons
	return p
}

// resEntryAddsPolicy reports whether e's own catalog holds a key for one of
// the inherited selection's refs.
func resEntryAddsPolicy(e *resEntry, s *resSelection) bool {
	if !e.models.present || e.models.bad || len(e.models.byKey) == 0 {
		return false
	}
	if len(e.models.byKey[s.primary.ref.Key()]) > 0 {
		return true
	}
	for _, f := range s.fallbacks {
		if len(e.models.byKey[f.ref.Key()]) > 0 {
			return true
		}
	}
	return false
}

// resCheckRows applies RES-9 to every provider's models array: each row
// names a selected model (primary or fallback, of any scope), and no two
// rows name the same model. When the candidate set is not known (an
// earlier problem), only the row shapes are checked.
func (x *resIndex) resCheckRows(complete bool, errs *[]error) {
	if len(x.provOrder) == 0 {
		return
	}
	cands := map[string]Ref{}
	add := func(s *resSelection) {
		if !s.ok {
			return
		}
		cands[s.primary.ref.Key()] = s.primary.ref
		for _, f := range s.fallbacks {
			cands[f.ref.Key()] = f.ref
		}
	}
	add(&x.defaults)
	for _, e := range x.entries {
		add(&e.sel)
	}
	for _, p := range x.provOrder {
		if !p.rowsAt {
			continue
		}
		first := map[string]int{}
		for i, r := range p.rows {
			if !r.idOK {
				continue
			}
			matched := x.resRowCandidates(p, r.id, cands)
			if len(matched) == 0 {
				if complete {
					*errs = append(*errs, occkit.Invalid("RES-9", p.rowPath(i),
						"%s names a model that is neither the resolved primary nor one of its fallbacks", p.rowPath(i)))
				}
				continue
			}
			for _, key := range matched {
				if j, dup := first[key]; dup {
					*errs = append(*errs, occkit.Invalid("RES-9", p.rowPath(i),
						"%s and %s name the same model: the provider model policy is ambiguous", p.rowPath(j), p.rowPath(i)))
					continue
				}
				first[key] = i
			}
		}
	}
}

// resRowCandidates returns the keys of the candidates on provider p that
// row id names (REF-4, confirmed by [MatchRow]).
func (x *resIndex) resRowCandidates(p *resProvider, id string, cands map[string]Ref) []string {
	var out []string
	if c, ok := cands[p.name+"/"+id]; ok && c.Provider == p.name && MatchRow(c, id) {
		out = append(out, c.Key())
	}
	if full, ok := resFullRowKey(id); ok && full != p.name+"/"+id {
		if c, ok := cands[full]; ok && c.Provider == p.name && MatchRow(c, id) {
			out = append(out, c.Key())
		}
	}
	return out
}
