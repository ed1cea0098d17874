package resolver

import (
	"strconv"

	"github.com/tidwall/gjson"

	"github.com/occkit/occkit"
)

// This file evaluates the indexed Configuration: the candidates (RES-3,
// RES-4), their policies (RES-5, RES-6, RES-7), catalogs (RES-8) and
// provider rows (RES-9).

// policySource is one explicit runtime policy of a candidate (RES-5). Its
// path is built only when a reason or a problem names it.
type policySource struct {
	id   string
	cat  *catalogIndex   // a catalog key, or nil
	prov *providerConfig // a provider row or the provider, when cat is nil
	at   int32           // key or row index; -1 for the provider itself
}

func (s policySource) path() occkit.Path {
	// One allocation for the whole path, not one per element.
	var b occkit.PathBuilder
	b.Grow(s.pathLen())
	s.build(&b)
	return b.Path()
}

// pathLen is how many elements s's path has.
func (s policySource) pathLen() int {
	switch {
	case s.cat != nil:
		return s.cat.path.Len() + 3
	case s.at >= 0:
		return pathProviders.Len() + 5
	}
	return pathProviders.Len() + 3
}

// build appends s's path to b (reset: the path is b.Path() after).
func (s policySource) build(b *occkit.PathBuilder) {
	switch {
	case s.cat != nil:
		appendPath(b, s.cat.path)
		b.Key(s.cat.keyRaw(int(s.at)))
	case s.at >= 0:
		appendPath(b, pathProviders)
		b.Key(s.prov.raw)
		b.Key("models")
		b.Index(int(s.at))
	default:
		appendPath(b, pathProviders)
		b.Key(s.prov.raw)
	}
	b.Key("agentRuntime")
	b.Key("id")
}

// appendPath appends the elements of p to b, in p's document.
func appendPath(b *occkit.PathBuilder, p occkit.Path) {
	b.Doc = p.Doc()
	for i := range p.Len() {
		if k, idx, isIdx := p.Elem(i); isIdx {
			b.Index(idx)
		} else {
			b.Key(k)
		}
	}
}

func (s policySource) what() string {
	switch {
	case s.cat != nil && s.cat.path.Len() > 3:
		return "Agent entry model policy"
	case s.cat != nil:
		return "default model policy"
	case s.at >= 0:
		return "provider model row policy"
	}
	return "provider policy"
}

// sources gathers the candidate's policies in precedence order: the
// entry's models[ref], agents.defaults.models[ref], the matching provider
// rows, the provider (RES-5). bad reports that a policy holder was already
// refused (RES-1, RES-4), so nothing more should be concluded. The rows
// it finds are marked used (RES-9): a candidate is a selected model, and
// checkRows would look them up again for it.
func (x *docIndex) sources(c *refAt, e *agentEntry, out []policySource) (_ []policySource, bad bool) {
	fromCat := func(cat *catalogIndex) {
		if !cat.present || cat.bad {
			return
		}
		cat.lookup(c.key, func(i int32) {
			switch k := cat.keys.at(int(i)); k.rtSt {
			case runtimeBad:
				bad = true
			case runtimeOK:
				out = append(out, policySource{id: k.rt.String(), cat: cat, at: i})
			}
		})
	}
	if e != nil && e.models != nil {
		fromCat(e.models)
	}
	fromCat(&x.catalog)
	var buf [4]int32
	ref := c.ref()
	for p := range x.providersNamed(ref.Provider) {
		for _, i := range p.rowsFor(ref, buf[:0]) {
			r := p.rows.at(int(i))
			r.used = r.used || rowsMarkedOnce
			switch r.rtSt {
			case runtimeBad:
				bad = true
			case runtimeOK:
				out = append(out, policySource{id: r.rt.String(), prov: p, at: i})
			}
		}
		switch p.rtSt {
		case runtimeBad:
			bad = true
		case runtimeOK:
			out = append(out, policySource{id: p.rt.String(), prov: p, at: -1})
		}
	}
	return out, bad
}

// needsPolicy reports whether provider needs an explicit runtime policy
// (RES-6): openai, codex, any provider configured under models.providers
// and any provider with plugin routing.
func (x *docIndex) needsPolicy(provider string) bool {
	if provider == "openai" || provider == string(occkit.HarnessCodex) {
		return true
	}
	for range x.providersNamed(provider) {
		return true
	}
	_, routed := x.routed[provider]
	return routed
}

