package compile

import (
	"strings"

	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/deploy"
)

// GatewayWorkspace is where a dedicated topology's gateway renders the main
// Agent's workspace (RES-12); the Harness executes in its own workspace.
const GatewayWorkspace = "/home/node/workspace"

// rndInferenceEnv are the Harness inference credential variables (AUTH-2)
// that a dedicated gateway's document must not carry (AUTH-6).
var rndInferenceEnv = []string{"OPENAI_API_KEY", "ANTHROPIC_API_KEY", "CODEX_ACCESS_TOKEN"}

// rndCredentialHeaders are provider request headers that carry a model
// credential (compared case-insensitively).
var rndCredentialHeaders = map[string]bool{"authorization": true, "x-api-key": true, "api-key": true}

// rndTopology checks that (h, m) is a topology the bundled runtimes have
// (RES-11, decided by [deploy.Topology.Check]); a refusal points at the
// document's root, since the topology is not a setting of it.
func rndTopology(h deploy.Harness, m deploy.Mode) error {
	err := deploy.Topology{Harness: h, Mode: m}.Check()
	if oe := occkit.First(err); oe != nil {
		out := *oe
		out.Path = occkit.Root()
		return &out
	}
	return err
}

// RenderGateway renders the gateway process's native document from an
// admitted document and the decided topology (CMP-4). Embedded OpenClaw is
// one process: its document is the admitted document itself. For a
// dedicated Harness the gateway's view differs in two ways: the main
// Agent's workspace is [GatewayWorkspace] (RES-12; `agents.entries.main`
// when that entry exists, else `agents.defaults`), and no Harness inference
// credential reaches it (AUTH-6): `apiKey` and credential headers
// (`Authorization`, `x-api-key`, `api-key`) of every `models.providers`
// entry and the inference variables of `env` / `env.vars` are removed.
// Every other byte is kept; doc itself never changes.
func RenderGateway(doc occkit.Document, h deploy.Harness, m deploy.Mode) (occkit.Document, error) {
	if err := rndTopology(h, m); err != nil {
		return occkit.Document{}, err
	}
	if m == deploy.ModeEmbedded {
		return doc, nil
	}
	if err := rndAgentsShape(doc); err != nil {
		return occkit.Document{}, err
	}
	ws := occkit.NewPath("agents", "defaults", "workspace")
	if doc.Get(occkit.NewPath("agents", "entries", "main")).IsObject() {
		ws = occkit.NewPath("agents", "entries", "main", "workspace")
	}
	out, err := doc.Set(ws, GatewayWorkspace)
	if err != nil {
		return occkit.Document{}, err
	}
	return rndStripInferenceCredentials(out)
}

// RenderHarness renders the native document of the dedicated OpenClaw
// Harness (the node host) from an admitted document (CMP-4). The Harness
// does the inference and keeps the model settings; it serves no channels,
// so `channels` (and with it every channel credential, which belongs to the
// gateway, AUTH-6) is removed. Any other topology has no separate OpenClaw
// Harness document and is a 400.
func RenderHarness(doc occkit.Document, h deploy.Harness, m deploy.Mode) (occkit.Document, error) {
	if err := rndTopology(h, m); err != nil {
		return occkit.Document{}, err
	}
	if h != deploy.HarnessOpenClaw || m != deploy.ModeDedicated {
		return occkit.Document{}, occkit.Invalid("RES-11", occkit.Root(),
			"only dedicated openclaw has a separate OpenClaw Harness document")
	}
	return doc.Delete(occkit.NewPath("channels"))
}

func rndAgentsShape(doc occkit.Document) error {
	for _, p := range []occkit.Path{
		occkit.NewPath("agents"), occkit.NewPath("agents", "defaults"), occkit.NewPath("agents", "entries"),
	} {
		if v := doc.Get(p); v.Exists() && v.Type != gjson.Null && !v.IsObject() {
			return occkit.Invalid("RES-2", p, "%s must be an object", p.String())
		}
	}
	return nil
}

// rndStripInferenceCredentials removes model credentials from a gateway
// document (AUTH-6).
func rndStripInferenceCredentials(doc occkit.Document) (occkit.Document, error) {
	// Providers are rewritten member by member and written back once, so
	// the work grows with the document, not with providers × document.
	providers := occkit.NewPath("models", "providers")
	pairs := epPairs(doc.Get(providers))
	changed := false
	for i, p := range pairs {
		v := gjson.Parse(p.raw)
		if !v.IsObject() {
			continue
		}
		var drop []occkit.Path
		if v.Get("apiKey").Exists() {
			drop = append(drop, occkit.NewPath("apiKey"))
		}
		for _, h := range epPairs(v.Get("headers")) {
			if rndCredentialHeaders[strings.ToLower(strings.TrimSpace(h.key))] {
				drop = append(drop, occkit.NewPath("headers", h.key))
			}
		}
		if len(drop) == 0 {
			continue
		}
		raw := p.raw
		for _, d := range drop {
			out, err := sjson.Delete(raw, d.GJSON())
			if err != nil {
				return occkit.Document{}, err
			}
			raw = out
		}
		pairs[i].raw, changed = raw, true
	}
	if changed {
		var err error
		if doc, err = doc.SetRaw(providers, []byte(epObject(pairs))); err != nil {
			return occkit.Document{}, err
		}
	}
	var drop []occkit.Path
	for _, base := range []occkit.Path{occkit.NewPath("env"), occkit.NewPath("env", "vars")} {
		if !doc.Get(base).IsObject() {
			continue
		}
		for _, name := range rndInferenceEnv {
			if doc.Has(base.Key(name)) {
				drop = append(drop, base.Key(name))
			}
		}
	}
	var err error
	for _, p := range drop {
		if doc, err = doc.Delete(p); err != nil {
			return occkit.Document{}, err
		}
	}
	return doc, nil
}
