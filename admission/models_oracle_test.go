package admission

import (
	"github.com/tidwall/gjson"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/compile/modelcatalog"
	"github.com/occkit/occkit/internal/jsonwalk"
	"github.com/occkit/occkit/resolver"
)

// This file keeps, as the oracle of checkModelsAt, the check of the
// selected models as it was made before it read the resolver's index: a
// second walk of the document for the selected refs, the primary's place
// and the configured providers.

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
	modelsPath   = occkit.NewPath("models")
	pluginsPath  = occkit.NewPath("plugins")
)

// eachSelectedRef calls fn with the model references doc selects, in
// document order, until fn returns false: each model (a string, or
// {primary, fallbacks}) of agents.defaults and of every entry. Refs that
// do not parse are the resolver's business (it has refused them by the
// time admission asks). Nothing is listed: a roster may select thousands.
func eachSelectedRef(doc occkit.Document, fn func(modelRef) bool) {
	w := refWalk{s: doc.Get(agentsPath).Raw(), fn: fn}
	w.agents()
}

// refWalk reads the model references of the agents object s in one pass
// of the byte scanner, each value read once where it stands: a member is
// the first of its name (keys decoded as gjson decodes them), defaults
// are visited before the entries, a model's primary before its
// fallbacks, and a value of another type than the one looked for
// selects nothing.
type refWalk struct {
	s    string
	fn   func(modelRef) bool
	stop bool // fn returned false
}

var (
	defaultsModel = agentsPath.Key("defaults").Key("model")
	entriesPath   = agentsPath.Key("entries")
)

// keyIs reports whether the member key literal lit names name.
func keyIs(lit string, escaped bool, name string) bool {
	if !escaped {
		return len(lit) == len(name)+2 && lit[1:len(lit)-1] == name
	}
	return jsonwalk.JS{}.Decode(lit, escaped) == name
}

// kind is the first byte of the value at i ('"', '{', '[', or another).
func (w *refWalk) kind(i int) byte {
	if i < 0 || i >= len(w.s) {
		return 0
	}
	return w.s[i]
}

// agents visits agents.defaults.model, then each entry's model.
func (w *refWalk) agents() {
	if w.kind(0) != '{' {
		return
	}
	// The walk finds the defaults without reading their value (gjson
	// would read it to its end); gjson finds the entries, past them.
	defaults, entries := w.member(0, "defaults"), w.locate("entries")
	if defaults >= 0 {
		w.defaults(defaults)
	}
	if entries >= 0 && !w.stop {
		w.entries(entries)
	}
}

// locate is the offset of the first member named name of the object w.s,
// or -1. gjson finds it: it passes the members before it (the defaults'
// catalog, before the entries) faster than the byte scanner skips them.
// The walk finds it when gjson cannot say where the value stands.
func (w *refWalk) locate(name string) int {
	r := gjson.Get(w.s, name)
	if !r.Exists() {
		return -1
	}
	// Index is where gjson read Raw in w.s (0: unknown); the comparison
	// of a substring with itself is one of pointers.
	if i := r.Index; i > 0 && i+len(r.Raw) <= len(w.s) && w.s[i:i+len(r.Raw)] == r.Raw {
		return i
	}
	return w.member(0, name)
}

// defaults visits the model of the defaults object at i.
func (w *refWalk) defaults(i int) {
	if m := w.member(i, "model"); m >= 0 {
		w.model(defaultsModel, m)
	}
}

// member is the offset of the first member named name of the object at
// i, or -1.
func (w *refWalk) member(i int, name string) int {
	found := -1
	if w.kind(i) == '{' {
		jsonwalk.Members(w.s, i, func(lit string, escaped bool, at int) int {
			if keyIs(lit, escaped, name) {
				found = at
				return -1
			}
			return jsonwalk.Skip(w.s, at)
		})
	}
	return found
}

// entries visits the model of each entry of the object (or, keyed "",
// array) at i and returns the offset after it, or -1 once fn stopped.
func (w *refWalk) entries(i int) int {
	entry := func(name string, at int) int {
		if w.kind(at) != '{' {
			return jsonwalk.Skip(w.s, at)
		}
		seen := false
		return jsonwalk.Members(w.s, at, func(lit string, escaped bool, v int) int {
			if seen || !keyIs(lit, escaped, "model") {
				return jsonwalk.Skip(w.s, v)
			}
			seen = true
			return w.model(entriesPath.Key(name).Key("model"), v)
		})
	}
	switch w.kind(i) {
	case '{':
		return jsonwalk.Members(w.s, i, func(lit string, escaped bool, at int) int {
			return entry(jsonwalk.JS{}.Decode(lit, escaped), at)
		})
	case '[':
		return jsonwalk.Elements(w.s, i, func(_, at int) int { return entry("", at) })
	}
	return jsonwalk.Skip(w.s, i)
}

