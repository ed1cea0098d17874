package jsonwalk

import (
	"strings"
	"testing"
	"unsafe"

	"github.com/tidwall/gjson"
	"pgregory.net/rapid"
)

// TestOutlineHoldsTheText: every object an outline records, whatever
// the walk's verdict (unions read objects again, abandoned objects leave
// the ones read inside them), is an object of the text at no more than
// the outline's depth, its members exactly the ones gjson reads there,
// in order; Members finds each, and no offset that is not one.
func TestOutlineHoldsTheText(t *testing.T) {
	var recorded int
	check := func(t *rapid.T) {
		n := drawNode(t, 0)
		if err := Seal(n); err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		drawValue(t, 0).render(&b, nil, true, nil)
		s := b.String()
		out := &Outline{Depth: rapid.IntRange(0, 3).Draw(t, "depth")}
		ValidOutline(JS{}, n, s, out)
		if len(out.open) != 0 {
			t.Fatalf("%s: %d members left open", s, len(out.open))
		}
		objs := objectsOf(s)
		for k, x := range out.objects {
			if k > 0 && out.objects[k-1].at >= x.at {
				t.Fatalf("%s: objects out of order: %v", s, out.objects)
			}
			o, ok := objs[x.at]
			if !ok || o.depth > out.Depth {
				t.Fatalf("%s: recorded %d, an object at depth %d (%v), outline depth %d", s, x.at, o.depth, ok, out.Depth)
			}
			var want []Member
			o.v.ForEach(func(k, v gjson.Result) bool {
				start := v.Index
				want = append(want, Member{Key: k.String(), Start: start, End: start + len(v.Raw)})
				return true
			})
			got, ok := out.Members(x.at)
			if !ok || !equalMembers(got, want) {
				t.Fatalf("%s: members at %d %v, want %v", s, x.at, got, want)
			}
			recorded++
		}
		for at := range len(s) + 1 {
			if _, ok := out.Members(at); ok && s[at] != '{' {
				t.Fatalf("%s: Members(%d) found an object", s, at)
			}
		}
	}
	// A round of 100 draws records about three objects, and now and then
	// none; further rounds (at most ten), until one does, make the check
	// below a property of the generator, not of one seed.
	for round := 0; round < 10 && recorded == 0; round++ {
		rapid.Check(t, check)
	}
	if recorded == 0 {
		t.Error("no object was recorded")
	}
}

func equalMembers(a, b []Member) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// objectsOf is every object of the JSON text s by its offset, with its
// depth, read by gjson.
func objectsOf(s string) map[int]textObject {
	objs := map[int]textObject{}
	var visit func(v gjson.Result, at, depth int)
	visit = func(v gjson.Result, at, depth int) {
		if v.IsObject() {
			objs[at] = textObject{v, depth}
		}
		if v.IsObject() || v.IsArray() {
			v.ForEach(func(_, c gjson.Result) bool {
				visit(c, c.Index, depth+1)
				return true
			})
		}
	}
	visit(gjson.Parse(s), 0, 0)
	return objs
}

type textObject struct {
	v     gjson.Result
	depth int
}

// TestOutlineMet: a walk that reads every object notes exactly the
// watched keys some object of the text has, whatever their lengths (two
// from 63 bytes on share a length bit, as do keys of one length).
func TestOutlineMet(t *testing.T) {
	all := NewNode()
	all.Additional, all.Rest = all, all
	if err := Seal(all); err != nil {
		t.Fatal(err)
	}
	long1, long2 := strings.Repeat("k", 63), strings.Repeat("k", 70)
	keys := []string{"a", "b", "ab", "ba", long1, long2, long2 + "x"}
	rapid.Check(t, func(t *rapid.T) {
		doc := drawKeyed(t, keys, 0)
		watch := rapid.SliceOfDistinct(rapid.SampledFrom(keys), func(k string) string { return k }).Draw(t, "watch")
		out := &Outline{Watch: watch}
		if !ValidOutline(JS{}, all, doc, out) {
			t.Fatalf("%s refused", doc)
		}
		has := map[string]bool{}
		var visit func(v gjson.Result)
		visit = func(v gjson.Result) {
			if !v.IsObject() && !v.IsArray() {
				return
			}
			v.ForEach(func(k, c gjson.Result) bool {
				if v.IsObject() {
					has[k.String()] = true
				}
				visit(c)
				return true
			})
		}
		visit(gjson.Parse(doc))
		for i, k := range watch {
			if out.Met(i) != has[k] {
				t.Fatalf("%s: Met(%q) = %v", doc, k, out.Met(i))
			}
		}
	})
}

// drawKeyed is a JSON text of objects and arrays whose keys are drawn
// from keys.
func drawKeyed(t *rapid.T, keys []string, depth int) string {
	if depth >= 3 || rapid.IntRange(0, 3).Draw(t, "leaf") == 0 {
		return "1"
	}
	var b strings.Builder
	n := rapid.IntRange(0, 3).Draw(t, "n")
	if rapid.Bool().Draw(t, "array") {
		b.WriteByte('[')
		for i := range n {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(drawKeyed(t, keys, depth+1))
		}
		b.WriteByte(']')
		return b.String()
	}
	b.WriteByte('{')
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"` + rapid.SampledFrom(keys).Draw(t, "key") + `":`)
		b.WriteString(drawKeyed(t, keys, depth+1))
	}
	b.WriteByte('}')
	return b.String()
}

// TestOutlineSize: an Outline, its room included, is one allocation of at
// most 2 KB (the size class a validation allocates it in).
func TestOutlineSize(t *testing.T) {
	if size := unsafe.Sizeof(Outline{}); size > 2048 {
		t.Errorf("an Outline takes %d bytes, more than 2048", size)
	}
}
