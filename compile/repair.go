package compile

import (
	"sort"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/internal/docjson"
	"github.com/occkit/occkit/resolver"
)

// ChangeKind classifies one edit made by [Repair].
type ChangeKind string

// The closed set of repair edits (CMP-3).
const (
	// ChangeRefRewritten: a legacy model ref in a model slot became its
	// canonical provider/model ref.
	ChangeRefRewritten ChangeKind = "ref-rewritten"
	// ChangeKeyRenamed: a legacy `models` map key became its canonical key
	// (no canonical entry existed).
	ChangeKeyRenamed ChangeKind = "key-renamed"
	// ChangeKeyMerged: a legacy `models` map key was merged into an existing
	// canonical entry (the canonical entry wins) and removed.
	ChangeKeyMerged ChangeKind = "key-merged"
	// ChangePolicySet: a model-scoped `agentRuntime.id` was written, keeping
	// the runtime a legacy ref or a whole-agent CLI pin implied.
	ChangePolicySet ChangeKind = "policy-set"
	// ChangeRuntimeRenamed: `agentRuntime.id: codex-cli` became `codex`.
	ChangeRuntimeRenamed ChangeKind = "runtime-renamed"
	// ChangePinRemoved: a whole-agent runtime key (`agentRuntime`,
	// `embeddedHarness` of the defaults or an entry) was removed.
	ChangePinRemoved ChangeKind = "pin-removed"
	// ChangeProviderMoved: a legacy Codex provider entry (From) of
	// models.providers moved to `openai`, had its rows merged into the
	// canonical entry (To, the path), or was removed because the canonical
	// entry had all its rows (To "", the path is the removed entry).
	ChangeProviderMoved ChangeKind = "provider-moved"
	// ChangeAPIRenamed: `api: openai-codex-responses` of a provider entry or
	// catalog row became `openai-chatgpt-responses`.
	ChangeAPIRenamed ChangeKind = "api-renamed"
)

// AllChangeKinds lists every [ChangeKind].
func AllChangeKinds() []ChangeKind {
	return []ChangeKind{ChangeRefRewritten, ChangeKeyRenamed, ChangeKeyMerged,
		ChangePolicySet, ChangeRuntimeRenamed, ChangePinRemoved, ChangeProviderMoved, ChangeAPIRenamed}
}

// Change is one edit made by [Repair].
type Change struct {
	// Kind says what was done.
	Kind ChangeKind
	// Path is where the result of the edit is (for a removal: what was
	// removed).
	Path occkit.Path
	// From and To are the old and new ref, key or runtime ID when the edit
	// has them ("" otherwise). They are model refs and runtime IDs, never
	// credential values.
	From, To string
}

// String renders the change as "kind path [from] [→ to]".
func (c Change) String() string {
	s := string(c.Kind) + " " + c.Path.String()
	if c.From != "" {
		s += " " + c.From
	}
	if c.To != "" {
		s += " → " + c.To
	}
	return s
}

// legacyTarget is where a legacy provider's refs go.
type legacyTarget struct {
	provider string
	runtime  string
}

// legacyProviders maps legacy runtime-named providers to their canonical
// provider and the model-scoped runtime that keeps their route (CMP-3).
var legacyProviders = map[string]legacyTarget{
	"codex":             {provider: "openai", runtime: "codex"},
	"codex-cli":         {provider: "openai", runtime: "codex"},
	"claude-cli":        {provider: "anthropic", runtime: "claude-cli"},
	"anthropic-cli":     {provider: "anthropic", runtime: "claude-cli"},
	"google-gemini-cli": {provider: "google", runtime: "google-gemini-cli"},
}

// cliProvider maps a CLI backend runtime to the one provider it serves
// (SEL-7): a whole-agent pin on it becomes model policy for that
// provider's refs only.
var cliProvider = map[string]string{
	"claude-cli":        "anthropic",
	"google-gemini-cli": "google",
}

// wholeAgentKeys are the legacy whole-agent runtime keys (SEL-2).
var wholeAgentKeys = []string{"agentRuntime", "embeddedHarness"}

// modelSlots are the model selections of an agent scope (a ref string or
// `{primary, fallbacks}`) whose migrated refs get runtime policy. Media
// model slots are not among them: doctor rewrites those with the
// document-wide ref rewrite, without policy ([repairer.refs]).
var modelSlots = [][]string{{"model"}, {"subagents", "model"}, {"heartbeat", "model"}}