// evaluate decides the Harness of one candidate in the scope of entry e
// (nil: agents.defaults), "" when a problem was appended to errs. When
// reasons is not nil, the deciding reasons of a Harness decided are
// appended to it.
func (x *docIndex) evaluate(c *refAt, e *agentEntry, reasons *[]Reason, errs *[]error) occkit.Harness {
	var buf [6]policySource
	srcs, bad := x.sources(c, e, buf[:0])
	if bad {
		return ""
	}
	if len(srcs) == 0 {
		if x.needsPolicy(c.provider()) {
			*errs = append(*errs, invalid("RES-6", c.loc(),
				"provider %q requires an explicit supported runtime policy (agentRuntime.id \"openclaw\" or \"codex\") for %s",
				c.provider(), c.loc()))
			return ""
		}
		if reasons != nil {
			*reasons = append(*reasons, Reason{Rule: "RES-6", Path: c.loc(), Value: c.provider(),
				Note: "no runtime policy, models.providers entry or plugin routing names this provider, so the default openclaw Harness runs it"})
		}
		return occkit.HarnessOpenClaw
	}
	first := srcs[0]
	for _, s := range srcs[1:] {
		if s.id != first.id {
			*errs = append(*errs, invalid("RES-5", s.path(),
				"conflicting Harness runtime policies for the model at %s: %s and %s differ",
				c.loc(), first.path(), s.path()))
			return ""
		}
	}
	h := occkit.Harness(first.id)
	if h == occkit.HarnessCodex {
		if err := x.codexAllowed(c, first); err != nil {
			*errs = append(*errs, err)
			return ""
		}
	}
	if reasons != nil {
		// The reasons' paths in one allocation.
		var b occkit.PathBuilder
		n := 0
		for _, s := range srcs {
			n += s.pathLen()
		}
		b.Grow(n)
		for _, s := range srcs {
			b.Reset()
			s.build(&b)
			*reasons = append(*reasons, Reason{Rule: "RES-5", Path: b.Path(), Value: s.id, Note: s.what()})
		}
		if h == occkit.HarnessCodex {
			*reasons = append(*reasons, x.codexReason(c))
		}
	}
	return h
}

// quickEvalOn: when false, quickHarness decides nothing, so every
// fallback takes evaluate (the oracle of TestQuickHarnessMatchesEvaluate
// and TestFastPathsPrepareAlike).
var quickEvalOn = true

// quickHarness is evaluate of the candidate whose ref's key is key (its
// provider the first pl bytes) in the scope of e, without reasons, when
// that is decided without a problem and as most are: each catalog holds
// the key at most once, no two rows of a provider share an ID, no policy
// is refused, all the policies found name one runtime (or none names
// one, on a provider that needs none), and codex is allowed. Then ok is
// true and h is what evaluate returns, and it has marked the rows the
// ref names used, as evaluate does; otherwise ok is false and nothing is
// decided (some rows may be marked: evaluate marks them again). It reads
// the same indexes as evaluate, without gathering the policies' sources
// or making a ref: a setting's fallbacks may name every model.
func (x *docIndex) quickHarness(key string, pl int, e *agentEntry) (h occkit.Harness, ok bool) {
	if !quickEvalOn {
		return "", false
	}
	var q quickPolicies
	if e != nil && e.models != nil && !q.catalog(e.models, key) {
		return "", false
	}
	if !q.catalog(&x.catalog, key) {
		return "", false
	}
	provider, id := key[:pl], key[pl+1:]
	if x.providers != nil {
		for _, p := range x.providers[provider] {
			if !q.provider(p, id) {
				return "", false
			}
		}
	} else {
		for _, p := range x.provOrder {
			if p.name == provider && !q.provider(p, id) {
				return "", false
			}
		}
	}
	switch {
	case q.n == 0:
		if x.needsPolicy(provider) {
			return "", false // RES-6: refused by evaluate
		}
		return occkit.HarnessOpenClaw, true
	case q.rt == hidCodex:
		// RES-7: allowed on codex, and on openai with the Codex plugin.
		if provider != string(occkit.HarnessCodex) && (provider != "openai" || x.codexRefused) {
			return "", false
		}
		return occkit.HarnessCodex, true
	}
	return occkit.HarnessOpenClaw, true
}

// quickPolicies are the runtime policies quickHarness has found: how
// many, and the runtime all of them name.
type quickPolicies struct {
	n  int
	rt harnessID
}

