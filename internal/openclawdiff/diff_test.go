package openclawdiff

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/occkit/occkit/internal/tiers"
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
		if errors.Is(err, ErrNotInstalled) {
			tiers.OpenClawDiff.Skip(t, err.Error()+"; set it to run the differential tier against the real OpenClaw")
		}
		t.Fatal(err)
	}
	return o
}

// pending is one compared input waiting for its oracle answer.
type pending struct {
	fn    Function
	input any
	occ   any
}

// TestAgreeWithOpenClaw runs every compared function on its generated
// inputs, in one node process, and fails on any disagreement the
// divergence table does not recognise.
func TestAgreeWithOpenClaw(t *testing.T) {
	o := oracle(t)
	run := tiers.OpenClawDiff.Start(t)
	n, sd := *flagN, seed()
	t.Logf("seed %d, %d inputs per function", sd, n)
	start := time.Now()
	defer func() {
		t.Logf("tier took %s wall, node %s CPU", time.Since(start).Round(time.Second), o.CPU().Round(time.Second))
	}()
	g := NewGen(sd)
	var items []any
	var ps []pending
	add := func(item any, p pending) { items = append(items, item); ps = append(ps, p) }

	for i := 0; i < n; i++ {
		in := g.RefCase()
		item, strict, lenient := RefItem(in)
		add(item, pending{fn: FnRefStrict, input: in, occ: strict})
		ps = append(ps, pending{fn: FnRefLenient, input: in, occ: lenient}) // same oracle item
	}
	for i := 0; i < n; i++ {
		in := g.PolicyCase()
		item, occ, err := PolicyItem(in)
		if err != nil {
			t.Fatal(err)
		}
		add(item, pending{fn: FnPolicy, input: in, occ: occ})
	}

	for i := 0; i < n; i++ {
		in := g.SelectCase()
		item, occ, err := SelectItem(in)
		if err != nil {
			t.Fatal(err)
		}
		add(item, pending{fn: FnSelect, input: in, occ: occ})
	}

	for i := 0; i < n; i++ {
		in := g.DoctorCase()
		item, occ, err := DoctorItem(in)
		if err != nil {
			t.Fatal(err)
		}
		add(item, pending{fn: FnDoctor, input: in, occ: occ})
	}

	loadDir := t.TempDir()
	for i := 0; i < n; i++ {
		in, err := g.LoadCase(fmt.Sprintf("%s/%d", loadDir, i))
		if err != nil {
			t.Fatal(err)
		}
		item, occ := LoadItem(in)
		add(item, pending{fn: FnLoad, input: in, occ: occ})
	}

	// The node side gets what is left of the test's own deadline.
	deadline, ok := t.Deadline()
	if !ok {
		deadline = time.Now().Add(30 * time.Minute)
	}
	ctx, cancel := context.WithDeadline(context.Background(), deadline.Add(-30*time.Second))
	defer cancel()
	answers, err := o.Run(ctx, items)
	if err != nil {
		t.Fatal(err)
	}
	// Ask again, with permuted key orders, for the policy and selection
	// inputs that disagree: the key-order class needs them.
	var again []int
	for i, ai := 0, 0; i < len(ps); i, ai = i+1, ai+1 {
		switch ps[i].fn {
		case FnRefStrict:
			i++
		case FnPolicy:
			if a, err := DecodePolicy(answers[ai]); err == nil && a.R != ps[i].occ.(PolicyOut) {
				again = append(again, ai)
			}
		case FnSelect:
			o := ps[i].occ.(SelectOut)
			if a, err := DecodeSelect(answers[ai]); err == nil && (a.R.Runtime != o.Runtime || a.R.Err != o.Err) {
				again = append(again, ai)
			}
		}
	}
	// Doctor: ask for the variants that may explain a difference, the
	// cheap ones first.
	for stage := 0; stage < 2; stage++ {
		var idx []int
		var more []any
		for i, ai := 0, 0; i < len(ps); i, ai = i+1, ai+1 {
			switch ps[i].fn {
			case FnRefStrict:
				i++
			case FnDoctor:
				occ := ps[i].occ.(DoctorOut)
				if a, err := DecodeDoctor(answers[ai], occ); err == nil && a.DoctorOut != occ && a.Explained == nil {
					idx = append(idx, ai)
					more = append(more, DoctorItemVariants(items[ai], stage))
				}
			}
		}
		if len(more) == 0 {
			break
		}
		res, err := o.Run(ctx, more)
		if err != nil {
			t.Fatal(err)
		}
		for j, ai := range idx {
			answers[ai] = res[j]
		}
	}
	if len(again) > 0 {
		more := make([]any, len(again))
		for j, ai := range again {
			item := items[ai].(map[string]any)
			if item["op"] != "doctor" {
				item["perm"] = true
			}
			more[j] = item
		}
		res, err := o.Run(ctx, more)
		if err != nil {
			t.Fatal(err)
		}
		for j, ai := range again {
			answers[ai] = res[j]
		}
	}
	tallies := map[Function]*Tally{}
	for _, f := range Functions() {
		tallies[f] = &Tally{MaxSample: 5}
	}
	ai, envLoaded := 0, 0
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
		case FnSelect:
			a, err := DecodeSelect(raw)
			if err != nil {
				t.Fatal(err)
			}
			c := Case{Fn: FnSelect, Input: p.input, Occ: p.occ, Claw: a}
			o := p.occ.(SelectOut)
			record(tallies[FnSelect], c, o.Runtime == a.R.Runtime && o.Err == a.R.Err, func() string {
				in := p.input.(SelectInput)
				cfg, _ := json.Marshal(in.Config)
				hs, _ := json.Marshal(in.Harnesses)
				return fmt.Sprintf("%v locked=%q override=%q harnesses=%s config=%s: occkit %v, openclaw %v (%s %s)",
					in.PolicyInput, in.LockedOwner, in.Override, hs, cfg, o, a.R, a.Reason, a.Msg)
			})
		case FnLoad:
			a, err := DecodeLoad(raw)
			if err != nil {
				t.Fatal(err)
			}
			c := Case{Fn: FnLoad, Input: p.input, Occ: p.occ, Claw: a}
			o := p.occ.(LoadOut)
			if p.input.(LoadInput).EnvSection && !o.Err && !a.Err && o.JSON == a.JSON {
				envLoaded++
			}
			record(tallies[FnLoad], c, o.Err == a.Err && o.JSON == a.JSON, func() string {
				in := p.input.(LoadInput)
				return fmt.Sprintf("%s env=%v:\n%s\n    occkit   %v\n    openclaw %v %v %s", in.Main, in.Env, dumpTree(in.Dir), o, a.LoadOut, a.Missing, a.Msg)
			})
		case FnDoctor:
			a, err := DecodeDoctor(raw, p.occ.(DoctorOut))
			if err != nil {
				t.Fatal(err)
			}
			c := Case{Fn: FnDoctor, Input: p.input, Occ: p.occ, Claw: a}
			record(tallies[FnDoctor], c, p.occ.(DoctorOut) == a.DoctorOut, func() string {
				cfg, _ := json.Marshal(p.input.(DoctorInput).Config)
				return fmt.Sprintf("config=%s\n    occkit   %v\n    openclaw %v", cfg, p.occ, a.DoctorOut)
			})
		}
		ai++
	}
	t.Logf("config.load: %d trees with an env section loaded alike on both sides", envLoaded)
	for _, f := range Functions() {
		tl := tallies[f]
		run.Done(tl.N)
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

func dumpTree(dir string) string {
	var b strings.Builder
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			text, _ := os.ReadFile(p)
			fmt.Fprintf(&b, "    --- %s\n%s\n", strings.TrimPrefix(p, dir), text)
		}
		return nil
	})
	return b.String()
}
