package compile

import (
	"encoding/json"
	"reflect"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/internal/docjson"
	"github.com/occkit/occkit/resolver"
)

// Legacy Codex provider entries (CMP-3). Doctor moves the catalog entries
// `models.providers.codex` and `models.providers.openai-codex` (keys
// compared trimmed and lowercased) onto the canonical `openai` entry, and
// keeps the `codex/*` refs of an entry it cannot move safely as they are
// written: migrating them would route them through an `openai` entry whose
// provider-level settings or rows differ from the ones they were written
// against.

const (
	openAIProvider     = "openai"
	legacyCodexAPI     = "openai-codex-responses"
	chatGPTRespsAPI    = "openai-chatgpt-responses"
	movedCodexProvider = "codex" // the one legacy entry whose rows keep the codex runtime
)

// legacyCodexIDs are the legacy Codex provider spellings, normalized.
var legacyCodexIDs = map[string]bool{"codex": true, "openai-codex": true}

// unscopedProviderKeys are provider-level settings that have no per-row
// form: a legacy entry carrying one cannot have its rows merged, and a
// colliding row is equivalent only when both entries agree on them.
var unscopedProviderKeys = []string{"apiKey", "auth", "request", "timeoutSeconds", "region",
	"injectNumCtxForOpenAICompat", "localService", "headers", "authHeader"}

// canonicalLeakKeys are the settings of the canonical openai entry that
// would silently apply to rows merged into it.
var canonicalLeakKeys = []string{"apiKey", "auth", "contextWindow", "contextTokens", "maxTokens",
	"timeoutSeconds", "region", "injectNumCtxForOpenAICompat", "params", "agentRuntime", "localService",
	"headers", "authHeader", "request"}

// normProviderID is a provider key as doctor compares it.
func normProviderID(k string) string { return strings.ToLower(strings.TrimSpace(k)) }

// codexWildcards returns the legacy Codex providers named by a `p/*` entry
// of any agent scope's modelPolicy.allow: agents.defaults and the object
// values of agents.entries (or, when there is no entries object, the object
// items of agents.list), skipping the prototype keys doctor never visits.
// Such a wildcard would authorize every OpenAI model
// once migrated, so its provider is blocked.
func codexWildcards(doc occkit.Document) map[string]bool {
	out := map[string]bool{}
	visit := func(scope gjson.Result) {
		if !scope.IsObject() {
			return
		}
		mp := scope.Get("modelPolicy")
		if !mp.IsObject() {
			return
		}
		allow := mp.Get("allow")
		if !allow.IsArray() {
			return
		}
		allow.ForEach(func(_, e gjson.Result) bool {
			s := strings.TrimSpace(e.String())
			if e.Type == gjson.String && strings.HasSuffix(s, "/*") {
				if p := normProviderID(strings.TrimSuffix(s, "/*")); legacyCodexIDs[p] {
					out[p] = true
				}
			}
			return true
		})
	}
	agents := docjson.Get(doc, occkit.NewPath("agents"))
	if !agents.IsObject() {
		return out
	}
	visit(agents.Get("defaults"))
	if entries := agents.Get("entries"); entries.IsObject() {
		for _, m := range members(entries) {
			if !prototypeKeys[m.key] {
				visit(gjson.Parse(m.raw))
			}
		}
		return out
	}
	if list := agents.Get("list"); list.IsArray() {
		for _, item := range list.Array() {
			if id := item.Get("id"); !(id.Type == gjson.String && prototypeKeys[id.Str]) {
				visit(item)
			}
		}
	}
	return out
}

