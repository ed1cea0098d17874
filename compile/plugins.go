package compile

import (
	"sort"
	"strings"

	"github.com/occkit/occkit"
)

// Plugin is an OpenClaw plugin a document needs that its release does not
// bundle: OpenClaw would install it from the npm registry at start
// (`npm view <package>@<release>`, then an install into the state
// directory). A Compute must provide it instead: see [ProcessPlan].Plugins.
type Plugin struct {
	// ID is the plugin id (a channel id such as "discord", or a plugin
	// entry id such as "codex").
	ID string
	// Package is its npm package name; Version the version the release's
	// catalog pins, or "" for the release's own version (or the newest
	// earlier one that release accepts, when the package skipped it).
	Package string
	Version string
}

// unbundledPlugins returns the npm package spec of every official plugin
// release does not bundle, by plugin id, and whether the library knows
// the release. It is the one place this per-release data is read: the
// specs come from the release package's official external plugin, channel
// and provider catalogs (scripts/lib/official-external-*-catalog.json)
// less what it bundles (dist/extensions).
func unbundledPlugins(release string) (map[string]string, bool) {
	switch release {
	case "2026.9.6":
		return unbundled2026_9_6, true
	}
	return nil, false
}

// unbundled2026_9_6 is measured from openclaw@2026.9.6 (99 plugins). The
// npm registry has no @openclaw/codex@2026.9.6: OpenClaw 2026.9.6 itself
// would ask npm for its own release of the package, then ClawHub; the
// newest release npm publishes that it accepts (peer openclaw >=2026.9.5,
// pluginApi >=2026.9.5) is 2026.9.5, measured on the registry, so that is
// the pinned version.
var unbundled2026_9_6 = map[string]string{
	"acpx": "@openclaw/acpx", "amazon-bedrock": "@openclaw/amazon-bedrock-provider",
	"amazon-bedrock-mantle": "@openclaw/amazon-bedrock-mantle-provider", "anthropic-vertex": "@openclaw/anthropic-vertex-provider",
	"arcee": "@openclaw/arcee-provider", "baseten": "@openclaw/baseten-provider", "brave": "@openclaw/brave-plugin",
	"buzz": "@openclaw/buzz", "byteplus": "@openclaw/byteplus-provider", "cerebras": "@openclaw/cerebras-provider",
	"chutes": "@openclaw/chutes-provider", "clickclack": "@openclaw/clickclack",
	"cloudflare-ai-gateway": "@openclaw/cloudflare-ai-gateway-provider", "codex": "@openclaw/codex@2026.9.5",
	"cohere": "@openclaw/cohere-provider", "comfy": "@openclaw/comfy-provider", "copilot": "@openclaw/copilot",
	"deepinfra": "@openclaw/deepinfra-provider", "deepseek": "@openclaw/deepseek-provider",
	"diagnostics-otel": "@openclaw/diagnostics-otel", "diagnostics-prometheus": "@openclaw/diagnostics-prometheus",
	"diffs": "@openclaw/diffs", "diffs-language-pack": "@openclaw/diffs-language-pack", "discord": "@openclaw/discord",
	"duckduckgo": "@openclaw/duckduckgo-plugin", "exa": "@openclaw/exa-plugin", "facetime": "@openclaw/facetime",
	"featherless": "@openclaw/featherless-provider", "feishu": "@openclaw/feishu", "firecrawl": "@openclaw/firecrawl-plugin",
	"fireworks": "@openclaw/fireworks-provider", "fish-audio-speech": "@openclaw/fish-audio-speech",
	"gmi": "@openclaw/gmi-provider", "google-meet": "@openclaw/google-meet", "googlechat": "@openclaw/googlechat",
	"gradium": "@openclaw/gradium-speech", "groq": "@openclaw/groq-provider", "imessage": "@openclaw/imessage",
	"inworld": "@openclaw/inworld-speech", "irc": "@openclaw/irc", "kilocode": "@openclaw/kilocode-provider",
	"kimi": "@openclaw/kimi-provider", "line": "@openclaw/line", "llama-cpp": "@openclaw/llama-cpp-provider",
	"lobster": "@openclaw/lobster", "longcat": "@openclaw/longcat-provider", "matrix": "@openclaw/matrix",
	"mattermost": "@openclaw/mattermost", "memory-lancedb": "@openclaw/memory-lancedb", "meta": "@openclaw/meta-provider",
	"mistral": "@openclaw/mistral-provider", "moonshot": "@openclaw/moonshot-provider", "msteams": "@openclaw/msteams",
	"mxc": "@openclaw/mxc-sandbox", "nextcloud-talk": "@openclaw/nextcloud-talk", "nostr": "@openclaw/nostr",
	"novita": "@openclaw/novita-provider", "onnx": "@openclaw/onnx",
	"openclaw-plugin-yuanbao": "openclaw-plugin-yuanbao@2.18.2", "openclaw-qqbot": "@tencent-connect/openclaw-qqbot@2.0.3",
	"openclaw-weixin": "@tencent-weixin/openclaw-weixin@2.4.8", "openclaw-zaloclawbot": "@zalo-platforms/openclaw-zaloclawbot@0.1.4",
	"opencode": "@openclaw/opencode-provider", "openshell": "@openclaw/openshell-sandbox", "parallel": "@openclaw/parallel-plugin",
	"perplexity": "@openclaw/perplexity-plugin", "pixverse": "@openclaw/pixverse-provider", "qianfan": "@openclaw/qianfan-provider",
	"qwen": "@openclaw/qwen-provider", "radius": "@openclaw/radius-provider", "raft": "@openclaw/raft",
	"searxng": "@openclaw/searxng-plugin", "signal": "@openclaw/signal", "slack": "@openclaw/slack", "sms": "@openclaw/sms",
	"stepfun": "@openclaw/stepfun-provider", "synology-chat": "@openclaw/synology-chat", "synthetic": "@openclaw/synthetic-provider",
	"tavily": "@openclaw/tavily-plugin", "team-reports": "@openclaw/team-reports", "teams-meetings": "@openclaw/teams-meetings",
	"tencent": "@openclaw/tencent-provider", "tlon": "@openclaw/tlon", "tokenjuice": "@openclaw/tokenjuice",
	"twitch": "@openclaw/twitch", "typesafe": "@openclaw/typesafe", "venice": "@openclaw/venice-provider",
	"vercel-ai-gateway": "@openclaw/vercel-ai-gateway-provider", "voice-call": "@openclaw/voice-call",
	"volcengine": "@openclaw/volcengine-provider", "voyage": "@openclaw/voyage-provider", "vydra": "@openclaw/vydra-provider",
	"wecom-openclaw-plugin": "@wecom/wecom-openclaw-plugin@2026.7.2", "whatsapp": "@openclaw/whatsapp",
	"xiaomi": "@openclaw/xiaomi-provider", "zai": "@openclaw/zai-provider", "zalo": "@openclaw/zalo",
	"zalouser": "@openclaw/zalouser", "zoom-meetings": "@openclaw/zoom-meetings",
}

