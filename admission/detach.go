package admission

import (
	"math"
	"slices"
	"strings"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/resolver"
)

// detached is what a Revision keeps of a resolver.Decision: the primary
// model, the fallbacks and the reasons, with every string that may have
// been read out of the document copied into one block of the revision's
// own.
//
// A decision's strings are views into the document resolution read (or
// into a Prepared's tables): a model ID, a reason's value, the keys of a
// reason's path. A revision that kept those views would keep the whole
// loaded document alive for as long as the revision lives, one more copy
// of the Configuration beside the canonical one it freezes, which the
// peak heap of admission then rendering paid at every size.
//
// The reasons are kept compactly (reasonList): a Configuration with an
// Agent entry per model has a reason per entry, and as resolver.Reasons,
// 80 bytes each and 32 more per element of their paths, they came to
// most of what a revision holds beside its document (performance, issue
// 29). Revision.Reasons makes them again, as they were decided.
type detached struct {
	primary   string
	fallbacks []string
	reasons   reasonList
}

// reasonList is a reason chain in three blocks: the reasons, the steps
// of their paths and the text of their values and keys (which is
// detach's block). It is appended to, never changed in place.
type reasonList struct {
	held []heldReason
	// steps are the elements of every held reason's path in turn: a key
	// as its length in the text (>= 0), the index i as -1-i.
	steps []int32
	// plain holds the chain as decided when a path has an index steps
	// cannot hold (negative, or past math.MaxInt32); held is then nil.
	plain []resolver.Reason
}

// heldReason is one reason: its path is steps[stepsAt:stepsAt+stepsN],
// with keys read in turn from keys.
type heldReason struct {
	rule, note, value string
	// keys is the text of the path's keys, one after another.
	keys            string
	stepsAt, stepsN int32
	doc             occkit.Doc
}

// fits reports whether the reasons' paths fit in steps.
func fits(reasons []resolver.Reason) bool {
	for _, r := range reasons {
		for j := range r.Path.Len() {
			if _, i, isIndex := r.Path.Elem(j); isIndex && (i < 0 || i > math.MaxInt32) {
				return false
			}
		}
	}
	return true
}

// detach copies what a revision keeps of dec into a block of its own.
// It takes dec's Fallbacks array, whose strings it replaces with the
// block's: a Decision owns its fallbacks ([resolver.Prepared.Resolve]
// spells them for each Decision) and admission's resolve, which made
// dec, reads nothing of it after, so a second array of as many strings
// (a catalog's worth) is not made.
func detach(dec resolver.Decision) detached {
	// The block's size, the paths' elements and whether they fit in
	// steps, in one pass over the reasons.
	size, elems, fit := len(dec.Primary), 0, true
	for _, f := range dec.Fallbacks {
		size += len(f)
	}
	for _, r := range dec.Reasons {
		size += len(r.Value)
		n := r.Path.Len()
		elems += n
		for j := range n {
			k, i, isIndex := r.Path.Elem(j)
			size += len(k)
			if isIndex && (i < 0 || i > math.MaxInt32) {
				fit = false
			}
		}
	}
	var b strings.Builder
	b.Grow(size)
	b.WriteString(dec.Primary)
	for _, f := range dec.Fallbacks {
		b.WriteString(f)
	}
	for _, r := range dec.Reasons {
		b.WriteString(r.Value)
		for j := range r.Path.Len() {
			k, _, _ := r.Path.Elem(j)
			b.WriteString(k)
		}
	}
	// The block is read back in the order it was written.
	block := b.String()
	next := func(n int) string {
		s := block[:n]
		block = block[n:]
		return s
	}

	d := detached{primary: next(len(dec.Primary))}
	if dec.Fallbacks != nil {
		d.fallbacks = dec.Fallbacks
		for i, f := range d.fallbacks {
			d.fallbacks[i] = next(len(f))
		}
	}
	if dec.Reasons == nil {
		return d
	}
	if !fit || elems > math.MaxInt32 {
		d.reasons.plain = make([]resolver.Reason, len(dec.Reasons))
		var pb occkit.PathBuilder
		pb.Grow(elems)
		for i, r := range dec.Reasons {
			r.Value = next(len(r.Value))
			if n := r.Path.Len(); n > 0 {
				pb.Reset()
				pb.Doc = r.Path.Doc()
				for j := range n {
					k, index, isIndex := r.Path.Elem(j)
					if isIndex {
						pb.Index(index)
					} else {
						pb.Key(next(len(k)))
					}
				}
				r.Path = pb.Path()
			}
			d.reasons.plain[i] = r
		}
		return d
	}
	d.reasons.held = make([]heldReason, 0, len(dec.Reasons))
	d.reasons.steps = make([]int32, 0, elems)
	for _, r := range dec.Reasons {
		value := next(len(r.Value))
		d.reasons.push(r, value, next(keysLen(r.Path)))
	}
	return d
}