// Repair applies OpenClaw's `doctor --fix` legacy migration to a
// Configuration (CMP-3) and returns the repaired copy with the list of
// edits. doc itself never changes; an already canonical document comes back
// byte-for-byte equal with no changes, and Repair(Repair(x)) makes none.
//
// In agents.defaults, every agents.entries value and every agents.list
// item:
//
//   - refs of the legacy providers in model slots (`model`, `primary`,
//     `fallbacks`, `subagents.model`, `heartbeat.model`,
//     `modelPolicy.allow`) are rewritten: `codex/*` and `codex-cli/*` →
//     `openai/*`, `claude-cli/*` and `anthropic-cli/*` → `anthropic/*`,
//     `google-gemini-cli/*` → `google/*`;
//   - padded `models` map keys move to their trimmed keys first
//     ([resolver.TrimRef]; see repair_trim.go), merging like legacy keys;
//   - legacy `models` map keys are renamed in place, or merged into the
//     existing canonical entry (deeply; the canonical entry wins; as in
//     doctor, the prototype keys `__proto__`, `constructor` and
//     `prototype` are dropped from both sides of a merge, and a null
//     canonical entry gives way, as in doctor). The runtime policy the
//     legacy keys imply is written after they merged, so a concrete pin
//     any of them carried is kept (doctor writes each key's policy as it
//     merges it, and an earlier key's policy beats a later key's pin);
//   - each migrated ref gets model-scoped policy in the scope's `models`
//     map: `agentRuntime.id` `codex`, `claude-cli` or `google-gemini-cli`.
//     An existing pin is never overwritten, an explicit `default`
//     included (as doctor keeps it); `auto`, a blank and a missing id
//     are. Refs migrated off a legacy provider also lose retired model
//     IDs, as doctor renames them (`claude-cli/opus` →
//     `anthropic/claude-opus-5`; see repair_ids.go);
//   - the whole-agent runtime keys `agentRuntime` and `embeddedHarness` are
//     removed. A scope's own `agentRuntime: {id}` pin on a CLI backend
//     (`claude-cli`, `google-gemini-cli`) first becomes model policy for
//     the refs of that scope's `model` selection (primary and fallbacks)
//     that are already on that CLI's provider, as doctor does: not for
//     migrated refs (they carry their own policy), other models keys,
//     `embeddedHarness`, nor inherited by entries from the defaults. As
//     in doctor, that policy is written before the legacy keys merge, so
//     the canonical key it makes wins the merge. Other pins (`codex`,
//     `openclaw`, `auto`) are dropped.
//
// Everywhere else in the document, as doctor does, refs of the retired CLI
// runtimes (`codex-cli`, `claude-cli`, `anthropic-cli`,
// `google-gemini-cli`) are rewritten without runtime policy wherever a model
// ref is recognized: string values under `model`, `primary`, `voiceModel`,
// `imageModel`, `summaryModel`, `preferredModel` and the other *Model keys,
// string items of `fallbacks`, `allowedModels` and the like, strings below
// `modelByChannel`, `mediaModels.*`, `{provider, model}` pairs and the keys
// of any `models` map (merged as above). `codex/*` stays outside the agent
// scopes, where it may name the native codex provider. In the same places
// padded refs are respelled without their outer white space and the spaces
// around the profile `@`, as doctor does.
//
// Legacy Codex provider entries are migrated first (repair_codex.go):
// `models.providers.codex` and `.openai-codex` (keys trimmed and lowercased)
// become `models.providers.openai` when no key names openai, `codex` rows
// getting `agentRuntime.id: codex` (a row's concrete pin, or the entry's,
// stays); otherwise the rows `openai` lacks are appended to it with the
// legacy entry's baseUrl, api, limits, params and runtime stamped on, and the
// legacy entry is removed. An entry whose row collides with a different
// `openai` row, or whose merge a provider-level setting blocks (apiKey,
// auth, headers, ... on it; those or params, agentRuntime, limits, ... on
// `openai`), stays; so do the `codex/*` refs of its provider in every agent
// slot and models key above, as written and without policy. A `codex/*` or
// `openai-codex/*` wildcard in any agent scope's `modelPolicy.allow` leaves
// its provider's entry and refs alone the same way. `api:
// openai-codex-responses` becomes `openai-chatgpt-responses` on every entry
// and row but those of an entry a wildcard leaves alone.
//
// In agent models maps, `models.providers.*` and their catalog rows
// `agentRuntime.id: codex-cli` becomes `codex`. Values of the wrong shape
// are left alone; unknown keys and the key order of untouched objects are
// preserved (DOC-3).
func Repair(doc occkit.Document) (occkit.Document, []Change, error) {
	r := &repairer{doc: doc}
	// The legacy Codex provider entries move first, and the providers whose
	// refs must stay are read off the result, as doctor plans them after
	// its legacy migrations (repair_codex.go). Doctor renames codex-cli
	// runtime IDs on the providers later, so a legacy entry can be judged
	// against an openai entry still pinned to codex-cli, and a second
	// doctor pass judges otherwise: renaming them first keeps Repair
	// idempotent (CMP-3) with doctor's second-pass answer.
	if err := r.providers(); err != nil {
		return occkit.Document{}, nil, err
	}
	if err := r.codexProviders(); err != nil {
		return occkit.Document{}, nil, err
	}
	r.blocked = codexBlocked(r.doc)
	if err := r.agents(); err != nil {
		return occkit.Document{}, nil, err
	}
	if raw, changed := r.refs(occkit.Root(), docjson.Root(r.doc), "", false, false); changed {
		out, err := occkit.ParseDocument([]byte(raw))
		if err != nil {
			return occkit.Document{}, nil, err
		}
		r.doc = out
	}
	return r.doc, r.changes, nil
}