// renameCodexAPI returns the provider entry p with `api:
// openai-codex-responses` renamed on the entry and on its object rows, and
// the paths (relative to the entry) it renamed.
func renameCodexAPI(p gjson.Result) (string, []occkit.Path) {
	raw := p.Raw
	var renamed []occkit.Path
	if api := p.Get("api"); api.Type == gjson.String && api.Str == legacyCodexAPI {
		raw = setMember(raw, "api", quoteJSON(chatGPTRespsAPI))
		renamed = append(renamed, occkit.NewPath("api"))
	}
	rows := p.Get("models")
	if !rows.IsArray() {
		return raw, renamed
	}
	items := rows.Array()
	parts := make([]string, len(items))
	rowsChanged := false
	for i, row := range items {
		parts[i] = row.Raw
		if api := row.Get("api"); row.IsObject() && api.Type == gjson.String && api.Str == legacyCodexAPI {
			parts[i], rowsChanged = setMember(row.Raw, "api", quoteJSON(chatGPTRespsAPI)), true
			renamed = append(renamed, occkit.NewPath("models").Index(i).Key("api"))
		}
	}
	if rowsChanged {
		raw = setMember(raw, "models", "["+strings.Join(parts, ",")+"]")
	}
	return raw, renamed
}

// optRuntimeID is a runtime ID as doctor's provider migration reads it: ""
// when v is no string or blank; the embedded runtime's aliases folded, but
// "default" is no alias of auto here.
func optRuntimeID(v gjson.Result) string {
	s := strings.ToLower(strings.TrimSpace(v.Str))
	if v.Type != gjson.String || s == "" || s == "default" {
		return s
	}
	return resolver.NormalizeRuntime(s)
}

// objectOrNone is v when it is an object, the zero Result otherwise.
func objectOrNone(v gjson.Result) gjson.Result {
	if v.IsObject() {
		return v
	}
	return gjson.Result{}
}

// movedCodexRuntime is the raw agentRuntime a row of the legacy entry
// provider (key id) gets when it moves to openai ("" to leave the row's
// own): only `codex` rows keep the codex runtime. A row's concrete pin
// stays; an `auto` pin becomes codex; otherwise the entry's concrete pin,
// or codex.
func movedCodexRuntime(id string, provider, row gjson.Result) string {
	if normProviderID(id) != movedCodexProvider {
		return ""
	}
	mr := objectOrNone(row.Get("agentRuntime"))
	switch rid := optRuntimeID(mr.Get("id")); rid {
	case "":
	case "auto":
		return setMember(mr.Raw, "id", quoteJSON(string(occkit.HarnessCodex)))
	default:
		return ""
	}
	pr := objectOrNone(provider.Get("agentRuntime"))
	if pid := optRuntimeID(pr.Get("id")); pid != "" && pid != "auto" {
		return pr.Raw
	}
	return setMember(pr.Raw, "id", quoteJSON(string(occkit.HarnessCodex)))
}

// truthy is JavaScript truthiness of a JSON value (false when missing).
func truthy(v gjson.Result) bool {
	switch v.Type {
	case gjson.Null, gjson.False:
		return false
	case gjson.Number:
		return v.Float() != 0
	case gjson.String:
		return v.Str != ""
	}
	return true
}

// settingsOf is the provider entry v without its rows: what [mergedRow]
// and [movedCodexRuntime] read of it, read once, so that a row costs its
// own size and not the catalog's again.
func settingsOf(v gjson.Result) gjson.Result {
	if !v.IsObject() {
		return v
	}
	ms := members(v)
	out := ms[:0:0]
	for _, m := range ms {
		if m.key != "models" {
			out = append(out, m)
		}
	}
	return gjson.Parse(rawObject(out))
}