// add counts a policy of state st naming rt, and reports whether the
// policies are still decided quickly: none refused, all naming one
// runtime.
func (q *quickPolicies) add(rt harnessID, st runtimeState) bool {
	switch st {
	case runtimeBad:
		return false
	case runtimeOK:
		if q.n > 0 && rt != q.rt {
			return false // RES-5: a conflict, refused by evaluate
		}
		q.n, q.rt = q.n+1, rt
	}
	return true
}

// catalog adds the policy of c's key key, if c holds it once (false when
// it holds it more than once: evaluate reads those).
func (q *quickPolicies) catalog(c *catalogIndex, key string) bool {
	if !c.present || c.bad {
		return true
	}
	u, found := c.get(key)
	if !found {
		return true
	}
	if _, dup := c.prevs[int32(u)]; dup {
		return false
	}
	k := c.keys.at(int(u))
	return q.add(k.rt, k.rtSt)
}

// provider adds the policies of p for the ref whose ID is id: of the
// row naming it, which it marks used, and p's own (false when two of
// p's rows share an ID: evaluate reads those).
func (q *quickPolicies) provider(p *providerConfig, id string) bool {
	if p.prevs != nil {
		return false
	}
	if u, found := p.get(id); found {
		// The row is indexed under id as its own id, or as the ID after
		// a "<provider>/" prefix of its id on p, so MatchRow would
		// confirm it (rowsFor asks MatchRow of every row of a chain).
		r := p.rows.at(int(u >> 1))
		r.used = r.used || rowsMarkedOnce
		if !q.add(r.rt, r.rtSt) {
			return false
		}
	}
	return q.add(p.rt, p.rtSt)
}

// codexAllowed applies RES-7: the codex runtime needs provider codex, or
// provider openai with the Codex plugin enabled on the websocket
// app-server transport.
func (x *docIndex) codexAllowed(c *refAt, policy policySource) error {
	switch c.provider() {
	case string(occkit.HarnessCodex):
		return nil
	case "openai":
		if x.codexRefused {
			return invalid("RES-7", x.codexBad,
				`the codex runtime on provider openai requires plugins.entries.codex.enabled true and plugins.entries.codex.config.appServer.transport "websocket"`)
		}
		return nil
	}
	return invalid("RES-7", policy.path(),
		`the codex runtime requires the codex provider, or openai with the Codex plugin (plugins.entries.codex) enabled on the "websocket" app-server transport; %s is on provider %q`,
		c.loc(), c.provider())
}

func (x *docIndex) codexReason(c *refAt) Reason {
	if c.provider() == string(occkit.HarnessCodex) {
		return Reason{Rule: "RES-7", Path: c.loc(), Value: c.provider(), Note: "native codex provider"}
	}
	return Reason{Rule: "RES-7", Path: pathCodexTransport, Value: "websocket",
		Note: "openai on codex through the enabled Codex plugin's websocket app-server"}
}