// agents repairs agents.defaults (when an object), the object values of
// agents.entries and the object items of agents.list. Each scope is
// repaired on its own small document and written back once per container,
// so the work grows with the document, not with entries × document.
func (r *repairer) agents() error {
	agents := occkit.NewPath("agents")
	a := docjson.Get(r.doc, agents)
	if !a.IsObject() {
		return nil
	}
	var defaults, entries, list gjson.Result
	a.ForEach(func(k, v gjson.Result) bool {
		switch k.String() {
		case "defaults":
			if !defaults.Exists() {
				defaults = v
			}
		case "entries":
			if !entries.Exists() {
				entries = v
			}
		case "list":
			if !list.Exists() {
				list = v
			}
		}
		return true
	})
	if defaults.IsObject() {
		at := agents.Key("defaults")
		raw, changed, err := r.subScope(at, defaults.Raw)
		if err != nil {
			return err
		}
		if changed {
			if err := r.setRaw(at, raw); err != nil {
				return err
			}
		}
	}
	if entries.IsObject() {
		at := agents.Key("entries")
		pairs := members(entries)
		changed := false
		for i, p := range pairs {
			if !gjson.Parse(p.raw).IsObject() {
				continue
			}
			raw, ok, err := r.subScope(at.Key(p.key), p.raw)
			if err != nil {
				return err
			}
			if ok {
				pairs[i].raw, changed = raw, true
			}
		}
		if changed {
			if err := r.setRaw(at, rawObject(pairs)); err != nil {
				return err
			}
		}
	}
	if list.IsArray() {
		at := agents.Key("list")
		items := list.Array()
		parts := make([]string, len(items))
		changed := false
		for i, item := range items {
			parts[i] = item.Raw
			if !item.IsObject() {
				continue
			}
			raw, ok, err := r.subScope(at.Index(i), item.Raw)
			if err != nil {
				return err
			}
			if ok {
				parts[i], changed = raw, true
			}
		}
		if changed {
			if err := r.setRaw(at, "["+strings.Join(parts, ",")+"]"); err != nil {
				return err
			}
		}
	}
	return nil
}

// subScope repairs the agent scope raw, found at at, as a document of its
// own, and records its changes at their paths in the whole document.
func (r *repairer) subScope(at occkit.Path, raw string) (string, bool, error) {
	doc, err := occkit.ParseDocument([]byte(raw))
	if err != nil {
		return "", false, err
	}
	sub := &repairer{doc: doc, blocked: r.blocked}
	if err := sub.scope(occkit.Root(), sub.pin(occkit.Root())); err != nil {
		return "", false, err
	}
	for _, c := range sub.changes {
		c.Path = joinPath(at, c.Path)
		r.changes = append(r.changes, c)
	}
	out := sub.doc.String()
	return out, out != raw, nil
}

// joinPath is the path rel below base.
func joinPath(base, rel occkit.Path) occkit.Path {
	for i := 0; i < rel.Len(); i++ {
		if k, idx, isIndex := rel.Elem(i); isIndex {
			base = base.Index(idx)
		} else {
			base = base.Key(k)
		}
	}
	return base
}

type repairer struct {
	doc     occkit.Document
	changes []Change
	// blocked are the legacy Codex providers (normalized) whose refs the
	// agent scopes keep as written ([codexBlocked]).
	blocked map[string]bool
}

// runtimePolicy is model-scoped runtime policy to write for a models map key.
type runtimePolicy struct {
	key     string
	runtime string
}

func (r *repairer) add(kind ChangeKind, at occkit.Path, from, to string) {
	r.changes = append(r.changes, Change{Kind: kind, Path: at, From: from, To: to})
}

