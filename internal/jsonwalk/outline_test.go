package jsonwalk

import (
	"fmt"
	"math"
	"slices"
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
// in order; Members finds each, and no offset that is not one. With
// Unrecorded, the walk's verdict is the same and it records exactly the
// objects a walk recording all of them does but those inside the value
// of a root member Unrecorded names.
func TestOutlineHoldsTheText(t *testing.T) {
	var recorded, hushedObjects int
	anyText := NewNode()
	anyText.Additional, anyText.Rest = anyText, anyText
	if err := Seal(anyText); err != nil {
		t.Fatal(err)
	}
	check := func(t *rapid.T) {
		// A drawn schema, or now and then one that admits any text, so
		// that deep objects are read whole.
		n := anyText
		if rapid.IntRange(0, 3).Draw(t, "schema") > 0 {
			n = drawNode(t, 0)
			if err := Seal(n); err != nil {
				t.Fatal(err)
			}
		}
		var b strings.Builder
		drawValue(t, 0).render(&b, nil, true, nil)
		s := b.String()
		depth := rapid.IntRange(0, 3).Draw(t, "depth")
		unrecorded := rapid.SliceOfN(rapid.SampledFrom(omitKeys), 0, 2).Draw(t, "unrecorded")
		out := &Outline{Depth: depth, Unrecorded: unrecorded}
		ok := ValidOutline(JS{}, n, s, out)
		if len(out.open) != 0 {
			t.Fatalf("%s: %d members left open", s, len(out.open))
		}
		// The same walk recording everything records what this one does
		// and, besides, exactly the objects inside the values of the root
		// members Unrecorded names.
		all := &Outline{Depth: depth}
		if ValidOutline(JS{}, n, s, all) != ok {
			t.Fatalf("%s: Unrecorded %q changes the verdict", s, unrecorded)
		}
		var hushed [][2]int
		if root := gjson.Parse(s); root.IsObject() {
			root.ForEach(func(k, v gjson.Result) bool {
				if slices.Contains(unrecorded, k.String()) {
					hushed = append(hushed, [2]int{v.Index, v.Index + len(v.Raw)})
				}
				return true
			})
		}
		inside := func(at int) bool {
			return slices.ContainsFunc(hushed, func(h [2]int) bool { return at >= h[0] && at < h[1] })
		}
		if ok {
			for _, x := range all.objects {
				_, kept := out.Members(int(x.at))
				if kept == inside(int(x.at)) {
					t.Fatalf("%s: Unrecorded %q: the object at %d recorded %v", s, unrecorded, x.at, kept)
				}
				if !kept {
					hushedObjects++
				}
			}
			if len(out.objects) > len(all.objects) {
				t.Fatalf("%s: Unrecorded %q records more objects than a walk recording all", s, unrecorded)
			}
		}
		objs := objectsOf(s)
		for k, x := range out.objects {
			if k > 0 && out.objects[k-1].at >= x.at {
				t.Fatalf("%s: objects out of order: %v", s, out.objects)
			}
			o, ok := objs[int(x.at)]
			if !ok || o.depth > out.Depth {
				t.Fatalf("%s: recorded %d, an object at depth %d (%v), outline depth %d", s, x.at, o.depth, ok, out.Depth)
			}
			var want []Member
			o.v.ForEach(func(k, v gjson.Result) bool {
				start := v.Index
				want = append(want, Member{Key: k.String(), Start: int32(start), End: int32(start + len(v.Raw))})
				return true
			})
			got, ok := out.Members(int(x.at))
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
	for round := 0; round < 20 && (recorded == 0 || hushedObjects == 0); round++ {
		rapid.Check(t, check)
	}
	if recorded == 0 {
		t.Error("no object was recorded")
	}
	if hushedObjects == 0 {
		t.Error("no draw had an object inside an unrecorded member")
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
// from 63 bytes on share a length bit, as do keys of one length), but
// none met only inside a root member Unrecorded names.
func TestOutlineMet(t *testing.T) {
	all := NewNode()
	all.Additional, all.Rest = all, all
	if err := Seal(all); err != nil {
		t.Fatal(err)
	}
	long1, long2 := strings.Repeat("k", 63), strings.Repeat("k", 70)
	keys := []string{"a", "b", "ab", "ba", long1, long2, long2 + "x"}
	hushed := 0 // draws where a watched key is only inside an unrecorded member
	check := func(t *rapid.T) {
		doc := drawKeyed(t, keys, 0)
		watch := rapid.SliceOfDistinct(rapid.SampledFrom(keys), func(k string) string { return k }).Draw(t, "watch")
		unrecorded := rapid.SliceOfN(rapid.SampledFrom(keys), 0, 2).Draw(t, "unrecorded")
		out := &Outline{Watch: watch, Unrecorded: unrecorded}
		if !ValidOutline(JS{}, all, doc, out) {
			t.Fatalf("%s refused", doc)
		}
		// The keys of every object, but none inside the value of a root
		// member Unrecorded names.
		has, anywhere := map[string]bool{}, map[string]bool{}
		var visit func(v gjson.Result, root, hush bool)
		visit = func(v gjson.Result, root, hush bool) {
			if !v.IsObject() && !v.IsArray() {
				return
			}
			v.ForEach(func(k, c gjson.Result) bool {
				if v.IsObject() {
					anywhere[k.String()] = true
					if !hush {
						has[k.String()] = true
					}
				}
				visit(c, false, hush || root && v.IsObject() && slices.Contains(unrecorded, k.String()))
				return true
			})
		}
		visit(gjson.Parse(doc), true, false)
		for i, k := range watch {
			if out.Met(i) != has[k] {
				t.Fatalf("%s: Unrecorded %q: Met(%q) = %v", doc, unrecorded, k, out.Met(i))
			}
			if anywhere[k] && !has[k] {
				hushed++
			}
		}
	}
	// Rounds of draws (at most twenty) until one has a watched key only
	// inside an unrecorded member, so the check covers that whatever the
	// seed.
	for round := 0; round < 20 && (round == 0 || hushed == 0); round++ {
		rapid.Check(t, check)
	}
	if hushed == 0 {
		t.Error("no draw had a watched key only inside an unrecorded member")
	}
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
	// 1,152 bytes is the allocator's size class an Outline of 32-bit
	// offsets fills with its header; with int offsets it took 1,472.
	if size := unsafe.Sizeof(Outline{}) + 8; size > 1152 {
		t.Errorf("an Outline takes %d bytes with its allocation header, more than 1,152", size)
	}
	if size := unsafe.Sizeof(Member{}); size != 24 {
		t.Errorf("a Member takes %d bytes, not 24", size)
	}
}

// TestOutlineMembersPastItsOffsets: an offset no 32-bit Member offset
// holds finds no object, where its low 32 bits would name one.
func TestOutlineMembersPastItsOffsets(t *testing.T) {
	all := NewNode()
	all.Additional, all.Rest = all, all
	if err := Seal(all); err != nil {
		t.Fatal(err)
	}
	doc := `{"a":{"b":1}}`
	out := &Outline{Depth: 1}
	if !ValidOutline(JS{}, all, doc, out) {
		t.Fatalf("%s refused", doc)
	}
	at := strings.IndexByte(doc[1:], '{') + 1
	if _, ok := out.Members(at); !ok {
		t.Fatalf("the object at %d is not in the outline", at)
	}
	for _, past := range []int{at + 1<<32, at - 1<<32, -1, math.MaxInt32 + 1} {
		if m, ok := out.Members(past); ok {
			t.Errorf("Members(%d) = %v: an offset past 32 bits found an object", past, m)
		}
	}
}

// TestOutlineReset: an outline Reset after a walk records what a new
// outline of the same settings records of the next walk, whatever the
// walk before left in it (objects past its room, a refusal), and holds
// no key of the text the walk before read, not even in its room.
func TestOutlineReset(t *testing.T) {
	anyText := NewNode()
	anyText.Additional, anyText.Rest = anyText, anyText
	if err := Seal(anyText); err != nil {
		t.Fatal(err)
	}
	reused := &Outline{Depth: 2, Watch: []string{"w"}}
	rapid.Check(t, func(t *rapid.T) {
		n := anyText
		if rapid.Bool().Draw(t, "drawn schema") {
			n = drawNode(t, 0)
			if err := Seal(n); err != nil {
				t.Fatal(err)
			}
		}
		var b strings.Builder
		drawValue(t, 0).render(&b, nil, true, nil)
		s := b.String()
		fresh := &Outline{Depth: 2, Watch: []string{"w"}}
		want := ValidOutline(JS{}, n, s, fresh)
		reused.Reset()
		if reused.objects != nil || reused.members != nil || reused.open != nil || reused.met != 0 {
			t.Fatal("Reset left what the walk before recorded")
		}
		for _, m := range reused.room.members {
			if m != (Member{}) {
				t.Fatalf("Reset left the member %q of the text before in the room", m.Key)
			}
		}
		if got := ValidOutline(JS{}, n, s, reused); got != want {
			t.Fatalf("%s: a reset outline's walk says %v, a new one's %v", s, got, want)
		}
		if fmt.Sprint(reused.objects, reused.members, reused.met) != fmt.Sprint(fresh.objects, fresh.members, fresh.met) {
			t.Fatalf("%s: a reset outline records %v %v, a new one %v %v", s, reused.objects, reused.members, fresh.objects, fresh.members)
		}
	})
}
