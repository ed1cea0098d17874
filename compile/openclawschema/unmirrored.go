package openclawschema

import (
	"regexp"
	"strings"
)

// Unmirrored is a refinement of OpenClaw's validator that the check does
// not mirror, and why: a documented divergence (admission admits such a
// document; OpenClaw refuses it).
type Unmirrored struct {
	Class string
	// Paths are the settings, in OpenClaw's notation ("*" any key, "[]"
	// any element).
	Paths []string
	// Message starts every refusal of the class OpenClaw writes.
	Message string
	Reason  string
}

// UnmirroredRefinements lists the refinements of the carried releases
// the check leaves out (the same rows hold for each of them).
// The differential tests recognise a disagreement as documented only
// when every refusal OpenClaw makes belongs to one of these rows.
func UnmirroredRefinements() []Unmirrored { return append([]Unmirrored(nil), unmirrored...) }

var unmirrored = []Unmirrored{
	{"roster", []string{"agents.ownership", "agents.entries", "agents.entries.*"}, "",
		"the roster rules are the SPEC's (RES-10: Kubernetes refuses what OpenClaw refuses and more; SSH deployment applies no roster rule), not the schema check's"},
	{"secret-provider-host", []string{"secrets.providers.*.command", "secrets.providers.*"}, "secrets.providers.",
		"whether a secret provider's command is safe, readable and trusted is a property of the host that runs OpenClaw (OpenClaw stats the file), not of the document"},
	{"custom-provider", []string{"models.providers.*.baseUrl", "models.providers.*.models"}, "custom model providers must declare",
		"which providers are bundled (and may be overlaid without baseUrl or models) is plugin-catalog knowledge of the release, not schema data"},
	{"model-entry", []string{"agents.defaults.decisionModel", "agents.entries.*.decisionModel", "agents.defaults.models.*", "agents.entries.*.models.*",
		"agents.defaults.modelPolicy", "agents.entries.*.modelPolicy"}, "",
		"decision models, model policy allowlists, picker runtimes and Code Mode need provider/model references resolved against the catalog (RES rules decide the primary and its policy)"},
	{"mcp-server", []string{"mcp.servers.*", "nodeHost.mcp.servers.*"}, "", "cross-field rules of MCP servers (transport needs a command, OAuth identity combinations, client metadata URLs, reserved names); not mirrored yet"},
	{"cloud-worker-project", []string{"cloudWorkers.projectProfiles.*"}, "Invalid key in record", "the project key form of cloud worker profiles; not mirrored yet"},
	{"cloud-worker-secret", []string{"cloudWorkers.profiles.*.settings"}, "Worker profile ", "which cloud worker settings must be SecretRefs is the worker provider's knowledge; not mirrored yet"},
	{"gateway-bind", []string{"gateway.bind"}, "gateway.bind ", "gateway bind against tailscale serve; the render owns gateway.bind (every Compute gets its own)"},
	{"sandbox-bind", []string{"agents.defaults.sandbox.docker.binds", "agents.entries.*.sandbox.docker.binds",
		"agents.defaults.sandbox.browser.binds", "agents.entries.*.sandbox.browser.binds"}, "Sandbox security", "the bind-mount form of sandbox containers; not mirrored yet"},
	{"portal-ingress", []string{"gateway.portals.ingress.*"}, "Portal ingress", "portal ingress domains and ports are judged against the gateway's port and origins, which the render sets per Compute; not mirrored yet"},
	{"mcp-oauth-url", []string{"mcp.servers.*.oauth.clientMetadataUrl", "nodeHost.mcp.servers.*.oauth.clientMetadataUrl"}, "", "OAuth client metadata URLs; not mirrored yet"},
}

// unmirroredClass names the row that recognises OpenClaw's refusal at
// path with message, or "".
func unmirroredClass(path, message string) string {
	for _, u := range unmirrored {
		if u.Message != "" && !strings.HasPrefix(message, u.Message) {
			continue
		}
		for _, p := range u.Paths {
			if pathPattern(p).MatchString(path) {
				return u.Class
			}
		}
	}
	return ""
}

// pathPattern compiles an OpenClaw-notation path pattern that matches the
// path and every path below it: "*" one key, "[]" one index, "**" any run
// of segments.
func pathPattern(p string) *regexp.Regexp {
	var b strings.Builder
	b.WriteString("^")
	for i, seg := range strings.Split(strings.ReplaceAll(p, "[]", ".[]"), ".") {
		if i > 0 && seg != "" {
			b.WriteString(`\.`)
		}
		switch seg {
		case "":
		case "*":
			b.WriteString(`[^.]+`)
		case "**":
			b.WriteString(`.+`)
		case "[]":
			b.WriteString(`\d+`)
		default:
			b.WriteString(regexp.QuoteMeta(seg))
		}
	}
	b.WriteString(`(\..+)?$`)
	return regexp.MustCompile(b.String())
}