// mergedRow is the catalog row as it reads once merged out of the provider
// entry provider (key id): the entry's baseUrl and api where the row has
// none, its numeric limits and params where the row lacks them, the moved
// codex runtime or the entry's runtime, and the `models-add` metadata
// marker on the legacy `/models add` Codex shape. New keys are appended in
// that order; existing ones keep their place.
func mergedRow(row, provider gjson.Result, id string) string {
	if !row.IsObject() {
		return row.Raw
	}
	raw := row.Raw
	for _, k := range []string{"baseUrl", "api"} {
		if v := provider.Get(k); v.Type == gjson.String && v.Str != "" && !truthy(row.Get(k)) {
			raw = setMember(raw, k, v.Raw)
		}
	}
	for _, k := range []string{"contextWindow", "contextTokens", "maxTokens"} {
		if v := provider.Get(k); v.Type == gjson.Number && !row.Get(k).Exists() {
			raw = setMember(raw, k, v.Raw)
		}
	}
	if lp := provider.Get("params"); lp.IsObject() {
		switch mp := row.Get("params"); {
		case mp.IsObject():
			merged := lp.Raw
			for _, m := range members(mp) {
				merged = setMember(merged, m.key, m.raw)
			}
			raw = setMember(raw, "params", merged)
		case !mp.Exists():
			raw = setMember(raw, "params", lp.Raw)
		}
	}
	if moved := movedCodexRuntime(id, provider, row); moved != "" {
		raw = setMember(raw, "agentRuntime", moved)
	} else if pr := provider.Get("agentRuntime"); pr.IsObject() && !row.Get("agentRuntime").Exists() {
		raw = setMember(raw, "agentRuntime", pr.Raw)
	}
	if !row.Get("metadataSource").Exists() && isModelsAddCodexRow(id, row) {
		raw = setMember(raw, "metadataSource", `"models-add"`)
	}
	return raw
}

// isModelsAddCodexRow reports whether row of the legacy entry id has the
// exact shape the legacy Codex `/models add` command wrote.
func isModelsAddCodexRow(id string, row gjson.Result) bool {
	if !legacyCodexIDs[normProviderID(id)] {
		return false
	}
	mid := row.Get("id")
	switch strings.ToLower(strings.TrimSpace(mid.Str)) {
	case "gpt-5.5", "gpt-5.5-pro":
	default:
		return false
	}
	if mid.Type != gjson.String {
		return false
	}
	if api := row.Get("api"); api.Type != gjson.String || (api.Str != legacyCodexAPI && api.Str != chatGPTRespsAPI) {
		return false
	}
	if row.Get("reasoning").Type != gjson.True {
		return false
	}
	in := row.Get("input")
	if items := in.Array(); !in.IsArray() || len(items) != 2 ||
		items[0].Type != gjson.String || items[0].Str != "text" || items[1].Type != gjson.String || items[1].Str != "image" {
		return false
	}
	num := func(v gjson.Result, want float64) bool { return v.Type == gjson.Number && v.Float() == want }
	cost := objectOrNone(row.Get("cost"))
	return num(cost.Get("input"), 5) && num(cost.Get("output"), 30) && num(cost.Get("cacheRead"), 0.5) &&
		num(cost.Get("cacheWrite"), 0) && num(row.Get("contextWindow"), 400000) &&
		num(row.Get("contextTokens"), 272000) && num(row.Get("maxTokens"), 128000)
}

// jsonEqual reports whether two raw JSON values are equal as values (object
// member order aside); two missing values are equal.
func jsonEqual(a, b gjson.Result) bool {
	if !a.Exists() || !b.Exists() {
		return a.Exists() == b.Exists()
	}
	var x, y any
	if json.Unmarshal([]byte(a.Raw), &x) != nil || json.Unmarshal([]byte(b.Raw), &y) != nil {
		return a.Raw == b.Raw
	}
	return reflect.DeepEqual(x, y)
}

// rowName is a row's identity: its non-empty string id, else its
// non-empty string name (byID says which); ok is false for neither.
func rowName(row gjson.Result) (name string, byID, ok bool) {
	if !row.IsObject() {
		return "", false, false
	}
	if id := row.Get("id"); id.Type == gjson.String && id.Str != "" {
		return id.Str, true, true
	}
	if n := row.Get("name"); n.Type == gjson.String && n.Str != "" {
		return n.Str, false, true
	}
	return "", false, false
}

// canonIndex is the canonical openai entry as the migration reads it:
// its provider-level settings, its rows (merged ones appended) and the
// rows by identity, so that judging and merging a legacy entry costs its
// own rows, not the canonical ones again.
type canonIndex struct {
	base   gjson.Result // the entry (its "models" replaced by rows once grown)
	set    gjson.Result // the entry's settings ([settingsOf])
	rows   []string     // the rows' JSON
	byID   map[string][]int
	byName map[string][]int
	eff    map[int]gjson.Result // effective rows ([mergedRow] under base), as read
	grown  bool
}

