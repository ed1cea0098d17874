package openclawschema

import (
	"fmt"
	"testing"

	"github.com/tidwall/gjson"
	"pgregory.net/rapid"
)

// refineInBefore is refineIn as it was before a refinement whose paths
// all start at sections the root lacks was passed over: every refinement
// of the release runs, each finding nothing where the document has
// nothing. It is the oracle of TestRootSkipMatchesBefore.
func refineInBefore(r *refiner, schema *node, w reading, c *Contract) []error {
	r.version, r.skip, r.schema, r.src, r.outline, r.accepted = c.version, c.skip, schema, w.src, w.outline, w.ok
	r.doc = rootIndex(w.src)
	root := r.value(&r.doc)
	for i := range refinements {
		if !c.skipped[i] {
			refinements[i].check(root, r)
		}
	}
	schemaRefinements(root, r)
	return r.issues
}

// TestRootSkipMatchesBefore: the refinements refuse what they refused
// when each ran whatever the root held (refineInBefore), issue for issue
// and in order, on drawn documents: configurations the schema draws and
// the refinements' own cases (a setting of each refinement, valid or
// not), and the same with every root section but one dropped.
func TestRootSkipMatchesBefore(t *testing.T) {
	v, err := New()
	if err != nil {
		t.Fatal(err)
	}
	refused := 0
	rapid.Check(t, func(t *rapid.T) {
		src := string(genDocument(t, v, 29))
		docs := []string{src}
		gjson.Parse(src).ForEach(func(k, v gjson.Result) bool {
			docs = append(docs, "{"+k.Raw+":"+v.Raw+"}")
			return true
		})
		for _, d := range docs {
			w := v.walkText(d)
			got := fmt.Sprint(refineIn(new(refiner), v.root, w, v.contract))
			want := fmt.Sprint(refineInBefore(new(refiner), v.root, w, v.contract))
			if got != want {
				t.Fatalf("%s: refinements refuse\n%s\nbefore\n%s", d, got, want)
			}
			if want != "[]" {
				refused++
			}
		}
	})
	if refused == 0 {
		t.Error("no drawn document was refused by a refinement")
	}
}

// TestRootsOf: a refinement's roots are its Paths' first keys, and one
// that may read any section (no Paths, a path from a wildcard or an
// array's element) has every bit, so it is never passed over.
func TestRootsOf(t *testing.T) {
	for _, tc := range []struct {
		paths []string
		want  uint64
	}{
		{[]string{"talk.provider", "talk.realtime.provider"}, keyBit("talk")},
		{[]string{"tools.exec.mode", "agents.entries.*.tools.exec.mode"}, keyBit("tools") | keyBit("agents")},
		{[]string{"broadcast.*"}, keyBit("broadcast")},
		{[]string{"bindings[].agentId"}, keyBit("bindings")},
		{[]string{"talk"}, keyBit("talk")},
		{nil, ^uint64(0)},
		{[]string{"talk.provider", "*.agentId"}, ^uint64(0)},
		{[]string{"[].id"}, ^uint64(0)},
	} {
		if got := rootsOf(tc.paths); got != tc.want {
			t.Errorf("rootsOf(%q) = %#x, want %#x", tc.paths, got, tc.want)
		}
	}
	for i, ref := range refinements {
		if rootsOf(ref.Paths) == 0 {
			t.Errorf("refinement %d (%s) reads no section: refineIn would never run it", i, ref.Class)
		}
	}
}
