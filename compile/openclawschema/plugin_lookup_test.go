package openclawschema

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// installedPluginBefore and channelPluginBefore are InstalledPlugin and
// ChannelPlugin as they were before the Contract indexed its plugins:
// a search of the lists one by one, the Channels copied. The oracles of
// TestPluginLookupBefore.
func (c *Contract) installedPluginBefore(id string) (Plugin, bool) {
	id = c.PluginID(id)
	for _, list := range [][]Plugin{c.official, c.external} {
		for _, p := range list {
			if p.ID == id {
				p.Channels = slices.Clone(p.Channels)
				return p, true
			}
		}
	}
	return Plugin{}, false
}

func (c *Contract) channelPluginBefore(channel string) (Plugin, bool) {
	for _, list := range [][]Plugin{c.bundled, c.official, c.external} {
		for _, p := range list {
			if slices.Contains(p.Channels, channel) {
				p.Channels = slices.Clone(p.Channels)
				return p, true
			}
		}
	}
	return Plugin{}, false
}

// The indexed lookups find what the searches found, for every plugin and
// channel id of every carried release in every spelling, for each
// alias, and for drawn strings; what they hand out cannot write the
// Contract's lists.
func TestPluginLookupBefore(t *testing.T) {
	// A contract whose lists repeat ids and channels, within a list and
	// across them (no carried release does): the first is found.
	repeats := &Contract{version: "2026.9.6", aliases: map[string]string{"alias": "a"}}
	if err := json.Unmarshal([]byte(`{
		"bundled": [{"id":"b","channels":["c1","c2"]},{"id":"b","channels":["c3"]}],
		"official": [{"id":"a","package":"@x/a","kind":"channel","channels":["c2","c4"]},{"id":"a","package":"@x/a2","channels":["c5"]},
			{"id":"b","package":"@x/b","kind":"plugin"},{"id":"d","package":"","channels":["c4"]}],
		"external": [{"id":"a","package":"@y/a","version":"1.0.0","channels":["c5","c6"]},{"id":"e","package":"@y/e","version":"2.0.0","channels":["c1","c6"]}]
	}`), &repeats.plugins); err != nil {
		t.Fatal(err)
	}
	repeats.buildPlugins()
	contracts := map[string]*Contract{"repeats": repeats}
	for _, v := range Releases() {
		c, err := ContractFor(v)
		if err != nil {
			t.Fatal(err)
		}
		contracts[v] = c
	}
	for v, c := range contracts {
		pool := []string{"", " ", "nothing"}
		for _, list := range [][]Plugin{c.bundled, c.official, c.external} {
			for _, p := range list {
				pool = append(pool, p.ID)
				pool = append(pool, p.Channels...)
			}
		}
		for k, a := range c.aliases {
			pool = append(pool, k, a)
		}
		for _, id := range pool[:len(pool):len(pool)] {
			pool = append(pool, strings.ToUpper(id), " "+id+"\t", id+"x", "\u00a0"+id)
		}
		check := func(t interface{ Fatalf(string, ...any) }, id string) {
			want, wok := c.installedPluginBefore(id)
			got, ok := c.InstalledPlugin(id)
			if d := cmp.Diff(want, got); d != "" || ok != wok {
				t.Fatalf("%s: InstalledPlugin(%q) = %v (-before +got):\n%s", v, id, ok, d)
			}
			want, wok = c.channelPluginBefore(id)
			got, ok = c.ChannelPlugin(id)
			if d := cmp.Diff(want, got); d != "" || ok != wok {
				t.Fatalf("%s: ChannelPlugin(%q) = %v (-before +got):\n%s", v, id, ok, d)
			}
			if ok && len(got.Channels) > 0 {
				before := slices.Clone(got.Channels)
				_ = append(got.Channels, "scribbled")
				got.Channels[0] = "scribbled"
				if again, _ := c.ChannelPlugin(id); !slices.Equal(again.Channels, before) {
					t.Fatalf("%s: writing ChannelPlugin(%q).Channels wrote the Contract's", v, id)
				}
			}
		}
		found := 0
		for _, id := range pool {
			check(t, id)
			if _, ok := c.InstalledPlugin(id); ok {
				found++
			}
		}
		if found < len(c.official) && v != "repeats" {
			t.Fatalf("%s: %d of the pool's ids are installed", v, found)
		}
		rapid.Check(t, func(t *rapid.T) {
			check(t, rapid.OneOf(rapid.SampledFrom(pool), rapid.String()).Draw(t, "id"))
		})
	}
}