func (r *repairer) set(at occkit.Path, v any) error {
	d, err := r.doc.Set(at, v)
	if err != nil {
		return err
	}
	r.doc = d
	return nil
}

func (r *repairer) setRaw(at occkit.Path, raw string) error {
	d, err := r.doc.SetRaw(at, []byte(raw))
	if err != nil {
		return err
	}
	r.doc = d
	return nil
}

// canonicalRuntime normalizes a runtime ID for repair: REF-6 aliases, and the
// retired `codex-cli` backend as `codex`.
func canonicalRuntime(id string) string {
	n := resolver.NormalizeRuntime(id)
	if n == "codex-cli" {
		return string(occkit.HarnessCodex)
	}
	return n
}

// pin returns the normalized whole-agent runtime pin of a scope ("" when
// it has none): its own `agentRuntime: {id}`. As in doctor, a pin is
// read from the object form only, `embeddedHarness` carries no
// recoverable pin, and an entry does not inherit the defaults' pin.
func (r *repairer) pin(s occkit.Path) string {
	ar := docjson.Get(r.doc, s.Key("agentRuntime"))
	if id := ar.Get("id"); ar.IsObject() && id.Type == gjson.String && strings.TrimSpace(id.String()) != "" {
		return canonicalRuntime(id.String())
	}
	return ""
}

func (r *repairer) scope(s occkit.Path, pin string) error {
	var policies []runtimePolicy
	// own are the refs of the scope's model selection: the only refs a
	// whole-agent CLI pin becomes policy for.
	var own, other []resolver.Ref
	for i, keys := range modelSlots {
		at := s
		for _, k := range keys {
			at = at.Key(k)
		}
		selected := &other
		if i == 0 {
			selected = &own
		}
		if err := r.slot(at, &policies, selected); err != nil {
			return err
		}
	}
	allow := s.Key("modelPolicy").Key("allow")
	if a := docjson.Get(r.doc, allow); a.IsArray() {
		for i, v := range a.Array() {
			if v.Type == gjson.String {
				if err := r.ref(allow.Index(i), v.String(), &policies, &other); err != nil {
					return err
				}
			}
		}
	}
	models := s.Key("models")
	// A whole-agent CLI pin becomes model policy first, before the legacy
	// keys merge, as doctor runs its whole-agent migration before the
	// legacy-ref migration: the canonical key it writes then wins the
	// merge like any canonical entry (CMP-3).
	if provider, ok := cliProvider[pin]; ok {
		var pinned []runtimePolicy
		for _, ref := range own {
			if ref.Provider == provider {
				pinned = append(pinned, runtimePolicy{key: ref.Key(), runtime: pin})
			}
		}
		if err := r.policies(models, pinned); err != nil {
			return err
		}
	}
	// Then padded keys move to their trimmed keys, as doctor's
	// canonical-refs migration runs between the two.
	if err := r.trimKeys(models); err != nil {
		return err
	}
	if err := r.modelsMap(models, r.canonicalRef, true); err != nil {
		return err
	}
	if err := r.policies(models, policies); err != nil {
		return err
	}
	for _, k := range wholeAgentKeys {
		at := s.Key(k)
		if !r.doc.Has(at) {
			continue
		}
		d, err := r.doc.Delete(at)
		if err != nil {
			return err
		}
		r.doc = d
		r.add(ChangePinRemoved, at, "", "")
	}
	return nil
}

// slot migrates a model slot: a ref string or {primary, fallbacks}.
func (r *repairer) slot(at occkit.Path, policies *[]runtimePolicy, selected *[]resolver.Ref) error {
	v := docjson.Get(r.doc, at)
	if v.Type == gjson.String {
		return r.ref(at, v.String(), policies, selected)
	}
	if !v.IsObject() {
		return nil
	}
	if p := v.Get("primary"); p.Type == gjson.String {
		if err := r.ref(at.Key("primary"), p.String(), policies, selected); err != nil {
			return err
		}
	}
	if fb := v.Get("fallbacks"); fb.IsArray() {
		for i, f := range fb.Array() {
			if f.Type != gjson.String {
				continue
			}
			if err := r.ref(at.Key("fallbacks").Index(i), f.String(), policies, selected); err != nil {
				return err
			}
		}
	}
	return nil
}

// canonFunc maps a ref to its canonical form; legacy is false for a ref it
// leaves alone (then ref is the parsed ref, or zero when s is no ref).
type canonFunc func(s string) (ref resolver.Ref, t legacyTarget, legacy bool)

