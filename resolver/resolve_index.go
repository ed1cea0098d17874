package resolver

import (
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/tidwall/gjson"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/internal/docjson"
)

// This file builds, in one pass over the document, the indexes OCC Harness
// resolution evaluates: selections, selectable catalogs, provider rows and
// plugin routing. Every lookup afterwards is a hash lookup, so resolution
// stays linear in the number of models.

// runtimeState is the state of one agentRuntime setting (RES-1).
type runtimeState uint8

const (
	runtimeNone runtimeState = iota // no agentRuntime
	runtimeOK                       // agentRuntime {id: openclaw|codex}
	runtimeBad                      // present but unsupported (already reported)
)

// harnessID is a supported agentRuntime id stored in one byte, so the
// per-model indexes hold no string (and no pointer) for it.
type harnessID uint8

const (
	hidOpenClaw harnessID = iota
	hidCodex
)

// toHarnessID maps a supported agentRuntime id ("openclaw" or "codex").
func toHarnessID(id string) harnessID {
	if id == string(occkit.HarnessCodex) {
		return hidCodex
	}
	return hidOpenClaw
}

func (h harnessID) String() string {
	if h == hidCodex {
		return string(occkit.HarnessCodex)
	}
	return string(occkit.HarnessOpenClaw)
}

// readRuntime reads the agentRuntime of a policy holder (a catalog
// entry, a provider row or a provider). shape reports whether the refusal
// is of agentRuntime itself (not an object) rather than of its id.
func readRuntime(v gjson.Result) (id string, st runtimeState, shape bool) {
	id, st, shape, _ = readPolicy(v, "")
	return id, st, shape
}