// newCanonIndex indexes the canonical entry v (an object, or {} for none).
func newCanonIndex(v gjson.Result) *canonIndex {
	c := &canonIndex{base: v, set: settingsOf(v), byID: map[string][]int{}, byName: map[string][]int{}, eff: map[int]gjson.Result{}}
	if rows := v.Get("models"); rows.IsArray() {
		rows.ForEach(func(_, row gjson.Result) bool {
			c.index(row)
			return true
		})
	}
	return c
}

// index appends row to the rows and their identities.
func (c *canonIndex) index(row gjson.Result) {
	i := len(c.rows)
	c.rows = append(c.rows, row.Raw)
	if !row.IsObject() {
		return
	}
	if id := row.Get("id"); id.Type == gjson.String {
		c.byID[id.Str] = append(c.byID[id.Str], i)
	}
	if n := row.Get("name"); n.Type == gjson.String {
		c.byName[n.Str] = append(c.byName[n.Str], i)
	}
}

// add appends a merged row.
func (c *canonIndex) add(raw string) {
	c.index(gjson.Parse(raw))
	c.grown = true
}

// raw is the entry's JSON with the rows merged into it.
func (c *canonIndex) raw() string {
	if !c.grown {
		return c.base.Raw
	}
	return setMember(c.base.Raw, "models", "["+strings.Join(c.rows, ",")+"]")
}

// same are the rows with a legacy row's identity (its id, or its name
// when it has no id).
func (c *canonIndex) same(name string, byID bool) []int {
	if byID {
		return c.byID[name]
	}
	return c.byName[name]
}

// effective is row i read with the entry's defaults.
func (c *canonIndex) effective(i int) gjson.Result {
	e, ok := c.eff[i]
	if !ok {
		e = gjson.Parse(mergedRow(gjson.Parse(c.rows[i]), c.set, openAIProvider))
		c.eff[i] = e
	}
	return e
}

// collides reports whether a row of the legacy entry (key id) shares its
// identity with a canonical row that is not equivalent: different once
// both are read with their entries' defaults, or under entries that
// disagree on a provider-level setting.
func (c *canonIndex) collides(legacy gjson.Result, id string) bool {
	lrows := legacy.Get("models")
	if !lrows.IsArray() {
		return false
	}
	lset := settingsOf(legacy)
	differ, settled := false, false // the entries disagree on a provider-level setting
	unscopedDiffer := func() bool {
		if !settled {
			settled = true
			for _, k := range unscopedProviderKeys {
				if !jsonEqual(c.set.Get(k), lset.Get(k)) {
					differ = true
					break
				}
			}
		}
		return differ
	}
	collides := false
	lrows.ForEach(func(_, row gjson.Result) bool {
		name, byID, ok := rowName(row)
		if !ok {
			return true
		}
		same := c.same(name, byID)
		if len(same) == 0 {
			return true
		}
		effective := gjson.Parse(mergedRow(row, lset, id))
		for _, i := range same {
			if !jsonEqual(c.effective(i), effective) || unscopedDiffer() {
				collides = true
				return false
			}
		}
		return true
	})
	return collides
}

// mergeable are the rows of the legacy entry the canonical entry lacks
// (by id, or by name for a row without one).
func (c *canonIndex) mergeable(legacy gjson.Result) []gjson.Result {
	lrows := legacy.Get("models")
	if !lrows.IsArray() {
		return nil
	}
	var out []gjson.Result
	lrows.ForEach(func(_, row gjson.Result) bool {
		if name, byID, ok := rowName(row); ok && len(c.same(name, byID)) == 0 {
			out = append(out, row)
		}
		return true
	})
	return out
}

