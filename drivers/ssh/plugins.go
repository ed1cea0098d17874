package ssh

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/occkit/occkit"
)

// releaseRE is a release usable as a directory name on the host.
var releaseRE = regexp.MustCompile(`^[0-9A-Za-z][0-9A-Za-z.+_-]{0,63}$`)

// installPlugins has the host's OpenClaw CLI (the approved release,
// checked before) install the plugins of u into the Agent's state
// directory, the install root the gateway reads (OPENCLAW_STATE_DIR: npm/
// and the install records of state/openclaw.sqlite), offline from the
// operator's npm cache, before the unit starts: `plugins install
// <package>@<version>`, the spec the release installs
// (compile.RequiredPlugins), which records them as official npm installs,
// the provenance OpenClaw requires before it grants a plugin its trusted
// interfaces. A plugin
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
		return occkit.Invalid("DRV-6", occkit.RevisionPath("harness", "version"), "the approved release is not a plain version")
	}
	script := pluginInstallScript(u, d.s.pluginCache, func(spec string) string {
		return d.cliCommand("plugins", "install", spec)
	})
	out, err := c.step(ctx, "installing plugins from pluginCache", script, nil)
	if err != nil {
		return err
	}
	if failed := strings.Fields(string(out)); len(failed) > 0 {
		return occkit.Conflict("DRV-6", occkit.InstallationPath("pluginCache"),
			"%s: the OpenClaw %s CLI could not install %s from pluginCache offline (its output is in the Agent's state directory, .occkit-plugins)",
			c.h, u.Release, strings.Join(failed, ", "))
	}
	return nil
}

// canProvide refuses (409) a unit that needs plugins when the driver has
// no cache to install them from (at pluginCache), or a plugin the npm
// registry publishes no version of that the release accepts (at the
// approved release: no cache can hold it).
func (d *Driver) canProvide(h host, u Unit) error {
	if len(u.Plugins) == 0 {
		return nil
	}
	var ids []string
	for _, p := range u.Plugins {
		if p.Spec() == "" {
			return occkit.Conflict("DRV-6", occkit.RevisionPath("harness", "version"),
				"%s: the configuration needs the plugin %s (%s), which OpenClaw %s does not bundle and the npm registry publishes no version of that it accepts: approve another release",
				h, p.ID, p.Package, u.Release)
		}
		ids = append(ids, p.ID)
	}
	if d.s.pluginCache != "" {
		return nil
	}
	return occkit.Conflict("DRV-6", occkit.InstallationPath("pluginCache"),
		"%s: the configuration needs plugins OpenClaw %s does not bundle (%s) and pluginCache is not set: started without them, OpenClaw would fetch them from the npm registry",
		h, u.Release, strings.Join(ids, ", "))
}

// pluginInstallScript is the shell script installPlugins runs on the host:
// install(spec) is the command that installs one plugin from its npm spec;
// the ids it could not install are printed, one a line. A plugin's marker
// holds the spec it was installed from.
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
	for _, p := range u.Plugins {
		id, spec := p.ID, p.Spec()
		fmt.Fprintf(&b, `if [ "$(cat -- "$m/%s" 2>/dev/null)" != %s ]; then
  if (%s) >"$m/%s.log" 2>&1; then printf '%%s\n' %s > "$m/%s"; else echo %s; fi
fi
`, id, quote(spec), install(spec), id, quote(spec), id, id)
	}
	return b.String()
}
