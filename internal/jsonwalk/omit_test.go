package jsonwalk

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// tval is a drawn JSON value: an object (members), an array (elements)
// or a scalar literal.
type tval struct {
	obj     bool
	arr     bool
	keys    []string
	members []tval
	lit     string
}

var omitKeys = []string{"a", "b", "c"}

func drawValue(t *rapid.T, depth int) tval {
	kind := rapid.IntRange(0, 4).Draw(t, "kind")
	if depth >= 3 {
		kind = 2 + kind%3
	}
	switch kind {
	case 0, 1:
		v := tval{obj: kind == 0, arr: kind == 1}
		for range rapid.IntRange(0, 3).Draw(t, "n") {
			if v.obj {
				v.keys = append(v.keys, rapid.SampledFrom(omitKeys).Draw(t, "key"))
			}
			v.members = append(v.members, drawValue(t, depth+1))
		}
		return v
	}
	return tval{lit: rapid.SampledFrom([]string{`1`, `1.5`, `"x"`, `""`, `true`, `null`}).Draw(t, "lit")}
}

// render writes v as JSON without the members omit names (by their key
// paths from the root; a path through an element never matches): the
// text an omitting walk must read as.
func (v tval) render(b *strings.Builder, path []string, keyed bool, omit [][]string) {
	switch {
	case v.obj:
		b.WriteByte('{')
		first := true
		for i, k := range v.keys {
			p := append(slices.Clip(path), k)
			if keyed && slices.ContainsFunc(omit, func(o []string) bool { return slices.Equal(o, p) }) {
				continue
			}
			if !first {
				b.WriteByte(',')
			}
			first = false
			fmt.Fprintf(b, "%q:", k)
			v.members[i].render(b, p, keyed, omit)
		}
		b.WriteByte('}')
	case v.arr:
		b.WriteByte('[')
		for i, e := range v.members {
			if i > 0 {
				b.WriteByte(',')
			}
			e.render(b, append(slices.Clip(path), "0"), false, omit)
		}
		b.WriteByte(']')
	default:
		b.WriteString(v.lit)
	}
}

func drawNode(t *rapid.T, depth int) *Node {
	if depth >= 3 || rapid.IntRange(0, 3).Draw(t, "nil") == 0 {
		return nil
	}
	n := NewNode()
	n.Types = uint8(rapid.SampledFrom([]int{0, 0, int(Object), int(Array), int(Object | Array), int(String | Number)}).Draw(t, "types"))
	if rapid.Bool().Draw(t, "props") {
		n.Props = map[string]*Node{}
		for _, k := range omitKeys {
			if rapid.Bool().Draw(t, "prop") {
				n.Props[k] = drawNode(t, depth+1)
			}
		}
	}
	n.Closed = rapid.IntRange(0, 3).Draw(t, "closed") == 0
	if !n.Closed && rapid.Bool().Draw(t, "additional") {
		n.Additional = drawNode(t, depth+1)
	}
	for _, k := range omitKeys {
		if rapid.IntRange(0, 3).Draw(t, "required") == 0 {
			n.Required = append(n.Required, k)
		}
	}
	n.MaxProps = rapid.IntRange(-1, 3).Draw(t, "maxProps")
	n.Rest = drawNode(t, depth+1)
	n.MaxItems = rapid.IntRange(-1, 3).Draw(t, "maxItems")
	for range rapid.IntRange(0, 2).Draw(t, "anyOf") {
		if c := drawNode(t, depth+1); c != nil {
			n.AnyOf = append(n.AnyOf, c)
		}
	}
	return n
}

// outlined is what an outline holds, offsets aside: the keys of each
// object it recorded, sorted, and the watched keys met.
func outlined(o *Outline) string {
	var objs []string
	for _, x := range o.objects {
		var ks []string
		for _, m := range o.members[x.lo:x.hi] {
			ks = append(ks, m.Key)
		}
		objs = append(objs, strings.Join(ks, ","))
	}
	slices.Sort(objs)
	return fmt.Sprintf("%q met %b", objs, o.met)
}

