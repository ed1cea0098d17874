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
	flagN    = flag.Int("openclawdiff.n", 5000, "inputs per function and generator")
	flagSeed = flag.Uint64("openclawdiff.seed", 0, "generator seed (0: OCCKIT_OPENCLAWDIFF_SEED, else a fixed default)")
	flagGen  = flag.String("openclawdiff.gen", "gen,gen2", "generators to run, comma-separated: gen (NewGen), gen2 (NewGen2)")
	flagFn   = flag.String("openclawdiff.fn", "", "compared functions to ask OpenClaw about, comma-separated (empty: all); the inputs drawn stay the same")
	flagDump = flag.String("openclawdiff.dump", "", "file to write every disagreement outside the table to")
)

// wanted reports whether f is among the functions -openclawdiff.fn names.
func wanted(f Function) bool {
	if *flagFn == "" {
		return true
	}
	for _, name := range strings.Split(*flagFn, ",") {
		if Function(strings.TrimSpace(name)) == f {
			return true
		}
	}
	return false
}

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

// Generator draws the inputs of every compared function.
type Generator interface {
	RefCase() RefInput
	PolicyCase() PolicyInput
	SelectCase() SelectInput
	DoctorCase() DoctorInput
	LoadCase(dir string) (LoadInput, error)
}

func generators(sd uint64) (names []string, gens []Generator) {
	for _, name := range strings.Split(*flagGen, ",") {
		switch strings.TrimSpace(name) {
		case "gen":
			names, gens = append(names, "gen"), append(gens, NewGen(sd))
		case "gen2":
			// Another seed stream as well as another construction.
			names, gens = append(names, "gen2"), append(gens, NewGen2(sd^0x5bd1e995))
		}
	}
	return names, gens
}

// TestAgreeWithOpenClaw runs every compared function on the inputs of
// each generator and fails on any disagreement the divergence table does
// not recognise, and on any row absorbing more inputs than its bound.
func TestAgreeWithOpenClaw(t *testing.T) {
	o := oracle(t)
	n, sd := *flagN, seed()
	names, gens := generators(sd)
	if n <= 0 || len(gens) == 0 {
		// Nothing compared is nothing checked: never reported as ran.
		tiers.OpenClawDiff.Skip(t, fmt.Sprintf("%d inputs from %d generators: nothing to compare", n, len(gens)))
	}
	run := tiers.OpenClawDiff.Start(t)
	start := time.Now()
	defer func() {
		t.Logf("tier took %s wall, node %s CPU", time.Since(start).Round(time.Second), o.CPU().Round(time.Second))
	}()
	checked := 0
	var dump []string
	for i, g := range gens {
		t.Logf("%s: seed %d, %d inputs per function", names[i], sd, n)
		tallies := compareAll(t, o, g, n)
		for _, f := range Functions() {
			tl := tallies[f]
			if tl.N == 0 {
				continue
			}
			checked += tl.N
			t.Logf("%s %s: %s", names[i], f, tl)
			if tl.Unlisted > 0 {
				t.Errorf("%s %s: %d disagreements outside the divergence table; first ones:", names[i], f, tl.Unlisted)
				for j, e := range tl.Examples {
					if j < 5 {
						t.Errorf("  %s", e)
					}
					dump = append(dump, fmt.Sprintf("%s %s\n%s\n", names[i], f, e))
				}
			}
			for _, d := range Table {
				if d.Fn != f || tl.N == 0 {
					continue
				}
				if share := float64(tl.Classes[d.Class]) / float64(tl.N); share > d.Bound {
					t.Errorf("%s %s: row %s absorbs %.2f%% of the inputs, more than its bound %g%%", names[i], f, d.Class, 100*share, 100*d.Bound)
				}
			}
		}
	}
	if *flagDump != "" {
		if err := os.WriteFile(*flagDump, []byte(strings.Join(dump, "")), 0o644); err != nil {
			t.Error(err)
		}
	}
	run.Done(checked)
}

