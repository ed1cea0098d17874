package resolver

import (
	"sort"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/internal/docjson"
)

// This file keeps the index as it was built through gjson, member by
// member (ForEach and Get on each level), before gjBuildIndex read the
// text in one pass: the oracle of TestBuildIndexMatchesGJSON.

// gjReadRuntime reads the agentRuntime of a policy holder (a catalog
// entry, a provider row or a provider). shape reports whether the refusal
// is of agentRuntime itself (not an object) rather than of its id.
func gjReadRuntime(v gjson.Result) (id string, st runtimeState, shape bool) {
	id, st, shape, _ = gjReadPolicy(v, "")
	return id, st, shape
}

// gjReadPolicy is gjReadRuntime that also returns the holder's field
// named other (when not ""), in one scan of the object.
func gjReadPolicy(v gjson.Result, other string) (id string, st runtimeState, shape bool, field gjson.Result) {
	var ar gjson.Result
	if other == "models" {
		// A provider: its models array may be large, so visit the members
		// once instead of letting each lookup scan past the array.
		v.ForEach(func(k, val gjson.Result) bool {
			switch {
			case k.Str == "agentRuntime" && !ar.Exists():
				ar = val
			case k.Str == other && !field.Exists():
				field = val
			}
			return true
		})
	} else {
		// A small policy holder: gjson lookups skip the other members
		// without decoding them.
		ar = v.Get("agentRuntime")
		if other != "" {
			field = v.Get(other)
		}
	}
	if !ar.Exists() {
		return "", runtimeNone, false, field
	}
	if !ar.IsObject() {
		return "", runtimeBad, true, field
	}
	idv := objectField(ar, "id")
	if idv.Type == gjson.String && (idv.Str == string(occkit.HarnessOpenClaw) || idv.Str == string(occkit.HarnessCodex)) {
		return idv.Str, runtimeOK, false, field
	}
	return "", runtimeBad, false, field
}

// gjBuildCatalog indexes a selectable catalog (RES-4: it must be an object
// of objects; RES-1: each agentRuntime is supported).
func gjBuildCatalog(text string, v gjson.Result, path occkit.Path, errs *[]error) catalogIndex {
	c := catalogIndex{present: v.Exists(), path: path, strs: strTable{text: text}}
	if !c.present {
		return catalogIndex{path: path}
	}
	if !v.IsObject() {
		c.bad = true
		*errs = append(*errs, invalid("RES-4", path, "%s must be an object keyed by model ref", path))
		return c
	}
	v.ForEach(func(k, val gjson.Result) bool {
		raw := k.String()
		ck := c.newKey(raw)
		if !val.IsObject() {
			*errs = append(*errs, invalid("RES-4", path.Key(raw), "%s must be an object", path.Key(raw)))
			ck.rtSt = runtimeBad
		} else {
			rt, st, shape := gjReadRuntime(val)
			ck.rt, ck.rtSt = toHarnessID(rt), st
			if ck.rtSt == runtimeBad {
				*errs = append(*errs, runtimeErr(path.Key(raw), shape, val))
			}
		}
		c.keys.push(ck)
		return true
	})
	c.index()
	return c
}

// gjParseModelSetting reads a `model` setting at path (RES-3).
func gjParseModelSetting(text string, v gjson.Result, path occkit.Path, errs *[]error, s *modelSetting) {
	s.present = v.Exists()
	if !s.present {
		return
	}
	switch {
	case v.Type == gjson.String:
		r, ok := ParseRef(v.Str)
		if !ok {
			*errs = append(*errs, invalid("RES-3", path, "%s must be a provider/model ref", path))
			return
		}
		s.primaryAt = path
		s.ok, s.complete, s.primary = true, true, newRefAt(v.Str, r, &s.primaryAt, -1)
		return
	case !v.IsObject():
		*errs = append(*errs, invalid("RES-3", path,
			"%s must be a provider/model ref or an object {primary, fallbacks}", path))
		return
	}
	s.complete = true
	s.primaryAt = path.Key("primary")
	pp := &s.primaryAt
	pv := v.Get("primary")
	if r, ok := ParseRef(pv.Str); ok && pv.Type == gjson.String {
		s.ok, s.primary = true, newRefAt(pv.Str, r, pp, -1)
	} else {
		s.complete = false
		*errs = append(*errs, invalid("RES-3", *pp, "%s must be a provider/model ref", *pp))
	}
	fv := v.Get("fallbacks")
	if !fv.Exists() {
		return
	}
	fbAt := path.Key("fallbacks")
	fp := &fbAt
	if !fv.IsArray() {
		s.complete = false
		*errs = append(*errs, invalid("RES-3", *fp, "%s must be an array of provider/model refs", *fp))
		return
	}
	i := -1
	fv.ForEach(func(_, e gjson.Result) bool {
		i++
		r, ok := ParseRef(e.Str)
		if e.Type != gjson.String || !ok {
			s.complete = false
			at := fp.Index(i)
			*errs = append(*errs, invalid("RES-3", at, "%s must be a provider/model ref", at))
			return true
		}
		if s.ok && r.Provider != s.primary.provider() {
			at := fp.Index(i)
			*errs = append(*errs, invalid("RES-3", at, "%s must keep the primary model's provider", at))
		}
		if s.fb == nil {
			s.fb = &fallbackList{strs: strTable{text: text}, at: fbAt}
		}
		s.fb.pushFallback(e.Str, r, i)
		return true
	})
}

