package openclawschema

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// carried are the releases the library carries (issue 32): every stable
// OpenClaw release on the npm registry from 2026.8.1 to 2026.9.6.
var carried = []string{"2026.9.6", "2026.9.5", "2026.9.4", "2026.9.3", "2026.9.2", "2026.9.1", "2026.8.2", "2026.8.1"}

func TestReleases(t *testing.T) {
	if d := cmp.Diff(carried, Releases()); d != "" {
		t.Errorf("Releases (-want +got):\n%s", d)
	}
	if Release() != "2026.9.6" {
		t.Errorf("Release() = %s, want the newest, 2026.9.6", Release())
	}
}

// installs are the npm specs each release installs its Discord, Slack,
// Codex and Weixin plugins from (issue 32). Official plugins are
// version-bound to the release, but the npm registry does not publish
// every release of every package (`npm view @openclaw/<id> versions`):
// Discord and Slack skip 2026.8.1 to 2026.9.1, where OpenClaw's own
// installer takes the newest version that accepts the release
// (openclaw@2026.8.2: "using newest compatible @openclaw/discord@2026.7.35");
// Codex is published only as 2026.9.4 and 2026.9.5, which accept no
// earlier release, so 2026.9.6 takes 2026.9.5 and releases before 2026.9.4
// have none (""). Weixin is external: its catalog pins a version
// (scripts/lib/official-external-channel-catalog.json of each release).
var installs = map[string]map[string]string{
	"2026.9.6": {"discord": "@openclaw/discord@2026.9.6", "slack": "@openclaw/slack@2026.9.6", "codex": "@openclaw/codex@2026.9.5", "openclaw-weixin": "@tencent-weixin/openclaw-weixin@2.4.8"},
	"2026.9.5": {"discord": "@openclaw/discord@2026.9.5", "slack": "@openclaw/slack@2026.9.5", "codex": "@openclaw/codex@2026.9.5", "openclaw-weixin": "@tencent-weixin/openclaw-weixin@2.4.8"},
	"2026.9.4": {"discord": "@openclaw/discord@2026.9.4", "slack": "@openclaw/slack@2026.9.4", "codex": "@openclaw/codex@2026.9.4", "openclaw-weixin": "@tencent-weixin/openclaw-weixin@2.4.8"},
	"2026.9.3": {"discord": "@openclaw/discord@2026.9.3", "slack": "@openclaw/slack@2026.9.3", "codex": "", "openclaw-weixin": "@tencent-weixin/openclaw-weixin@2.4.8"},
	"2026.9.2": {"discord": "@openclaw/discord@2026.9.2", "slack": "@openclaw/slack@2026.9.2", "codex": "", "openclaw-weixin": "@tencent-weixin/openclaw-weixin@2.4.8"},
	"2026.9.1": {"discord": "@openclaw/discord@2026.7.35", "slack": "@openclaw/slack@2026.7.35", "codex": "", "openclaw-weixin": "@tencent-weixin/openclaw-weixin@2.4.8"},
	"2026.8.2": {"discord": "@openclaw/discord@2026.7.35", "slack": "@openclaw/slack@2026.7.35", "codex": "", "openclaw-weixin": "@tencent-weixin/openclaw-weixin@2.4.6"},
	"2026.8.1": {"discord": "@openclaw/discord@2026.7.35", "slack": "@openclaw/slack@2026.7.35", "codex": "", "openclaw-weixin": "@tencent-weixin/openclaw-weixin@2.4.6"},
}