// RequiredPlugins lists, sorted by id, the plugins doc configures that
// release does not bundle: a channel under channels.<id> (an object not
// disabled), a plugin entry under plugins.entries.<id> (not disabled), and
// the provider of a model the agents select (agents.defaults.model and
// each entry's, primary and fallbacks); none when plugins.enabled is
// false, never one plugins.deny names. A release the library does not
// know lists none.
func RequiredPlugins(doc occkit.Document, release string) []Plugin {
	specs, ok := unbundledPlugins(release)
	if !ok {
		return nil
	}
	root := doc.Get(occkit.Root())
	plugins := root.Key("plugins")
	if v := plugins.Key("enabled"); v.IsBool() && !v.Bool() {
		return nil
	}
	denied := map[string]bool{}
	for _, v := range plugins.Key("deny").Array() {
		denied[strings.TrimSpace(v.String())] = true
	}
	want := map[string]bool{}
	enabled := func(v occkit.Value) bool {
		e := v.Key("enabled")
		return v.IsObject() && !(e.IsBool() && !e.Bool())
	}
	for _, section := range []occkit.Value{root.Key("channels"), plugins.Key("entries")} {
		section.ForEach(func(k, v occkit.Value) bool {
			if enabled(v) {
				want[strings.TrimSpace(k.String())] = true
			}
			return true
		})
	}
	for _, ref := range modelRefs(root.Key("agents")) {
		if i := strings.IndexByte(ref, '/'); i > 0 {
			want[strings.ToLower(strings.TrimSpace(ref[:i]))] = true
		}
	}
	var out []Plugin
	for id := range want {
		spec, ok := specs[id]
		if e := plugins.Key("entries").Key(id).Key("enabled"); !ok || denied[id] || e.IsBool() && !e.Bool() {
			continue
		}
		p := Plugin{ID: id, Package: spec}
		if i := strings.LastIndexByte(spec, '@'); i > 0 {
			p.Package, p.Version = spec[:i], spec[i+1:]
		}
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// modelRefs are the model refs the agents select: agents.defaults.model
// and each agents.entries.<id>.model, a string or {primary, fallbacks}.
func modelRefs(agents occkit.Value) []string {
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
	add(agents.Key("defaults").Key("model"))
	agents.Key("entries").ForEach(func(_, e occkit.Value) bool {
		add(e.Key("model"))
		return true
	})
	return out
}
