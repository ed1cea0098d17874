package celrules

import (
	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/checker"

	"github.com/occkit/occkit/admission"
)

// maxBoundedInput is the largest document size [untrackedUpTo] looks
// at: far above any document admission accepts.
const maxBoundedInput = 1 << 40

// maxRequestBound is the largest size of the request's side of an
// admission (inputSize's req) [untrackedUpTo] looks at: a deployment's
// labels, IDs, models and bindings fit it many times over.
const maxRequestBound = 1 << 16

// sizeBound is a cel-go cost estimator that bounds the size of every
// string, list and map an expression reads (a variable, a member, an
// element): by doc what is read from the document (document, channels,
// whose IDs are its keys), by req what is read from the other variables,
// and by their sum what cel-go cannot trace to a variable. The calls are
// cel-go's own estimates, which its runtime cost tracking mirrors.
type sizeBound struct{ doc, req uint64 }

func (b sizeBound) EstimateSize(n checker.AstNode) *checker.SizeEstimate {
	max := b.doc + b.req
	if p := n.Path(); len(p) > 0 {
		max = b.req
		if p[0] == "document" || p[0] == "channels" {
			max = b.doc
		}
	}
	return &checker.SizeEstimate{Min: 0, Max: max}
}

func (sizeBound) EstimateCallCost(string, string, *checker.AstNode, []checker.AstNode) *checker.CallEstimate {
	return nil
}

// untracked bounds an admission under which an expression's cost stays
// within the limit: when its inputSize is at most req and its document
// at most doc bytes long.
type untracked struct{ doc, req uint64 }

// untrackedUpTo is the largest document size (at most maxBoundedInput)
// at which cel-go's static estimate of ast's cost stays within limit,
// with a request's side a quarter of the largest an empty document
// allows (at most maxRequestBound; all of it when that is the bound),
// each found by bisection (the estimate grows with the sizes); ok is
// false when even an empty input may cost more. An evaluation over such
// an admission cannot exceed the limit, so it needs no runtime cost
// tracking.
func untrackedUpTo(env *cel.Env, ast *cel.Ast, limit uint64) (u untracked, ok bool) {
	within := func(doc, req uint64) bool {
		est, err := env.EstimateCost(ast, sizeBound{doc, req})
		return err == nil && est.Max <= limit
	}
	// largest is the largest n <= hi with ok(n), given ok(0).
	largest := func(hi uint64, ok func(uint64) bool) uint64 {
		if ok(hi) {
			return hi
		}
		lo := uint64(0)
		for hi-lo > 1 {
			if mid := lo + (hi-lo)/2; ok(mid) {
				lo = mid
			} else {
				hi = mid
			}
		}
		return lo
	}
	if !within(0, 0) {
		return untracked{}, false
	}
	req := largest(maxRequestBound, func(n uint64) bool { return within(0, n) })
	if req < maxRequestBound {
		req /= 4
	}
	doc := largest(maxBoundedInput, func(n uint64) bool { return within(n, req) })
	return untracked{doc, req}, true
}

// covers reports whether an admission whose document is doc bytes long
// and whose request's side is req large is within u.
func (u untracked) covers(doc, req uint64) bool { return doc <= u.doc && req <= u.req }

// inputSize is the length of v's document, which bounds the size of
// every string (in bytes, at least its code points), list and map a rule
// reads from it, and req, which bounds those of the other variables: the
// sum of their strings' lengths and their counts. Channel IDs are the
// document's keys, so the channels need no look (which would index the
// document).
// ag and t are v's agent and tenant.
func inputSize(v *admission.View, ag admission.Agent, t admission.Tenant) (doc, req uint64) {
	n := len(v.Principal()) + len(v.Harness()) + len(v.Mode())
	strs := func(ss ...string) {
		for _, s := range ss {
			n += len(s)
		}
	}
	labels := func(m map[string]string) {
		n += len(m)
		for k, val := range m {
			n += len(k) + len(val)
		}
	}
	strs(ag.ID, ag.ConfigurationID, ag.NamespaceID, t.ID)
	labels(ag.Labels)
	labels(t.Labels)
	c, r := v.Compute(), v.Release()
	strs(string(c.Kind), c.ID, string(r.Harness), r.Version, r.OpenClawSchema)
	ms := v.Models()
	n += len(ms)
	for _, m := range ms {
		strs(m.Ref, m.Provider, m.ID, m.Profile, string(m.Runtime))
		if !m.Path.IsRoot() {
			n += len(m.Path.String())
		}
	}
	bs := v.SecretBindings()
	n += len(bs)
	for _, b := range bs {
		strs(b.Env, string(b.Source.Kind), b.Source.NamespaceID, b.Source.ID)
	}
	return uint64(len(v.Document().Raw())), uint64(n)
}
