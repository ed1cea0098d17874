package ssh

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/occkit/occkit"
)

// unbundledByRelease lists, per OpenClaw release, the plugins its package
// does not carry and that its gateway fetches from the npm registry at
// start when a configuration needs them: every channel of the release's
// own channel catalog (dist/channel-catalog.json) without a directory in
// dist/extensions, and the agent-runtime plugins it installs on demand
// (acpx, codex, copilot). Read from each release's package.
var unbundledByRelease = map[string][]string{
	"2026.8.2": unbundled2026,
	"2026.9.6": unbundled2026,
}

var unbundled2026 = []string{
	"acpx", "buzz", "clickclack", "codex", "copilot", "discord", "feishu", "googlechat",
	"imessage", "irc", "line", "matrix", "mattermost", "msteams", "nextcloud-talk",
	"nostr", "openclaw-weixin", "openclaw-zaloclawbot", "qqbot", "raft", "signal",
	"slack", "sms", "synology-chat", "tlon", "twitch", "wecom", "whatsapp", "yuanbao",
	"zalo", "zalouser",
}

// unbundledPlugins is the one place the driver learns which plugins an
// OpenClaw release does not bundle (sorted ids; known false for a release
// the table does not carry, which then gets none provided).
func unbundledPlugins(release string) (ids []string, known bool) {
	ids, known = unbundledByRelease[release]
	return slices.Clone(ids), known
}

// releaseRE is a release usable as a directory name on the host.
var releaseRE = regexp.MustCompile(`^[0-9A-Za-z][0-9A-Za-z.+_-]{0,63}$`)

// neededPlugins is the subset of unbundled (sorted plugin ids) that doc
// configures, the plugins OpenClaw would otherwise install at start
// (mirroring its release plugin-install step, for what an unbundled
// plugin can be): a channel section (channels.<id>), a plugin entry
// (plugins.entries.<id>), a plugins.allow or plugins.slots member, or an
// agent runtime id (agentRuntime.id and pickerRuntimes in
// agents.defaults.models, agents.list[].models, models.providers.* and
// their models). Nothing is needed when plugins.enabled is false; a
// plugin plugins.deny names or whose entry or channel is enabled: false
// is not needed. OpenClaw's implicit Codex preference for OpenAI models
// never applies: occkit admits an OpenAI model only with an explicit
// runtime (RES-6).
func neededPlugins(doc occkit.Document, unbundled []string) []string {
	root := doc.Root()
	plugins := root.Key("plugins")
	if v := plugins.Key("enabled"); v.IsBool() && !v.Bool() {
		return nil
	}
	named := map[string]bool{}
	add := func(v occkit.Value) {
		if v.IsString() {
			named[strings.TrimSpace(v.String())] = true
		}
	}
	keys := func(v occkit.Value) {
		v.ForEach(func(k, _ occkit.Value) bool {
			add(k)
			return true
		})
	}
	keys(root.Key("channels"))
	keys(plugins.Key("entries"))
	for _, v := range plugins.Key("allow").Array() {
		add(v)
	}
	plugins.Key("slots").ForEach(func(_, v occkit.Value) bool {
		add(v)
		return true
	})
	runtimes := func(entry occkit.Value) {
		add(entry.Key("agentRuntime").Key("id"))
		for _, v := range entry.Key("pickerRuntimes").Array() {
			add(v)
		}
	}
	modelMap := func(models occkit.Value) {
		models.ForEach(func(_, entry occkit.Value) bool {
			runtimes(entry)
			return true
		})
	}
	modelMap(root.Key("agents").Key("defaults").Key("models"))
	for _, agent := range root.Key("agents").Key("list").Array() {
		modelMap(agent.Key("models"))
	}
	root.Key("models").Key("providers").ForEach(func(_, p occkit.Value) bool {
		runtimes(p)
		for _, m := range p.Key("models").Array() {
			runtimes(m)
		}
		return true
	})
	denied := map[string]bool{}
	for _, v := range plugins.Key("deny").Array() {
		if v.IsString() {
			denied[strings.TrimSpace(v.String())] = true
		}
	}
	disabled := func(v occkit.Value) bool {
		e := v.Key("enabled")
		return e.IsBool() && !e.Bool()
	}
	var out []string
	for _, id := range unbundled {
		if named[id] && !denied[id] && !disabled(plugins.Key("entries").Key(id)) && !disabled(root.Key("channels").Key(id)) {
			out = append(out, id)
		}
	}
	return out
}