// keysLen is the length of p's keys together.
func keysLen(p occkit.Path) int {
	n := 0
	for i := range p.Len() {
		k, _, _ := p.Elem(i)
		n += len(k)
	}
	return n
}

// push appends r, with value its value and keys its path's keys one after
// another, each a string of the revision's own.
func (l *reasonList) push(r resolver.Reason, value, keys string) {
	h := heldReason{rule: r.Rule, note: r.Note, value: value, keys: keys, doc: r.Path.Doc(),
		stepsAt: int32(len(l.steps)), stepsN: int32(r.Path.Len())}
	for j := range r.Path.Len() {
		if k, index, isIndex := r.Path.Elem(j); isIndex {
			l.steps = append(l.steps, int32(-1-index))
		} else {
			l.steps = append(l.steps, int32(len(k)))
		}
	}
	l.held = append(l.held, h)
}

// len is how many reasons l holds.
func (l *reasonList) len() int {
	if l.plain != nil {
		return len(l.plain)
	}
	return len(l.held)
}

// rule is reason i's rule.
func (l *reasonList) rule(i int) string {
	if l.plain != nil {
		return l.plain[i].Rule
	}
	return l.held[i].rule
}

// add appends r, a reason whose strings are not views into a document.
func (l *reasonList) add(r resolver.Reason) {
	if l.plain != nil || !fits([]resolver.Reason{r}) {
		l.plain = append(l.all(), r)
		l.held, l.steps = nil, nil
		return
	}
	var keys strings.Builder
	for j := range r.Path.Len() {
		k, _, _ := r.Path.Elem(j)
		keys.WriteString(k)
	}
	// Copies when they grow: the blocks may be shared with a copy of l.
	l.held, l.steps = slices.Clip(l.held), slices.Clip(l.steps)
	l.push(r, r.Value, keys.String())
}

// reason is reason i, its path built with pb.
func (l *reasonList) reason(i int, pb *occkit.PathBuilder) resolver.Reason {
	if l.plain != nil {
		return l.plain[i]
	}
	h := &l.held[i]
	r := resolver.Reason{Rule: h.rule, Value: h.value, Note: h.note}
	if h.stepsN == 0 {
		r.Path = occkit.Root().In(h.doc)
		return r
	}
	pb.Reset()
	pb.Doc = h.doc
	keys := h.keys
	for _, s := range l.steps[h.stepsAt : h.stepsAt+h.stepsN] {
		if s < 0 {
			pb.Index(int(-1 - s))
			continue
		}
		pb.Key(keys[:s])
		keys = keys[s:]
	}
	r.Path = pb.Path()
	return r
}

// all is every reason, a slice of the caller's own (nil when there is
// none).
func (l *reasonList) all() []resolver.Reason {
	if l.len() == 0 {
		return nil
	}
	if l.plain != nil {
		return slices.Clone(l.plain)
	}
	out := make([]resolver.Reason, len(l.held))
	var pb occkit.PathBuilder
	pb.Grow(len(l.steps))
	for i := range l.held {
		out[i] = l.reason(i, &pb)
	}
	return out
}
