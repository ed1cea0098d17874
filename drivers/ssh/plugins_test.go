package ssh

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/internal/realgateway"
	"github.com/occkit/occkit/internal/tiers"
)

func TestNeededPlugins(t *testing.T) {
	unbundled := []string{"codex", "discord", "slack", "whatsapp"}
	tests := []struct {
		name, doc string
		want      []string
	}{
		{"none", `{"agents":{"defaults":{"model":"anthropic/claude-sonnet-4-5"}}}`, nil},
		{"bundled channel only", `{"channels":{"telegram":{"enabled":true}}}`, nil},
		{"channels", `{"channels":{"telegram":{},"slack":{"enabled":true},"discord":{"token":"${T}"}}}`, []string{"discord", "slack"}},
		{"a disabled channel", `{"channels":{"slack":{"enabled":false},"discord":{}}}`, []string{"discord"}},
		{"a plugin entry", `{"plugins":{"entries":{"whatsapp":{"config":{}}}}}`, []string{"whatsapp"}},
		{"a disabled entry", `{"channels":{"discord":{}},"plugins":{"entries":{"discord":{"enabled":false}}}}`, nil},
		{"denied", `{"channels":{"discord":{},"slack":{}},"plugins":{"deny":["slack"]}}`, []string{"discord"}},
		{"plugins off", `{"channels":{"discord":{}},"plugins":{"enabled":false}}`, nil},
		{"allow list", `{"plugins":{"allow":["whatsapp","telegram"]}}`, []string{"whatsapp"}},
		{"slot", `{"plugins":{"slots":{"memory":"discord"}}}`, []string{"discord"}},
		{"a model runtime", `{"agents":{"defaults":{"models":{"openai/gpt-5":{"agentRuntime":{"id":"codex"}}}}}}`, []string{"codex"}},
		{"a picker runtime", `{"agents":{"list":[{"id":"a","models":{"openai/gpt-5":{"pickerRuntimes":["codex"]}}}]}}`, []string{"codex"}},
		{"a provider runtime", `{"models":{"providers":{"openai":{"agentRuntime":{"id":"codex"}}}}}`, []string{"codex"}},
		{"a provider model runtime", `{"models":{"providers":{"openai":{"models":[{"id":"m","agentRuntime":{"id":"codex"}}]}}}}`, []string{"codex"}},
		{"the openclaw runtime", `{"agents":{"defaults":{"models":{"openai/gpt-5":{"agentRuntime":{"id":"openclaw"}}}}}}`, nil},
		{"padded id", `{"plugins":{"allow":[" slack "]}}`, []string{"slack"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := neededPlugins(occkit.MustParseDocument(tt.doc), unbundled)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// The release table is what the releases' own packages say: every
// channel of dist/channel-catalog.json without a bundled extension.
func TestUnbundledPluginsMatchTheReleases(t *testing.T) {
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
			ids, known := unbundledPlugins(release)
			if !known {
				t.Fatalf("the table does not carry OpenClaw %s", release)
			}
			for _, id := range catalogChannels(t, dist) {
				if _, err := os.Stat(filepath.Join(dist, "extensions", id)); err == nil {
					if slices.Contains(ids, id) {
						t.Errorf("%s is bundled in %s but listed", id, release)
					}
				} else if !slices.Contains(ids, id) {
					t.Errorf("%s is not bundled in %s but missing from the table", id, release)
				}
			}
			for _, id := range []string{"codex", "discord", "slack"} {
				if _, err := os.Stat(filepath.Join(dist, "extensions", id)); err == nil || !slices.Contains(ids, id) {
					t.Errorf("%s: bundled %v, listed %v", id, err == nil, slices.Contains(ids, id))
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

func TestTrustPlugins(t *testing.T) {
	doc := `{"channels":{"discord":{"token":"${T}"}},"plugins":{"entries":{"discord":{"config":{"x":1}}}}}`
	out, ids, err := trustPlugins([]byte(doc), "2026.9.6")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"discord"}, ids); diff != "" {
		t.Errorf("ids (-want +got):\n%s", diff)
	}
	got := occkit.MustParseDocument(string(out))
	if v := got.Get(occkit.NewPath("plugins", "entries", "discord", "enabled")); !v.IsBool() || !v.Bool() {
		t.Errorf("discord not trusted: %s", out)
	}
	if v := got.Get(occkit.NewPath("plugins", "entries", "discord", "config", "x")); v.Int() != 1 {
		t.Errorf("the entry's own keys were lost: %s", out)
	}
	// A release the driver does not know: the document is unchanged.
	out, ids, err = trustPlugins([]byte(doc), "drivertest")
	if err != nil || ids != nil || string(out) != doc {
		t.Errorf("unknown release: %s %v %v", out, ids, err)
	}
}

// pluginCache makes a fake npm cache under shared holding ids.
func pluginCache(t *testing.T, ids ...string) string {
	t.Helper()
	dir, err := os.MkdirTemp(shared, "cache-")
	if err == nil {
		err = os.Chmod(dir, 0o755)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	for _, id := range ids {
		if err := os.WriteFile(filepath.Join(dir, id), []byte("package "+id+"\n"), 0o644); err != nil {
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
		{"slack missing", []string{"discord"}, "pluginCache"},
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
	cfg.PluginCache = pluginCache(t, "discord", "slack")
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
	if got := remote(t, "cat "+u.WorkingDirectory+"/npm/installs"); got != "discord\nslack\n" {
		t.Errorf("installs %q, want discord and slack once each", got)
	}
	onHost := occkit.MustParseDocument(remote(t, "cat "+u.ConfigPath))
	for _, id := range []string{"discord", "slack"} {
		if v := onHost.Get(occkit.NewPath("plugins", "entries", id, "enabled")); !v.Bool() {
			t.Errorf("%s is not trusted by the document on the host", id)
		}
	}
}