// checkCatalog applies RES-8 (and RES-4 for a catalog without any
// primary) to one selectable catalog whose selected primary is primary
// (nil: none is).
func checkCatalog(c *catalogIndex, primary *refAt, errs *[]error) {
	if c == nil || !c.present || c.bad || c.keys.len() == 0 {
		return
	}
	if primary == nil {
		*errs = append(*errs, invalid("RES-4", c.path,
			"%s lists models but no primary model is configured (agents.defaults.model or an entry's model)", c.path))
		return
	}
	pk, provider := primary.key, primary.provider()
	prim := -1
	others := 0
	// onProvider reports whether the key of a valid ref, key, is on the
	// primary's provider: its provider is what comes before its first
	// slash, and the provider holds none.
	onProvider := func(key string) bool {
		n := len(provider)
		return len(key) > n && key[n] == '/' && key[:n] == provider
	}
	// other reports whether key i is on the primary's provider but not the
	// primary; the keys are visited twice rather than collected.
	other := func(i int) bool {
		if !c.keys.at(i).valid {
			return false
		}
		key := c.key(i)
		return onProvider(key) && key != pk
	}
	// The first pass also notes whether the second would refuse any
	// other model (one without a runtime, or the runtimes they name),
	// so that a catalog whose models all agree is read once.
	otherNone := false
	var otherRts uint8 // 1<<rt for each runtime another model names
	i := 0
	for ch := range c.keys.chunks() {
		for _, k := range c.keys.chunk(ch) {
			if !k.valid {
				*errs = append(*errs, invalid("RES-8", c.keyPath(i),
					"%s must be a provider/model ref on the selected provider", c.keyPath(i)))
				i++
				continue
			}
			switch key := c.strs.get(k.key); {
			case !onProvider(key):
				*errs = append(*errs, invalid("RES-8", c.keyPath(i),
					"%s must keep the selected provider %q", c.keyPath(i), provider))
			case key == pk:
				if prim < 0 {
					prim = i
				}
			default:
				others++
				switch k.rtSt {
				case runtimeNone:
					otherNone = true
				case runtimeOK:
					otherRts |= 1 << k.rt
				}
			}
			i++
		}
	}
	if others == 0 {
		return
	}
	primRt, havePrimRt := harnessID(0), false
	switch {
	case prim < 0:
		*errs = append(*errs, invalid("RES-8", c.path,
			"%s lists models besides the primary, so it must also list the primary with an explicit agentRuntime", c.path))
	case c.keys.at(prim).rtSt == runtimeNone:
		at := c.keyPath(prim).Key("agentRuntime")
		*errs = append(*errs, invalid("RES-8", at,
			"%s is required: %s lists other models, which need a runtime matching the primary's on both keys", at, c.path))
	case c.keys.at(prim).rtSt == runtimeOK:
		primRt, havePrimRt = c.keys.at(prim).rt, true
	}
	if catalogOnceOn && !otherNone && (!havePrimRt || otherRts&^(1<<primRt) == 0) {
		return // the second pass would refuse nothing
	}
	for i := range c.keys.len() {
		if !other(i) {
			continue
		}
		k := c.keys.at(i)
		switch k.rtSt {
		case runtimeNone:
			at := c.keyPath(i).Key("agentRuntime")
			*errs = append(*errs, invalid("RES-8", at,
				"%s is required: a catalog model other than the primary needs an explicit runtime matching the primary's Harness", at))
		case runtimeOK:
			if havePrimRt && k.rt != primRt {
				at := c.keyPath(i).Key("agentRuntime").Key("id")
				*errs = append(*errs, invalid("RES-8", at,
					"%s must match the primary's runtime in %s", at, c.path))
			}
		}
	}
}

// catalogOnceOn: when false, checkCatalog reads a catalog's other models
// a second time whatever the first pass found (the oracle of
// TestFastPathsPrepareAlike).
var catalogOnceOn = true