// canonicalRef returns the canonical form of a legacy ref.
func canonicalRef(s string) (resolver.Ref, legacyTarget, bool) {
	ref, ok := resolver.ParseRef(s)
	if !ok {
		return resolver.Ref{}, legacyTarget{}, false
	}
	t, legacy := legacyProviders[ref.Provider]
	if !legacy {
		return ref, legacyTarget{}, false
	}
	ref.Provider = t.provider
	if ref.Profile == "" {
		// doctor renames retired IDs; it reads "p/id@profile" as one ID,
		// which names no retired model.
		ref.ID = renamedModelID(t.provider, ref.ID)
	}
	return ref, t, true
}

// canonicalRef is [canonicalRef] for the agent scopes: a ref of a blocked
// legacy Codex provider ([codexBlocked]) stays as written, without policy.
func (r *repairer) canonicalRef(s string) (resolver.Ref, legacyTarget, bool) {
	ref, t, legacy := canonicalRef(s)
	if orig, ok := resolver.ParseRef(s); legacy && ok && r.blocked[orig.Provider] {
		return orig, legacyTarget{}, false
	}
	return ref, t, legacy
}

// cliOnlyProviders are the legacy providers doctor rewrites outside the agent
// scopes: the retired CLI runtimes (anthropic-cli is claude-cli's alias).
// `codex/*`, also the native codex provider's name, is rewritten in agent
// scopes only.
var cliOnlyProviders = map[string]bool{"codex-cli": true, "claude-cli": true, "anthropic-cli": true, "google-gemini-cli": true}

// canonicalCLIRef is [canonicalRef] restricted to [cliOnlyProviders].
func canonicalCLIRef(s string) (resolver.Ref, legacyTarget, bool) {
	if ref, ok := resolver.ParseRef(s); !ok || !cliOnlyProviders[ref.Provider] {
		return ref, legacyTarget{}, false
	}
	return canonicalRef(s)
}

// ref migrates one ref string at a slot; a ref that is already canonical
// is recorded as selected.
func (r *repairer) ref(at occkit.Path, s string, policies *[]runtimePolicy, selected *[]resolver.Ref) error {
	ref, t, legacy := r.canonicalRef(s)
	if !legacy {
		if ref.Provider != "" {
			*selected = append(*selected, ref)
		}
		return nil
	}
	to := ref.String()
	if err := r.set(at, to); err != nil {
		return err
	}
	r.add(ChangeRefRewritten, at, s, to)
	// A migrated ref carries its own policy; as in doctor, a whole-agent
	// pin applies only to the refs already canonical (selected).
	*policies = append(*policies, runtimePolicy{key: ref.Key(), runtime: t.runtime})
	return nil
}

// mergeGroup is one member of a rebuilt models map: the canonical entry (if
// the map had one) and the legacy entries that merge into it.
type mergeGroup struct {
	key, rawKey string
	pos         int
	canonical   string // raw; "" when the map had no canonical entry
	legacy      []legacyEntry
}

// legacyEntry is a legacy models map entry and the runtime its key implies.
type legacyEntry struct {
	raw, runtime string
}

// modelsMap renames or merges the legacy keys (per canon) of a models map.
// In an agent scope (scope) each migrated key also gets its runtime policy
// and `codex-cli` runtime IDs in the entries become `codex`; elsewhere only
// the keys move.
func (r *repairer) modelsMap(at occkit.Path, canon canonFunc, scope bool) error {
	m := docjson.Get(r.doc, at)
	if !m.IsObject() {
		return nil
	}
	if raw, changed := r.mapKeys(at, m, canon, scope); changed {
		return r.setRaw(at, raw)
	}
	return nil
}

