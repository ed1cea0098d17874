package openclawdiff

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"
)

var (
	flagN    = flag.Int("openclawdiff.n", 10000, "inputs per function")
	flagSeed = flag.Uint64("openclawdiff.seed", 0, "generator seed (0: OCCKIT_OPENCLAWDIFF_SEED, else a fixed default)")
)

func seed() uint64 {
	if *flagSeed != 0 {
		return *flagSeed
	}
	if s, err := strconv.ParseUint(os.Getenv("OCCKIT_OPENCLAWDIFF_SEED"), 10, 64); err == nil && s != 0 {
		return s
	}
	return 20260906
}

func oracle(t *testing.T) *Oracle {
	t.Helper()
	o, err := Find(t.TempDir())
	if err != nil {
		if errors.Is(err, ErrNotInstalled) && os.Getenv(EnvRequire) != "1" {
			t.Skip(err.Error() + "; set it to run the differential tier against the real OpenClaw")
		}
		t.Fatal(err)
	}
	return o
}

// pending is one compared input waiting for its oracle answer.
type pending struct {
	fn      Function
	input   any
	occ     any
	decide  func(raw json.RawMessage) (agree bool, c Case, err error)
	explain func(c Case) string
}

// TestAgreeWithOpenClaw runs every compared function on its generated
// inputs, in one node process, and fails on any disagreement the
// divergence table does not recognise.
func TestAgreeWithOpenClaw(t *testing.T) {
	o := oracle(t)
	n, sd := *flagN, seed()
	t.Logf("seed %d, %d inputs per function", sd, n)
	g := NewGen(sd)
	var items []any
	var ps []pending
	add := func(item any, p pending) { items = append(items, item); ps = append(ps, p) }

	for i := 0; i < n; i++ {
		in := g.RefCase()
		item, strict, lenient := RefItem(in)
		add(item, pending{fn: FnRefStrict, input: in, occ: strict})
		ps = append(ps, pending{fn: FnRefLenient, input: in, occ: lenient, decide: nil})
	}
	for i := 0; i < n; i++ {
		in := g.PolicyCase()
		item, occ, err := PolicyItem(in)
		if err != nil {
			t.Fatal(err)
		}
		add(item, pending{fn: FnPolicy, input: in, occ: occ})
	}

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	answers, err := o.Run(ctx, items)
	if err != nil {
		t.Fatal(err)
	}
	tallies := map[Function]*Tally{}
	for _, f := range Functions() {
		tallies[f] = &Tally{MaxSample: 5}
	}
	ai := 0
	for i := 0; i < len(ps); i++ {
		p := ps[i]
		raw := answers[ai]
		switch p.fn {
		case FnRefStrict:
			a, err := DecodeRef(raw)
			if err != nil {
				t.Fatal(err)
			}
			c := Case{Fn: FnRefStrict, Input: p.input, Occ: p.occ, Claw: a}
			record(tallies[FnRefStrict], c, p.occ.(RefOut) == a.Strict, func() string {
				return fmt.Sprintf("%+v: occkit %v, openclaw %v", p.input, p.occ, a.Strict)
			})
			l := ps[i+1]
			c = Case{Fn: FnRefLenient, Input: l.input, Occ: l.occ, Claw: a}
			record(tallies[FnRefLenient], c, l.occ.(RefOut) == a.Lenient, func() string {
				return fmt.Sprintf("%+v: occkit %v, openclaw %v", l.input, l.occ, a.Lenient)
			})
			i++
		case FnPolicy:
			a, err := DecodePolicy(raw)
			if err != nil {
				t.Fatal(err)
			}
			c := Case{Fn: FnPolicy, Input: p.input, Occ: p.occ, Claw: a}
			record(tallies[FnPolicy], c, p.occ.(PolicyOut) == a.R, func() string {
				cfg, _ := json.Marshal(p.input.(PolicyInput).Config)
				return fmt.Sprintf("%v config=%s: occkit %v, openclaw %v (asc %v, desc %v)", p.input, cfg, p.occ, a.R, a.Asc, a.Desc)
			})
		}
		ai++
	}
	for _, f := range Functions() {
		tl := tallies[f]
		if tl.N == 0 {
			continue
		}
		t.Logf("%s: %s", f, tl)
		if tl.Unlisted > 0 {
			t.Errorf("%s: %d disagreements outside the divergence table; first ones:", f, tl.Unlisted)
			for _, e := range tl.Examples {
				t.Errorf("  %s", e)
			}
		}
	}
}

func record(t *Tally, c Case, agree bool, example func() string) {
	var d *Divergence
	if !agree {
		d = Classify(Table, c)
	}
	t.Add(agree, d, example)
}