// prepare runs the whole Configuration side of resolution.
func prepare(doc occkit.Document) *Prepared {
	x := buildIndex(doc)
	errs := x.errs
	p := &Prepared{harness: occkit.HarnessOpenClaw, roster: x.roster}
	// RES-10: agents.list is read beside the shapes, not through them, so
	// it is refused even when a shape is broken.
	p.listErr = agentsListErr(gjson.Parse(x.roster.members[2]))
	if !x.shapeOK {
		// RES-2: a broken shape is all the Configuration stage reports.
		p.err = occkit.Join(x.shapeErrs...)
		return p
	}

	// RES-3: the reference primary is the defaults' primary, else the
	// first entry's own primary (entries in ID order).
	var ref *modelSetting
	var refEntry *agentEntry
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
			errs = append(errs, invalid("RES-3", at,
				"%s is required: agents.defaults.model is not set", at))
			complete = false
		}
	}
	haveRef := ref != nil && ref.ok
	if ref != nil && !ref.ok {
		complete = false
	}

	// Evaluate every candidate in its scope. The reasons are the
	// reference primary's (its own, its policies', its fallbacks'), one
	// per entry, and RES-12's.
	reasons := make([]Reason, 0, 4+len(x.entries))
	refHarness := occkit.Harness("")
	evalSel := func(s *modelSetting, e *agentEntry, record bool) occkit.Harness {
		if !s.ok {
			return ""
		}
		var rs *[]Reason
		if record {
			reasons = append(reasons, Reason{Rule: "RES-3", Path: s.primary.loc(), Value: s.primary.str(), Note: "primary model"})
			rs = &reasons
		}
		h := x.evaluate(&s.primary, e, rs, &errs)
		agree := 0
		// The fallbacks are walked chunk by chunk: a setting's list may
		// name every model.
		i := -1
		for ch := range s.fallbackChunks() {
			for _, fr := range s.fb.refs.chunk(ch) {
				i++
				fh, ok := x.quickHarness(s.fb.strs.get(fr.key), int(fr.pl), e)
				if !ok {
					f := s.fallback(i)
					fh = x.evaluate(&f, e, nil, &errs)
				}
				if fh == "" || h == "" {
					continue
				}
				if fh != h {
					f := s.fallback(i)
					errs = append(errs, invalid("RES-8", f.loc(),
						"%s resolves to the %s Harness, but the primary resolves to %s: fallbacks must resolve to the same Harness",
						f.loc(), fh, h))
					continue
				}
				agree++
			}
		}
		if record && agree > 0 && agree == s.fallbacks() {
			reasons = append(reasons, Reason{Rule: "RES-8", Path: s.fb.at,
				Note: fallbacksAgree(agree)})
		}
		s.evaluated = rowsMarkedOnce
		return h
	}
	if haveRef {
		refHarness = evalSel(ref, refEntry, true)
	}
	var firstOff *agentEntry   // the first entry whose primary differs from ref's
	var harnessOff *agentEntry // the first entry whose Harness differs from ref's
	var harnessOffH occkit.Harness
	for _, e := range x.entries {
		var h occkit.Harness
		switch {
		case e.sel.present:
			if !e.sel.ok {
				continue
			}
			if haveRef && e.sel.primary.str() != ref.primary.str() {
				errs = append(errs, invalid("RES-3", e.sel.primary.loc(),
					"%s must equal the primary model %s: all Agent entries resolve to one primary model",
					e.sel.primary.loc(), ref.primary.loc()))
				if firstOff == nil {
					firstOff = e
				}
				continue
			}
			if e == refEntry {
				h = refHarness
				break
			}
			h = evalSel(&e.sel, e, false)
			if h != "" {
				reasons = append(reasons, Reason{Rule: "RES-3", Path: e.sel.primary.loc(), Value: e.sel.primary.str(),
					Note: "Agent entry selects the same primary model"})
			}
		case x.defaults.ok:
			// An inherited selection is re-evaluated only when the entry's
			// own catalog adds a policy; otherwise it is the defaults'.
			if !entryAddsPolicy(e, &x.defaults) {
				h = refHarness
			} else {
				h = evalSel(&x.defaults, e, false)
			}
			if h != "" {
				reasons = append(reasons, Reason{Rule: "RES-3", Path: e.path, Value: x.defaults.primary.str(),
					Note: "Agent entry inherits agents.defaults.model"})
			}
		default:
			continue
		}
		if h != "" && refHarness != "" && h != refHarness {
			at := e.path
			if e.sel.present {
				at = e.sel.primary.loc()
			}
			errs = append(errs, invalid("RES-3", at,
				"%s resolves to the %s Harness but %s resolves to %s: all Agent entries resolve to one Harness",
				e.path, h, ref.primary.loc(), refHarness))
			if harnessOff == nil {
				harnessOff, harnessOffH = e, h
			}
		}
	}

	// RES-3: without agents.defaults.model the first candidate is an
	// entry's, and which entry comes first is the author's key order. The
	// reference entry is chosen by ID so that order never matters; it is
	// refused too, so the problem names every entry that disagrees with
	// another, whichever of them the author wrote first.
	if refEntry != nil && firstOff != nil {
		errs = append(errs, invalid("RES-3", ref.primary.loc(),
			"%s must equal the primary model %s: all Agent entries resolve to one primary model",
			ref.primary.loc(), firstOff.sel.primary.loc()))
	}
	if refEntry != nil && harnessOff != nil {
		errs = append(errs, invalid("RES-3", ref.primary.loc(),
			"%s resolves to the %s Harness but %s resolves to %s: all Agent entries resolve to one Harness",
			refEntry.path, refHarness, harnessOff.path, harnessOffH))
	}

	// RES-8 (RES-4): selectable catalogs.
	var primary *refAt
	if haveRef {
		primary = &ref.primary
	}
	if haveRef || complete {
		checkCatalog(&x.catalog, primary, &errs)
	}
	for _, e := range x.entries {
		switch {
		case e.sel.present && e.sel.ok:
			checkCatalog(e.models, &e.sel.primary, &errs)
		case !e.sel.present && x.defaults.ok:
			checkCatalog(e.models, &x.defaults.primary, &errs)
		}
	}

	// RES-9: provider rows list only selected models, once each.
	x.checkRows(complete, &errs)

	if len(errs) > 0 {
		p.err = occkit.Join(errs...)
		return p
	}
	if !haveRef {
		p.reasons = []Reason{{Rule: "RES-4", Path: occkit.Root(), Note: "no model candidate selects openclaw"}}
		p.selected = x.keepSelected()
		return p
	}
	p.harness = refHarness
	p.primary = ref.primary.str()
	p.refSel = ref
	if p.harness == occkit.HarnessCodex {
		reasons = append(reasons, Reason{Rule: "RES-12", Path: ref.primary.loc(), Value: ref.primary.provider(),
			Note: "dedicated Codex accepts this provider"})
	}
	p.reasons = reasons
	p.selected = x.keepSelected()
	return p
}

