package admission

import (
	"github.com/occkit/occkit"
	"github.com/occkit/occkit/compile/modelcatalog"
	"github.com/occkit/occkit/resolver"
)

// modelRef is one model reference a Configuration selects: the primary or
// a fallback of agents.defaults.model or of an entry's model, and where it
// is written ([modelRef.at]; built only for a refusal, a warning or the
// primary's place, as a roster may select thousands of fallbacks).
type modelRef struct {
	model   occkit.Path // the agent's model setting
	member  string      // "" (the setting is the ref), "primary" or "fallbacks"
	index   int         // the fallback's index
	ref     resolver.Ref
	primary bool
}

// at is where m is written.
func (m modelRef) at() occkit.Path {
	switch m.member {
	case "":
		return m.model
	case "fallbacks":
		return m.model.Key("fallbacks").Index(m.index)
	}
	return m.model.Key(m.member)
}

var (
	agentsPath   = occkit.NewPath("agents")
	providersKey = occkit.NewPath("models", "providers")
	pluginsKey   = occkit.NewPath("plugins", "entries")
)

// eachSelectedRef calls fn with the model references doc selects, in
// document order, until fn returns false: each model (a string, or
// {primary, fallbacks}) of agents.defaults and of every entry. Refs that
// do not parse are the resolver's business (it has refused them by the
// time admission asks). Nothing is listed: a roster may select thousands.
func eachSelectedRef(doc occkit.Document, fn func(modelRef) bool) {
	more := true
	add := func(m modelRef, v occkit.Value) {
		if !more || !v.IsString() {
			return
		}
		if r, ok := resolver.ParseRef(v.String()); ok {
			m.ref = r
			more = fn(m)
		}
	}
	model := func(at occkit.Path, v occkit.Value) {
		switch {
		case v.IsString():
			add(modelRef{model: at, primary: true}, v)
		case v.IsObject():
			add(modelRef{model: at, member: "primary", primary: true}, v.Key("primary"))
			if fb := v.Key("fallbacks"); fb.IsArray() {
				i := 0
				fb.ForEach(func(_, f occkit.Value) bool {
					add(modelRef{model: at, member: "fallbacks", index: i}, f)
					i++
					return more
				})
			}
		}
	}
	agents := doc.Get(agentsPath)
	model(agentsPath.Key("defaults").Key("model"), agents.Key("defaults").Key("model"))
	agents.Key("entries").ForEach(func(k, e occkit.Value) bool {
		model(agentsPath.Key("entries").Key(k.String()).Key("model"), e.Key("model"))
		return more
	})
}

// primaryPath is where doc writes the admitted primary model: the first
// selected primary equal to it (the resolver has checked that every entry
// agrees), or the root when none is written.
func primaryPath(doc occkit.Document, primary string) occkit.Path {
	want, ok := resolver.ParseRef(primary)
	if !ok {
		return occkit.Root()
	}
	at := occkit.Root()
	eachSelectedRef(doc, func(r modelRef) bool {
		if r.primary && r.ref.Provider == want.Provider && r.ref.ID == want.ID {
			at = r.at()
			return false
		}
		return true
	})
	return at
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
	// The providers the document configures, listed once: looking each
	// selected ref's provider up from the root would cost the document's
	// size per ref (an agent roster of 10,000 models: seconds).
	configured := map[string]bool{}
	for _, root := range []occkit.Path{providersKey, pluginsKey} {
		if v := doc.Get(root); v.IsObject() {
			v.ForEach(func(k, _ occkit.Value) bool {
				configured[k.String()] = true
				return true
			})
		}
	}
	var errs []error
	var warnings []*occkit.Error
	eachSelectedRef(doc, func(m modelRef) bool {
		p := m.ref.Provider
		switch {
		case alwaysKnownProviders[p] || configured[p]:
			// A configured provider's models are whatever it serves.
		case !cat.Provider(p):
			if s := cat.SuggestProvider(p); s != "" {
				e := occkit.Invalid("RES-6", m.at(),
					"provider %s is not one OpenClaw %s knows; did you mean %s? (a custom provider is configured under models.providers)", p, release, s)
				e.Suggestion = s
				errs = append(errs, e)
				return true
			}
			warnings = append(warnings, occkit.Warn("RES-6", m.at(),
				"provider %s is neither built into OpenClaw %s nor configured under models.providers or plugins.entries: the gateway has no route to it", p, release))
		default:
			if known, judged := cat.Model(p, m.ref.ID); judged && !known {
				w := occkit.Warn("RES-3", m.at(),
					"the model is not in provider %s's built-in catalog of OpenClaw %s (it may still be discovered at run time)", p, release)
				if s := cat.SuggestModel(p, m.ref.ID); s != "" {
					w.Suggestion = p + "/" + s
					w.Detail += "; did you mean " + w.Suggestion + "?"
				}
				warnings = append(warnings, w)
			}
		}
		return true
	})
	return warnings, occkit.Join(errs...)
}