// mapKeys is [repairer.modelsMap] on the object m found at at: it records
// the changes and returns the rewritten map and whether it changed.
func (r *repairer) mapKeys(at occkit.Path, m gjson.Result, canon canonFunc, scope bool) (string, bool) {
	pairs := members(m)
	var groups []*mergeGroup
	byRef := map[string]*mergeGroup{}
	byKey := map[string]bool{}
	for i, p := range pairs {
		if _, _, legacy := canon(p.key); legacy || byKey[p.key] {
			continue // duplicate keys: the first one is the one readers see
		}
		g := &mergeGroup{key: p.key, rawKey: p.rawKey, pos: i, canonical: p.raw}
		groups = append(groups, g)
		byKey[p.key] = true
		if ref, ok := resolver.ParseRef(p.key); ok {
			if _, seen := byRef[ref.String()]; !seen {
				byRef[ref.String()] = g
			}
		}
	}
	changed := false
	for i, p := range pairs {
		ref, t, legacy := canon(p.key)
		if !legacy {
			continue
		}
		changed = true
		g, ok := byRef[ref.String()]
		if !ok {
			g = &mergeGroup{key: ref.String(), pos: i}
			groups = append(groups, g)
			byRef[ref.String()] = g
		}
		if g.canonical == "" && len(g.legacy) == 0 {
			r.add(ChangeKeyRenamed, at.Key(g.key), p.key, g.key)
		} else {
			r.add(ChangeKeyMerged, at.Key(g.key), p.key, g.key)
		}
		g.legacy = append(g.legacy, legacyEntry{raw: p.raw, runtime: t.runtime})
	}
	sort.SliceStable(groups, func(i, j int) bool { return groups[i].pos < groups[j].pos })
	out := make([]member, 0, len(groups))
	for _, g := range groups {
		raw := g.canonical
		for _, l := range g.legacy {
			raw = mergeEntry(raw, l.raw, scope)
		}
		// The policy the legacy keys imply (one runtime per canonical
		// key) is written once they merged: a concrete pin any of them
		// carried is kept (CMP-3), where doctor lets an earlier legacy
		// key's policy win over a later one's pin.
		if scope && len(g.legacy) > 0 {
			if pinned, set := withPolicy(raw, g.legacy[0].runtime); set {
				raw = pinned
				r.add(ChangePolicySet, at.Key(g.key).Key("agentRuntime").Key("id"), "", g.legacy[0].runtime)
			}
		}
		if v := gjson.Parse(raw); scope && v.IsObject() {
			if id := v.Get("agentRuntime.id"); id.Type == gjson.String && resolver.NormalizeRuntime(id.String()) == "codex-cli" {
				raw = setMember(raw, "agentRuntime", setMember(v.Get("agentRuntime").Raw, "id", `"codex"`))
				r.add(ChangeRuntimeRenamed, at.Key(g.key).Key("agentRuntime").Key("id"), id.String(), "codex")
				changed = true
			}
		}
		out = append(out, member{key: g.key, rawKey: g.rawKey, raw: raw})
	}
	if !changed {
		return m.Raw, false
	}
	return rawObject(out), true
}

// mergeEntry merges the legacy models map entry legacy into cur, the entry
// already under the canonical key ("" for none): cur wins, deeply, and the
// prototype keys are dropped from both sides. Where neither is an object
// cur stays, except that in an agent scope (scope) a null cur is replaced,
// as doctor's legacy-runtime migration does (which then also keeps cur's
// bytes as they are).
func mergeEntry(cur, legacy string, scope bool) string {
	c, l := gjson.Parse(cur), gjson.Parse(legacy)
	switch {
	case cur == "":
		return legacy
	case !c.IsObject() || !l.IsObject():
		if !scope {
			return dropPrototypeKeys(c)
		}
		if c.Type == gjson.Null {
			return legacy
		}
		return cur
	}
	return deepMerge(gjson.Parse(dropPrototypeKeys(c)), gjson.Parse(dropPrototypeKeys(l)))
}

// prototypeKeys are the object keys doctor drops from both sides of a
// models-map merge (JavaScript prototype keys), at every depth.
var prototypeKeys = map[string]bool{"__proto__": true, "constructor": true, "prototype": true}

// dropPrototypeKeys returns v's raw JSON without [prototypeKeys] members, at
// every depth. Values without such keys keep their bytes.
func dropPrototypeKeys(v gjson.Result) string {
	switch {
	case v.IsObject():
		pairs := members(v)
		out := pairs[:0:0]
		dropped := false
		for _, p := range pairs {
			if prototypeKeys[p.key] {
				dropped = true
				continue
			}
			if s := dropPrototypeKeys(gjson.Parse(p.raw)); s != p.raw {
				p.raw, dropped = s, true
			}
			out = append(out, p)
		}
		if !dropped {
			return v.Raw
		}
		return rawObject(out)
	case v.IsArray():
		items := v.Array()
		parts := make([]string, len(items))
		dropped := false
		for i, e := range items {
			parts[i] = dropPrototypeKeys(e)
			dropped = dropped || parts[i] != e.Raw
		}
		if !dropped {
			return v.Raw
		}
		return "[" + strings.Join(parts, ",") + "]"
	}
	return v.Raw
}