// gjBuildProvider indexes one provider entry (RES-4, RES-1, RES-9 shapes).
func gjBuildProvider(text, raw string, v gjson.Result, path occkit.Path, errs *[]error) *providerConfig {
	p := &providerConfig{raw: raw, name: normProvider(raw), strs: strTable{text: text}}
	if !v.IsObject() {
		*errs = append(*errs, invalid("RES-4", path, "%s must be an object", path))
		p.rtSt = runtimeBad
		return p
	}
	rt, st, shape, mv := gjReadPolicy(v, "models")
	p.rt, p.rtSt = toHarnessID(rt), st
	if p.rtSt == runtimeBad {
		*errs = append(*errs, runtimeErr(path, shape, v))
	}
	if !mv.Exists() {
		return p
	}
	if !mv.IsArray() {
		*errs = append(*errs, invalid("RES-9", path.Key("models"),
			"%s must be an array of model objects", path.Key("models")))
		return p
	}
	p.rowsAt = true
	keys := 0 // the rows' IDs, each row's id and its alt (index sizes its table by them)
	mv.ForEach(func(_, e gjson.Result) bool {
		i := int32(p.rows.len())
		var row catalogRow
		switch {
		case !e.IsObject():
			*errs = append(*errs, invalid("RES-9", p.rowPath(int(i)),
				"%s must be an object with an id, not a bare string or other value", p.rowPath(int(i))))
		default:
			rt, st, shape, idv := gjReadPolicy(e, "id")
			row.rt, row.rtSt = toHarnessID(rt), st
			if row.rtSt == runtimeBad {
				*errs = append(*errs, runtimeErr(p.rowPath(int(i)), shape, e))
			}
			if idv.Type != gjson.String || strings.TrimSpace(idv.Str) == "" {
				*errs = append(*errs, invalid("RES-9", p.rowPath(int(i)).Key("id"),
					"%s must be a model ID", p.rowPath(int(i)).Key("id")))
				break
			}
			row.setID(idv.Str, p)
			keys++
			if row.hasAlt {
				keys++
			}
		}
		p.rows.push(row)
		return true
	})
	p.index(keys)
	return p
}

// gjBuildIndex makes the one pass over doc.
func gjBuildIndex(doc occkit.Document) *docIndex {
	x := &docIndex{shapeOK: true}
	root := docjson.Root(doc)
	x.roster = rosterInput{doc: doc}
	if !root.IsObject() {
		x.shapeOK, x.shapeErrs = false, shapeErrors(root)
		return x
	}
	// Each level is scanned once: the shape check (RES-2) and the indexes
	// read the same members, so a large catalog is not skipped over again.
	f := objectFields(root, "agents", "models", "plugins")
	agents, models, plugins := f[0], f[1], f[2]
	// The roster rules (RES-10) read agents' ownership too: one scan
	// serves both (rosterKeys: defaults, entries, list, ownership).
	x.roster.agents = agents.Raw
	var af []gjson.Result
	if agents.IsObject() {
		af = objectFields(agents, rosterKeys...)
		for i, m := range af {
			x.roster.members[i] = m.Raw
		}
	} else {
		af = make([]gjson.Result, len(rosterKeys))
	}
	if errs := agentsShapeErrors(agents, af[0], af[1]); len(errs) > 0 {
		x.shapeOK, x.shapeErrs = false, errs
	}
	x.gjIndexAgents(agents, af)
	x.gjIndexProviders(models)
	x.codexRefused, x.codexBad = codexPluginVerdict(x.gjIndexPlugins(plugins))
	return x
}