// agentsListErr applies the agents.list rule of RES-10 that OCC deployment
// shares with Configuration save: only an empty array may remain.
func agentsListErr(list gjson.Result) error {
	if !list.Exists() || list.IsArray() && len(list.Array()) == 0 {
		return nil
	}
	return invalid("RES-10", pathList,
		"agents.list is not supported: remove it and configure each Agent under agents.entries, keyed by its Agent ID")
}

// entryAddsPolicy reports whether e's own catalog holds a key for one of
// the inherited selection's refs.
func entryAddsPolicy(e *agentEntry, s *modelSetting) bool {
	if e.models == nil || !e.models.present || e.models.bad || len(e.models.byKey) == 0 {
		return false
	}
	if e.models.has(s.primary.key) {
		return true
	}
	for i := range s.fallbacks() {
		if e.models.has(s.fallbackKey(i)) {
			return true
		}
	}
	return false
}

// rowsMarkedOnce is whether the rows a selected ref names are marked
// while it is evaluated (docIndex.sources), and checkRows looks up only
// those of the selections prepare did not evaluate; false looks every
// selection's up in checkRows, as the oracle of the shortcut does
// (TestRowsMarkedOnce).
var rowsMarkedOnce = true

// checkRows applies RES-9 to every provider's models array: each row
// names a selected model (primary or fallback, of any scope), and no two
// rows name the same model. When the candidate set is not known (an
// earlier problem), only the row shapes are checked.
//
// The rows of a selection prepare evaluated were marked then
// (modelSetting.evaluated), and are not looked up again, unless two rows
// of a provider share an ID: only a lookup here refuses those.
func (x *docIndex) checkRows(complete bool, errs *[]error) {
	if len(x.provOrder) == 0 {
		return
	}
	shared := false
	for _, p := range x.provOrder {
		shared = shared || p.prevs != nil
	}
	var buf [4]int32
	mark := func(r Ref) {
		for p := range x.providersNamed(r.Provider) {
			rows := p.rowsFor(r, buf[:0])
			for k, i := range rows {
				p.rows.at(int(i)).used = true
				if k > 0 {
					*errs = append(*errs, invalid("RES-9", p.rowPath(int(i)),
						"%s and %s name the same model: the provider model policy is ambiguous",
						p.rowPath(int(rows[0])), p.rowPath(int(i))))
				}
			}
		}
	}
	sels := make([]*modelSetting, 0, 1+len(x.entries))
	sels = append(sels, &x.defaults)
	for _, e := range x.entries {
		sels = append(sels, &e.sel)
	}
	for _, s := range sels {
		if !s.ok || s.evaluated && !shared {
			continue
		}
		mark(s.primary.ref())
		for i := range s.fallbacks() {
			f := s.fallback(i)
			mark(f.ref())
		}
	}
	if !complete {
		return
	}
	for _, p := range x.provOrder {
		for i := range p.rows.len() {
			if r := p.rows.at(i); r.idOK && !r.used {
				*errs = append(*errs, invalid("RES-9", p.rowPath(i),
					"%s names a model that is neither the resolved primary nor one of its fallbacks", p.rowPath(i)))
			}
		}
	}
}

// fallbacksAgree is the RES-8 reason's note: how many fallbacks keep
// the primary's provider and Harness (a count, so not the reason's Value,
// which quotes what the path holds).
func fallbacksAgree(n int) string {
	if n == 1 {
		return "the one fallback keeps the primary's provider and resolves through the same policy checks to its Harness"
	}
	return "all " + strconv.Itoa(n) + " fallbacks keep the primary's provider and resolve through the same policy checks to its Harness"
}