// policies writes model-scoped runtime policy into a models map, creating
// the map or its entries as needed. The first policy for a key wins; an
// entry's concrete pin is never overwritten.
func (r *repairer) policies(at occkit.Path, policies []runtimePolicy) error {
	if len(policies) == 0 {
		return nil
	}
	m := docjson.Get(r.doc, at)
	if m.Exists() && m.Type != gjson.Null && !m.IsObject() {
		return nil // not a models map: nothing can be written safely
	}
	pairs := members(m)
	index := map[string]int{}
	for i, p := range pairs {
		if _, dup := index[p.key]; !dup {
			index[p.key] = i
		}
	}
	done := map[string]bool{}
	changed := false
	for _, p := range policies {
		if done[p.key] {
			continue
		}
		done[p.key] = true
		i, ok := index[p.key]
		if !ok {
			index[p.key] = len(pairs)
			pairs = append(pairs, member{key: p.key, raw: `{"agentRuntime":{"id":` + quoteJSON(p.runtime) + `}}`})
			r.add(ChangePolicySet, at.Key(p.key).Key("agentRuntime").Key("id"), "", p.runtime)
			changed = true
			continue
		}
		raw, set := withPolicy(pairs[i].raw, p.runtime)
		if !set {
			continue
		}
		pairs[i].raw = raw
		r.add(ChangePolicySet, at.Key(p.key).Key("agentRuntime").Key("id"), "", p.runtime)
		changed = true
	}
	if !changed {
		return nil
	}
	return r.setRaw(at, rawObject(pairs))
}

// withPolicy is the models map entry raw with model-scoped runtime policy
// runtime; set is false when the entry keeps its own: a concrete pin
// (CMP-3; as in doctor only a blank or "auto" id is replaced, an explicit
// "default" is kept like any other pin) or a value of the wrong shape.
func withPolicy(raw, runtime string) (string, bool) {
	fresh := `{"id":` + quoteJSON(runtime) + `}`
	v := gjson.Parse(raw)
	switch ar := v.Get("agentRuntime"); {
	case v.Type == gjson.Null:
		return `{"agentRuntime":` + fresh + `}`, true
	case !v.IsObject():
		return raw, false
	case !ar.Exists() || ar.Type == gjson.Null:
		return setMember(v.Raw, "agentRuntime", fresh), true
	case !ar.IsObject():
		return raw, false
	default:
		id := ar.Get("id")
		norm := strings.ToLower(strings.TrimSpace(id.String()))
		if id.Type == gjson.String && norm != "" && norm != resolver.RuntimeAuto {
			return raw, false
		}
		return setMember(v.Raw, "agentRuntime", setMember(ar.Raw, "id", quoteJSON(runtime))), true
	}
}

// providers renames `codex-cli` runtime IDs on provider entries and their
// catalog rows.
func (r *repairer) providers() error {
	providers := occkit.NewPath("models", "providers")
	pairs := members(docjson.Get(r.doc, providers))
	changed := false
	for i, p := range pairs {
		at := providers.Key(p.key)
		v := gjson.Parse(p.raw)
		if !v.IsObject() {
			continue
		}
		raw, ok := r.renameCodexCLI(at, v)
		if rows := v.Get("models"); rows.IsArray() {
			items := rows.Array()
			parts := make([]string, len(items))
			rowsChanged := false
			for j, row := range items {
				parts[j] = row.Raw
				if nr, renamed := r.renameCodexCLI(at.Key("models").Index(j), row); renamed {
					parts[j], rowsChanged = nr, true
				}
			}
			if rowsChanged {
				raw, ok = setMember(raw, "models", "["+strings.Join(parts, ",")+"]"), true
			}
		}
		if ok {
			pairs[i].raw, changed = raw, true
		}
	}
	if !changed {
		return nil
	}
	return r.setRaw(providers, rawObject(pairs))
}

// renameCodexCLI renames `agentRuntime.id: codex-cli` to `codex` in the
// object v found at at, returning v's raw JSON and whether it changed.
func (r *repairer) renameCodexCLI(at occkit.Path, v gjson.Result) (string, bool) {
	ar := v.Get("agentRuntime")
	id := ar.Get("id")
	if !v.IsObject() || !ar.IsObject() || id.Type != gjson.String || resolver.NormalizeRuntime(id.String()) != "codex-cli" {
		return v.Raw, false
	}
	r.add(ChangeRuntimeRenamed, at.Key("agentRuntime").Key("id"), id.String(), "codex")
	return setMember(v.Raw, "agentRuntime", setMember(ar.Raw, "id", `"codex"`)), true
}

// Where doctor recognizes a model ref anywhere in a Configuration: string
// values under these keys, string items of arrays under these keys (and of
// `modelPolicy.allow`), every string below a `modelByChannel` object, the
// `image`, `video` and `music` strings below a `mediaModels` object, the
// keys of every `models` map, and objects that pair a `provider` with a
// `model` (CMP-3).
var (
	refStringKeys = map[string]bool{
		"model": true, "primary": true, "summaryModel": true, "imageModel": true,
		"utilityModel": true, "voiceModel": true, "imageGenerationModel": true,
		"musicGenerationModel": true, "pdfModel": true, "videoGenerationModel": true,
		"preferredModel": true,
	}
	refArrayKeys = map[string]bool{
		"fallback": true, "fallbacks": true, "allowedModels": true,
		"modelFallbacks": true, "imageModelFallbacks": true,
	}
	mediaKeys = map[string]bool{"image": true, "video": true, "music": true}
)

