package main

import (
	"fmt"
	"os"
	"slices"

	"github.com/occkit/occkit/compile"
	"github.com/occkit/occkit/internal/bench"
	"github.com/occkit/occkit/internal/bench/celpeer"
	"github.com/occkit/occkit/resolver/selection"
)

// measure is one number of the report: how to take it and what it must
// meet.
type measure struct {
	doc, name string
	n         int
	target    target
	take      func(pairing) float64
	// costs, when the measure is paired: the median cost of one call of
	// each side in the last take, in nanoseconds.
	costs *[2]float64
}

// fails records the first error of the operations a measure times; a
// measure whose operations failed is NaN, which meets no target.
type fails struct{ err error }

func (f *fails) op(fn func() error) func() {
	return func() {
		if err := fn(); err != nil && f.err == nil {
			f.err = err
		}
	}
}

func (f *fails) value(v float64) float64 {
	if f.err != nil {
		return nan()
	}
	return v
}

// paired is a measure of cost(a) / cost(b); it records the cost of each
// in costs.
func paired(a, b func() error, costs *[2]float64) func(pairing) float64 {
	return func(p pairing) float64 {
		var f fails
		r, ca, cb := p.costs(f.op(a), f.op(b))
		*costs = [2]float64{ca, cb}
		return f.value(r)
	}
}

// Targets (issue #29). The short run's regression limits are in
// limits.go.
var (
	tObjects   = target{limit: 1.5}
	tManifests = target{limit: 2.5}
	tUnit      = target{limit: 1.5}
	tPrepare   = target{limit: 0.5}
	tOneShot   = target{limit: 2, atLeast: true}
	tPrepared  = target{limit: 0.5, atLeast: true}
	tPeak      = target{limit: 4}
	tAllocs    = target{limit: 1}
	tScale     = target{limit: 11}
)

// peakChildren is how many child processes take the peak heap measure;
// the median reading is the measure. Each child's readings are those of
// one process's own runtime: one child in about ten reads a few KB over
// the others (indented at 40 models: eleven of twelve children read
// 18.4-20.0 KB and one 31.0 KB), a runtime allocation of its own that
// lived while a sample was taken. So a child's reading is judged beside
// two others, and one that is off either way is not the measure.
const peakChildren = 3

// measures lists every measure of the given documents and sizes,
// document by document and size by size, with the 10,000 / 1,000 scaling
// measure when both are among them; it checks first that every path
// admits each document, so that no measure times a refusal. peakSamples is how many samples the
// peak heap measure takes.
func measures(docs []bench.Document, sizes []int, peakSamples int) ([]measure, error) {
	u, err := newUser()
	if err != nil {
		return nil, err
	}
	cel, err := celpeer.Compile()
	if err != nil {
		return nil, err
	}
	var ms []measure
	for _, d := range docs {
		srcs := map[int][]byte{}
		for _, n := range sizes {
			src := d.Make(n)
			srcs[n] = src
			if err := u.mustAll(src); err != nil {
				return nil, fmt.Errorf("%s models=%d: %w", d.Name, n, err)
			}
			doc, err := compile.Load(src, compile.LoadOptions{})
			if err != nil {
				return nil, err
			}
			decisions := bench.Decisions(n)
			if err := sameDecisions(cel, src, decisions); err != nil {
				return nil, fmt.Errorf("%s models=%d: %w", d.Name, n, err)
			}
			plain, err := newPlainIndex(src)
			if err != nil {
				return nil, err
			}
			x := selection.Prepare(doc)
			reqs := make([]selection.Request, len(decisions))
			for i, q := range decisions {
				reqs[i] = request(q)
			}
			floorOp := func() error { _, err := floor(src); return err }
			add := func(name string, t target, take func(pairing) float64, costs *[2]float64) {
				ms = append(ms, measure{doc: d.Name, name: name, n: n, target: t, take: take, costs: costs})
			}
			pair := func(name string, t target, a, b func() error) {
				costs := new([2]float64)
				add(name, t, paired(a, b, costs), costs)
			}
			pair("objects/U", tObjects, func() error { _, err := u.objects(src); return err }, floorOp)
			pair("manifests/U", tManifests, func() error { _, err := u.manifests(src); return err }, floorOp)
			pair("ssh-unit/U", tUnit, func() error { _, err := u.unit(src); return err }, floorOp)
			pair("prepare/U", tPrepare, func() error { selection.Prepare(doc); return nil }, floorOp)
			var celNext, occNext int
			pair("one-shot cel-go/occkit", tOneShot, func() error {
				q := decisions[celNext%len(decisions)]
				celNext++
				_, err := cel.DecideBytes(src, q.Provider, q.Model, q.AgentID)
				return err
			}, func() error {
				q := decisions[occNext%len(decisions)]
				occNext++
				_, err := decideBytes(src, q)
				return err
			})
			pair("prepared plain-go/occkit", tPrepared, func() error {
				for _, q := range decisions {
					plain.decide(q.Provider, q.Model, q.AgentID)
				}
				return nil
			}, func() error {
				for _, r := range reqs {
					if _, err := x.Select(r, nil); err != nil {
						return err
					}
				}
				return nil
			})
			add("objects allocs/U", tAllocs, func(pairing) float64 {
				runs := max(1, 400/n)
				var f fails
				a := allocs(f.op(func() error { _, err := u.objects(src); return err }), runs)
				b := allocs(f.op(floorOp), runs)
				return f.value(a / b)
			}, nil)
			add("objects peak-heap/doc", tPeak, func(pairing) float64 {
				samples := peakSamples
				if n > 1_000 {
					// A run spans many collections: fewer samples
					// still fall at every place in it.
					samples /= 4
				}
				var peaks [peakChildren]uint64
				for i := range peaks {
					p, err := peakInChild(d.Name, n, samples)
					if err != nil {
						fmt.Fprintln(os.Stderr, "paired:", err)
						return nan()
					}
					peaks[i] = p
				}
				slices.Sort(peaks[:])
				return float64(peaks[peakChildren/2]) / float64(len(src))
			}, nil)
		}
		big, mid := srcs[10_000], srcs[1_000]
		if big == nil || mid == nil {
			continue
		}
		costs := new([2]float64)
		ms = append(ms, measure{doc: d.Name, name: "objects 10k/1k", n: 10_000, target: tScale, costs: costs,
			take: paired(func() error { _, err := u.objects(big); return err }, func() error { _, err := u.objects(mid); return err }, costs)})
	}
	return ms, nil
}

// sameDecisions checks that cel-go, the plain-Go index and occkit's
// one-shot decision choose the same runtime for every decision on src,
// so that the decision measures compare like with like.
func sameDecisions(cel *celpeer.Program, src []byte, ds []bench.Decision) error {
	plain, err := newPlainIndex(src)
	if err != nil {
		return err
	}
	for _, q := range ds {
		want, err := cel.DecideBytes(src, q.Provider, q.Model, q.AgentID)
		if err != nil {
			return err
		}
		got, err := decideBytes(src, q)
		if err != nil {
			return err
		}
		if got != want {
			return fmt.Errorf("%+v: occkit decides %s, cel-go %s", q, got, want)
		}
		if p := plain.decide(q.Provider, q.Model, q.AgentID); p != want {
			return fmt.Errorf("%+v: the plain-Go index decides %s, cel-go %s", q, p, want)
		}
	}
	return nil
}