// kept reports whether the legacy entry (key id, api renamed) stays beside
// the canonical entry.
func (c *canonIndex) kept(legacy gjson.Result, id string) bool {
	return c.collides(legacy, id) || len(c.mergeable(legacy)) > 0 && mergeBlocked(c.base, legacy)
}

// mergeBlocked reports whether provider-level settings keep the legacy
// entry's rows from merging: one of its own that rows cannot carry, or one
// of the canonical entry's that would apply to them.
func mergeBlocked(canonical, legacy gjson.Result) bool {
	for _, k := range unscopedProviderKeys {
		if legacy.Get(k).Exists() {
			return true
		}
	}
	for _, k := range canonicalLeakKeys {
		if canonical.Get(k).Exists() {
			return true
		}
	}
	return false
}

// canonicalEntry finds the canonical openai entry among the providers: the
// index of the first key that normalizes to openai (-1 for none) and its
// value when that is an object.
func canonicalEntry(pairs []member) (int, gjson.Result, bool) {
	for i, p := range pairs {
		if normProviderID(p.key) == openAIProvider {
			v := gjson.Parse(p.raw)
			return i, v, v.IsObject()
		}
	}
	return -1, gjson.Result{}, false
}

// indexOf is the index of the first member named key, -1 for none.
func indexOf(pairs []member, key string) int {
	for i, p := range pairs {
		if p.key == key {
			return i
		}
	}
	return -1
}

// codexBlocked returns the legacy Codex providers whose refs must stay as
// written, computed once from the document after [repairer.codexProviders]
// (as doctor computes it after its legacy migrations): those a `codex/*`
// style wildcard names, and those whose entry is left beside the canonical
// openai entry because a row collides or its rows cannot merge.
func codexBlocked(doc occkit.Document) map[string]bool {
	blocked := codexWildcards(doc)
	providers := docjson.Get(doc, occkit.NewPath("models", "providers"))
	pairs := members(providers)
	_, canonical, ok := canonicalEntry(pairs)
	if !ok {
		return blocked
	}
	var c *canonIndex
	for _, p := range pairs {
		id := normProviderID(p.key)
		if !legacyCodexIDs[id] {
			continue
		}
		v := gjson.Parse(p.raw)
		if !v.IsObject() {
			continue
		}
		if c == nil {
			c = newCanonIndex(canonical)
		}
		raw, _ := renameCodexAPI(v)
		if c.kept(gjson.Parse(raw), p.key) {
			blocked[id] = true
		}
	}
	return blocked
}

