package compile

import (
	"slices"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/compile/openclawschema"
	"github.com/occkit/occkit/compile/sensitive"
	"github.com/occkit/occkit/internal/docjson"
	"github.com/occkit/occkit/internal/jsonwalk"
)

// Plugin is an OpenClaw plugin a document needs that its release does not
// bundle: OpenClaw would install it from the npm registry at start
// (`npm view <package>`, then an install into the state directory). A
// Compute must provide it instead: see [ProcessPlan].Plugins.
type Plugin struct {
	// ID is the plugin id (a channel's plugin such as "discord", or a
	// plugin entry id such as "codex").
	ID string
	// Package is its npm package name; Version the version the release
	// installs (openclawschema.Plugin.Version: the release's own for an
	// official plugin, or the newest published one that accepts the
	// release when npm skipped it; the catalog's pin for an external
	// one). Version is "" when the npm registry publishes no version the
	// release accepts: no Compute can provide it from npm.
	Package string
	Version string
}

// Spec is the npm spec that installs p ("@openclaw/discord@2026.9.6"), or
// "" when npm publishes no version the release accepts.
func (p Plugin) Spec() string {
	if p.Version == "" {
		return ""
	}
	return p.Package + "@" + p.Version
}

// RequiredPlugins lists, sorted by id, the plugins doc configures that
// release does not bundle, as OpenClaw collects the plugins it installs
// at start: the plugin of each channel under channels.<id> (an object not
// disabled), every plugin entry under plugins.entries.<id>, each
// plugins.allow member and plugins.slots value, every agent runtime id
// (agentRuntime.id and pickerRuntimes of the model maps of
// agents.defaults, agents.entries and agents.list, of models.providers
// and their models) and the provider of each model the agents select
// (agents.defaults.model and each entry's, primary and fallbacks). Ids
// compare as OpenClaw's normalizePluginId compares them. None when
// plugins.enabled is false; never one plugins.deny names or whose entry
// is disabled. Which plugins a release does not bundle, and at which
// version it installs them, is the release's carried data
// (openclawschema.Contract.InstalledPlugin); a release the library does
// not carry lists none.
func RequiredPlugins(doc occkit.Document, release string) []Plugin {
	return pluginsOf(docjson.Get(doc, pluginsPath), docjson.Get(doc, channelsPath), release,
		func() modelSettings { return readModelSettings(doc) })
}

// pluginsOf is [RequiredPlugins] of a document whose plugins and
// channels members are plugins and channels (read as occkit.Value reads
// them: not Exists when absent) and whose model settings settings reads
// when they are needed.
func pluginsOf(plugins, channels gjson.Result, release string, settings func() modelSettings) []Plugin {
	c, err := openclawschema.ContractFor(release)
	if err != nil {
		return nil
	}
	if v := keyOf(plugins, "enabled"); v.IsBool() && !v.Bool() {
		return nil
	}
	disabled := func(v gjson.Result) bool {
		e := keyOf(v, "enabled")
		return e.IsBool() && !e.Bool()
	}
	var wantBuf [8]pluginOf
	var blockedBuf [4]pluginOf
	want, blocked := pluginSet(wantBuf[:0]), pluginSet(blockedBuf[:0])
	add := func(v gjson.Result) {
		if v.Type == gjson.String {
			want = want.put(c, c.PluginID(v.String()))
		}
	}
	// One pass over the plugins section.
	eachOf(plugins, func(k, v gjson.Result) {
		switch k.String() {
		case "deny":
			for _, d := range elementsOf(v) {
				if d.Type == gjson.String {
					blocked = blocked.put(c, c.PluginID(d.String()))
				}
			}
		case "entries":
			eachOf(v, func(k, e gjson.Result) {
				if disabled(e) {
					blocked = blocked.put(c, c.PluginID(k.String()))
				} else {
					add(k)
				}
			})
		case "allow":
			for _, a := range elementsOf(v) {
				add(a)
			}
		case "slots":
			eachOf(v, func(_, v gjson.Result) { add(v) })
		}
	})
	eachOf(channels, func(k, v gjson.Result) {
		if v.IsObject() && !disabled(v) {
			if p, ok := c.ChannelPlugin(strings.TrimSpace(k.String())); ok && p.Package != "" {
				want = want.put(c, p.ID)
			}
		}
	})
	// The runtimes and the providers of the refs repeat, mostly one
	// after another (every model of a catalog on the same runtime): an
	// id the same as the last is wanted already.
	last, lastOK := "", false
	wantID := func(id string) {
		if !lastOK || id != last {
			want = want.put(c, c.PluginID(id))
			last, lastOK = id, true
		}
	}
	ms := settings()
	for _, id := range ms.runtimes {
		wantID(id)
	}
	for _, p := range ms.providers {
		wantID(p)
	}
	return pluginsOutside(want, blocked)
}

