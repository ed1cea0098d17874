package admission

import (
	"github.com/occkit/occkit"
	"github.com/occkit/occkit/compile/modelcatalog"
	"github.com/occkit/occkit/resolver"
)

// modelRef is one model reference a Configuration selects: the primary or
// a fallback of agents.defaults.model or of an entry's model, and where it
// is written.
type modelRef struct {
	at      occkit.Path
	ref     resolver.Ref
	primary bool
}

var (
	agentsPath   = occkit.NewPath("agents")
	providersKey = occkit.NewPath("models", "providers")
	pluginsKey   = occkit.NewPath("plugins", "entries")
)

// selectedRefs lists the model references doc selects, in document order:
// each model (a string, or {primary, fallbacks}) of agents.defaults and of
// every entry. Refs that do not parse are the resolver's business (it has
// refused them by the time admission asks).
func selectedRefs(doc occkit.Document) []modelRef {
	var out []modelRef
	add := func(at occkit.Path, v occkit.Value, primary bool) {
		if !v.IsString() {
			return
		}
		if r, ok := resolver.ParseRef(v.String()); ok {
			out = append(out, modelRef{at: at, ref: r, primary: primary})
		}
	}
	model := func(at occkit.Path, v occkit.Value) {
		switch {
		case v.IsString():
			add(at, v, true)
		case v.IsObject():
			add(at.Key("primary"), v.Key("primary"), true)
			for i, f := range v.Key("fallbacks").Array() {
				add(at.Key("fallbacks").Index(i), f, false)
			}
		}
	}
	agents := doc.Get(agentsPath)
	model(agentsPath.Key("defaults").Key("model"), agents.Key("defaults").Key("model"))
	agents.Key("entries").ForEach(func(k, e occkit.Value) bool {
		model(agentsPath.Key("entries").Key(k.String()).Key("model"), e.Key("model"))
		return true
	})
	return out
}

// primaryPath is where doc writes the admitted primary model: the first
// selected primary equal to it (the resolver has checked that every entry
// agrees), or the root when none is written.
func primaryPath(doc occkit.Document, primary string) occkit.Path {
	want, ok := resolver.ParseRef(primary)
	if !ok {
		return occkit.Root()
	}
	for _, r := range selectedRefs(doc) {
		if r.primary && r.ref.Provider == want.Provider && r.ref.ID == want.ID {
			return r.at
		}
	}
	return occkit.Root()
}

// alwaysKnownProviders are providers occkit itself routes, whatever the
// release's plugins declare: the native codex provider (RES-7) and the
// custom endpoint's openai-compatible (CMP-1).
var alwaysKnownProviders = map[string]bool{"codex": true, "openai-compatible": true}

// checkModels holds the selected model references against the built-in
// model catalog of release (see the package doc, "Warnings"). A provider
// that neither the release declares nor the document configures
// (models.providers, plugins.entries) but that is a typo of a provider
// with a built-in catalog ("antropic") is refused: 400 RES-6 at the ref,
// the provider meant as the Suggestion. Any other unknown provider, and a
// model ID its provider's catalog does not list, is a warning. A release
// without a carried catalog checks nothing.
func checkModels(doc occkit.Document, release string) ([]*occkit.Error, error) {
	cat, ok := modelcatalog.For(release)
	if !ok {
		return nil, nil
	}
	configured := func(root occkit.Path, p string) bool { return doc.Get(root.Key(p)).Exists() }
	var errs []error
	var warnings []*occkit.Error
	for _, m := range selectedRefs(doc) {
		p := m.ref.Provider
		custom := configured(providersKey, p) || configured(pluginsKey, p)
		switch {
		case alwaysKnownProviders[p] || custom:
			// A configured provider's models are whatever it serves.
		case !cat.Provider(p):
			if s := cat.SuggestProvider(p); s != "" {
				e := occkit.Invalid("RES-6", m.at,
					"provider %s is not one OpenClaw %s knows; did you mean %s? (a custom provider is configured under models.providers)", p, release, s)
				e.Suggestion = s
				errs = append(errs, e)
				continue
			}
			warnings = append(warnings, occkit.Warn("RES-6", m.at,
				"provider %s is neither built into OpenClaw %s nor configured under models.providers or plugins.entries: the gateway has no route to it", p, release))
		default:
			if known, judged := cat.Model(p, m.ref.ID); judged && !known {
				w := occkit.Warn("RES-3", m.at,
					"the model is not in provider %s's built-in catalog of OpenClaw %s (it may still be discovered at run time)", p, release)
				if s := cat.SuggestModel(p, m.ref.ID); s != "" {
					w.Suggestion = p + "/" + s
					w.Detail += "; did you mean " + w.Suggestion + "?"
				}
				warnings = append(warnings, w)
			}
		}
	}
	return warnings, occkit.Join(errs...)
}