// model visits the model setting at i (a ref, or {primary, fallbacks})
// written at path and returns the offset after it, or -1 once fn
// stopped.
func (w *refWalk) model(path occkit.Path, i int) int {
	end := -1
	switch w.kind(i) {
	case '"':
		end = w.add(modelRef{model: path, primary: true}, i)
	case '{':
		primary, fallbacks := -1, -1
		end = jsonwalk.Members(w.s, i, func(lit string, escaped bool, at int) int {
			switch {
			case primary < 0 && keyIs(lit, escaped, "primary"):
				primary = at
			case fallbacks < 0 && keyIs(lit, escaped, "fallbacks"):
				fallbacks = at
			}
			return jsonwalk.Skip(w.s, at)
		})
		if w.kind(primary) == '"' {
			w.add(modelRef{model: path, member: "primary", primary: true}, primary)
		}
		if w.kind(fallbacks) == '[' {
			jsonwalk.Elements(w.s, fallbacks, func(n, at int) int {
				if w.stop {
					return -1
				}
				if w.kind(at) == '"' {
					return w.add(modelRef{model: path, member: "fallbacks", index: n}, at)
				}
				return jsonwalk.Skip(w.s, at)
			})
		}
	default:
		end = jsonwalk.Skip(w.s, i)
	}
	if w.stop {
		return -1
	}
	return end
}

// add calls fn with m when the string at i parses as a ref, and returns
// the offset after the string.
func (w *refWalk) add(m modelRef, i int) int {
	end, escaped := jsonwalk.StringEnd(w.s, i)
	if w.stop {
		return end
	}
	if r, ok := resolver.ParseRef(jsonwalk.JS{}.Decode(w.s[i:end], escaped)); ok {
		m.ref = r
		w.stop = !w.fn(m)
	}
	return end
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

// configuredProviders are the keys of models.providers and
// plugins.entries (each an object, or none), decoded as gjson decodes
// them, read with the byte scanner in one pass from the top-level member
// (which the Document locates once): a provider's value (its catalog) is
// skipped once, not parsed, and not scanned again to find where the
// object ends.
func configuredProviders(doc occkit.Document) map[string]bool {
	configured := map[string]bool{}
	for _, at := range [...]struct {
		top occkit.Path
		key string
	}{{modelsPath, "providers"}, {pluginsPath, "entries"}} {
		raw := doc.Get(at.top).Raw()
		w := refWalk{s: raw}
		if i := w.member(0, at.key); w.kind(i) == '{' {
			jsonwalk.Members(raw, i, func(lit string, escaped bool, v int) int {
				configured[jsonwalk.JS{}.Decode(lit, escaped)] = true
				return jsonwalk.Skip(raw, v)
			})
		}
	}
	return configured
}

// walkCheckModels holds the selected model references against the built-in
// model catalog of release (see the package doc, "Warnings"). A provider
// that neither the release declares nor the document configures
// (models.providers, plugins.entries) but that is a typo of a provider
// with a built-in catalog ("antropic") is refused: 400 RES-6 at the ref,
// the provider meant as the Suggestion. Any other unknown provider, and a
// model ID its provider's catalog does not list, is a warning. A release
// without a carried catalog checks nothing.
func walkCheckModels(doc occkit.Document, release string) ([]*occkit.Error, error) {
	warnings, _, err := walkCheckModelsAt(doc, release, "")
	return warnings, err
}

// walkCheckModelsAt is walkCheckModels, and [primaryPath] of primary, found in
// the same walk of the selected refs (on its own when the release has no
// catalog to walk for).
func walkCheckModelsAt(doc occkit.Document, release, primary string) (_ []*occkit.Error, primaryAt occkit.Path, _ error) {
	cat, ok := modelcatalog.For(release)
	if !ok {
		return nil, primaryPath(doc, primary), nil
	}
	want, wanted := resolver.ParseRef(primary)
	primaryAt = occkit.Root()
	// The providers the document configures, listed once: looking each
	// selected ref's provider up from the root would cost the document's
	// size per ref (an agent roster of 10,000 models: seconds).
	configured := configuredProviders(doc)
	var errs []error
	var warnings []*occkit.Error
	eachSelectedRef(doc, func(m modelRef) bool {
		if wanted && m.primary && m.ref.Provider == want.Provider && m.ref.ID == want.ID {
			primaryAt, wanted = m.at(), false
		}
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
	return warnings, primaryAt, occkit.Join(errs...)
}
