package compile

import (
	"sort"
	"strings"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/compile/openclawschema"
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
	c, err := openclawschema.ContractFor(release)
	if err != nil {
		return nil
	}
	plugins := doc.Get(pluginsPath)
	if v := plugins.Key("enabled"); v.IsBool() && !v.Bool() {
		return nil
	}
	disabled := func(v occkit.Value) bool {
		e := v.Key("enabled")
		return e.IsBool() && !e.Bool()
	}
	blocked := map[string]bool{}
	want := map[string]bool{}
	add := func(v occkit.Value) {
		if v.IsString() {
			want[c.PluginID(v.String())] = true
		}
	}
	// One pass over the plugins section, and the first of a repeated key
	// (as Key reads).
	var seenDeny, seenEntries, seenAllow, seenSlots bool
	plugins.ForEach(func(k, v occkit.Value) bool {
		switch k.String() {
		case "deny":
			if !seenDeny {
				seenDeny = true
				for _, d := range v.Array() {
					if d.IsString() {
						blocked[c.PluginID(d.String())] = true
					}
				}
			}
		case "entries":
			if !seenEntries {
				seenEntries = true
				v.ForEach(func(k, e occkit.Value) bool {
					if disabled(e) {
						blocked[c.PluginID(k.String())] = true
					} else {
						add(k)
					}
					return true
				})
			}
		case "allow":
			if !seenAllow {
				seenAllow = true
				for _, a := range v.Array() {
					add(a)
				}
			}
		case "slots":
			if !seenSlots {
				seenSlots = true
				v.ForEach(func(_, s occkit.Value) bool {
					add(s)
					return true
				})
			}
		}
		return true
	})
	doc.Get(channelsPath).ForEach(func(k, v occkit.Value) bool {
		if v.IsObject() && !disabled(v) {
			if p, ok := c.ChannelPlugin(strings.TrimSpace(k.String())); ok && p.Package != "" {
				want[p.ID] = true
			}
		}
		return true
	})
	selections := agentSelections(doc)
	for _, id := range runtimeIDs(doc, selections) {
		want[c.PluginID(id)] = true
	}
	for _, ref := range modelRefs(selections) {
		if i := strings.IndexByte(ref, '/'); i > 0 {
			want[c.PluginID(ref[:i])] = true
		}
	}
	var out []Plugin
	for id := range want {
		if blocked[id] {
			continue
		}
		if p, ok := c.InstalledPlugin(id); ok {
			out = append(out, Plugin{ID: p.ID, Package: p.Package, Version: p.Version})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

var (
	pluginsPath   = occkit.NewPath("plugins")
	channelsPath  = occkit.NewPath("channels")
	agentsPath    = occkit.NewPath("agents")
	providersPath = occkit.NewPath("models", "providers")
)

// pluginScopes are the agents' settings: agents.defaults first, then each
// agents.entries.<id> and each element of the legacy agents.list, read
// in one pass over the agents section (the first of a repeated key, as
// Key reads).
func pluginScopes(doc occkit.Document) []occkit.Value {
	var defaults occkit.Value
	var entries, list []occkit.Value
	var seenDefaults, seenEntries, seenList bool
	doc.Get(agentsPath).ForEach(func(k, v occkit.Value) bool {
		switch k.String() {
		case "defaults":
			if !seenDefaults {
				seenDefaults, defaults = true, v
			}
		case "entries":
			if !seenEntries {
				seenEntries = true
				v.ForEach(func(_, e occkit.Value) bool {
					entries = append(entries, e)
					return true
				})
			}
		case "list":
			if !seenList {
				seenList, list = true, v.Array()
			}
		}
		return true
	})
	return append(append([]occkit.Value{defaults}, entries...), list...)
}

// selection is an agent scope's model (what it selects) and models (its
// models map).
type selection struct{ model, models occkit.Value }

// agentSelections are the selections of [pluginScopes].
func agentSelections(doc occkit.Document) []selection {
	scopes := pluginScopes(doc)
	out := make([]selection, len(scopes))
	for i, s := range scopes {
		out[i].model, out[i].models = scopeSelection(s)
	}
	return out
}

// scopeSelection is a scope's model and models, read in one pass over
// the scope.
func scopeSelection(scope occkit.Value) (model, models occkit.Value) {
	var seenModel, seenModels bool
	scope.ForEach(func(k, v occkit.Value) bool {
		switch k.String() {
		case "model":
			if !seenModel {
				seenModel, model = true, v
			}
		case "models":
			if !seenModels {
				seenModels, models = true, v
			}
		}
		return true
	})
	return model, models
}

// runtimeIDs are the agent runtime ids doc selects: agentRuntime.id and
// pickerRuntimes of each model of agents.defaults.models and the agents'
// models maps, of each models.providers entry and of its models.
func runtimeIDs(doc occkit.Document, selections []selection) []string {
	var out []string
	// runtimes reads an entry's agentRuntime.id and pickerRuntimes in one
	// pass over its members (the first of a repeated key, as Key reads).
	runtimes := func(entry occkit.Value) {
		var seenRuntime, seenPicker bool
		entry.ForEach(func(k, v occkit.Value) bool {
			switch k.String() {
			case "agentRuntime":
				if !seenRuntime {
					seenRuntime = true
					if id := v.Key("id"); id.IsString() {
						out = append(out, id.String())
					}
				}
			case "pickerRuntimes":
				if !seenPicker {
					seenPicker = true
					if !v.IsArray() {
						return true
					}
					v.ForEach(func(_, r occkit.Value) bool {
						if r.IsString() {
							out = append(out, r.String())
						}
						return true
					})
				}
			}
			return true
		})
	}
	modelMap := func(models occkit.Value) {
		models.ForEach(func(_, entry occkit.Value) bool {
			runtimes(entry)
			return true
		})
	}
	for _, s := range selections {
		modelMap(s.models)
	}
	doc.Get(providersPath).ForEach(func(_, p occkit.Value) bool {
		runtimes(p)
		for _, m := range p.Key("models").Array() {
			runtimes(m)
		}
		return true
	})
	return out
}

// modelRefs are the model refs the agents select: agents.defaults.model
// and each agent's model, a string or {primary, fallbacks}.
func modelRefs(selections []selection) []string {
	var out []string
	add := func(m occkit.Value) {
		if m.IsString() {
			out = append(out, m.String())
			return
		}
		if p := m.Key("primary"); p.IsString() {
			out = append(out, p.String())
		}
		for _, f := range m.Key("fallbacks").Array() {
			if f.IsString() {
				out = append(out, f.String())
			}
		}
	}
	for _, s := range selections {
		add(s.model)
	}
	return out
}