// TestContracts: every carried release decodes into a contract whose
// schema compiles and whose lists hold what each release is known to
// have (read from the packages: telegram is bundled in all, discord,
// slack and codex are official plugins none of them ships).
func TestContracts(t *testing.T) {
	for _, v := range carried {
		t.Run(v, func(t *testing.T) {
			c, err := ContractFor(v)
			if err != nil {
				t.Fatal(err)
			}
			if c.Version() != v {
				t.Errorf("Version() = %s", c.Version())
			}
			var schema map[string]any
			if err := json.Unmarshal(c.Schema(), &schema); err != nil || schema["properties"] == nil {
				t.Fatalf("the schema does not parse: %v", err)
			}
			val, err := ForRelease(v)
			if err != nil {
				t.Fatal(err)
			}
			if again, _ := c.Validator(); again != val || val.Contract() != c || val.Version() != v {
				t.Error("the release's check is not compiled once and shared")
			}
			if n := len(c.Sensitive()); n < 150 {
				t.Errorf("%d sensitive paths", n)
			}
			for _, ch := range []string{"telegram", "slack", "discord", "whatsapp"} {
				if !slices.Contains(c.Channels(), ch) {
					t.Errorf("channel %s is not accepted", ch)
				}
			}
			for _, id := range []string{"discord", "slack", "codex"} {
				p, ok := c.OfficialPlugin(id)
				if !ok || p.Spec() != installs[v][id] || p.Package != "@openclaw/"+id || p.External {
					t.Errorf("official plugin %s: %+v, %v; want it installed as %q", id, p, ok, installs[v][id])
				}
			}
			if p, ok := c.ChannelPlugin("telegram"); !ok || p.ID != "telegram" || p.Package != "" {
				t.Errorf("telegram is provided by %+v, %v", p, ok)
			}
			if p, ok := c.ChannelPlugin("discord"); !ok || p.Spec() != installs[v]["discord"] || p.Kind != "channel" {
				t.Errorf("discord is provided by %+v, %v", p, ok)
			}
			if p, ok := c.ChannelPlugin("openclaw-weixin"); !ok || p.Spec() != installs[v]["openclaw-weixin"] || !p.External {
				t.Errorf("openclaw-weixin is provided by %+v, %v", p, ok)
			}
			if p, ok := c.InstalledPlugin(" Discord "); !ok || p.ID != "discord" {
				t.Errorf("InstalledPlugin(%q) = %+v, %v", " Discord ", p, ok)
			}
			if _, ok := c.InstalledPlugin("telegram"); ok {
				t.Error("the bundled telegram is installed from npm")
			}
			if _, ok := c.ChannelPlugin("salck"); ok {
				t.Error("a plugin provides salck")
			}
			for _, p := range c.BundledPlugins() {
				if _, official := c.OfficialPlugin(p.ID); official {
					t.Errorf("%s is bundled and official", p.ID)
				}
			}
		})
	}
}

func TestUnknownRelease(t *testing.T) {
	for _, v := range []string{"2026.5.1", "2026.9.7", "latest", "", " 2026.9.6"} {
		_, err := ContractFor(v)
		var unknown *UnknownReleaseError
		if !errors.As(err, &unknown) || unknown.Version != v {
			t.Errorf("ContractFor(%q) = %v", v, err)
		}
		if _, err := ForRelease(v); !errors.As(err, &unknown) {
			t.Errorf("ForRelease(%q) = %v", v, err)
		}
	}
}

// TestLazyDecode: nothing is decoded when the package is initialised,
// and asking for one release decodes that release alone, once. It runs
// in a fresh process (this test binary again), since other tests of the
// package decode releases.
func TestLazyDecode(t *testing.T) {
	if os.Getenv("OCCKIT_LAZY_CHILD") == "1" {
		if n := decodes.Load(); n != 0 {
			t.Fatalf("%d releases decoded before any was asked for", n)
		}
		for range 3 {
			if _, err := ForRelease("2026.9.3"); err != nil {
				t.Fatal(err)
			}
		}
		_ = Releases()
		if n := decodes.Load(); n != 1 {
			t.Fatalf("%d releases decoded for one asked for", n)
		}
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestLazyDecode$", "-test.count=1")
	cmd.Env = append(os.Environ(), "OCCKIT_LAZY_CHILD=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
}
