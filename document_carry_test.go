package occkit

import (
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/tidwall/gjson"
	"pgregory.net/rapid"
)

// placesGJSON are the places of the root members of raw as gjson's
// ForEach reads them (every member, repeated keys too), the oracle for
// the places a Document is given or finds.
func placesGJSON(raw string) *rootPlaces {
	root := gjson.Parse(raw)
	if !root.IsObject() {
		return &rootPlaces{}
	}
	p := &rootPlaces{obj: true}
	names := map[string]bool{}
	root.ForEach(func(k, v gjson.Result) bool {
		p.members = append(p.members, memberPlace{key: k.Index, value: v.Index, end: v.Index + len(v.Raw)})
		names[k.String()] = true
		return true
	})
	p.unique = len(names) == len(p.members)
	return p
}

// checkIndex fails unless the root index of d (built from the places it
// was given, or found) holds what a fresh read of its bytes by gjson
// holds: the same places, the same uniqueness and the same members.
func checkIndex(t interface{ Fatalf(string, ...any) }, d Document, how string) {
	raw := d.String()
	d.Get(Root().Key("a")) // builds the index
	if !d.top.known.Load() {
		t.Fatalf("%s: %s: no places after a lookup", how, raw)
	}
	got := &d.top.places
	want := placesGJSON(raw)
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(rootPlaces{}, memberPlace{}), cmpopts.EquateEmpty()); diff != "" {
		t.Fatalf("%s: places of %s (-fresh +carried):\n%s", how, raw, diff)
	}
	checkTopIndex(t, d.top, raw, how)
}

// carryKeys are the root keys of the carry test: plain ones a splice
// edits, spellings of one name (plain and escaped), and keys only sjson
// writes (an index, a dot, a quote).
var carryKeys = []string{"a", "b", "c", "logging", "gateway", "é", "0", "x.y", `q"`}

// genCarryDocument is an object Document whose root keys repeat names in
// other spellings now and then (never a key twice: a Document has none).
func genCarryDocument(t *rapid.T) Document {
	var sb strings.Builder
	sb.WriteByte('{')
	seen := map[string]bool{}
	for n := rapid.IntRange(0, 6).Draw(t, "members"); n > 0; n-- {
		k := rapid.SampledFrom(carryKeys).Draw(t, "key")
		if seen[k] {
			continue
		}
		seen[k] = true
		lit, _ := json.Marshal(k)
		if k == "a" && rapid.Bool().Draw(t, "escape") {
			lit = []byte(`"\u0061"`)
		}
		if len(seen) > 1 {
			sb.WriteByte(',')
		}
		sb.Write(lit)
		sb.WriteByte(':')
		sb.WriteString(genDocument(t).String())
	}
	sb.WriteByte('}')
	d, err := ParseDocument([]byte(sb.String()))
	if err != nil {
		t.Fatalf("generator made an invalid document %s: %v", sb.String(), err)
	}
	return d
}

func genCarryPath(t *rapid.T) Path {
	p := Root().Key(rapid.SampledFrom(carryKeys).Draw(t, "k"))
	for n := rapid.IntRange(0, 2).Draw(t, "depth"); n > 0; n-- {
		if rapid.IntRange(0, 5).Draw(t, "index") == 0 {
			p = p.Index(rapid.IntRange(0, 2).Draw(t, "i"))
		} else {
			p = p.Key(rapid.SampledFrom(carryKeys).Draw(t, "k"))
		}
	}
	return p
}