// The reads of a value [pluginsOf] makes, as occkit.Value makes them:
// keyOf is Value.Key (nothing but in an object), eachOf Value.ForEach
// (an array's elements without a key), elementsOf Value.Array (nothing
// but of an array).
func keyOf(v gjson.Result, name string) gjson.Result {
	if !v.IsObject() {
		return gjson.Result{}
	}
	return v.Get(gjson.Escape(name))
}

func eachOf(v gjson.Result, fn func(k, v gjson.Result)) {
	switch {
	case v.IsObject():
		v.ForEach(func(k, e gjson.Result) bool { fn(k, e); return true })
	case v.IsArray():
		v.ForEach(func(_, e gjson.Result) bool { fn(gjson.Result{}, e); return true })
	}
}

func elementsOf(v gjson.Result) []gjson.Result {
	if !v.IsArray() {
		return nil
	}
	return v.Array()
}

// pluginSet is one of the sets [pluginsOf] collects (the ids the
// document wants, those it blocks): each id once, kept only when the
// release installs its plugin (an id it does not install adds nothing to
// the list, and blocks nothing the list holds), with that plugin. They
// are few (no more than the release installs, in the spellings the
// document names), so a set is a list, in place in its caller's buffer
// while it is short.
type pluginSet []pluginOf

// pluginOf is an id, as [pluginsOf] keys its sets, and the plugin the
// release installs for it.
type pluginOf struct {
	id string
	p  Plugin
}

// put is s with id, when c installs its plugin and s does not hold it.
func (s pluginSet) put(c *openclawschema.Contract, id string) pluginSet {
	if s.has(id) {
		return s
	}
	if p, ok := c.InstalledPlugin(id); ok {
		s = append(s, pluginOf{id: id, p: Plugin{ID: p.ID, Package: p.Package, Version: p.Version}})
	}
	return s
}

// has reports whether s holds id.
func (s pluginSet) has(id string) bool {
	for _, w := range s {
		if w.id == id {
			return true
		}
	}
	return false
}

// pluginsOutside are the plugins of want whose id blocked does not hold,
// sorted by id: nil when there are none.
func pluginsOutside(want, blocked pluginSet) []Plugin {
	n := 0
	for _, w := range want {
		if !blocked.has(w.id) {
			n++
		}
	}
	if n == 0 {
		return nil
	}
	out := make([]Plugin, 0, n)
	for _, w := range want {
		if !blocked.has(w.id) {
			out = append(out, w.p)
		}
	}
	slices.SortFunc(out, func(a, b Plugin) int { return strings.Compare(a.ID, b.ID) })
	return out
}

var (
	pluginsPath   = occkit.NewPath("plugins")
	channelsPath  = occkit.NewPath("channels")
	agentsPath    = occkit.NewPath("agents")
	providersPath = occkit.NewPath("models", "providers")
)

// modelSettings is what [RequiredPlugins] reads of the agents' and the
// providers' model settings: the runtime ids they select ([runtimeIDs])
// and the providers of the model refs the agent scopes select
// ([modelProviders] of each scope's model). Neither order matters:
// RequiredPlugins makes sets of them.
type modelSettings struct {
	runtimes  []string
	providers []string
	// root are where the root's gateway, env, plugins and channels
	// members are (End 0 when it has none), which a [SecretScan]'s walk
	// reads in passing ([SecretScan.rootMember]), and rootRead reports
	// that the walk read every member of the root, an object.
	root     [rootMembers]sensitive.Span
	rootRead bool
}

// readModelSettings reads doc's model settings on their own: the agents
// section, then its models maps and the providers' catalogs. A
// [SecretScan] reads them in its walk of the same maps instead.
func readModelSettings(doc occkit.Document) modelSettings {
	selections := agentSelections(doc)
	ms := modelSettings{runtimes: runtimeIDs(doc, selections)}
	eachRefProvider(selections, func(p string) { ms.providers = addProvider(ms.providers, p) })
	return ms
}

