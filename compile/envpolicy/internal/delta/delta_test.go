package delta

import (
	"encoding/json"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// tree draws data as gen.mjs writes it: objects (none empty) of strings,
// sorted lists of distinct strings and objects, over a small alphabet of
// keys and strings so that two drawn trees share members.
func tree(depth int) *rapid.Generator[map[string]any] {
	return rapid.Custom(func(t *rapid.T) map[string]any {
		n := rapid.IntRange(1, 4).Draw(t, "members")
		out := map[string]any{}
		for len(out) < n {
			k := rapid.SampledFrom([]string{"a", "b", "c", "d", "e", "f"}).Draw(t, "key")
			switch kind := rapid.IntRange(0, 2).Draw(t, "kind"); {
			case kind == 0:
				out[k] = rapid.SampledFrom([]string{"x", "y", ""}).Draw(t, "string")
			case kind == 1 || depth == 0:
				set := rapid.SliceOfDistinct(rapid.SampledFrom([]string{"P", "Q", "R", "S", "T"}), rapid.ID[string]).Draw(t, "list")
				sort.Strings(set)
				l := make([]any, len(set))
				for i, s := range set {
					l[i] = s
				}
				out[k] = l
			default:
				out[k] = tree(depth-1).Draw(t, "object")
			}
		}
		return out
	})
}

// Apply of Diff rebuilds the target, whatever the two trees.
func TestApplyDiffRoundTrip(t *testing.T) {
	diffed := 0
	rapid.Check(t, func(t *rapid.T) {
		base, target := tree(2).Draw(t, "base"), tree(2).Draw(t, "target")
		base["release"], target["release"] = "1.0.0", "0.9.0"
		b, _ := json.Marshal(base)
		tb, _ := json.Marshal(target)
		d, err := Diff(b, tb)
		if err != nil {
			// A member that is an object in one tree and a leaf in the
			// other is refused, never diffed wrongly.
			return
		}
		diffed++
		if d.Release != "0.9.0" || d.Base != "1.0.0" {
			t.Fatalf("delta of %q against %q", d.Release, d.Base)
		}
		got, err := d.Apply(b)
		if err != nil {
			t.Fatal(err)
		}
		var g, w any
		_ = json.Unmarshal(got, &g)
		_ = json.Unmarshal(tb, &w)
		if diff := cmp.Diff(w, g); diff != "" {
			t.Fatalf("rebuilt (-want +got):\n%s", diff)
		}
	})
	if diffed < 10 {
		t.Errorf("only %d of the drawn pairs were diffed", diffed)
	}
}

// A delta applied to another base than its own is refused, and so is data
// that is not a tree of sorted lists.
func TestRefuses(t *testing.T) {
	base := []byte(`{"release":"2","l":["a","b"]}`)
	d, err := Diff(base, []byte(`{"release":"1","l":["a"]}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Apply([]byte(`{"release":"3","l":["a","b"]}`)); err == nil {
		t.Error("a delta applied to another base")
	}
	for _, target := range []string{`{"release":"1","l":["b","a"]}`, `{"release":"1","l":["a","a"]}`, `{"release":"1","l":[1]}`,
		`{"release":"1","l":{"x":"y"}}`, `{"release":"1","n":1}`, `{"release":"1","o":{}}`} {
		if _, err := Diff(base, []byte(target)); err == nil {
			t.Errorf("Diff accepts %s", target)
		}
	}
}
