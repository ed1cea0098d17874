package admission

import (
	"math"
	"slices"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/resolver"
)

// detachBefore is detach as it was before it took the decision's
// Fallbacks array and read the reasons' paths in one pass: the oracle of
// TestDetachMatchesBefore.
func detachBefore(dec resolver.Decision) detached {
	size, elems := len(dec.Primary), 0
	for _, f := range dec.Fallbacks {
		size += len(f)
	}
	for _, r := range dec.Reasons {
		size += len(r.Value) + keysLen(r.Path)
		elems += r.Path.Len()
	}
	block := make([]byte, 0, size)
	block = append(block, dec.Primary...)
	for _, f := range dec.Fallbacks {
		block = append(block, f...)
	}
	for _, r := range dec.Reasons {
		block = append(block, r.Value...)
		for j := range r.Path.Len() {
			k, _, _ := r.Path.Elem(j)
			block = append(block, k...)
		}
	}
	rest := string(block)
	next := func(n int) string {
		s := rest[:n]
		rest = rest[n:]
		return s
	}
	d := detached{primary: next(len(dec.Primary))}
	if dec.Fallbacks != nil {
		d.fallbacks = make([]string, len(dec.Fallbacks))
		for i, f := range dec.Fallbacks {
			d.fallbacks[i] = next(len(f))
		}
	}
	if dec.Reasons == nil {
		return d
	}
	if !fits(dec.Reasons) || elems > math.MaxInt32 {
		d.reasons.plain = make([]resolver.Reason, len(dec.Reasons))
		for i, r := range dec.Reasons {
			r.Value = next(len(r.Value))
			var pb occkit.PathBuilder
			pb.Doc = r.Path.Doc()
			for j := range r.Path.Len() {
				k, index, isIndex := r.Path.Elem(j)
				if isIndex {
					pb.Index(index)
				} else {
					pb.Key(next(len(k)))
				}
			}
			if r.Path.Len() > 0 {
				r.Path = pb.Path()
			}
			d.reasons.plain[i] = r
		}
		return d
	}
	for _, r := range dec.Reasons {
		d.reasons.push(r, next(len(r.Value)), next(keysLen(r.Path)))
	}
	return d
}

// TestDetachMatchesBefore holds detach to detachBefore on drawn
// decisions (paths with empty and repeated keys, indexes that do and do
// not fit in steps, no reasons, no fallbacks): the same primary,
// fallbacks and reasons, and no string of the result a view of the
// decision's strings, which detach copies out of the document.
func TestDetachMatchesBefore(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		text := rapid.SampledFrom([]string{"", "agents", "entries", "anthropic/model-1", "模型", "x"})
		reason := drawnReason(text)
		// Each string its own copy, so that a view of one is told from
		// the block's.
		own := func(s string) string { return string(append([]byte(nil), s...)) }
		dec := resolver.Decision{Primary: own(text.Draw(t, "primary"))}
		if rapid.Bool().Draw(t, "hasFallbacks") {
			dec.Fallbacks = []string{}
			for _, f := range rapid.SliceOfN(text, 0, 6).Draw(t, "fallbacks") {
				dec.Fallbacks = append(dec.Fallbacks, own(f))
			}
		}
		if rapid.Bool().Draw(t, "hasReasons") {
			dec.Reasons = rapid.SliceOfN(reason, 0, 8).Draw(t, "reasons")
			for i := range dec.Reasons {
				dec.Reasons[i].Value = own(dec.Reasons[i].Value)
			}
		}
		// The strings detach must not keep a view of.
		var inputs []string
		inputs = append(append(inputs, dec.Primary), dec.Fallbacks...)
		for _, r := range dec.Reasons {
			inputs = append(inputs, r.Value)
		}
		before := resolver.Decision{Primary: dec.Primary, Fallbacks: slices.Clone(dec.Fallbacks), Reasons: slices.Clone(dec.Reasons)}
		want := detachBefore(before)
		got := detach(dec)
		if got.primary != want.primary {
			t.Fatalf("primary %q, want %q", got.primary, want.primary)
		}
		if (got.fallbacks == nil) != (want.fallbacks == nil) || !slices.Equal(got.fallbacks, want.fallbacks) {
			t.Fatalf("fallbacks %q, want %q", got.fallbacks, want.fallbacks)
		}
		if diff := cmp.Diff(want.reasons.all(), got.reasons.all(), cmp.Comparer(occkit.Path.Equal)); diff != "" {
			t.Fatalf("reasons (-before +now):\n%s", diff)
		}
		if (got.reasons.plain == nil) != (want.reasons.plain == nil) {
			t.Fatalf("reasons kept plain: %v, before %v", got.reasons.plain != nil, want.reasons.plain != nil)
		}
		kept := append([]string{got.primary}, got.fallbacks...)
		for i := range got.reasons.len() {
			if got.reasons.plain != nil {
				kept = append(kept, got.reasons.plain[i].Value)
			} else {
				kept = append(kept, got.reasons.held[i].value)
			}
		}
		for _, k := range kept {
			for _, in := range inputs {
				if len(k) > 0 && unsafe.StringData(k) == unsafe.StringData(in) {
					t.Fatalf("%q is a view of the decision's string", k)
				}
			}
		}
	})
}