// selection is an agent scope's model (what it selects) and models (its
// models map), as JSON text ("" when the scope has none).
type selection struct{ model, models string }

// agentSelections are the selections of the agents' settings:
// agents.defaults first, then each agents.entries.<id> (or element, as
// ForEach reads either) and each element of the legacy agents.list, read
// in one pass of the byte scanner over the agents section; a scope's
// model and models are the last of their name, as are the defaults and
// the list (a Document repeats no key).
func agentSelections(doc occkit.Document) []selection {
	r := runtimeScan{text: doc.Get(agentsPath).Raw()}
	var defaults selection
	var entries, list []selection
	scope := func(at int) (selection, int) {
		var s selection
		end := r.members(at, func(k string, at int) int {
			end := jsonwalk.Skip(r.text, at)
			switch k {
			case "model":
				s.model = r.text[at:end]
			case "models":
				s.models = r.text[at:end]
			}
			return end
		})
		return s, end
	}
	appendScope := func(to *[]selection) func(at int) int {
		return func(at int) int {
			s, end := scope(at)
			*to = append(*to, s)
			return end
		}
	}
	if r.text != "" && r.text[0] == '{' {
		r.members(0, func(k string, at int) int {
			switch k {
			case "defaults":
				s, end := scope(at)
				defaults = s
				return end
			case "entries":
				if r.kind(at) == '{' || r.kind(at) == '[' {
					return r.each(at, appendScope(&entries))
				}
			case "list":
				list = list[:0]
				if r.kind(at) == '[' {
					return r.each(at, appendScope(&list))
				}
			}
			return jsonwalk.Skip(r.text, at)
		})
	}
	return append(append([]selection{defaults}, entries...), list...)
}

// runtimeIDs are the agent runtime ids doc selects, in no particular
// order: agentRuntime.id and pickerRuntimes of each model of
// agents.defaults.models and the agents' models maps, of each
// models.providers entry and of its models.
func runtimeIDs(doc occkit.Document, selections []selection) []string {
	var r runtimeScan
	for _, s := range selections {
		r.text = s.models
		r.each(0, r.entry)
	}
	r.text = doc.Get(providersPath).Raw()
	r.providers(0)
	return r.out
}

// runtimeScan collects runtime ids from JSON text with the byte scanner:
// the model maps and catalogs are most of a large document, and each of
// their entries is read once, the members that name no runtime skipped,
// not parsed.
type runtimeScan struct {
	text string
	out  []string
}

// kind is the first byte of the value at at, or 0 past the text.
func (r *runtimeScan) kind(at int) byte {
	if at < 0 || at >= len(r.text) {
		return 0
	}
	return r.text[at]
}

// str is the string at at, if a string is there.
func (r *runtimeScan) str(at int) (string, bool) {
	if r.kind(at) != '"' {
		return "", false
	}
	end, esc := jsonwalk.StringEnd(r.text, at)
	return jsonwalk.JS{}.Decode(r.text[at:end], esc), true
}

// members calls fn with each member of the value at at, an object or
// not, and returns the offset after the value; fn returns the offset
// after the member's value.
func (r *runtimeScan) members(at int, fn func(key string, at int) int) int {
	if end := jsonwalk.Members(r.text, at, func(lit string, esc bool, at int) int {
		return fn(jsonwalk.JS{}.Decode(lit, esc), at)
	}); end >= 0 {
		return end
	}
	return jsonwalk.Skip(r.text, at)
}

// each calls fn with each member value of the object, or each element of
// the array, at at (as ForEach reads either) and returns the offset after
// it.
func (r *runtimeScan) each(at int, fn func(at int) int) int {
	if end := jsonwalk.Elements(r.text, at, func(_, at int) int { return fn(at) }); end >= 0 {
		return end
	}
	return r.members(at, func(_ string, at int) int { return fn(at) })
}

// providers collects the runtime ids of models.providers, whose value
// is at at: those of each provider and of each entry of its models
// catalog. It returns the offset after the value.
func (r *runtimeScan) providers(at int) int { return r.each(at, r.provider) }

// provider collects the runtime ids of the provider at at and of its
// models catalog's entries.
func (r *runtimeScan) provider(at int) int {
	return r.entryAnd(at, "models", func(at int) int {
		if end := jsonwalk.Elements(r.text, at, func(_, at int) int { return r.entry(at) }); end >= 0 {
			return end
		}
		return jsonwalk.Skip(r.text, at)
	})
}

