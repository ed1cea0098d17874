package occkit_test

import (
	"encoding/json"
	"math/rand"
	"testing"

	"pgregory.net/rapid"

	"github.com/occkit/occkit"
)

func TestDocumentEditsKeepOtherBytes(t *testing.T) {
	src := `{"b":{"y":2,"x":1},"a":[1,{"k":"v"}],"u":"\u00e9"}`
	doc := occkit.MustParseDocument(src)
	next, err := doc.Set(occkit.NewPath("b", "z"), 3)
	if err != nil {
		t.Fatal(err)
	}
	if doc.String() != src {
		t.Fatalf("Set mutated its receiver: %s", doc)
	}
	if want := `{"b":{"y":2,"x":1,"z":3},"a":[1,{"k":"v"}],"u":"\u00e9"}`; next.String() != want {
		t.Fatalf("Set = %s, want %s", next, want)
	}
	del, _ := next.Delete(occkit.NewPath("a").Index(1).Key("k"))
	if want := `{"b":{"y":2,"x":1,"z":3},"a":[1,{}],"u":"\u00e9"}`; del.String() != want {
		t.Fatalf("Delete = %s", del)
	}
	same, _ := doc.Delete(occkit.NewPath("nope"))
	if !same.Equal(doc) {
		t.Fatal("deleting an absent value changed the document")
	}
	if _, err := occkit.ParseDocument([]byte(`{"a":`)); err == nil {
		t.Fatal("invalid JSON accepted")
	}
	if (occkit.Document{}).String() != "{}" {
		t.Fatal("zero Document is not {}")
	}
}

// Key order never changes the canonical bytes, and canonical bytes parse to
// the same value.
func TestCanonicalProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 8).Draw(t, "n")
		keys := make([]string, n)
		vals := make([]int, n)
		for i := range keys {
			keys[i] = rapid.StringMatching(`[a-z]{0,3}`).Draw(t, "k")
			vals[i] = rapid.IntRange(-5, 5).Draw(t, "v")
		}
		uniq := map[string]int{}
		for i, k := range keys {
			uniq[k] = vals[i]
		}
		order := make([]string, 0, len(uniq))
		for k := range uniq {
			order = append(order, k)
		}
		build := func(order []string) occkit.Document {
			b := []byte("{")
			for i, k := range order {
				if i > 0 {
					b = append(b, ',')
				}
				kb, _ := json.Marshal(k)
				vb, _ := json.Marshal(map[string]any{"v": uniq[k], "w": []int{uniq[k]}})
				b = append(append(append(b, kb...), ':'), vb...)
			}
			return occkit.MustParseDocument(string(append(b, '}')))
		}
		a := build(order)
		r := rand.New(rand.NewSource(rapid.Int64().Draw(t, "seed")))
		r.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		b := build(order)
		if string(occkit.Canonical(a)) != string(occkit.Canonical(b)) {
			t.Fatalf("canonical differs:\n%s\n%s", occkit.Canonical(a), occkit.Canonical(b))
		}
		var x, y any
		_ = json.Unmarshal(a.Bytes(), &x)
		_ = json.Unmarshal(occkit.Canonical(a), &y)
		xb, _ := json.Marshal(x)
		yb, _ := json.Marshal(y)
		if string(xb) != string(yb) {
			t.Fatalf("canonical changed the value")
		}
	})
}

// TestDocumentRootDoesNotCopy: Root and Get(Root()) read the document's
// own bytes; resolution calls them per admission, and a copy of a large
// Configuration each time was a fifth of its allocated bytes.
func TestDocumentRootDoesNotCopy(t *testing.T) {
	d := occkit.MustParseDocument(`{"agents":{"defaults":{"model":"openai/gpt-5"}}}`)
	model := occkit.NewPath("agents", "defaults", "model")
	if n := testing.AllocsPerRun(100, func() {
		if d.Root().Key("agents").Key("defaults").Key("model").String() != "openai/gpt-5" {
			t.Fatal("wrong value")
		}
		if len(d.Get(occkit.Root()).Raw()) != len(d.String()) || len(d.String()) == 0 {
			t.Fatal("wrong root")
		}
	}); n != 0 {
		t.Errorf("Root allocates %v times per call, want 0", n)
	}
	// Edits build new bytes: a Value taken before an edit keeps its value.
	before := d.Get(model)
	if _, err := d.Set(model, "openai/gpt-4o"); err != nil {
		t.Fatal(err)
	}
	if before.String() != "openai/gpt-5" || d.Get(model).String() != "openai/gpt-5" {
		t.Errorf("an edit changed the original document")
	}
}