// codexProviders migrates models.providers as doctor does, in key order
// (codex-cli runtime IDs already renamed, see [Repair]): the
// `openai-codex-responses` api becomes `openai-chatgpt-responses` on every
// entry and row; a legacy Codex entry (unless a wildcard blocks its
// provider) moves to `openai` when no key normalizes to openai, its rows
// stamped with the moved codex runtime ([movedCodexRuntime]); otherwise
// its rows the canonical entry lacks are appended to it, stamped
// ([mergedRow]), and the legacy entry is removed, unless a row collides or
// provider-level settings block the merge ([codexCollides],
// [mergeBlocked]): then the entry stays, only its api renamed.
func (r *repairer) codexProviders() error {
	at := occkit.NewPath("models", "providers")
	pv := docjson.Get(r.doc, at)
	if !pv.IsObject() {
		return nil
	}
	wild := codexWildcards(r.doc)
	pairs := members(pv)
	changed := false
	// The other entries' api is renamed before any legacy entry is judged
	// against the openai one, so that the judgment is the one a second
	// pass would make and Repair stays idempotent (CMP-3): doctor renames
	// each entry in key order, and judges a legacy entry listed before
	// openai against the openai entry's legacy api.
	for i, p := range pairs {
		v := gjson.Parse(p.raw)
		if legacyCodexIDs[normProviderID(p.key)] || !v.IsObject() {
			continue
		}
		if raw, renamed := renameCodexAPI(v); len(renamed) > 0 {
			pairs[i].raw, changed = raw, true
			for _, rel := range renamed {
				r.add(ChangeAPIRenamed, joinPath(at.Key(p.key), rel), legacyCodexAPI, chatGPTRespsAPI)
			}
		}
	}
	// The canonical entry: the first key that normalizes to openai, read
	// as doctor reads it (an entry that is no object reads as {} afresh
	// for each legacy entry, and a merge then writes providers.openai).
	fi, canonical, isObj := canonicalEntry(pairs)
	var canon *canonIndex
	canonAt := fi
	if isObj {
		canon = newCanonIndex(canonical)
	}
	openaiAt := indexOf(pairs, openAIProvider)
	n := len(pairs)
	drop := make([]bool, n)
	for i := 0; i < n; i++ {
		k := pairs[i].key
		id := normProviderID(k)
		if !legacyCodexIDs[id] || wild[id] {
			continue
		}
		v := gjson.Parse(pairs[i].raw)
		if !v.IsObject() {
			continue
		}
		raw, renamed := renameCodexAPI(v)
		legacy := gjson.Parse(raw)
		if canonAt < 0 {
			// No openai entry: the legacy one moves there.
			moved := raw
			if id == movedCodexProvider {
				moved = stampMovedRows(k, legacy)
			}
			pairs = append(pairs, member{key: openAIProvider, raw: moved})
			canonAt, canon = len(pairs)-1, newCanonIndex(gjson.Parse(moved))
			r.add(ChangeProviderMoved, at.Key(openAIProvider), k, openAIProvider)
			drop[i], changed = true, true
			continue
		}
		c := canon
		if c == nil {
			c = newCanonIndex(gjson.Parse("{}"))
		}
		if c.kept(legacy, k) {
			if len(renamed) > 0 {
				pairs[i].raw, changed = raw, true
				for _, p := range renamed {
					r.add(ChangeAPIRenamed, joinPath(at.Key(k), p), legacyCodexAPI, chatGPTRespsAPI)
				}
			}
			continue
		}
		drop[i], changed = true, true
		rows := c.mergeable(legacy)
		if len(rows) == 0 {
			r.add(ChangeProviderMoved, at.Key(k), k, "")
			continue
		}
		lset := settingsOf(legacy)
		for _, row := range rows {
			c.add(mergedRow(row, lset, k))
		}
		if canon != nil {
			r.add(ChangeProviderMoved, at.Key(pairs[canonAt].key), k, pairs[canonAt].key)
			continue
		}
		// The canonical key holds no object: the merge writes
		// providers.openai, which is the canonical entry from then on
		// when it is the canonical key itself.
		if openaiAt < 0 {
			pairs = append(pairs, member{key: openAIProvider, raw: c.raw()})
			openaiAt = len(pairs) - 1
		} else {
			pairs[openaiAt].raw = c.raw()
			if openaiAt == canonAt {
				canon = c
			}
		}
		r.add(ChangeProviderMoved, at.Key(openAIProvider), k, openAIProvider)
	}
	if canon != nil && canon.grown {
		pairs[canonAt].raw = canon.raw()
	}
	if !changed {
		return nil
	}
	kept := pairs[:0:0]
	for i, p := range pairs {
		if i >= n || !drop[i] {
			kept = append(kept, p)
		}
	}
	return r.setRaw(at, rawObject(kept))
}

// stampMovedRows is the legacy `codex` entry with each object row given
// the moved codex runtime ([movedCodexRuntime]).
func stampMovedRows(k string, legacy gjson.Result) string {
	rows := legacy.Get("models")
	if !rows.IsArray() {
		return legacy.Raw
	}
	items := rows.Array()
	parts := make([]string, len(items))
	set := settingsOf(legacy)
	for i, row := range items {
		parts[i] = row.Raw
		if !row.IsObject() {
			continue
		}
		if rt := movedCodexRuntime(k, set, row); rt != "" {
			parts[i] = setMember(row.Raw, "agentRuntime", rt)
		}
	}
	return setMember(legacy.Raw, "models", "["+strings.Join(parts, ",")+"]")
}