// entry collects the runtime ids of the entry at at: agentRuntime.id and
// the strings of pickerRuntimes.
func (r *runtimeScan) entry(at int) int { return r.entryAnd(at, "", nil) }

// entryAnd is entry, and passes the member named also to fn (a Document
// repeats no key, escaped spellings included).
func (r *runtimeScan) entryAnd(at int, also string, fn func(at int) int) int {
	return r.members(at, func(k string, at int) int {
		if end := r.runtime(k, at); end >= 0 {
			return end
		}
		if also != "" && k == also {
			return fn(at)
		}
		return jsonwalk.Skip(r.text, at)
	})
}

// runtime collects the runtime ids of an entry's member k, whose value is
// at at: the id of an agentRuntime object, the strings of a
// pickerRuntimes array. It returns the offset after the value, or -1
// when the member holds none of them.
func (r *runtimeScan) runtime(k string, at int) int {
	switch k {
	case "agentRuntime":
		return r.members(at, func(k string, at int) int {
			if k == "id" {
				if id, ok := r.str(at); ok {
					r.out = append(r.out, id)
				}
			}
			return jsonwalk.Skip(r.text, at)
		})
	case "pickerRuntimes":
		return jsonwalk.Elements(r.text, at, func(_, at int) int {
			if id, ok := r.str(at); ok {
				r.out = append(r.out, id)
			}
			return jsonwalk.Skip(r.text, at)
		})
	}
	return -1
}

// eachRefProvider calls fn with the provider of each model ref the
// selections select ([modelProviders] of each one's model).
func eachRefProvider(selections []selection, fn func(provider string)) {
	for _, s := range selections {
		modelProviders(s.model, 0, fn)
	}
}

// modelProviders calls fn with the provider (a ref up to its first '/',
// when that is not empty) of each model ref the model setting at
// text[at] selects, a string or {primary, fallbacks} (the first member
// of each name, as gjson reads them), and returns the offset after the
// value, as jsonwalk.Skip does. It calls fn in no set order, maybe more
// than once for a provider: what pluginsOf reads of the refs is a set.
// So the value is read once, where a reading in the refs' order (the
// primary first, which the canonical form admission plans writes after
// the fallbacks) passes over the fallbacks twice; a secret scan reads it
// so in its walk, where it would otherwise skip it.
func modelProviders(text string, at int, fn func(provider string)) int {
	r := runtimeScan{text: text}
	switch r.kind(at) {
	case '"':
		return refProvider(text, at, fn)
	case '{':
	default:
		return jsonwalk.Skip(text, at)
	}
	// The first member of each name, as gjson reads them.
	primary, fallbacks := false, false
	if end := jsonwalk.Members(text, at, func(lit string, esc bool, at int) int {
		switch k := (jsonwalk.JS{}).Decode(lit, esc); {
		case k == "primary" && !primary:
			primary = true
			if r.kind(at) == '"' {
				return refProvider(text, at, fn)
			}
		case k == "fallbacks" && !fallbacks:
			fallbacks = true
			if r.kind(at) == '[' {
				if end := jsonwalk.Elements(text, at, func(_, at int) int {
					if r.kind(at) == '"' {
						return refProvider(text, at, fn)
					}
					return jsonwalk.Skip(text, at)
				}); end >= 0 {
					return end
				}
			}
		}
		return jsonwalk.Skip(text, at)
	}); end >= 0 {
		return end
	}
	return jsonwalk.Skip(text, at)
}

// addProvider appends p to providers unless it is the last one (the
// refs of a fallback list mostly share a provider): what they are read
// for is a set.
func addProvider(providers []string, p string) []string {
	if n := len(providers); n > 0 && providers[n-1] == p {
		return providers
	}
	return append(providers, p)
}

// refProvider calls fn with the provider of the ref, the string at
// text[at], if it has one, and returns the offset after the string.
func refProvider(text string, at int, fn func(provider string)) int {
	end, esc := jsonwalk.StringEnd(text, at)
	ref := jsonwalk.JS{}.Decode(text[at:end], esc)
	if i := strings.IndexByte(ref, '/'); i > 0 {
		fn(ref[:i])
	}
	return end
}
