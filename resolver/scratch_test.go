package resolver

import (
	"fmt"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/internal/bench"
)

// answers is everything a Prepared answers, for the requests the
// scratch tests ask.
type answers struct {
	Err       []string
	Decisions []string
	Selected  []string
	Providers []bool
	Roster    []string
}

// problems spells err's problems: message, code, path and rule.
func problems(err error) []string {
	var out []string
	for _, m := range occkit.MatchersOf(err) {
		out = append(out, fmt.Sprintf("%+v", m))
	}
	if err != nil {
		out = append(out, err.Error())
	}
	return out
}

// answersOf asks p everything, for each request of reqs.
func answersOf(p *Prepared, reqs []Request) answers {
	a := answers{Err: problems(p.Err())}
	for _, req := range reqs {
		d, err := p.Resolve(req)
		a.Decisions = append(a.Decisions, fmt.Sprintf("%+v", d))
		a.Decisions = append(a.Decisions, problems(err)...)
		for _, stage := range []Stage{StageSave, StageDeploy} {
			err := p.CheckRoster(RosterRequest{Stage: stage, Compute: req.Compute, Mode: req.Mode})
			a.Roster = append(a.Roster, problems(err)...)
		}
	}
	p.SelectedModels(func(m SelectedModel) bool {
		a.Selected = append(a.Selected, fmt.Sprintf("%+v %v %s", m.Ref(), m.Primary(), m.Path()))
		return true
	})
	for _, name := range []string{"anthropic", "openai", "codex", "google", " anthropic", "Anthropic"} {
		a.Providers = append(a.Providers, p.ConfiguresProvider(name))
	}
	return a
}

// drawDoc draws a document of any of the index tests' kinds.
func drawDoc(t *rapid.T, label string) occkit.Document {
	switch rapid.IntRange(0, 3).Draw(t, label+"-kind") {
	case 0:
		return occkit.MustParseDocument(genIndexJSON(t, "root", 0))
	case 1:
		v, _ := genConfig(t)
		return testDoc(shuffle(t, v, label+"-shuffle"))
	case 2:
		return occkit.MustParseDocument(genCollisions(t))
	}
	d := rapid.SampledFrom(bench.Documents).Draw(t, label+"-bench")
	return occkit.MustParseDocument(string(d.Make(rapid.IntRange(1, 200).Draw(t, label+"-models"))))
}

// TestPrepareFromScratchMatchesFresh: Prepares that take their memory
// from one scratch in turn answer, each and every one of them after all
// have run, what a Prepare that allocates everything answers.
func TestPrepareFromScratchMatchesFresh(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 5).Draw(t, "documents")
		reqs := []Request{genRequest(t), genRequest(t)}
		scr := new(scratch)
		var docs []occkit.Document
		var kept []*Prepared
		for i := range n {
			doc := drawDoc(t, fmt.Sprint("doc", i))
			docs = append(docs, doc)
			p := prepareFrom(doc, scr)
			kept = append(kept, p)
			if d := cmp.Diff(answersOf(prepareFrom(doc, nil), reqs), answersOf(p, reqs)); d != "" {
				t.Fatalf("document %d: %s\n(-fresh +scratch):\n%s", i, doc.String(), d)
			}
		}
		for i, p := range kept {
			if d := cmp.Diff(answersOf(prepareFrom(docs[i], nil), reqs), answersOf(p, reqs)); d != "" {
				t.Fatalf("document %d after the others: %s\n(-fresh +scratch):\n%s", i, docs[i].String(), d)
			}
		}
	})
}

// TestPrepareConcurrent: Prepares running at once (sharing the scratch
// pool) answer what Prepares that allocate everything answer.
func TestPrepareConcurrent(t *testing.T) {
	var docs []occkit.Document
	for _, d := range bench.Documents {
		for _, n := range []int{1, 40, 300} {
			docs = append(docs, occkit.MustParseDocument(string(d.Make(n))))
		}
	}
	docs = append(docs, occkit.MustParseDocument(`{"agents":{"defaults":{"model":"anthropic/a","models":{"anthropic/a":{},"Anthropic/b":{}}}},"models":{"providers":{"anthropic":{"models":[{"id":"a"},{"id":"a"}]}}}}`))
	reqs := []Request{{}, {Compute: occkit.ComputeSSH}}
	want := make([]answers, len(docs))
	for i, doc := range docs {
		want[i] = answersOf(prepareFrom(doc, nil), reqs)
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := range 20 {
				i := (g + r) % len(docs)
				if d := cmp.Diff(want[i], answersOf(Prepare(docs[i]), reqs)); d != "" {
					t.Errorf("document %d (-fresh +pooled):\n%s", i, d)
					return
				}
			}
		}()
	}
	wg.Wait()
}
