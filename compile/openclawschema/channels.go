package openclawschema

import (
	"strings"

	"github.com/tidwall/gjson"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/internal/jsonwalk"
)

// channelSettings are the keys of channels that are settings of every
// channel, not channels (OpenClaw's allowedChannels starts with them).
var channelSettings = []string{"defaults", "modelByChannel"}

// channelIssues refuses the channel ids under channels that the release
// does not know, as OpenClaw's plugin validation does
// (validatePreparedConfigWithPlugins: "unknown channel id", which makes
// the gateway exit 78): its published schema allows any key there, so
// the schema walk alone admits channels.salck.
//
// A key is trimmed (JavaScript's trim) and then known when it is empty,
// one of channelSettings, a channel the release validates by name
// (bundledChannelIds) or a channel of a plugin its manifest registry
// holds. Otherwise OpenClaw still accepts it, with a warning, when the
// document declares a plugin of that id that the registry does not hold
// (plugins.allow, the keys of plugins.entries or plugins.installs, ids
// compared as normalizePluginId compares them): the plugin, once
// installed, provides the channel. And a document that loads plugins from
// its own paths (plugins.load.paths) may add channels only those
// plugins' manifests name, which the document alone does not tell: its
// channel ids are left to the gateway. The registry is the one a fresh
// state directory sees (the release's own plugins): a plugin installed on
// the host by hand is not known.
func (c *Contract) channelIssues(w reading) []error {
	channels, plugins := rootSections(w)
	return c.channelIDIssues(channels, plugins)
}

// channelIDIssues refuses the unknown channel ids of the document's
// channels and plugins sections (see channelIssues).
func (c *Contract) channelIDIssues(channels, plugins gjson.Result) []error {
	if !channels.IsObject() {
		return nil
	}
	if paths := plugins.Get("load.paths"); paths.IsArray() && len(paths.Array()) > 0 {
		return nil
	}
	var issues []error
	channels.ForEach(func(k, _ gjson.Result) bool {
		key := keyOf(k)
		id := strings.TrimFunc(key, isJSSpace)
		if id == "" || c.knownChannel(id) || c.declaredPlugin(plugins, id) {
			return true
		}
		at := occkit.NewPath("channels", key)
		msg := "OpenClaw %s has no channel %s (unknown channel id)"
		args := []any{c.version, quoteKey(id)}
		if s := suggest(id, append(c.Channels(), channelSettings...)); s != "" {
			msg += "; did you mean %s?"
			args = append(args, occkit.NewPath("channels", s).String())
		}
		if len(issues) < maxIssues {
			issues = append(issues, occkit.Invalid(Rule, at, msg, args...))
		}
		return true
	})
	return issues
}

// rootSections is the first channels and plugins members of the
// document's root, or missing results. It reads the root's members from
// the schema walk's outline when the walk recorded the root, else scans
// them in place; either way only the two values are parsed, not the
// catalogs beside them.
func rootSections(w reading) (channels, plugins gjson.Result) {
	var found [2]bool
	take := func(key string, start, end int) {
		switch key {
		case "channels":
			if !found[0] {
				found[0], channels = true, gjson.Parse(w.src[start:end])
			}
		case "plugins":
			if !found[1] {
				found[1], plugins = true, gjson.Parse(w.src[start:end])
			}
		}
	}
	at := rootAt(w.src)
	if members, ok := w.outline.Members(at); ok {
		for _, m := range members {
			take(m.Key, int(m.Start), int(m.End))
		}
		return channels, plugins
	}
	jsonwalk.Members(w.src, at, func(key string, escaped bool, at int) int {
		end := jsonwalk.Skip(w.src, at)
		take(jsonwalk.JS{}.Decode(key, escaped), at, end)
		return end
	})
	return channels, plugins
}

// knownChannel reports whether the release accepts the trimmed channel
// id without a declared plugin.
func (c *Contract) knownChannel(id string) bool {
	for _, s := range channelSettings {
		if id == s {
			return true
		}
	}
	return c.channels[id]
}

// declaredPlugin reports whether the document declares a plugin whose id
// is the channel id's and which the release's registry does not hold
// (OpenClaw's stale-plugin evidence for an unknown channel).
func (c *Contract) declaredPlugin(plugins gjson.Result, id string) bool {
	want := c.normalizePluginID(id)
	if want == "" || c.known[want] || !plugins.IsObject() {
		return false
	}
	found := false
	match := func(s string) bool {
		found = found || c.normalizePluginID(s) == want
		return !found
	}
	if allow := plugins.Get("allow"); allow.IsArray() {
		allow.ForEach(func(_, v gjson.Result) bool { return v.Type != gjson.String || match(v.String()) })
	}
	for _, key := range []string{"entries", "installs"} {
		if m := plugins.Get(key); m.IsObject() && !found {
			m.ForEach(func(k, _ gjson.Result) bool { return match(keyOf(k)) })
		}
	}
	return found
}

// normalizePluginID is OpenClaw's normalizePluginId: trimmed, lower-cased
// and mapped through the release's built-in aliases.
func (c *Contract) normalizePluginID(id string) string {
	n := strings.ToLower(strings.TrimFunc(id, isJSSpace))
	if a, ok := c.aliases[n]; ok {
		return a
	}
	return n
}
