package ssh

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/compile"
	"github.com/occkit/occkit/internal/realgateway"
	"github.com/occkit/occkit/internal/tiers"
)

// The plugins the driver installs are what the releases' own packages
// say: every channel of dist/channel-catalog.json without a bundled
// extension needs its plugin (compile.RequiredPlugins, from the carried
// release data), a bundled one none.
func TestRequiredPluginsMatchTheReleases(t *testing.T) {
	installs := map[string]realgateway.Install{}
	for _, env := range []string{realgateway.EnvDir, envDirPrev} {
		if dir := os.Getenv(env); dir != "" {
			installs[env] = realgateway.Install{Dir: dir}
		}
	}
	if len(installs) == 0 {
		tiers.SSHRelease.Skip(t, "no OpenClaw install ("+realgateway.EnvDir+")")
	}
	run := tiers.SSHRelease.Start(t)
	for env, in := range installs {
		t.Run(env, func(t *testing.T) {
			release := installedRelease(t, in)
			dist := filepath.Join(filepath.Dir(in.Entry()), "dist")
			needs := func(doc string) []compile.Plugin {
				return compile.RequiredPlugins(occkit.MustParseDocument(doc), release)
			}
			for _, id := range catalogChannels(t, dist) {
				got := needs(`{"channels":{"` + id + `":{}}}`)
				if _, err := os.Stat(filepath.Join(dist, "extensions", id)); err == nil {
					if len(got) > 0 {
						t.Errorf("channel %s is bundled in %s but needs %+v", id, release, got)
					}
				} else if len(got) != 1 || got[0].Package == "" {
					t.Errorf("channel %s is not bundled in %s but needs %+v", id, release, got)
				}
			}
			for _, id := range []string{"codex", "discord", "slack"} {
				_, err := os.Stat(filepath.Join(dist, "extensions", id))
				got := needs(`{"plugins":{"entries":{"` + id + `":{}}}}`)
				if err == nil || len(got) != 1 || got[0].ID != id || got[0].Package != "@openclaw/"+id {
					t.Errorf("%s: bundled %v, needs %+v", id, err == nil, got)
				}
			}
			run.Done(1)
		})
	}
}

// catalogChannels are the channel ids of a release's channel catalog.
func catalogChannels(t *testing.T, dist string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dist, "channel-catalog.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cat struct {
		Entries []struct {
			OpenClaw struct {
				Channel struct{ ID string }
			}
		}
	}
	if err := json.Unmarshal(b, &cat); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, e := range cat.Entries {
		ids = append(ids, e.OpenClaw.Channel.ID)
	}
	if len(ids) == 0 {
		t.Fatal("an empty channel catalog")
	}
	return ids
}

// Render takes the plugins from the plan: the unit lists them with the
// spec the release installs, and the planned document trusts each, an
// author's entry keeping its own keys.
func TestRenderPlugins(t *testing.T) {
	doc := `{"agents":{"defaults":{"model":"anthropic/claude-sonnet-4-5"}},"channels":{"discord":{"enabled":true}},` +
		`"plugins":{"entries":{"discord":{"config":{"x":1}}}}}`
	for _, tt := range []struct {
		release string
		want    []compile.Plugin
	}{
		{"2026.9.6", []compile.Plugin{{ID: "discord", Package: "@openclaw/discord", Version: "2026.9.6"}}},
		// npm publishes no Discord of 2026.8.x: the newest that accepts it.
		{"2026.8.2", []compile.Plugin{{ID: "discord", Package: "@openclaw/discord", Version: "2026.7.35"}}},
	} {
		t.Run(tt.release, func(t *testing.T) {
			rev := admitSSH(t, "render-plugins", tt.release, doc, occkit.LevelInfo, nil)
			root := t.TempDir()
			u, err := Render(rev, RenderOptions{Port: 18789, UnitDir: root + "/units", StateDir: root + "/state", BinaryPath: "/usr/bin/openclaw"})
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tt.want, u.Plugins); d != "" {
				t.Errorf("plugins (-want +got):\n%s", d)
			}
			got := occkit.MustParseDocument(string(u.Document))
			if v := got.Get(occkit.NewPath("plugins", "entries", "discord", "enabled")); !v.IsBool() || !v.Bool() {
				t.Errorf("discord not trusted: %s", u.Document)
			}
			if v := got.Get(occkit.NewPath("plugins", "entries", "discord", "config", "x")); v.Int() != 1 {
				t.Errorf("the entry's own keys were lost: %s", u.Document)
			}
		})
	}
}

