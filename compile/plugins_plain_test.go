package compile

import (
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tidwall/gjson"
	"pgregory.net/rapid"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/compile/openclawschema"
)

// plainPlugins is RequiredPlugins read the plain way, with gjson and the
// Value walks the byte scanners are checked against (refRuntimeIDs,
// agentSelectionsValues, modelRefsValues), every id normalized as it is
// met: the oracle of RequiredPlugins.
func plainPlugins(doc occkit.Document, release string) []Plugin {
	c, err := openclawschema.ContractFor(release)
	if err != nil {
		return nil
	}
	src := doc.String()
	if e := gjson.Get(src, "plugins.enabled"); gjson.Get(src, "plugins").IsObject() && e.IsBool() && !e.Bool() {
		return nil
	}
	disabled := func(v gjson.Result) bool { e := v.Get("enabled"); return v.IsObject() && e.IsBool() && !e.Bool() }
	want, blocked := map[string]bool{}, map[string]bool{}
	strs := func(v gjson.Result) (out []string) {
		for _, e := range v.Array() {
			if e.Type == gjson.String {
				out = append(out, e.Str)
			}
		}
		return out
	}
	if plugins := gjson.Get(src, "plugins"); plugins.IsObject() {
		for _, d := range strs(plugins.Get("deny")) {
			blocked[c.PluginID(d)] = true
		}
		if entries := plugins.Get("entries"); entries.IsObject() {
			entries.ForEach(func(k, e gjson.Result) bool {
				if disabled(e) {
					blocked[c.PluginID(k.Str)] = true
				} else {
					want[c.PluginID(k.Str)] = true
				}
				return true
			})
		}
		if plugins.Get("allow").IsArray() {
			for _, a := range strs(plugins.Get("allow")) {
				want[c.PluginID(a)] = true
			}
		}
		if slots := plugins.Get("slots"); slots.IsObject() {
			slots.ForEach(func(_, s gjson.Result) bool {
				if s.Type == gjson.String {
					want[c.PluginID(s.Str)] = true
				}
				return true
			})
		}
	}
	if channels := gjson.Get(src, "channels"); channels.IsObject() {
		channels.ForEach(func(k, v gjson.Result) bool {
			if p, ok := c.ChannelPlugin(strings.TrimSpace(k.Str)); ok && v.IsObject() && !disabled(v) && p.Package != "" {
				want[p.ID] = true
			}
			return true
		})
	}
	for _, id := range refRuntimeIDs(src) {
		want[c.PluginID(id)] = true
	}
	for _, ref := range modelRefsValues(agentSelectionsValues(doc)) {
		if provider, _, ok := strings.Cut(ref, "/"); ok && provider != "" {
			want[c.PluginID(provider)] = true
		}
	}
	var out []Plugin
	for id := range want {
		if p, ok := c.InstalledPlugin(id); ok && !blocked[id] {
			out = append(out, Plugin{ID: p.ID, Package: p.Package, Version: p.Version})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// RequiredPlugins, with the document's own reading of its model
// settings or the scan's, lists what the plain reading lists, on
// documents of every shape with runtimes and providers that repeat.
func TestRequiredPluginsPlain(t *testing.T) {
	ids := []string{"codex", "Codex", " codex", "openclaw", "anthropic", "discord", "msteams", "tavily", "slack", "x"}
	rapid.Check(t, func(t *rapid.T) {
		doc := genAgentsDocument(t)
		var edits []occkit.Edit
		for i, at := range []occkit.Path{
			occkit.NewPath("channels", "discord"), occkit.NewPath("channels", "slack"),
			occkit.NewPath("plugins", "entries", "msteams"), occkit.NewPath("plugins", "allow"),
			occkit.NewPath("plugins", "deny"), occkit.NewPath("plugins", "enabled"),
		} {
			raw := rapid.SampledFrom([]string{"", `{}`, `{"enabled":false}`, `true`, `false`, `["tavily","Codex"]`, `["x"]`}).
				Draw(t, at.String())
			if raw != "" && (i < 3) == strings.HasPrefix(raw, "{") {
				edits = append(edits, occkit.Edit{Path: at, Raw: []byte(raw)})
			}
		}
		// Runtimes that repeat one after another and between.
		for i := range rapid.IntRange(0, 4).Draw(t, "models") {
			id := rapid.SampledFrom(ids).Draw(t, "runtime")
			edits = append(edits, occkit.Edit{Path: occkit.NewPath("models", "providers", rapid.SampledFrom(ids).Draw(t, "provider")+strings.Repeat("_", i)),
				Raw: []byte(`{"agentRuntime":{"id":"` + id + `"},"models":[{"agentRuntime":{"id":"` + id + `"}}]}`)})
		}
		if len(edits) > 0 {
			var err error
			if doc, err = doc.Apply(edits...); err != nil {
				t.Skip(err)
			}
		}
		release := rapid.SampledFrom([]string{"2026.9.6", "2026.8.2", ""}).Draw(t, "release")
		want := plainPlugins(doc, release)
		if d := cmp.Diff(want, RequiredPlugins(doc, release)); d != "" {
			t.Fatalf("%s: RequiredPlugins (-plain +got):\n%s", doc, d)
		}
		if d := cmp.Diff(want, ScanSecrets(doc, SecretPolicyFor("")).requiredPlugins(release)); d != "" {
			t.Fatalf("%s: the scan's plugins (-plain +got):\n%s", doc, d)
		}
	})
}