// readPolicy is readRuntime that also returns the holder's field
// named other (when not ""), in one scan of the object.
func readPolicy(v gjson.Result, other string) (id string, st runtimeState, shape bool, field gjson.Result) {
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

// sizeHint estimates how many members a JSON container of raw holds,
// at perMember bytes each, to size its index once.
func sizeHint(raw string, perMember int) int {
	n := len(raw) / perMember
	if n > 1<<16 {
		n = 1 << 16
	}
	return n
}

// sampled is how many members a slice index starts with room for; then
// [regrow] sizes it from the bytes those members took.
const sampled = 16

// regrow gives s, whose len(s) members took used bytes of a container of
// total bytes, room for the rest at their average size plus an eighth:
// sizing from a fixed bytes-per-member guess over-allocates two to three
// times for real members, which costs clearing and collection in
// proportion to the catalog. It is a no-op unless s is full.
func regrow[T any](s []T, used, total int) []T {
	if len(s) < cap(s) || len(s) == 0 || used <= 0 {
		return s
	}
	rest := (total - used) / (used/len(s) + 1)
	return slices.Grow(s, rest+rest/8+1)
}

// runtimeErr is the RES-1 refusal of the agentRuntime under base.
func runtimeErr(base occkit.Path, shape bool, holder gjson.Result) error {
	if shape {
		return invalid("RES-1", base.Key("agentRuntime"),
			"%s must be an object {id}", base.Key("agentRuntime"))
	}
	hint, suggestion := "", ""
	if id := holder.Get("agentRuntime.id"); id.Type == gjson.String {
		runtimes := []string{string(occkit.HarnessOpenClaw), string(occkit.HarnessCodex)}
		hint, suggestion = occkit.DidYouMean(id.Str, runtimes), occkit.Suggest(id.Str, runtimes)
	}
	e := invalid("RES-1", base.Key("agentRuntime").Key("id"),
		`%s must be "openclaw" or "codex"%s`, base.Key("agentRuntime").Key("id"), hint)
	e.Suggestion = suggestion
	return e
}

// catalogKey is one key of a selectable catalog (agents.defaults.models or
// an entry's models).
//
// It is kept small and nearly pointer-free (one entry per model, live while
// a catalog is evaluated): the ref is its key "provider/id" with the
// provider's length, and the runtime a byte. The key as written is kept
// apart (catalogIndex.raws) only when it differs from the ref's key.
type catalogKey struct {
	key   string // the ref's Key() when valid, else the key as written
	pl    int32  // len(provider) in key
	prev  int32  // the previous key with the same Ref.Key, or -1
	valid bool   // the key as written is a valid selected ref (REF-3)
	other bool   // the key as written differs from key: see catalogIndex.raws
	rt    harnessID
	rtSt  runtimeState
}

// provider is the key's ref's provider (valid keys only).
func (k *catalogKey) provider() string { return k.key[:k.pl] }

// catalogIndex is one selectable catalog.
type catalogIndex struct {
	present bool
	bad     bool // not an object (reported)
	path    occkit.Path
	keys    []catalogKey
	raws    map[int32]string // the keys as written that differ from their ref's key
	byKey   indexTable       // Ref.Key() -> last index into keys (chained by prev); nil without valid keys
}

// lookup calls f for each key whose ref is key, in document order.
func (c *catalogIndex) lookup(key string, f func(i int32)) {
	u, ok := tableGet(c.byKey, key, c.keys, catalogKeyOf)
	if !ok {
		return
	}
	i := int32(u)
	if c.keys[i].prev < 0 { // the common case: one key
		f(i)
		return
	}
	var buf [8]int32
	all := buf[:0]
	for ; i >= 0; i = c.keys[i].prev {
		all = append(all, i)
	}
	for j := len(all) - 1; j >= 0; j-- {
		f(all[j])
	}
}

// has reports whether the catalog holds key.
func (c *catalogIndex) has(key string) bool {
	_, ok := tableGet(c.byKey, key, c.keys, catalogKeyOf)
	return ok
}

func (c *catalogIndex) keyPath(i int) occkit.Path {
	if c.keys[i].other {
		return c.path.Key(c.raws[int32(i)])
	}
	return c.path.Key(c.keys[i].key)
}

// buildCatalog indexes a selectable catalog (RES-4: it must be an object
// of objects; RES-1: each agentRuntime is supported).
func buildCatalog(v gjson.Result, path occkit.Path, errs *[]error) catalogIndex {
	c := catalogIndex{present: v.Exists(), path: path}
	if !c.present {
		return c
	}
	if !v.IsObject() {
		c.bad = true
		*errs = append(*errs, invalid("RES-4", path, "%s must be an object keyed by model ref", path))
		return c
	}
	c.keys = make([]catalogKey, 0, min(sizeHint(v.Raw, 48), sampled))
	used := 1
	v.ForEach(func(k, val gjson.Result) bool {
		c.keys = regrow(c.keys, used, len(v.Raw))
		used += len(k.Raw) + len(val.Raw) + 2
		raw := k.String()
		ck := catalogKey{key: raw, prev: -1}
		if ref, ok := ParseRef(raw); ok {
			ck.valid, ck.key, ck.pl = true, refKey(raw, ref), int32(len(ref.Provider))
			if ck.key != raw {
				ck.other = true
				if c.raws == nil {
					c.raws = map[int32]string{}
				}
				c.raws[int32(len(c.keys))] = raw
			}
		}
		if !val.IsObject() {
			*errs = append(*errs, invalid("RES-4", path.Key(raw), "%s must be an object", path.Key(raw)))
			ck.rtSt = runtimeBad
		} else {
			rt, st, shape := readRuntime(val)
			ck.rt, ck.rtSt = toHarnessID(rt), st
			if ck.rtSt == runtimeBad {
				*errs = append(*errs, runtimeErr(path.Key(raw), shape, val))
			}
		}
		c.keys = append(c.keys, ck)
		return true
	})
	// Indexed once the keys are known, so the table is sized once.
	for i := range c.keys {
		ck := &c.keys[i]
		if !ck.valid {
			continue
		}
		if c.byKey == nil {
			c.byKey = newIndexTable(len(c.keys) - i)
		}
		if l, dup := tablePut(c.byKey, ck.key, uint32(i), c.keys, catalogKeyOf); dup {
			ck.prev = int32(l)
		}
	}
	return c
}

// catalogKeyOf is the key of keys[v], for [indexTable].
func catalogKeyOf(keys []catalogKey, v uint32) string { return keys[v].key }

// refKey is r.Key(), reusing raw when it is already written that way
// (the common case), so indexing does not allocate per key.
func refKey(raw string, r Ref) string {
	if r.Profile == "" && len(raw) == len(r.Provider)+1+len(r.ID) &&
		raw[:len(r.Provider)] == r.Provider && raw[len(r.Provider)] == '/' && raw[len(r.Provider)+1:] == r.ID {
		return raw
	}
	return r.Key()
}

// refAt is a model ref and where it is written: at *base, or at
// (*base)[idx] for a fallback. The location is built only when a reason or a
// problem needs it. One is kept per fallback, so it is compact: the ref is
// its key "provider/id" (the provider is its first pl bytes) and profile,
// and the fallbacks of one setting share one base.
type refAt struct {
	key     string // ref.Key()
	profile string // ref.Profile
	base    *occkit.Path
	pl      int32 // len(ref.Provider)
	idx     int32 // -1: at base itself
}

// ref is the parsed ref.
func (r *refAt) ref() Ref {
	return Ref{Provider: r.key[:r.pl], ID: r.key[r.pl+1:], Profile: r.profile}
}

// provider is ref().Provider.
func (r *refAt) provider() string { return r.key[:r.pl] }

// str is ref().String(): the key itself unless there is a profile.
func (r *refAt) str() string {
	if r.profile == "" {
		return r.key
	}
	return r.ref().String()
}

func (r *refAt) loc() occkit.Path {
	if r.idx < 0 {
		return *r.base
	}
	return r.base.Index(int(r.idx))
}

func newRefAt(raw string, ref Ref, base *occkit.Path, idx int) refAt {
	return refAt{key: refKey(strings.TrimSpace(raw), ref), profile: ref.Profile, base: base,
		pl: int32(len(ref.Provider)), idx: int32(idx)}
}

// modelSetting is one `model` setting: a string or {primary, fallbacks}
// (RES-3).
type modelSetting struct {
	present   bool
	ok        bool // the primary is known
	complete  bool // every ref parsed
	primary   refAt
	fallbacks []refAt
}

// parseModelSetting reads a `model` setting at path (RES-3).
func parseModelSetting(v gjson.Result, path occkit.Path, errs *[]error) modelSetting {
	s := modelSetting{present: v.Exists()}
	if !s.present {
		return s
	}
	switch {
	case v.Type == gjson.String:
		r, ok := ParseRef(v.Str)
		if !ok {
			*errs = append(*errs, invalid("RES-3", path, "%s must be a provider/model ref", path))
			return s
		}
		s.ok, s.complete, s.primary = true, true, newRefAt(v.Str, r, &path, -1)
		return s
	case !v.IsObject():
		*errs = append(*errs, invalid("RES-3", path,
			"%s must be a provider/model ref or an object {primary, fallbacks}", path))
		return s
	}
	s.complete = true
	pp := new(occkit.Path)
	*pp = path.Key("primary")
	pv := v.Get("primary")
	if r, ok := ParseRef(pv.Str); ok && pv.Type == gjson.String {
		s.ok, s.primary = true, newRefAt(pv.Str, r, pp, -1)
	} else {
		s.complete = false
		*errs = append(*errs, invalid("RES-3", *pp, "%s must be a provider/model ref", *pp))
	}
	fv := v.Get("fallbacks")
	if !fv.Exists() {
		return s
	}
	fp := new(occkit.Path)
	*fp = path.Key("fallbacks")
	if !fv.IsArray() {
		s.complete = false
		*errs = append(*errs, invalid("RES-3", *fp, "%s must be an array of provider/model refs", *fp))
		return s
	}
	s.fallbacks = make([]refAt, 0, min(sizeHint(fv.Raw, 24), sampled))
	used := 1
	i := -1
	fv.ForEach(func(_, e gjson.Result) bool {
		s.fallbacks = regrow(s.fallbacks, used, len(fv.Raw))
		used += len(e.Raw) + 1
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
		s.fallbacks = append(s.fallbacks, newRefAt(e.Str, r, fp, i))
		return true
	})
	return s
}

// agentEntry is one agents.entries value.
type agentEntry struct {
	id     string
	path   occkit.Path
	sel    modelSetting
	models catalogIndex
}

// catalogRow is one row of models.providers.<p>.models.
type catalogRow struct {
	id string // trimmed row id
	// id[altAt:altEnd] is the model ID after the provider prefix, when id
	// is written "<p>/…", else empty.
	altAt, altEnd int32
	prevA         int32 // the previous row indexed under id, or -1
	prevB         int32 // the previous row indexed under alt, or -1
	idOK          bool  // the row is an object with a string id
	used          bool  // a selected model names this row (RES-9)
	rt            harnessID
	rtSt          runtimeState
}

// alt is the row's model ID after its provider prefix, or "".
func (r *catalogRow) alt() string { return r.id[r.altAt:r.altEnd] }

// providerConfig is one models.providers value.
type providerConfig struct {
	raw    string // the key as written
	name   string // normalized provider name (REF-2)
	path   occkit.Path
	rt     harnessID
	rtSt   runtimeState
	rowsAt bool // a models array is present
	rows   []catalogRow
	// byID indexes every row under each model ID it can name on this
	// provider (REF-4): its id, and the ID after a "<p>/" prefix. The map
	// holds the last such row; earlier ones are chained by prevA/prevB.
	// Its values are row<<1, or row<<1|1 for a row indexed under its alt.
	byID indexTable
}

func (p *providerConfig) rowPath(i int) occkit.Path { return p.path.Key("models").Index(i) }

// normProvider normalizes a provider name the way refs are (REF-2).
func normProvider(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

// buildProvider indexes one provider entry (RES-4, RES-1, RES-9 shapes).
func buildProvider(raw string, v gjson.Result, path occkit.Path, errs *[]error) *providerConfig {
	p := &providerConfig{raw: raw, name: normProvider(raw), path: path}
	if !v.IsObject() {
		*errs = append(*errs, invalid("RES-4", path, "%s must be an object", path))
		p.rtSt = runtimeBad
		return p
	}
	rt, st, shape, mv := readPolicy(v, "models")
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
	p.rows = make([]catalogRow, 0, min(sizeHint(mv.Raw, 32), sampled))
	used := 1
	mv.ForEach(func(_, e gjson.Result) bool {
		p.rows = regrow(p.rows, used, len(mv.Raw))
		used += len(e.Raw) + 1
		i := int32(len(p.rows))
		row := catalogRow{prevA: -1, prevB: -1}
		switch {
		case !e.IsObject():
			*errs = append(*errs, invalid("RES-9", p.rowPath(int(i)),
				"%s must be an object with an id, not a bare string or other value", p.rowPath(int(i))))
		default:
			rt, st, shape, idv := readPolicy(e, "id")
			row.rt, row.rtSt = toHarnessID(rt), st
			if row.rtSt == runtimeBad {
				*errs = append(*errs, runtimeErr(p.rowPath(int(i)), shape, e))
			}
			if idv.Type != gjson.String || strings.TrimSpace(idv.Str) == "" {
				*errs = append(*errs, invalid("RES-9", p.rowPath(int(i)).Key("id"),
					"%s must be a model ID", p.rowPath(int(i)).Key("id")))
				break
			}
			row.idOK = true
			row.id = strings.TrimSpace(idv.Str)
			if pr, rest, ok := strings.Cut(row.id, "/"); ok && strings.EqualFold(strings.TrimSpace(pr), p.name) {
				if alt := strings.TrimSpace(rest); alt != "" && alt != row.id {
					// alt is a substring of rest, which ends row.id.
					row.altAt = int32(len(row.id) - len(rest) + strings.Index(rest, alt))
					row.altEnd = row.altAt + int32(len(alt))
				}
			}
		}
		p.rows = append(p.rows, row)
		return true
	})
	// Indexed once the rows are known, so the table is sized exactly.
	keys := 0
	for i := range p.rows {
		if p.rows[i].idOK {
			keys++
			if p.rows[i].alt() != "" {
				keys++
			}
		}
	}
	for i := range p.rows {
		row := &p.rows[i]
		if !row.idOK {
			continue
		}
		if p.byID == nil {
			p.byID = newIndexTable(keys)
		}
		if l, dup := tablePut(p.byID, row.id, uint32(i)<<1, p.rows, rowKeyOf); dup {
			row.prevA = int32(l >> 1)
		}
		if row.alt() != "" {
			if l, dup := tablePut(p.byID, row.alt(), uint32(i)<<1|1, p.rows, rowKeyOf); dup {
				row.prevB = int32(l >> 1)
			}
		}
	}
	return p
}

// rowKeyOf is the key of an entry of byID: the id of row v>>1, or its
// alt when v is odd.
func rowKeyOf(rows []catalogRow, v uint32) string {
	if v&1 == 0 {
		return rows[v>>1].id
	}
	return rows[v>>1].alt()
}

// rowsFor returns the indexes of the rows that name the candidate ref
// (REF-4), in row order, each confirmed by [MatchRow].
func (p *providerConfig) rowsFor(ref Ref, buf []int32) []int32 {
	out := buf[:0]
	u, ok := tableGet(p.byID, ref.ID, p.rows, rowKeyOf)
	i := int32(u >> 1)
	for ok && i >= 0 {
		r := &p.rows[i]
		if MatchRow(ref, r.id) {
			out = append(out, i)
		}
		if r.id == ref.ID {
			i = r.prevA
		} else {
			i = r.prevB
		}
	}
	// The chain runs from the last row back to the first.
	for a, b := 0, len(out)-1; a < b; a, b = a+1, b-1 {
		out[a], out[b] = out[b], out[a]
	}
	return out
}

// docIndex is everything resolution reads from one document.
type docIndex struct {
	errs []error

	shapeOK bool // agents, agents.defaults and agents.entries have their shapes
	// shapeErrs are the RES-2 refusals; when there are any, they are all
	// that is reported (the candidates cannot be known).
	shapeErrs []error
	// list is agents.list (RES-10: only an empty array may remain).
	list     gjson.Result
	defaults modelSetting
	defModel occkit.Path
	catalog  catalogIndex // agents.defaults.models
	entries  []*agentEntry

	providers map[string][]*providerConfig // normalized name -> entries
	provOrder []*providerConfig
	routed    map[string]bool // normalized plugins.entries keys (RES-6)
	codex     gjson.Result    // plugins.entries.codex (RES-7)

	// The Codex plugin's verdict for openai on codex (RES-7), decided once:
	// codexBad is the setting that refuses it, when codexRefused.
	codexRefused bool
	codexBad     occkit.Path

	// roster is what the roster rules read (Prepared.CheckRoster).
	roster rosterInput
}

var (
	pathAgents         = occkit.NewPath("agents")
	pathDefaults       = occkit.NewPath("agents", "defaults")
	pathEntries        = occkit.NewPath("agents", "entries")
	pathDefaultModel   = occkit.NewPath("agents", "defaults", "model")
	pathDefaultModels  = occkit.NewPath("agents", "defaults", "models")
	pathModels         = occkit.NewPath("models")
	pathProviders      = occkit.NewPath("models", "providers")
	pathPlugins        = occkit.NewPath("plugins")
	pathPluginEntries  = occkit.NewPath("plugins", "entries")
	pathCodexPlugin    = occkit.NewPath("plugins", "entries", "codex")
	pathCodexTransport = occkit.NewPath("plugins", "entries", "codex", "config", "appServer", "transport")
)

// objectField returns the first value of key in the object o (gjson
// semantics for duplicate keys) without building a path string.
func objectField(o gjson.Result, key string) gjson.Result {
	var out gjson.Result
	o.ForEach(func(k, v gjson.Result) bool {
		if k.Str == key {
			out = v
			return false // stop: the rest of a large object is not scanned
		}
		return true
	})
	return out
}

// objectFields scans the object o once and returns the first value of
// each named key, in the order of keys (absent keys give a zero Result).
func objectFields(o gjson.Result, keys ...string) []gjson.Result {
	out := make([]gjson.Result, len(keys))
	o.ForEach(func(k, v gjson.Result) bool {
		for i, key := range keys {
			if k.Str == key && !out[i].Exists() {
				out[i] = v
			}
		}
		return true
	})
	return out
}

// buildIndex makes the one pass over doc.
func buildIndex(doc occkit.Document) *docIndex {
	x := &docIndex{shapeOK: true, defModel: pathDefaultModel}
	root := docjson.Root(doc)
	x.roster = rosterInput{doc: doc, root: root}
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
	x.roster.agents = agents
	var af []gjson.Result
	if agents.IsObject() {
		af = objectFields(agents, rosterKeys...)
		copy(x.roster.members[:], af)
	} else {
		af = make([]gjson.Result, len(rosterKeys))
	}
	if errs := agentsShapeErrors(agents, af[0], af[1]); len(errs) > 0 {
		x.shapeOK, x.shapeErrs = false, errs
	}
	x.indexAgents(agents, af)
	x.indexProviders(models)
	x.indexPlugins(plugins)
	x.codexRefused, x.codexBad = codexPluginVerdict(x.codex)
	return x
}

// codexPluginVerdict decides whether the Codex plugin admits openai on
// the codex runtime: enabled true and the "websocket" app-server
// transport (RES-7). It names the first setting that refuses.
func codexPluginVerdict(plug gjson.Result) (bool, occkit.Path) {
	if !plug.Exists() || !plug.IsObject() {
		return true, pathCodexPlugin
	}
	if plug.Get("enabled").Type != gjson.True {
		return true, pathCodexPlugin.Key("enabled")
	}
	if t := plug.Get("config.appServer.transport"); t.Type != gjson.String || t.Str != "websocket" {
		return true, pathCodexTransport
	}
	return false, occkit.Path{}
}

// indexAgents indexes agents, whose defaults, entries and list are f.
func (x *docIndex) indexAgents(agents gjson.Result, f []gjson.Result) {
	if !agents.Exists() {
		return
	}
	if !agents.IsObject() {
		return // RES-2, decided by shapeErrors
	}
	defaults, entries := f[0], f[1]
	x.list = f[2]
	if defaults.Exists() {
		if defaults.IsObject() {
			f := objectFields(defaults, "model", "models")
			model, cat := f[0], f[1]
			x.defaults = parseModelSetting(model, pathDefaultModel, &x.errs)
			x.catalog = buildCatalog(cat, pathDefaultModels, &x.errs)
		}
	}
	if !entries.Exists() {
		return
	}
	if !entries.IsObject() {
		return
	}
	seen := map[string]bool{}
	entries.ForEach(func(k, v gjson.Result) bool {
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
		e.sel = parseModelSetting(model, p.Key("model"), &x.errs)
		e.models = buildCatalog(cat, p.Key("models"), &x.errs)
		x.entries = append(x.entries, e)
		return true
	})
	// Entries are evaluated in ID order so that the author's key order never
	// changes a decision or the problems reported.
	sort.Slice(x.entries, func(i, j int) bool { return x.entries[i].id < x.entries[j].id })
}

func (x *docIndex) indexProviders(models gjson.Result) {
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
	x.providers = map[string][]*providerConfig{}
	providers.ForEach(func(k, v gjson.Result) bool {
		raw := k.String()
		p := buildProvider(raw, v, pathProviders.Key(raw), &x.errs)
		x.providers[p.name] = append(x.providers[p.name], p)
		x.provOrder = append(x.provOrder, p)
		return true
	})
}

func (x *docIndex) indexPlugins(plugins gjson.Result) {
	if !plugins.Exists() {
		return
	}
	if !plugins.IsObject() {
		x.errs = append(x.errs, invalid("RES-6", pathPlugins, "plugins must be an object"))
		return
	}
	entries := objectField(plugins, "entries")
	if !entries.Exists() {
		return
	}
	if !entries.IsObject() {
		x.errs = append(x.errs, invalid("RES-6", pathPluginEntries, "plugins.entries must be an object keyed by plugin"))
		return
	}
	x.routed = map[string]bool{}
	entries.ForEach(func(k, v gjson.Result) bool {
		x.routed[normProvider(k.String())] = true
		if k.Str == "codex" && !x.codex.Exists() {
			x.codex = v
		}
		return true
	})
}

// nameRunes bounds how much of a setting's path a message spells out.
// Error details are capped at [occkit.MaxMessageRunes]; a path built from
// a long author key would otherwise push the rule text out of the message.
const nameRunes = 96

// boundedArgs returns args with every [occkit.Path] rendered as its dot
// path, cut to nameRunes code points with "…" when longer.
func boundedArgs(args []any) []any {
	out := args
	copied := false
	for i, a := range args {
		p, ok := a.(occkit.Path)
		if !ok {
			continue
		}
		if !copied {
			out, copied = append([]any(nil), args...), true
		}
		s := messagePath(p).String()
		if r := []rune(s); len(r) > nameRunes {
			s = string(r[:nameRunes-1]) + "…"
		}
		out[i] = s
	}
	return out
}

// messagePath is p with control characters in its keys replaced by '?'
// (as messages replace them), so a message names such a key as the author
// reads it rather than by its JSON escape.
func messagePath(p occkit.Path) occkit.Path {
	q := occkit.Root()
	for i := 0; i < p.Len(); i++ {
		k, idx, isIdx := p.Elem(i)
		if isIdx {
			q = q.Index(idx)
			continue
		}
		q = q.Key(strings.Map(func(r rune) rune {
			if unicode.IsControl(r) {
				return '?'
			}
			return r
		}, k))
	}
	return q
}

// invalid is [occkit.Invalid] with the paths named in the message
// bounded (boundedArgs); the error's Path stays exact.
func invalid(rule string, path occkit.Path, format string, args ...any) *occkit.Error {
	return occkit.Invalid(rule, path, format, boundedArgs(args)...)
}

// conflict is [occkit.Conflict] with bounded path arguments.
func conflict(rule string, path occkit.Path, format string, args ...any) *occkit.Error {
	return occkit.Conflict(rule, path, format, boundedArgs(args)...)
}
