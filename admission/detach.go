package admission

import (
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
// peak heap of admission then rendering paid at every size. Copying costs one
// allocation for the strings and one for the reasons' paths, whatever
// their number.
type detached struct {
	primary   string
	fallbacks []string
	reasons   []resolver.Reason
}

func detach(dec resolver.Decision) detached {
	size, elems := len(dec.Primary), 0
	for _, f := range dec.Fallbacks {
		size += len(f)
	}
	for _, r := range dec.Reasons {
		size += len(r.Value)
		elems += r.Path.Len()
		for i := range r.Path.Len() {
			k, _, _ := r.Path.Elem(i)
			size += len(k)
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
		d.fallbacks = make([]string, len(dec.Fallbacks))
		for i, f := range dec.Fallbacks {
			d.fallbacks[i] = next(len(f))
		}
	}
	if dec.Reasons != nil {
		d.reasons = make([]resolver.Reason, len(dec.Reasons))
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
			d.reasons[i] = r
		}
	}
	return d
}
