package admission

import (
	"github.com/occkit/occkit"
	"github.com/occkit/occkit/compile/modelcatalog"
	"github.com/occkit/occkit/resolver"
)

// alwaysKnownProviders are providers occkit itself routes, whatever the
// release's plugins declare: the native codex provider (RES-7) and the
// custom endpoint's openai-compatible (CMP-1).
var alwaysKnownProviders = map[string]bool{"codex": true, "openai-compatible": true}

// primariesOnlyOn: when false, checkModelsAt reads every selected ref
// however its providers are routed (tests write it; the oracle of the
// primaries-only reading is the walk of the document,
// TestCheckModelsReadsTheIndex).
var primariesOnlyOn = true

// checkModelsAt holds the model references a resolved Configuration
// selects against the built-in model catalog of release (see the package
// doc, "Warnings"), and finds where the document writes primary, the
// admitted primary model: the first selected primary equal to it (the
// resolver has checked that every entry agrees), or the root when none
// is written.
//
// A provider that neither the release declares nor the document
// configures (a key of models.providers or plugins.entries, as written)
// but that is a typo of a provider with a built-in catalog ("antropic")
// is refused: 400 RES-6 at the ref, the provider meant as the
// Suggestion. Any other unknown provider, and a model ID its provider's
// catalog does not list, is a warning. A release without a carried
// catalog checks nothing.
//
// The refs and the configured providers are read from res, the
// resolver's index of the document ([resolver.Prepared.SelectedModels]),
// not from the document again: res must be the analysis of the document
// admitted (or of it before the logging stamp, which edits no member
// read here), and one that resolved; an analysis with problems keeps no
// selections, so nothing is checked and the primary is at the root.
// The refs come in document order: agents.defaults first, then the
// entries as written, a primary before its fallbacks.
func checkModelsAt(res *resolver.Prepared, release, primary string) (_ []*occkit.Error, primaryAt occkit.Path, _ error) {
	want, wanted := resolver.ParseRef(primary)
	primaryAt = occkit.Root()
	cat, checked := modelcatalog.For(release)
	if !checked && !wanted {
		return nil, primaryAt, nil
	}
	// Every ref a resolved Configuration selects has the primary's
	// provider (RES-3), so the provider's verdict is kept for the next:
	// whether occkit routes it or the document configures it.
	var last string
	var lastRouted, haveLast bool
	routed := func(p string) bool {
		if !haveLast || p != last {
			last, lastRouted, haveLast = p, alwaysKnownProviders[p] || res.ConfiguresProvider(p), true
		}
		return lastRouted
	}
	if primariesOnlyOn {
		// Every fallback has its primary's provider: when occkit routes
		// or the document configures each primary's, no ref is warned
		// of or refused, and only the primaries need be read.
		at, still := primaryAt, wanted
		quiet := true
		res.SelectedPrimaries(func(m resolver.SelectedModel) bool {
			ref := m.Ref()
			if still && ref.Provider == want.Provider && ref.ID == want.ID {
				at, still = m.Path(), false
			}
			if checked && !routed(ref.Provider) {
				quiet = false
				return false
			}
			return checked || still
		})
		if quiet {
			return nil, at, nil
		}
	}
	var errs []error
	var warnings []*occkit.Error
	res.SelectedModels(func(m resolver.SelectedModel) bool {
		ref := m.Ref()
		if wanted && m.Primary() && ref.Provider == want.Provider && ref.ID == want.ID {
			primaryAt, wanted = m.Path(), false
		}
		if !checked {
			return wanted
		}
		p := ref.Provider
		switch {
		case routed(p):
			// A configured provider's models are whatever it serves.
		case !cat.Provider(p):
			if s := cat.SuggestProvider(p); s != "" {
				e := occkit.Invalid("RES-6", m.Path(),
					"provider %s is not one OpenClaw %s knows; did you mean %s? (a custom provider is configured under models.providers)", p, release, s)
				e.Suggestion = s
				errs = append(errs, e)
				return true
			}
			warnings = append(warnings, occkit.Warn("RES-6", m.Path(),
				"provider %s is neither built into OpenClaw %s nor configured under models.providers or plugins.entries: the gateway has no route to it", p, release))
		default:
			if known, judged := cat.Model(p, ref.ID); judged && !known {
				w := occkit.Warn("RES-3", m.Path(),
					"the model is not in provider %s's built-in catalog of OpenClaw %s (it may still be discovered at run time)", p, release)
				if s := cat.SuggestModel(p, ref.ID); s != "" {
					w.Suggestion = p + "/" + s
					w.Detail += "; did you mean " + w.Suggestion + "?"
				}
				warnings = append(warnings, w)
			}
		}
		return true
	})
	return warnings, primaryAt, occkit.Join(errs...)
}
