package compile

import (
	"encoding/json"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/compile/openclawschema"
)

// pluginsOfBefore is pluginsOf as it was before its sets became lists of
// the installed ids in place: two maps, then every wanted id looked up
// and the list sorted. The oracle of TestPluginsOfBefore.
func pluginsOfBefore(doc occkit.Document, release string, settings func() modelSettings) []Plugin {
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
	plugins.ForEach(func(k, v occkit.Value) bool {
		switch k.String() {
		case "deny":
			for _, d := range v.Array() {
				if d.IsString() {
					blocked[c.PluginID(d.String())] = true
				}
			}
		case "entries":
			v.ForEach(func(k, e occkit.Value) bool {
				if disabled(e) {
					blocked[c.PluginID(k.String())] = true
				} else {
					add(k)
				}
				return true
			})
		case "allow":
			for _, a := range v.Array() {
				add(a)
			}
		case "slots":
			v.ForEach(func(_, s occkit.Value) bool {
				add(s)
				return true
			})
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
	ms := settings()
	for _, id := range ms.runtimes {
		want[c.PluginID(id)] = true
	}
	// The refs as the Value walks read them (scanning them is the
	// function under test's, in the settings).
	for _, ref := range modelRefsValues(agentSelectionsValues(doc)) {
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

// pluginIDPool is the ids TestPluginsOfBefore draws from: every plugin
// and channel id of the newest release, its aliases, spelled as OpenClaw
// normalizes them and not, and ids no release knows.
func pluginIDPool(t *testing.T) []string {
	c, err := openclawschema.ContractFor(openclawschema.Release())
	if err != nil {
		t.Fatal(err)
	}
	pool := []string{"google-gemini-cli", "minimax-portal", "minimax-portal-auth", "nothing", "", "openclaw"}
	for _, list := range [][]openclawschema.Plugin{c.BundledPlugins(), c.OfficialPlugins(), c.ExternalPlugins()} {
		for _, p := range list {
			pool = append(pool, p.ID)
			pool = append(pool, p.Channels...)
		}
	}
	for _, id := range pool[:len(pool):len(pool)] {
		pool = append(pool, strings.ToUpper(id), " "+id+"\t")
	}
	return pool
}

// pluginsOf lists what it listed before its sets were lists, on
// documents whose plugins section, channels and model settings name
// plugins of every kind, many times and in every spelling, for every
// carried release and one the library does not carry.
func TestPluginsOfBefore(t *testing.T) {
	pool := pluginIDPool(t)
	releases := append(openclawschema.Releases(), "2026.1.1")
	rapid.Check(t, func(t *rapid.T) {
		id := func() string { return rapid.SampledFrom(pool).Draw(t, "id") }
		quote := func(s string) string {
			b, _ := json.Marshal(s)
			return string(b)
		}
		list := func() string {
			var parts []string
			for range rapid.IntRange(0, 12).Draw(t, "len") {
				parts = append(parts, quote(id()))
			}
			return "[" + strings.Join(parts, ",") + "]"
		}
		members := func(value func() string) string {
			var parts []string
			seen := map[string]bool{}
			for range rapid.IntRange(0, 12).Draw(t, "members") {
				if k := id(); !seen[k] {
					seen[k] = true
					parts = append(parts, quote(k)+":"+value())
				}
			}
			return "{" + strings.Join(parts, ",") + "}"
		}
		entry := func() string {
			return rapid.SampledFrom([]string{`{}`, `{"enabled":false}`, `{"enabled":true}`, `true`, `{"enabled":"no"}`}).Draw(t, "entry")
		}
		var sections []string
		if rapid.Bool().Draw(t, "plugins") {
			var parts []string
			if e := rapid.SampledFrom([]string{"", "true", "false", `"x"`}).Draw(t, "enabled"); e != "" {
				parts = append(parts, `"enabled":`+e)
			}
			fields := map[string]func() string{
				"deny": list, "allow": list,
				"entries": func() string { return members(entry) },
				"slots":   func() string { return members(func() string { return quote(id()) }) },
			}
			// A field, or the section, is now and then of another kind:
			// an array (whose elements have no key), a string, a number.
			odd := func(label string) string {
				return rapid.SampledFrom([]string{"", "", "", "", "[" + entry() + "," + quote(id()) + "]", quote(id()), "1"}).Draw(t, label)
			}
			for _, k := range []string{"deny", "allow", "entries", "slots"} {
				if rapid.Bool().Draw(t, k) {
					v := odd(k + " kind")
					if v == "" {
						v = fields[k]()
					}
					parts = append(parts, quote(k)+":"+v)
				}
			}
			section := "{" + strings.Join(parts, ",") + "}"
			if v := odd("plugins kind"); v != "" {
				section = v
			}
			sections = append(sections, `"plugins":`+section)
		}
		if rapid.Bool().Draw(t, "channels") {
			v := rapid.SampledFrom([]string{"", "", "[" + entry() + "]", `"slack"`}).Draw(t, "channels kind")
			if v == "" {
				v = members(entry)
			}
			sections = append(sections, `"channels":`+v)
		}
		var models []string
		for i := range rapid.IntRange(0, 12).Draw(t, "models") {
			models = append(models, quote(id()+"/m"+strings.Repeat("x", i))+`:{"agentRuntime":{"id":`+quote(id())+`}}`)
		}
		sections = append(sections, `"agents":{"defaults":{"model":{"primary":`+quote(id()+"/p")+`,"fallbacks":`+
			strings.ReplaceAll(list(), `",`, `/f",`)+`},"models":{`+strings.Join(models, ",")+"}}}")
		doc, err := occkit.ParseDocument([]byte("{" + strings.Join(sections, ",") + "}"))
		if err != nil {
			t.Skip(err)
		}
		release := rapid.SampledFrom(releases).Draw(t, "release")
		want := pluginsOfBefore(doc, release, func() modelSettings { return readModelSettings(doc) })
		if d := cmp.Diff(want, RequiredPlugins(doc, release)); d != "" {
			t.Fatalf("%s: RequiredPlugins (-before +got):\n%s", doc, d)
		}
		if d := cmp.Diff(want, ScanSecrets(doc, SecretPolicyFor("")).requiredPlugins(release)); d != "" {
			t.Fatalf("%s: the scan's plugins (-before +got):\n%s", doc, d)
		}
	})
}
