package resolver

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/internal/bench"
)

// preparedView is what a caller can read of a Prepared: its problems
// (code, rule, path, its document, message and suggestion, in order),
// the decision of a default request or its refusal, the roster's verdict
// and the selected models.
func preparedView(p *Prepared) string {
	out := ""
	problems := func(label string, err error) {
		for _, e := range occkit.Errors(err) {
			out += fmt.Sprintf("%s %s %s %s@%v %q %q\n", label, e.Code, e.Rule, e.Path, e.Path.Doc(), e.Detail, e.Suggestion)
		}
	}
	problems("err", p.Err())
	d, err := p.Resolve(Request{})
	problems("resolve", err)
	out += fmt.Sprintf("decision %s %s %q %q\n", d.Harness, d.Mode, d.Primary, d.Fallbacks)
	for _, r := range d.Reasons {
		out += fmt.Sprintf("reason %s %s@%v %q %q\n", r.Rule, r.Path, r.Path.Doc(), r.Value, r.Note)
	}
	problems("roster", p.CheckRoster(RosterRequest{Stage: StageDeploy, Mode: occkit.ModeDedicated}))
	p.SelectedModels(func(m SelectedModel) bool {
		out += fmt.Sprintf("selected %v %v %s\n", m.Ref(), m.Primary(), m.Path())
		return true
	})
	return out
}

// TestRowsMarkedOnce: marking the provider rows a selected ref names
// while the ref is evaluated, and looking up in checkRows only the
// selections prepare did not evaluate (or every one, when two rows of a
// provider share an ID), prepares what looking up every selection's rows
// in checkRows does (rowsMarkedOnce false): the same problems, decision,
// reasons, roster verdict and selections, on drawn documents of every
// shape the rules read, on the property tests' configurations and on the
// benchmark documents. Both ways are taken: documents whose rows are
// marked only while evaluated, and documents with shared row IDs.
func TestRowsMarkedOnce(t *testing.T) {
	defer func() { rowsMarkedOnce = true }()
	var once, shared int
	check := func(t interface{ Fatalf(string, ...any) }, doc occkit.Document) {
		rowsMarkedOnce = false
		want := preparedView(Prepare(doc))
		rowsMarkedOnce = true
		got := preparedView(Prepare(doc))
		if d := cmp.Diff(want, got); d != "" {
			t.Fatalf("%s: rows marked once (+) differ from rows looked up in checkRows (-):\n%s", doc.String(), d)
		}
		x := buildIndex(doc)
		rows, dup := false, false
		for _, p := range x.provOrder {
			rows = rows || p.rows.len() > 0
			dup = dup || p.prevs != nil
		}
		switch {
		case dup:
			shared++
		case rows && x.defaults.ok:
			once++
		}
	}
	checkDrawnIndexes(t, func(t *rapid.T, doc occkit.Document) { check(t, doc) })
	for _, d := range append(bench.Documents, bench.Others...) {
		for _, n := range []int{1, 40} {
			doc, err := occkit.ParseDocument(d.Make(n))
			if err != nil {
				t.Fatal(err)
			}
			check(t, doc)
		}
	}
	for _, s := range []string{
		// A row for an entry's own primary, which differs from the
		// defaults' (not evaluated), and a row named twice.
		`{"agents":{"defaults":{"model":{"primary":"p/a","fallbacks":["p/b"]},"models":{"p/a":{}}},"entries":{"x":{"model":"p/c"}}},` +
			`"models":{"providers":{"p":{"agentRuntime":{"id":"openclaw"},"models":[{"id":"a"},{"id":"b"},{"id":"c"},{"id":"d"}]}}}}`,
		`{"agents":{"defaults":{"model":{"primary":"p/a","fallbacks":["p/b","p/a"]}}},` +
			`"models":{"providers":{"p":{"agentRuntime":{"id":"openclaw"},"models":[{"id":"a"},{"id":"p/a"},{"id":"b"}]}}}}`,
	} {
		check(t, occkit.MustParseDocument(s))
	}
	if once == 0 || shared == 0 {
		t.Errorf("%d documents whose rows are marked while evaluated, %d with shared row IDs: the test takes both", once, shared)
	}
}
