package openclawschema

import (
	"fmt"
	"strings"

	"bytes"
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/tidwall/gjson"
	"pgregory.net/rapid"

	"github.com/occkit/occkit"
)

// TestWalkerAgrees: the shared byte walker and the gjson oracle
// (oracle_test.go) give the same verdict for every value of generated
// documents against every schema that applies to it (object members,
// array elements, property names and union branches included), and the
// walker's verdict does not depend on whitespace.
func TestWalkerAgrees(t *testing.T) {
	v, err := New()
	if err != nil {
		t.Fatal(err)
	}
	var valid, invalid int
	rapid.Check(t, func(t *rapid.T) {
		g := &docGen{rng: rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 7))}
		doc, _ := g.next(v.root)
		b, err := json.Marshal(doc)
		if err != nil {
			t.Fatal(err)
		}
		if v.root.valid(gjson.ParseBytes(b)) {
			valid++
		} else {
			invalid++
		}
		var spaced bytes.Buffer
		if err := json.Indent(&spaced, b, "", "  "); err != nil {
			t.Fatal(err)
		}
		if got, want := v.root.valid(gjson.Parse(" "+spaced.String()+"\n")), v.root.valid(gjson.ParseBytes(b)); got != want {
			t.Fatalf("indented %v, compact %v: %s", got, want, b)
		}
		agreeAll(t, v.root, gjson.ParseBytes(b), "", 0)
	})
	t.Logf("%d valid, %d invalid documents", valid, invalid)
	if valid == 0 || invalid == 0 {
		t.Error("the generator made documents of one verdict only")
	}
}

func agreeAll(t *rapid.T, n *node, r gjson.Result, at string, depth int) {
	if n == nil || depth > 64 {
		return
	}
	if got, want := n.valid(r), n.oracleValid(r); got != want {
		t.Fatalf("at %q the walker says %v, the oracle %v, of %s", at, got, want, r.Raw)
	}
	for _, us := range [][]*node{n.allOf, n.anyOf, n.oneOf} {
		for _, c := range us {
			agreeAll(t, c, r, at, depth+1)
		}
	}
	switch {
	case r.IsObject():
		r.ForEach(func(k, val gjson.Result) bool {
			if n.keys != nil {
				agreeAll(t, n.keys, k, at+"/"+k.String()+"(key)", depth+1)
			}
			if c, ok := n.child(keyOf(k)); ok {
				agreeAll(t, c, val, at+"/"+k.String(), depth+1)
			}
			return true
		})
	case r.IsArray():
		for i, e := range r.Array() {
			agreeAll(t, n.itemSchema(i), e, at+"/"+string(rune('0'+i%10)), depth+1)
		}
	}
}

// TestOutlineChangesNothing: the refinements find the same refusals, in
// the same order, whether they read the objects the schema walk outlined
// and the keys it met or scan the text themselves, on documents that
// reach every mirrored refinement, compact, indented, and with their keys
// escaped; and the walk reads the document as specView rewrites it.
func TestOutlineChangesNothing(t *testing.T) {
	v, err := New()
	if err != nil {
		t.Fatal(err)
	}
	refused, rewritten := 0, 0
	rapid.Check(t, func(t *rapid.T) {
		b := genDocument(t, v, 9)
		var spaced bytes.Buffer
		if err := json.Indent(&spaced, b, "", "  "); err != nil {
			t.Fatal(err)
		}
		want := fmt.Sprint(refine(v.root, reading{src: string(b)}, v.contract))
		if len(want) > 2 {
			refused++
		}
		for _, src := range []string{string(b), spaced.String(), strings.ReplaceAll(string(b), `"a`, `"\u0061`)} {
			w := v.walkText(src)
			if got := fmt.Sprint(refine(v.root, w, v.contract)); got != want {
				t.Fatalf("with the outline of %s:\n%s\nwithout:\n%s", src, got, want)
			}
			// The view the walk settles on is specView's.
			doc, err := occkit.ParseDocument([]byte(src))
			if err != nil {
				t.Fatal(err)
			}
			view := specView(doc).String()
			if view != src {
				rewritten++
			}
			// The walk reads the view: it accepts what the schema accepts
			// of it, and it refuses, or refines, the view's text or the
			// document's with the view's members omitted (see
			// Validator.walk), to the same effect.
			got := v.walk(doc)
			if got.ok != v.root.valid(gjson.Parse(view)) || !got.ok && got.src != view {
				t.Fatalf("walk of %s read %s (accepted %v), want %s", src, got.src, got.ok, view)
			}
			if a, b := fmt.Sprint(refine(v.root, got, v.contract)), fmt.Sprint(refine(v.root, v.walkText(view), v.contract)); a != b {
				t.Fatalf("the walk of %s refines to\n%s\nthe view's to\n%s", src, a, b)
			}
		}
	})
	if refused == 0 || rewritten == 0 {
		t.Errorf("of the generated documents %d were refused by a refinement and %d rewritten by specView; want some of each", refused, rewritten)
	}
}

// TestShapeWalkAgrees: the shape refinements (SecretRef ids, tool
// policies) refuse the same settings, in the same order, whether the
// one-pass walk or the gjson oracle walks the document beside the
// schema.
func TestShapeWalkAgrees(t *testing.T) {
	v, err := New()
	if err != nil {
		t.Fatal(err)
	}
	refused := 0
	agrees := func(t *rapid.T) {
		b := genDocument(t, v, 11)
		src := string(b)
		if rapid.Bool().Draw(t, "indent") {
			var spaced bytes.Buffer
			if err := json.Indent(&spaced, b, " ", "\t"); err != nil {
				t.Fatal(err)
			}
			src = spaced.String()
		}
		w := v.walkText(src)
		root := gjson.Parse(src)
		newer := &refiner{version: v.version, schema: v.root, src: src, outline: w.outline, accepted: w.ok,
			doc: rootIndex(src)}
		schemaRefinements(root, newer)
		older := &refiner{version: v.version, schema: v.root, src: src, doc: rootIndex(src)}
		if want, check := older.shapeChecks(root); want != nil {
			oracleWalkSchema(v.root, root, occkit.Root(), 0, func(n *node, v gjson.Result, at occkit.Path) {
				if v.IsObject() && n.props != nil && want(n) {
					check(n, v, at)
				}
			})
		}
		if got, want := fmt.Sprint(newer.issues), fmt.Sprint(older.issues); got != want {
			t.Fatalf("shape refinements of %s:\n%s\nthe oracle:\n%s", src, got, want)
		}
		if len(older.issues) > 0 {
			refused++
		}
	}
	// About one run of 100 draws in thirty reaches no refusal; more runs,
	// until one does, keep the coverage check from failing by chance.
	for run := 0; run == 0 || refused == 0 && run < 10; run++ {
		rapid.Check(t, agrees)
	}
	if refused == 0 {
		t.Error("no generated document was refused by a shape refinement")
	}
}

// genDocument draws a document: one that reaches a mirrored refinement,
// or one drawn from the schema (valid, or mutated).
func genDocument(t *rapid.T, v *Validator, stream uint64) []byte {
	rng := rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), stream))
	if rapid.Bool().Draw(t, "refinement") {
		return genRefinementCases(rng, 1)[0].build()
	}
	doc, _ := (&docGen{rng: rng}).next(v.root)
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
