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
		mp.Get("allow").ForEach(func(_, e gjson.Result) bool {
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

// sameRow reports whether the canonical row c has the identity of a legacy
// row (id, or name when the legacy row has no id).
func sameRow(c gjson.Result, name string, byID bool) bool {
	if !c.IsObject() {
		return false
	}
	v := c.Get("name")
	if byID {
		v = c.Get("id")
	}
	return v.Type == gjson.String && v.Str == name
}

// codexCollides reports whether a row of the legacy entry (key id) shares
// its identity with a canonical row that is not equivalent: different once
// both are read with their entries' defaults, or under entries that
// disagree on a provider-level setting.
func codexCollides(canonical, legacy gjson.Result, id string) bool {
	crows := canonical.Get("models").Array()
	if !canonical.Get("models").IsArray() {
		crows = nil
	}
	lrows := legacy.Get("models")
	if !lrows.IsArray() {
		return false
	}
	for _, row := range lrows.Array() {
		name, byID, ok := rowName(row)
		if !ok {
			continue
		}
		effective := gjson.Parse(mergedRow(row, legacy, id))
		for _, c := range crows {
			if !sameRow(c, name, byID) {
				continue
			}
			if !jsonEqual(gjson.Parse(mergedRow(c, canonical, openAIProvider)), effective) {
				return true
			}
			for _, k := range unscopedProviderKeys {
				if !jsonEqual(canonical.Get(k), legacy.Get(k)) {
					return true
				}
			}
		}
	}
	return false
}

// mergeableRows are the rows of the legacy entry the canonical entry lacks
// (by id, or by name for a row without one).
func mergeableRows(canonical, legacy gjson.Result) []gjson.Result {
	lrows := legacy.Get("models")
	if !lrows.IsArray() {
		return nil
	}
	ids, names := map[string]bool{}, map[string]bool{}
	if crows := canonical.Get("models"); crows.IsArray() {
		for _, c := range crows.Array() {
			if !c.IsObject() {
				continue
			}
			if id := c.Get("id"); id.Type == gjson.String && id.Str != "" {
				ids[id.Str] = true
			}
			if n := c.Get("name"); n.Type == gjson.String && n.Str != "" {
				names[n.Str] = true
			}
		}
	}
	var out []gjson.Result
	for _, row := range lrows.Array() {
		name, byID, ok := rowName(row)
		if ok && (byID && !ids[name] || !byID && !names[name]) {
			out = append(out, row)
		}
	}
	return out
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
	for _, p := range pairs {
		v := gjson.Parse(p.raw)
		id := normProviderID(p.key)
		if !legacyCodexIDs[id] || !v.IsObject() {
			continue
		}
		raw, _ := renameCodexAPI(v)
		legacy := gjson.Parse(raw)
		if codexCollides(canonical, legacy, p.key) ||
			len(mergeableRows(canonical, legacy)) > 0 && mergeBlocked(canonical, legacy) {
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
	keys := make([]string, len(pairs))
	for i, p := range pairs {
		keys[i] = p.key
	}
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
	for _, k := range keys {
		i := indexOf(pairs, k)
		v := gjson.Parse(pairs[i].raw)
		if !legacyCodexIDs[normProviderID(k)] || !v.IsObject() || wild[normProviderID(k)] {
			continue
		}
		raw, renamed := renameCodexAPI(v)
		if r.codexKept(pairs, k, gjson.Parse(raw)) {
			if len(renamed) > 0 {
				pairs[i].raw, changed = raw, true
				for _, p := range renamed {
					r.add(ChangeAPIRenamed, joinPath(at.Key(k), p), legacyCodexAPI, chatGPTRespsAPI)
				}
			}
			continue
		}
		changed = true
		pairs = r.moveCodex(at, pairs, k, gjson.Parse(raw))
	}
	if !changed {
		return nil
	}
	return r.setRaw(at, rawObject(pairs))
}

// codexKept reports whether the legacy entry k (api renamed: legacy) stays
// beside an existing canonical entry.
func (r *repairer) codexKept(pairs []member, k string, legacy gjson.Result) bool {
	ci, canonical, ok := canonicalEntry(pairs)
	if ci < 0 {
		return false
	}
	if !ok {
		canonical = gjson.Parse("{}")
	}
	return codexCollides(canonical, legacy, k) ||
		len(mergeableRows(canonical, legacy)) > 0 && mergeBlocked(canonical, legacy)
}

// moveCodex moves the legacy entry k (api renamed: legacy) onto openai and
// returns the providers without it.
func (r *repairer) moveCodex(at occkit.Path, pairs []member, k string, legacy gjson.Result) []member {
	ci, canonical, ok := canonicalEntry(pairs)
	switch {
	case ci < 0:
		raw := legacy.Raw
		if normProviderID(k) == movedCodexProvider {
			raw = stampMovedRows(k, legacy)
		}
		pairs = append(pairs, member{key: openAIProvider, raw: raw})
		r.add(ChangeProviderMoved, at.Key(openAIProvider), k, openAIProvider)
	default:
		ckey := pairs[ci].key
		if !ok {
			ckey, canonical = openAIProvider, gjson.Parse("{}")
		}
		rows := mergeableRows(canonical, legacy)
		if len(rows) == 0 {
			r.add(ChangeProviderMoved, at.Key(k), k, "")
			break
		}
		var parts []string
		if crows := canonical.Get("models"); crows.IsArray() {
			for _, c := range crows.Array() {
				parts = append(parts, c.Raw)
			}
		}
		for _, row := range rows {
			parts = append(parts, mergedRow(row, legacy, k))
		}
		raw := setMember(canonical.Raw, "models", "["+strings.Join(parts, ",")+"]")
		if j := indexOf(pairs, ckey); j >= 0 {
			pairs[j].raw = raw
		} else {
			pairs = append(pairs, member{key: ckey, raw: raw})
		}
		r.add(ChangeProviderMoved, at.Key(ckey), k, ckey)
	}
	i := indexOf(pairs, k)
	return append(pairs[:i:i], pairs[i+1:]...)
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
	for i, row := range items {
		parts[i] = row.Raw
		if !row.IsObject() {
			continue
		}
		if rt := movedCodexRuntime(k, legacy, row); rt != "" {
			parts[i] = setMember(row.Raw, "agentRuntime", rt)
		}
	}
	return setMember(legacy.Raw, "models", "["+strings.Join(parts, ",")+"]")
}