// TestCarriedRootIndexMatchesFresh: for random documents and random
// sequences of edits (Set, SetRaw, Delete, Apply of several, whether they
// splice or go through sjson) and canonical forms, a lookup now and then
// (so that some documents know their places before the next is made from
// them and some do not), every document's root index, carried or found,
// is the one gjson reads from its bytes.
func TestCarriedRootIndexMatchesFresh(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d := genCarryDocument(t)
		for step := rapid.IntRange(1, 8).Draw(t, "steps"); step > 0; step-- {
			if rapid.Bool().Draw(t, "look") {
				d.Get(Root().Key(rapid.SampledFrom(carryKeys).Draw(t, "look at")))
			}
			var (
				next Document
				err  error
				how  string
			)
			switch rapid.IntRange(0, 4).Draw(t, "op") {
			case 0:
				p := genCarryPath(t)
				how = "Set " + p.String()
				next, err = d.Set(p, rapid.SampledFrom([]any{"x", 1.5, true, nil, map[string]any{"k": "v"}, []int{1}}).Draw(t, "v"))
			case 1:
				p := genCarryPath(t)
				how = "SetRaw " + p.String()
				next, err = d.SetRaw(p, []byte(genDocument(t).String()))
			case 2:
				p := genCarryPath(t)
				how = "Delete " + p.String()
				next, err = d.Delete(p)
			case 3:
				var edits []Edit
				for n := rapid.IntRange(0, 4).Draw(t, "edits"); n > 0; n-- {
					e := Edit{Path: genCarryPath(t), Delete: rapid.Bool().Draw(t, "delete")}
					if !e.Delete {
						e.Raw = []byte(genDocument(t).String())
					}
					edits = append(edits, e)
				}
				how = "Apply"
				next, err = d.Apply(edits...)
			case 4:
				how = "CanonicalDocument"
				next = CanonicalDocument(d)
			}
			if err != nil {
				continue // what cannot be set is no document to check
			}
			checkIndex(t, next, how+" of "+d.String())
			d = next
		}
	})
}

// TestPlacesCarried: the writers that know where they put the root
// members hand their places to the Document they make, so that its index
// is built without reading it: the splice when the source's places are
// known (and not when they are not yet), the canonical writer always.
func TestPlacesCarried(t *testing.T) {
	src := MustParseDocument(`{"b":{"x":1},"a":[1,2],"c":"s"}`)
	given := func(d Document) bool { return d.top.known.Load() }
	if out, err := src.Apply(Edit{Path: NewPath("b", "y"), Raw: []byte(`2`)}); err != nil || given(out) {
		t.Fatalf("Apply before any lookup: places given %v (%v), want none: the source's are unknown", given(out), err)
	}
	src.Get(NewPath("a"))
	for _, c := range []struct {
		name string
		make func() (Document, error)
	}{
		{"nested set", func() (Document, error) { return src.SetRaw(NewPath("b", "y"), []byte(`2`)) }},
		{"member set", func() (Document, error) { return src.Set(NewPath("a"), "long value") }},
		{"member created", func() (Document, error) { return src.Set(NewPath("d", "e"), 1) }},
		{"member deleted", func() (Document, error) { return src.Delete(NewPath("a")) }},
		{"several", func() (Document, error) {
			return src.Apply(Edit{Path: NewPath("c"), Delete: true}, Edit{Path: NewPath("b", "x"), Raw: []byte(`[3]`)}, Edit{Path: NewPath("z"), Raw: []byte(`{}`)})
		}},
		{"canonical", func() (Document, error) { return CanonicalDocument(src), nil }},
		{"canonical, never looked up", func() (Document, error) {
			return CanonicalDocument(MustParseDocument(`{"z":1,"y":{"a":2}}`)), nil
		}},
	} {
		out, err := c.make()
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if !given(out) {
			t.Errorf("%s: %s was made without places", c.name, out)
		}
		checkIndex(t, out, c.name)
	}
}

// errorf reports a failure without stopping the goroutine it runs in.
type errorf struct{ t *testing.T }

func (e errorf) Fatalf(format string, args ...any) { e.t.Errorf(format, args...) }

// TestPlacesCarriedConcurrently: documents made from one Document while
// other goroutines look its members up (and so find its places) carry
// its places or find their own, never half of them (run with -race).
func TestPlacesCarriedConcurrently(t *testing.T) {
	src := MustParseDocument(`{"b":{"x":1},"a":[1,2],"c":"s","d":{"e":{"f":null}}}`)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if g%2 == 0 {
				src.Get(NewPath("d", "e"))
				return
			}
			out, err := src.Apply(Edit{Path: NewPath("b", "y"), Raw: []byte(`[2]`)}, Edit{Path: NewPath("c"), Delete: true})
			if err != nil {
				t.Errorf("Apply: %v", err)
				return
			}
			checkIndex(errorf{t}, out, "Apply beside lookups")
		}()
	}
	wg.Wait()
}