// refs rewrites the retired CLI runtimes' refs ([cliOnlyProviders]) wherever
// doctor recognizes a model ref, outside the agent model slots too (voice,
// image, PDF and summary models, compaction, hooks, channel overrides,
// plugin settings, media provider/model pairs, ...). These moves carry no
// runtime policy: only agent selections ([repairer.scope]) get one.
//
// The walk is one pass over v, the value at at: it returns v's raw JSON
// with the rewrites and whether anything changed, rebuilding only the
// changed containers. key is the member name (or array index) of v;
// channel and media say whether a `modelByChannel` or `mediaModels` object
// encloses it.
func (r *repairer) refs(at occkit.Path, v gjson.Result, key string, channel, media bool) (string, bool) {
	switch {
	case v.Type == gjson.String:
		if refStringKeys[key] || channel || media && mediaKeys[key] {
			return r.cliRef(at, v)
		}
	case v.IsArray():
		allow := key == "allow" && parentKey(at) == "modelPolicy"
		inChannel, inMedia := channel || key == "modelByChannel", media || key == "mediaModels"
		var parts []string
		changed := false
		v.ForEach(func(_, e gjson.Result) bool {
			i := len(parts)
			var raw string
			var ok bool
			if e.Type == gjson.String && (refArrayKeys[key] || allow) {
				raw, ok = r.cliRef(at.Index(i), e)
			} else {
				raw, ok = r.refs(at.Index(i), e, strconv.Itoa(i), inChannel, inMedia)
			}
			parts = append(parts, raw)
			changed = changed || ok
			return true
		})
		if changed {
			return "[" + strings.Join(parts, ",") + "]", true
		}
	case v.IsObject():
		changed := false
		provider, model := v.Get("provider"), v.Get("model")
		pair := provider.Type == gjson.String && model.Type == gjson.String
		var pairProvider, pairModel string
		rewritten := false // the pair is written back as pairProvider, pairModel
		if pair && strings.TrimSpace(provider.String()) != "" {
			from := provider.String() + "/" + model.String()
			ref, _, legacy := canonicalCLIRef(from)
			to, padded := ref.String(), false
			if !legacy {
				to, padded = trimmedRef(from)
			}
			if legacy || padded {
				pairProvider, pairModel, _ = strings.Cut(to, "/")
				r.add(ChangeRefRewritten, at, from, to)
				changed, rewritten = true, true
			}
		}
		if key == "models" {
			if raw, ok := r.trimMapKeys(at, v); ok {
				v, changed = gjson.Parse(raw), true
			}
			if raw, ok := r.mapKeys(at, v, canonicalCLIRef, false); ok {
				v, changed = gjson.Parse(raw), true
			}
		}
		inChannel, inMedia := channel || key == "modelByChannel", media || key == "mediaModels"
		pairs := members(v)
		for i, p := range pairs {
			switch {
			case pair && p.key == "model":
				if rewritten {
					pairs[i].raw = quoteJSON(pairModel)
				}
				continue
			case pair && p.key == "provider" && rewritten:
				pairs[i].raw = quoteJSON(pairProvider)
				continue
			}
			if raw, ok := r.refs(at.Key(p.key), gjson.Parse(p.raw), p.key, inChannel, inMedia); ok {
				pairs[i].raw, changed = raw, true
			}
		}
		if changed {
			return rawObject(pairs), true
		}
	}
	return v.Raw, false
}

// cliRef rewrites one ref string of a retired CLI runtime, and trims a
// padded one.
func (r *repairer) cliRef(at occkit.Path, v gjson.Result) (string, bool) {
	ref, _, legacy := canonicalCLIRef(v.String())
	to := ref.String()
	if !legacy {
		var padded bool
		if to, padded = trimmedRef(v.String()); !padded {
			return v.Raw, false
		}
	}
	r.add(ChangeRefRewritten, at, v.String(), to)
	return quoteJSON(to), true
}

// parentKey is the member name of the object holding the value at at
// ("" at the root or under an array).
func parentKey(at occkit.Path) string {
	if at.Len() < 2 {
		return ""
	}
	k, _, isIndex := at.Elem(at.Len() - 2)
	if isIndex {
		return ""
	}
	return k
}