// compareAll draws n inputs per function from g, asks the oracle (again
// with variants for the inputs that disagree) and tallies the outcomes.
func compareAll(t *testing.T, o *Oracle, g Generator, n int) map[Function]*Tally {
	var items []any
	var ps []pending
	// Every input is drawn, so a function left out changes no other
	// function's inputs; only the wanted ones are asked.
	add := func(item any, p pending) {
		if wanted(p.fn) {
			items = append(items, item)
			ps = append(ps, p)
		}
	}

	for i := 0; i < n; i++ {
		in := g.RefCase()
		item, strict, lenient := RefItem(in)
		if wanted(FnRefStrict) || wanted(FnRefLenient) {
			items = append(items, item)
			ps = append(ps, pending{fn: FnRefStrict, input: in, occ: strict},
				pending{fn: FnRefLenient, input: in, occ: lenient}) // same oracle item
		}
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
	// Ask again, with the variants the rows need, for the inputs that
	// disagree.
	var again []int
	var more []any
	for i, ai := 0, 0; i < len(ps); i, ai = i+1, ai+1 {
		p := ps[i]
		item, _ := items[ai].(map[string]any)
		switch p.fn {
		case FnRefStrict:
			i++
		case FnPolicy:
			if a, err := DecodePolicy(answers[ai]); err == nil && a.R != p.occ.(PolicyOut) {
				again, more = append(again, ai), append(more, withField(item, "variants", PolicyVariants(p.input.(PolicyInput))))
			}
		case FnSelect:
			if a, err := DecodeSelect(answers[ai]); err == nil && !a.R.Same(p.occ.(SelectOut)) {
				again, more = append(again, ai), append(more, withField(item, "variants", SelectVariants(p.input.(SelectInput))))
			}
		case FnDoctor:
			occ := p.occ.(DoctorOut)
			if a, err := DecodeDoctor(answers[ai], p.input.(DoctorInput), occ); err == nil && a.DoctorOut != occ {
				again, more = append(again, ai), append(more, DoctorItemVariants(item, p.input.(DoctorInput)))
			}
		}
	}
	if len(more) > 0 {
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
		if *flagDump != "" {
			tallies[f].MaxSample = n
		}
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
				return fmt.Sprintf("%v config=%s: occkit %v, openclaw %v (id %q, variants %v)", p.input, cfg, p.occ, a.R, a.ID, a.Variants)
			})
		case FnSelect:
			a, err := DecodeSelect(raw)
			if err != nil {
				t.Fatal(err)
			}
			c := Case{Fn: FnSelect, Input: p.input, Occ: p.occ, Claw: a}
			o := p.occ.(SelectOut)
			record(tallies[FnSelect], c, o.Same(a.R), func() string {
				in := p.input.(SelectInput)
				cfg, _ := json.Marshal(in.Config)
				hs, _ := json.Marshal(in.Harnesses)
				return fmt.Sprintf("%v locked=%q override=%q harnesses=%s config=%s: occkit %v, openclaw %v (%s %s; variants %v)",
					in.PolicyInput, in.LockedOwner, in.Override, hs, cfg, o, a.R, a.Reason, a.Msg, a.Variants)
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
			a, err := DecodeDoctor(raw, p.input.(DoctorInput), p.occ.(DoctorOut))
			if err != nil {
				t.Fatal(err)
			}
			c := Case{Fn: FnDoctor, Input: p.input, Occ: p.occ, Claw: a}
			record(tallies[FnDoctor], c, p.occ.(DoctorOut) == a.DoctorOut, func() string {
				cfg, _ := json.Marshal(p.input.(DoctorInput).Config)
				return fmt.Sprintf("config=%s\n    occkit   %v\n    openclaw %v\n    variants %v", cfg, p.occ, a.DoctorOut, a.Variants)
			})
		}
		ai++
	}
	t.Logf("config.load: %d trees with an env section loaded alike on both sides", envLoaded)
	return tallies
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
