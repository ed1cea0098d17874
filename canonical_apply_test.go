package occkit

import (
	"bytes"
	"encoding/json"
	"testing"

	"pgregory.net/rapid"
)

// TestCanonicalApplyMatchesTheLongWay holds CanonicalApply to its
// definition, CanonicalDocument of Apply, over random documents and edits
// (of root members and deeper, through array indexes, of keys sjson reads
// specially, with values compact, indented or not JSON): the same bytes
// and root index, or the same error. About two draws in five take the
// one-pass way; the test fails if fewer than one in five do, so that it
// cannot pass vacuously.
func TestCanonicalApplyMatchesTheLongWay(t *testing.T) {
	var draws, fast int
	rapid.Check(t, func(t *rapid.T) {
		d := genCarryDocument(t)
		if rapid.Bool().Draw(t, "look") {
			d.Get(Root().Key(rapid.SampledFrom(carryKeys).Draw(t, "look at")))
		}
		var edits []Edit
		for n := rapid.IntRange(1, 5).Draw(t, "edits"); n > 0; n-- {
			e := Edit{Path: genCarryPath(t), Delete: rapid.IntRange(0, 3).Draw(t, "delete") == 0}
			if !e.Delete {
				e.Raw = []byte(genDocument(t).String())
				switch rapid.IntRange(0, 9).Draw(t, "raw") {
				case 0:
					var buf bytes.Buffer
					_ = json.Indent(&buf, e.Raw, "", "  ")
					e.Raw = buf.Bytes()
				case 1:
					e.Raw = []byte(`{"unclosed":`)
				}
			}
			edits = append(edits, e)
		}
		got, err, want, werr := bothWays(t, d, edits)
		draws++
		if over, ok, _ := rootOverrides(d, edits); ok {
			if _, _, _, ok := canonicalWith(d, over); ok {
				fast++
			}
		}
		sameResult(t, d, edits, got, err, want, werr)
	})
	t.Logf("%d of %d draws took the one-pass way", fast, draws)
	if draws > 0 && fast*5 < draws {
		t.Fatalf("only %d of %d draws took the one-pass way", fast, draws)
	}
}

// TestCanonicalApplyRepeatedKey: a root that names an edited member twice
// (which ParseDocument refuses, but a Document made inside the package
// could hold) goes the long way, whatever the edit.
func TestCanonicalApplyRepeatedKey(t *testing.T) {
	d := newDocument([]byte(`{"logging":{"level":"x"},"b":1,"logging":2}`))
	edits := []Edit{{Path: NewPath("logging", "level"), Raw: []byte(`"info"`)}}
	if got, err, want, werr := bothWays(t, d, edits); !sameOutcome(got, err, want, werr) {
		t.Fatalf("got %s (%v), want %s (%v)", got, err, want, werr)
	}
	if over, ok, _ := rootOverrides(d, edits); ok {
		if _, _, _, ok := canonicalWith(d, over); ok {
			t.Fatal("canonicalWith took a root that names logging twice")
		}
	}
}

// TestCanonicalApplyRootEdit: an edit of the root itself (which
// rootOverrides read as a root member, and so panicked) goes the long
// way, alone or after edits of root members.
func TestCanonicalApplyRootEdit(t *testing.T) {
	d := newDocument([]byte(`{"logging":{"level":"x"},"b":1}`))
	for _, edits := range [][]Edit{
		{{Path: Root(), Raw: []byte(`{"z":1,"a":2}`)}},
		{{Path: NewPath("logging", "level"), Raw: []byte(`"info"`)}, {Path: Root(), Raw: []byte(`[1]`)}},
		{{Path: Root(), Delete: true}},
	} {
		if got, err, want, werr := bothWays(t, d, edits); !sameOutcome(got, err, want, werr) {
			t.Errorf("%v: got %s (%v), want %s (%v)", edits, got, err, want, werr)
		}
	}
}
