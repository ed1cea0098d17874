package compile

import (
	"net/url"
	"regexp"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/internal/docjson"
	"github.com/occkit/occkit/resolver"
)

// Endpoint is a custom OpenAI-compatible model endpoint that a dedicated
// Codex Harness reaches instead of the official OpenAI route (CMP-1, PRB-9).
type Endpoint struct {
	// BaseURL is the endpoint's absolute HTTPS base URL, e.g.
	// "https://llm.example.test/v1". It is rendered into the Codex app-server
	// configuration ([RenderCodexConfig]), never into the gateway document.
	BaseURL string
	// ModelProvider is the provider ID the Codex side registers the endpoint
	// under; it becomes the second segment of the compiled gateway refs
	// (`codex/<ModelProvider>/<id>`). Empty means [DefaultModelProvider].
	ModelProvider string
	// AuthHeader mirrors OpenClaw's provider `authHeader` switch: the
	// credential travels as an `Authorization: Bearer` header. Codex sends
	// its provider credential that way in every case, so the switch is
	// carried for the caller and not rendered.
	AuthHeader bool
}

// DefaultModelProvider is the provider ID of a custom endpoint whose
// [Endpoint.ModelProvider] is empty.
const DefaultModelProvider = "openai-compatible"

var providerPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]{0,63}$`)

// Validate checks the endpoint: ModelProvider is a provider ID (lower-case
// letters, digits, `.`, `_`, `-`; not `openai` or `codex`, which Codex and
// OpenClaw reserve) and BaseURL an absolute `https` URL with a host and no
// user info, query or fragment (a URL must never carry a credential).
// Errors name the setting (`endpoint.baseUrl`, `endpoint.modelProvider`),
// never its value.
func (e Endpoint) Validate() error {
	var errs []error
	mp := e.provider()
	switch {
	case !providerPattern.MatchString(mp):
		errs = append(errs, occkit.Invalid("CMP-1", occkit.InstallationPath("endpoint", "modelProvider"),
			"endpoint.modelProvider must be a lower-case provider ID without '/'"))
	case mp == "openai" || mp == "codex":
		errs = append(errs, occkit.Invalid("CMP-1", occkit.InstallationPath("endpoint", "modelProvider"),
			"endpoint.modelProvider may not name a built-in provider"))
	}
	if msg := checkBaseURL(e.BaseURL); msg != "" {
		errs = append(errs, occkit.Invalid("PRB-9", occkit.InstallationPath("endpoint", "baseUrl"), "endpoint.baseUrl %s", msg))
	}
	return occkit.Join(errs...)
}

func checkBaseURL(raw string) string {
	s := strings.TrimSpace(raw)
	if s == "" {
		return "is required"
	}
	u, err := url.Parse(s)
	if err != nil || !u.IsAbs() || u.Host == "" || u.Hostname() == "" {
		return "must be an absolute URL"
	}
	switch {
	case u.Scheme != "https":
		return "must use https"
	case u.User != nil:
		return "must not carry user info"
	case u.RawQuery != "" || u.ForceQuery || u.Fragment != "":
		return "must not carry a query or fragment"
	}
	return ""
}

// provider returns the model provider ID, defaulted.
func (e Endpoint) provider() string {
	if mp := strings.TrimSpace(e.ModelProvider); mp != "" {
		return mp
	}
	return DefaultModelProvider
}

// CompileEndpoint compiles an admitted dedicated-Codex Configuration for a
// custom endpoint (CMP-1): the model selection in which every ref of the
// selected primary's provider becomes `codex/<ModelProvider>/<id>` and the
// codex provider catalog (`models.providers.codex.models`) is rebuilt from
// the selected refs and the catalog rows they match.
//
// The result is not a deployable gateway document: it keeps every other
// setting of the admitted document, the providers' apiKey, headers and the
// env inference variables included (AUTH-6). Deploy only what [BuildPlan]
// renders, which passes the gateway's document through [StripInference].
//
// The source provider is the provider of the selected primary
// (`agents.defaults.model`, else the first entry's model in document order).
// Rewritten: `model` (string or `{primary, fallbacks}`) and
// `subagents.model` in the defaults and every entry, and the keys of their
// `models` maps. Aliases without a slash, non-string values and other
// providers' refs are left alone; fallback order and every policy value are
// kept byte-for-byte. A catalog row matched (REF-4) by a rewritten ref keeps
// its metadata and gets the id `<ModelProvider>/<id>`; a selected ref
// without a row gets `{name, id}`; `models` keys without a row (wildcards
// always) are not projected. When the source provider is not `codex`, its
// provider entry moves to `models.providers.codex`.
//
// CompileEndpoint works on a copy (CMP-2): doc is never changed, and the
// result shares no bytes with it. An invalid endpoint, a missing or invalid
// primary, or a non-object `agents`/`models` shape is a 400.
func CompileEndpoint(doc occkit.Document, ep Endpoint) (occkit.Document, error) {
	if err := ep.Validate(); err != nil {
		return occkit.Document{}, err
	}
	c := &endpointCompiler{doc: doc, mp: ep.provider(), refs: map[string]string{}, selected: map[string]bool{}}
	scopes, err := agentScopes(c.doc)
	if err != nil {
		return occkit.Document{}, err
	}
	primary, ppath, ok := scopesPrimary(scopes)
	if !ok {
		return occkit.Document{}, occkit.Invalid("CMP-1", occkit.NewPath("agents", "defaults", "model"),
			"no primary model is selected in agents.defaults.model or an entry's model")
	}
	ref, ok := resolver.ParseRef(primary)
	if !ok {
		return occkit.Document{}, occkit.Invalid("REF-3", ppath, "%s is not a valid provider/model ref", ppath.String())
	}
	c.source = ref.Provider
	if err := c.scopes(scopes); err != nil {
		return occkit.Document{}, err
	}
	if err := c.catalog(); err != nil {
		return occkit.Document{}, err
	}
	return c.doc, nil
}

// agentScope is one agent scope and its value as read from the document.
type agentScope struct {
	at occkit.Path
	v  gjson.Result
}

// agentScopes lists the agent scopes: agents.defaults (when an object), then
// every agents.entries value in document order.
func agentScopes(doc occkit.Document) ([]agentScope, error) {
	if err := resolver.CheckShape(doc); err != nil {
		return nil, err
	}
	agentsPath := occkit.NewPath("agents")
	agents := docjson.Get(doc, agentsPath)
	if !agents.Exists() {
		return nil, nil
	}
	var out []agentScope
	if d := agents.Get("defaults"); d.Exists() {
		out = append(out, agentScope{agentsPath.Key("defaults"), d})
	}
	entriesPath := agentsPath.Key("entries")
	for _, p := range members(agents.Get("entries")) {
		out = append(out, agentScope{entriesPath.Key(p.key), gjson.Parse(p.raw)})
	}
	return out, nil
}

// scopes rewrites every agent scope, each on a document of its own, and
// writes agents.defaults and agents.entries back once each, so the work
// grows with the document, not with entries × document.
func (c *endpointCompiler) scopes(scopes []agentScope) error {
	whole := c.doc
	defer func() { c.doc = whole }()
	entries := occkit.NewPath("agents", "entries")
	var pairs []member
	next, entriesChanged := 0, false
	for _, s := range scopes {
		sub, err := occkit.ParseDocument([]byte(s.v.Raw))
		if err != nil {
			return err
		}
		c.doc = sub
		if err := c.scope(occkit.Root()); err != nil {
			return err
		}
		out := c.doc.String()
		if s.at.Equal(entries.Parent().Key("defaults")) {
			if out != s.v.Raw {
				if whole, err = whole.SetRaw(s.at, []byte(out)); err != nil {
					return err
				}
			}
			continue
		}
		// Entry scopes follow the members of agents.entries in order.
		if pairs == nil {
			pairs = members(docjson.Get(whole, entries))
		}
		if out != pairs[next].raw {
			pairs[next].raw, entriesChanged = out, true
		}
		next++
	}
	if entriesChanged {
		var err error
		if whole, err = whole.SetRaw(entries, []byte(rawObject(pairs))); err != nil {
			return err
		}
	}
	return nil
}

// slotPrimary returns the primary of a model slot (string or object).
func slotPrimary(v gjson.Result, at occkit.Path) (string, occkit.Path, bool) {
	switch {
	case v.Type == gjson.String:
		return v.String(), at, true
	case v.IsObject():
		if p := v.Get("primary"); p.Type == gjson.String {
			return p.String(), at.Key("primary"), true
		}
	}
	return "", occkit.Path{}, false
}

func scopesPrimary(scopes []agentScope) (string, occkit.Path, bool) {
	for _, s := range scopes {
		if ref, p, ok := slotPrimary(s.v.Get("model"), s.at.Key("model")); ok {
			return ref, p, true
		}
	}
	return "", occkit.Path{}, false
}

type endpointCompiler struct {
	doc    occkit.Document
	mp     string
	source string
	// refs maps each rewritten ref's key ("provider/id") to its ID, in first
	// seen order (order), for the catalog projection.
	refs     map[string]string
	order    []string
	selected map[string]bool
	rows     map[string]resolver.Ref
}

func (c *endpointCompiler) note(ref resolver.Ref, selected bool) {
	k := ref.Key()
	if _, seen := c.refs[k]; !seen {
		c.refs[k] = ref.ID
		c.order = append(c.order, k)
		if c.rows == nil {
			c.rows = map[string]resolver.Ref{}
		}
		c.rows[k] = ref
	}
	if selected {
		c.selected[k] = true
	}
}

// qualify rewrites one ref of the source provider; ok is false for
// anything else (other providers, aliases, non-refs).
func (c *endpointCompiler) qualify(s string, selected bool) (string, bool) {
	if !strings.Contains(s, "/") {
		return "", false // an alias stays a native alias (CMP-1)
	}
	ref, ok := resolver.ParseRef(s)
	if !ok || ref.Provider != c.source {
		return "", false
	}
	c.note(ref, selected)
	out := "codex/" + c.mp + "/" + ref.ID
	if ref.Profile != "" {
		out += "@" + ref.Profile
	}
	return out, true
}

func (c *endpointCompiler) set(at occkit.Path, v string) error {
	d, err := c.doc.Set(at, v)
	if err != nil {
		return err
	}
	c.doc = d
	return nil
}

// slot rewrites a model slot: a string, or {primary, fallbacks}.
func (c *endpointCompiler) slot(at occkit.Path) error {
	v := docjson.Get(c.doc, at)
	if v.Type == gjson.String {
		if out, ok := c.qualify(v.String(), true); ok {
			return c.set(at, out)
		}
		return nil
	}
	if !v.IsObject() {
		return nil
	}
	if p := v.Get("primary"); p.Type == gjson.String {
		if out, ok := c.qualify(p.String(), true); ok {
			if err := c.set(at.Key("primary"), out); err != nil {
				return err
			}
		}
	}
	if fb := v.Get("fallbacks"); fb.IsArray() {
		for i, f := range fb.Array() {
			if f.Type != gjson.String {
				continue
			}
			if out, ok := c.qualify(f.String(), true); ok {
				if err := c.set(at.Key("fallbacks").Index(i), out); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func (c *endpointCompiler) scope(s occkit.Path) error {
	if err := c.slot(s.Key("model")); err != nil {
		return err
	}
	if docjson.Get(c.doc, s.Key("subagents")).IsObject() {
		if err := c.slot(s.Key("subagents").Key("model")); err != nil {
			return err
		}
	}
	return c.modelsKeys(s.Key("models"))
}

// modelsKeys renames the source provider's keys of a models map in place.
// Should a renamed key collide with an existing one, the later member in
// document order wins at the earlier member's position.
func (c *endpointCompiler) modelsKeys(at occkit.Path) error {
	m := docjson.Get(c.doc, at)
	if !m.IsObject() {
		return nil
	}
	var out []member
	index := map[string]int{}
	changed := false
	for _, p := range members(m) {
		if k, ok := c.qualify(p.key, false); ok {
			p = member{key: k, raw: p.raw}
			changed = true
		}
		if i, dup := index[p.key]; dup {
			out[i].raw = p.raw
			changed = true
			continue
		}
		index[p.key] = len(out)
		out = append(out, p)
	}
	if !changed {
		return nil
	}
	d, err := c.doc.SetRaw(at, []byte(rawObject(out)))
	if err != nil {
		return err
	}
	c.doc = d
	return nil
}

// catalog rebuilds models.providers.codex from the source provider's entry.
func (c *endpointCompiler) catalog() error {
	modelsPath := occkit.NewPath("models")
	if m := docjson.Get(c.doc, modelsPath); m.Exists() && m.Type != gjson.Null && !m.IsObject() {
		return occkit.Invalid("RES-4", modelsPath, "models must be an object")
	}
	providersPath := modelsPath.Key("providers")
	if p := docjson.Get(c.doc, providersPath); p.Exists() && p.Type != gjson.Null && !p.IsObject() {
		return occkit.Invalid("RES-4", providersPath, "models.providers must be an object")
	}
	sourcePath := providersPath.Key(c.source)
	source := docjson.Get(c.doc, sourcePath)
	sourceRaw := "{}"
	if source.IsObject() {
		sourceRaw = source.Raw
	}
	var rows []gjson.Result
	if arr := source.Get("models"); source.IsObject() && arr.IsArray() {
		for _, r := range arr.Array() {
			if r.IsObject() {
				rows = append(rows, r)
			}
		}
	}
	index := indexRows(rows)
	var projected []string
	seen := map[string]bool{}
	for _, k := range c.order {
		id := c.refs[k]
		if isWildcard(id) || seen[id] {
			continue
		}
		ref := c.rows[k]
		var row gjson.Result
		if i, ok := index.first(ref); ok {
			row = rows[i]
		}
		newID := quoteJSON(c.mp + "/" + id)
		switch {
		case row.Exists():
			projected = append(projected, setMember(row.Raw, "id", newID))
		case c.selected[k]:
			projected = append(projected, `{"name":`+quoteJSON(id)+`,"id":`+newID+`}`)
		default:
			continue
		}
		seen[id] = true
	}
	codexRaw := setMember(sourceRaw, "models", "["+strings.Join(projected, ",")+"]")
	doc := c.doc
	if c.source != "codex" {
		d, err := doc.Delete(sourcePath)
		if err != nil {
			return err
		}
		doc = d
	}
	d, err := doc.SetRaw(providersPath.Key("codex"), []byte(codexRaw))
	if err != nil {
		return err
	}
	c.doc = d
	return nil
}

// catalogRows indexes catalog rows by the refs they can match (REF-4): by the
// whole trimmed row ID, and by the provider and ID of a row ID written as
// `provider/id`. Each key keeps the first row in array order.
type catalogRows struct {
	rows  []gjson.Result
	byKey map[string]int
}

func indexRows(rows []gjson.Result) catalogRows {
	x := catalogRows{rows: rows, byKey: make(map[string]int, 2*len(rows))}
	add := func(k string, i int) {
		if _, seen := x.byKey[k]; !seen {
			x.byKey[k] = i
		}
	}
	for i, r := range rows {
		rid := r.Get("id")
		if rid.Type != gjson.String {
			continue
		}
		id := strings.TrimSpace(rid.String())
		add("id\x00"+id, i)
		if p, rest, ok := strings.Cut(id, "/"); ok {
			add("p\x00"+strings.ToLower(strings.TrimSpace(p))+"\x00"+strings.TrimSpace(rest), i)
		}
	}
	return x
}

// first returns the first row matching ref ([resolver.MatchRow]), looking
// only at the rows whose keys can match instead of scanning the catalog.
func (x catalogRows) first(ref resolver.Ref) (int, bool) {
	best := -1
	for _, k := range []string{"id\x00" + ref.ID, "p\x00" + ref.Provider + "\x00" + ref.ID} {
		if i, ok := x.byKey[k]; ok && (best < 0 || i < best) && resolver.MatchRow(ref, x.rows[i].Get("id").String()) {
			best = i
		}
	}
	return best, best >= 0
}