// TestOmitReadsTheTextWithout: a walk that omits members gives the
// verdict and outline of a walk of the text written without them, for
// drawn schemas (unions, closed and required members, bounds) and
// documents (repeated keys, omitted paths through arrays and unions).
func TestOmitReadsTheTextWithout(t *testing.T) {
	var omittedSome, accepted int
	rapid.Check(t, func(t *rapid.T) {
		n := drawNode(t, 0)
		if err := Seal(n); err != nil {
			t.Fatal(err)
		}
		doc := drawValue(t, 0)
		var omit [][]string
		for range rapid.IntRange(1, 3).Draw(t, "omit") {
			omit = append(omit, rapid.SliceOfN(rapid.SampledFrom(omitKeys), 1, 3).Draw(t, "path"))
		}
		var full, without strings.Builder
		doc.render(&full, nil, true, nil)
		doc.render(&without, nil, true, omit)
		depth := rapid.IntRange(0, 3).Draw(t, "depth")
		got := &Outline{Depth: depth, Watch: []string{"b", "c"}, Omit: omit}
		want := &Outline{Depth: depth, Watch: []string{"b", "c"}}
		okGot, okWant := ValidOutline(JS{}, n, full.String(), got), ValidOutline(JS{}, n, without.String(), want)
		if okGot != okWant {
			t.Fatalf("omitting %q from %s: %v; %s: %v", omit, full.String(), okGot, without.String(), okWant)
		}
		if okGot && outlined(got) != outlined(want) {
			t.Fatalf("omitting %q from %s outlines %s; %s outlines %s", omit, full.String(), outlined(got), without.String(), outlined(want))
		}
		if full.Len() != without.Len() {
			omittedSome++
		}
		if okGot {
			accepted++
		}
	})
	if omittedSome == 0 || accepted == 0 {
		t.Errorf("%d documents lost a member, %d were accepted: want some of each", omittedSome, accepted)
	}
}

// TestOmitCases: a path of no key or of more than eight is refused, not
// read; a path never runs through an array element, even where an
// earlier member at the same depth had the key, also when one walk reads
// the text for two schemas (ValidBoth) that both walk the array.
func TestOmitCases(t *testing.T) {
	for _, omit := range [][][]string{{{}}, {strings.Split("a.b.c.d.e.f.g.h.i", ".")}} {
		if ValidOutline(JS{}, nil, `{}`, &Outline{Omit: omit}) {
			t.Errorf("Omit %q accepted", omit)
		}
	}
	number, closed := NewNode(), NewNode()
	number.Types, closed.Closed = Number, true
	a := NewNode()
	a.Props, a.Rest = map[string]*Node{"b": number}, closed
	root := NewNode()
	root.Props = map[string]*Node{"a": a}
	// The other schema walks the same arrays, accepting their elements.
	other := NewNode()
	other.Props = map[string]*Node{"a": NewNode()}
	other.Props["a"].Rest = NewNode()
	for _, n := range []*Node{root, other} {
		if err := Seal(n); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		doc  string
		omit [][]string
		want bool
	}{
		{`{"a":{"b":1},"a":[{"c":1}]}`, [][]string{{"a", "b", "c"}}, false},
		{`{"a":{"b":1},"a":[{"c":1}]}`, [][]string{{"a", "0", "c"}}, false},
		{`{"a":{"b":"x"}}`, [][]string{{"a", "b"}}, true},
		{`{"a":{"b":"x"}}`, [][]string{{"b"}, {"a", "c"}}, false},
	} {
		if got := ValidOutline(JS{}, root, c.doc, &Outline{Omit: c.omit}); got != c.want {
			t.Errorf("%s omitting %q: %v, want %v", c.doc, c.omit, got, c.want)
		}
		if got := ValidBoth(Exact{}, other, JS{}, root, c.doc, &Outline{Omit: c.omit}); got != c.want {
			t.Errorf("%s omitting %q beside another schema: %v, want %v", c.doc, c.omit, got, c.want)
		}
	}
}