// trustPlugins returns the planned native document trusting the plugins
// its release does not bundle and it configures (neededPlugins), and
// their ids. OpenClaw loads no plugin from outside its package unless
// plugins.entries.<id>.enabled is true or plugins.allow names it: what its
// own `plugins install` writes into the configuration, which here is
// frozen and read-only, so the render writes it instead (an entry's other
// keys are kept). A release the driver does not know gets nothing.
func trustPlugins(native []byte, release string) ([]byte, []string, error) {
	unbundled, known := unbundledPlugins(release)
	if !known {
		return native, nil, nil
	}
	doc, err := occkit.ParseDocument(native)
	if err != nil {
		return nil, nil, err
	}
	need := neededPlugins(doc, unbundled)
	for _, id := range need {
		if doc, err = doc.Set(occkit.NewPath("plugins", "entries", id, "enabled"), true); err != nil {
			return nil, nil, err
		}
	}
	if len(need) == 0 {
		return native, nil, nil
	}
	return doc.Bytes(), need, nil
}

// installPlugins has the host's OpenClaw CLI (the approved release,
// checked before) install the plugins of u into the Agent's state
// directory, the install root the gateway reads (OPENCLAW_STATE_DIR: npm/
// and the install records of state/openclaw.sqlite), offline from the
// operator's npm cache, before the unit starts: `plugins install <id>`,
// which records them as official npm installs, the provenance OpenClaw
// requires before it grants a plugin its trusted interfaces. A plugin
// already installed there for the release (a marker the driver writes
// after a successful install) is kept. Not --force: measured on 2026.9.6,
// a forced install records a generation directory the next gateway start
// reports missing (and then fetches the plugin); so an Agent whose plugin
// was installed for another release is refused until that install is
// removed (see the package documentation). It refuses (409 at
// pluginCache) when there is no cache, before anything is written, and
// when the cache cannot provide a plugin, before the unit starts; the
// installer's output stays in the marker directory on the host.
func (d *Driver) installPlugins(ctx context.Context, c *conn, u Unit) error {
	if len(u.Plugins) == 0 {
		return nil
	}
	if err := d.canProvide(c.h, u); err != nil {
		return err
	}
	if !releaseRE.MatchString(u.Release) {
		return occkit.Invalid("DRV-6", occkit.NewPath("harness", "version"), "the approved release is not a plain version")
	}
	script := pluginInstallScript(u, d.s.pluginCache, func(id string) string {
		return d.cliCommand("plugins", "install", id)
	})
	out, err := c.step(ctx, "installing plugins from pluginCache", script, nil)
	if err != nil {
		return err
	}
	if failed := strings.Fields(string(out)); len(failed) > 0 {
		return occkit.Conflict("DRV-6", occkit.NewPath("pluginCache"),
			"%s: the OpenClaw %s CLI could not install %s from pluginCache offline (its output is in the Agent's state directory, .occkit-plugins)",
			c.h, u.Release, strings.Join(failed, ", "))
	}
	return nil
}

// canProvide refuses (409 at pluginCache) a unit that needs plugins when
// the driver has no cache to install them from.
func (d *Driver) canProvide(h host, u Unit) error {
	if len(u.Plugins) == 0 || d.s.pluginCache != "" {
		return nil
	}
	return occkit.Conflict("DRV-6", occkit.NewPath("pluginCache"),
		"%s: the configuration needs plugins OpenClaw %s does not bundle (%s) and pluginCache is not set: started without them, OpenClaw would fetch them from the npm registry",
		h, u.Release, strings.Join(u.Plugins, ", "))
}

// pluginInstallScript is the shell script installPlugins runs on the host:
// install(id) is the command that installs one plugin; the ids it could
// not install are printed, one a line.
func pluginInstallScript(u Unit, cache string, install func(id string) string) string {
	var b strings.Builder
	fmt.Fprintf(&b, `set -e
umask 077
export OPENCLAW_STATE_DIR=%s OPENCLAW_CONFIG_PATH=%s npm_config_offline=true npm_config_cache=%s npm_config_update_notifier=false npm_config_audit=false npm_config_fund=false
m="$OPENCLAW_STATE_DIR/.occkit-plugins"
mkdir -p -- "$m"
printf '{}\n' > "$OPENCLAW_CONFIG_PATH"
trap 'rm -f -- "$OPENCLAW_CONFIG_PATH"' EXIT
`, quote(u.WorkingDirectory), quote(u.RevisionDir+"/plugins-install.json"), quote(cache))
	for _, id := range u.Plugins {
		fmt.Fprintf(&b, `if [ "$(cat -- "$m/%s" 2>/dev/null)" != %s ]; then
  if (%s) >"$m/%s.log" 2>&1; then printf '%%s\n' %s > "$m/%s"; else echo %s; fi
fi
`, id, quote(u.Release), install(id), id, quote(u.Release), id, id)
	}
	return b.String()
}