// pluginCache makes a fake npm cache under shared holding the packages
// of specs (fakePluginsInstall).
func pluginCache(t *testing.T, specs ...string) string {
	t.Helper()
	dir, err := os.MkdirTemp(shared, "cache-")
	if err == nil {
		err = os.Chmod(dir, 0o755)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	for _, spec := range specs {
		if err := os.WriteFile(filepath.Join(dir, fakePackageFile(spec)), []byte("package "+spec+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// Plugins the release does not bundle are installed from the operator's
// cache before the unit starts, once, and trusted by the document; without
// a cache, or with one that lacks a plugin, nothing starts.
func TestPreparePlugins(t *testing.T) {
	s := needSSH(t)
	doc := `{"agents":{"defaults":{"model":"anthropic/claude-sonnet-4-5"}},"channels":{"discord":{"enabled":true},"slack":{"enabled":true}}}`
	rev := admitSSH(t, "plugins", "2026.9.6", doc, occkit.LevelInfo, nil)
	for _, tt := range []struct {
		name  string
		cache []string // nil: no PluginCache
		at    string
	}{
		{"no cache", nil, "pluginCache"},
		{"slack missing", []string{"@openclaw/discord@2026.9.6"}, "pluginCache"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cfg, p := testConfig(t, s)
			cfg.BinaryPath = fakeWithRelease(t, "2026.9.6")
			if tt.cache != nil {
				cfg.PluginCache = pluginCache(t, tt.cache...)
			}
			err := mustNew(t, cfg).Prepare(ctxT(t), rev)
			wantCode(t, err, occkit.CodeResourceConflict, "DRV-6", tt.at)
			if tt.cache != nil && !strings.Contains(err.Error(), "slack") {
				t.Errorf("the error does not name the missing plugin: %v", err)
			}
			if p.starts != 0 {
				t.Errorf("started %d times, want none", p.starts)
			}
			if got := remote(t, "ls "+cfg.UnitDir+" 2>/dev/null; exit 0"); got != "" {
				t.Errorf("units written: %q", got)
			}
		})
	}
	cfg, _ := testConfig(t, s)
	cfg.BinaryPath = fakeWithRelease(t, "2026.9.6")
	cfg.PluginCache = pluginCache(t, "@openclaw/discord@2026.9.6", "@openclaw/slack@2026.9.6")
	d := mustNew(t, cfg)
	for i := 0; i < 2; i++ {
		if err := d.Prepare(ctxT(t), rev); err != nil {
			t.Fatal(err)
		}
	}
	u, err := Render(rev, d.renderOptions(s.Home, cfg.PortRange.Min))
	if err != nil {
		t.Fatal(err)
	}
	if got := remote(t, "cat "+u.WorkingDirectory+"/npm/installs"); got != "@openclaw/discord@2026.9.6\n@openclaw/slack@2026.9.6\n" {
		t.Errorf("installs %q, want discord and slack once each", got)
	}
	onHost := occkit.MustParseDocument(remote(t, "cat "+u.ConfigPath))
	for _, id := range []string{"discord", "slack"} {
		if v := onHost.Get(occkit.NewPath("plugins", "entries", id, "enabled")); !v.Bool() {
			t.Errorf("%s is not trusted by the document on the host", id)
		}
	}
}
