package resolver

import (
	"github.com/occkit/occkit"
)

// This file keeps, for a Configuration that resolves, what the admission
// package's built-in catalog check reads of the index: the selected model
// references and the provider keys as written. The admission package would
// otherwise read the same members of the document a second time.

// SelectedModel is one model reference a resolved Configuration selects
// ([Prepared.SelectedModels]): the primary or a fallback of
// agents.defaults.model or of an entry's model.
type SelectedModel struct {
	at      refAt
	primary bool
}

// Ref is the parsed reference.
func (m SelectedModel) Ref() Ref { return m.at.ref() }

// Primary reports whether the reference is a primary (the setting itself
// when it is a string, else its primary), not a fallback.
func (m SelectedModel) Primary() bool { return m.primary }

// Path is where the reference is written. It is built on each call.
func (m SelectedModel) Path() occkit.Path { return m.at.loc() }

// SelectedModels calls fn with each model reference the Configuration
// selects, until fn returns false: agents.defaults.model's primary and
// fallbacks, then each entry's own model, the entries in the order the
// document writes them (not the ID order resolution evaluates them in),
// a primary before its fallbacks and the fallbacks in their order. It is
// what the admission package checks against a release's built-in model
// catalog; other callers read [Decision].
//
// Only a Configuration without problems ([Prepared.Err] is nil) keeps
// its selections: for any other, SelectedModels calls nothing and
// reports false.
func (p *Prepared) SelectedModels(fn func(SelectedModel) bool) bool {
	return p.selectedRefs(true, fn)
}

// SelectedPrimaries is [Prepared.SelectedModels] without the fallbacks:
// it calls fn with each setting's primary, in the same order, until fn
// returns false. A Configuration without problems keeps every fallback
// on its primary's provider (RES-3), so a caller that judges a ref by
// its provider alone, or looks for a primary, need read no fallback.
func (p *Prepared) SelectedPrimaries(fn func(SelectedModel) bool) bool {
	return p.selectedRefs(false, fn)
}

// selectedRefs is SelectedModels, with each setting's fallbacks when
// fallbacks is true, else SelectedPrimaries.
func (p *Prepared) selectedRefs(fallbacks bool, fn func(SelectedModel) bool) bool {
	x := p.selected
	if x == nil {
		return false
	}
	setting := func(s *modelSetting) bool {
		if !s.present || !s.ok {
			return true
		}
		if !fn(SelectedModel{at: s.primary, primary: true}) {
			return false
		}
		if !fallbacks {
			return true
		}
		for i := range s.fallbacks() {
			if !fn(SelectedModel{at: s.fallback(i)}) {
				return false
			}
		}
		return true
	}
	if !setting(&x.defaults) {
		return true
	}
	entries := x.byDoc
	if entries == nil {
		entries = x.entries
	}
	for _, e := range entries {
		if !setting(&e.sel) {
			break
		}
	}
	return true
}

// ConfiguresProvider reports whether the document writes provider, a
// provider name as [Ref.Provider] holds it (trimmed, lower-cased), as it
// is (not after normalizing the key) as a key of models.providers or of
// plugins.entries. It is false for a name that is not normalized, and for
// a Configuration with problems ([Prepared.Err]), as [Prepared.SelectedModels].
func (p *Prepared) ConfiguresProvider(provider string) bool {
	x := p.selected
	if x == nil || normProvider(provider) != provider {
		return false
	}
	for c := range x.providersNamed(provider) {
		if c.raw == provider {
			return true
		}
	}
	return x.routed[provider]
}

// keepSelected is x with what only evaluation reads dropped (the
// catalogs, the provider rows, the roster's members, the problems), so a
// kept [Prepared] holds the selections and the provider keys, not an
// index as large as the catalogs.
func (x *docIndex) keepSelected() *docIndex {
	x.errs, x.shapeErrs = nil, nil
	x.catalog = catalogIndex{}
	x.roster = rosterInput{}
	for _, e := range x.entries {
		e.models = nil
	}
	for _, c := range x.provOrder {
		c.rows, c.byID = seq[catalogRow]{}, nil
	}
	return x
}