// gjIndexAgents indexes agents, whose defaults, entries and list are f.
func (x *docIndex) gjIndexAgents(agents gjson.Result, f []gjson.Result) {
	if !agents.Exists() {
		return
	}
	if !agents.IsObject() {
		return // RES-2, decided by shapeErrors
	}
	defaults, entries := f[0], f[1]
	if defaults.Exists() {
		if defaults.IsObject() {
			f := objectFields(defaults, "model", "models")
			model, cat := f[0], f[1]
			gjParseModelSetting(x.roster.doc.String(), model, pathDefaultModel, &x.errs, &x.defaults)
			x.catalog = gjBuildCatalog(x.roster.doc.String(), cat, pathDefaultModels, &x.errs)
		}
	}
	if !entries.Exists() {
		return
	}
	if !entries.IsObject() {
		return
	}
	seen := map[string]bool{}
	x.roster.read = true
	entries.ForEach(func(k, v gjson.Result) bool {
		x.roster.ids = append(x.roster.ids, rosterEntry{id: k.String(), hasDefault: v.IsObject() && v.Get("default").Exists(), notObject: !v.IsObject()})
		id := k.String()
		if seen[id] {
			return true // gjson reads the first of duplicate keys; so do we
		}
		seen[id] = true
		p := pathEntries.Key(id)
		if !v.IsObject() {
			return true
		}
		e := &agentEntry{id: id, path: p}
		f := objectFields(v, "model", "models")
		model, cat := f[0], f[1]
		gjParseModelSetting(x.roster.doc.String(), model, p.Key("model"), &x.errs, &e.sel)
		if cat.Exists() {
			c := gjBuildCatalog(x.roster.doc.String(), cat, p.Key("models"), &x.errs)
			e.models = &c
		}
		x.entries = append(x.entries, e)
		return true
	})
	// Entries are evaluated in ID order so that the author's key order never
	// changes a decision or the problems reported.
	if !sort.SliceIsSorted(x.entries, func(i, j int) bool { return x.entries[i].id < x.entries[j].id }) {
		x.byDoc = append([]*agentEntry(nil), x.entries...)
	}
	sort.Slice(x.entries, func(i, j int) bool { return x.entries[i].id < x.entries[j].id })
}

func (x *docIndex) gjIndexProviders(models gjson.Result) {
	if !models.Exists() {
		return
	}
	if !models.IsObject() {
		x.errs = append(x.errs, invalid("RES-4", pathModels, "models must be an object"))
		return
	}
	providers := objectField(models, "providers")
	if !providers.Exists() {
		return
	}
	if !providers.IsObject() {
		x.errs = append(x.errs, invalid("RES-4", pathProviders,
			"models.providers must be an object keyed by provider"))
		return
	}
	byName := map[string][]*providerConfig{}
	providers.ForEach(func(k, v gjson.Result) bool {
		raw := k.String()
		p := gjBuildProvider(x.roster.doc.String(), raw, v, pathProviders.Key(raw), &x.errs)
		byName[p.name] = append(byName[p.name], p)
		x.provOrder = append(x.provOrder, p)
		return true
	})
	// The map is made only for more than providersScanned providers.
	if len(x.provOrder) > providersScanned {
		x.providers = byName
	}
}

// gjIndexPlugins indexes plugins and returns the Codex plugin.
func (x *docIndex) gjIndexPlugins(plugins gjson.Result) (codex gjson.Result) {
	if !plugins.Exists() {
		return codex
	}
	if !plugins.IsObject() {
		x.errs = append(x.errs, invalid("RES-6", pathPlugins, "plugins must be an object"))
		return codex
	}
	entries := objectField(plugins, "entries")
	if !entries.Exists() {
		return codex
	}
	if !entries.IsObject() {
		x.errs = append(x.errs, invalid("RES-6", pathPluginEntries, "plugins.entries must be an object keyed by plugin"))
		return codex
	}
	x.routed = map[string]bool{}
	entries.ForEach(func(k, v gjson.Result) bool {
		n := normProvider(k.String())
		x.routed[n] = x.routed[n] || n == k.String()
		if k.Str == "codex" && !codex.Exists() {
			codex = v
		}
		return true
	})
	return codex
}
