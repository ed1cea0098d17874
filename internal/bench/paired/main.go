// Command paired measures the user's path through occkit as paired
// ratios against U, one encoding/json Unmarshal of the same bytes into a
// map[string]any, and checks them against their targets (see doc.go).
//
//	go run ./internal/bench/paired          # the full run of .ci/bench
//	go run ./internal/bench/paired -short   # the short run of .ci/run
//
// It exits 1 when a target is missed or a measure could not be taken.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/occkit/occkit/internal/bench"
)

func main() {
	short := flag.Bool("short", false, "the short run: fewer, shorter rounds and limits with a margin for a noisy machine")
	only := flag.String("only", "", "run only the measures whose name contains this")
	limits := flag.Bool("limits", false, "take each measure three times and print the regression limits of the medians (limits.go)")
	wall := flag.Bool("wall", false, "time with the wall clock instead of the process's CPU time")
	gc := flag.Bool("gc", false, "leave the collector on while a batch runs (the short run turns it off)")
	peakOf := flag.String(peakChildFlag, "", "take one peak heap measure, doc:models:samples, and print it (the child process of the peak measure)")
	others := flag.Bool("others", false, "measure the documents of other shapes (bench.Others) at 40 and 1,000 models against the targets (with -short, in the short run's way): a report, not a gate")
	flag.Parse()
	if *peakOf != "" {
		if err := peakChild(*peakOf); err != nil {
			fmt.Fprintln(os.Stderr, "paired:", err)
			os.Exit(1)
		}
		return
	}
	cfg := full
	if *short {
		cfg = quick
	}
	if *others {
		if *limits {
			fmt.Fprintln(os.Stderr, "paired: -others takes no limits: they are set for bench.Documents")
			os.Exit(2)
		}
		// With -short, in the short run's way (the collector off while
		// a batch runs, each side's least cost) but against the targets:
		// the short run's limits are those of bench.Documents.
		cfg.docs, cfg.sizes = bench.Others, bench.Sizes[:2]
	}
	cfg.wall, cfg.printLimits = *wall, *limits
	if *gc {
		cfg.quiet = false
	}
	if *limits {
		cfg.retakes = 2
	}
	ok, err := run(os.Stdout, cfg, *only)
	if err != nil {
		fmt.Fprintln(os.Stderr, "paired:", err)
		os.Exit(1)
	}
	if !ok {
		os.Exit(1)
	}
}

// config is one kind of run.
type config struct {
	name   string
	rounds int
	batch  time.Duration
	// limit picks the limit a measure is judged against: its target in
	// the full run, its regression limit in the short one.
	limit func(measure) float64
	// wall: time with the wall clock, not the process's CPU time.
	wall bool
	// quiet: the collector is off while a batch runs (pairing.quiet).
	quiet bool
	// docs are the documents measured, sizes the catalog sizes;
	// peakSamples the samples of each peak heap measure
	// (bench.PeakSampled).
	docs        []bench.Document
	sizes       []int
	peakSamples int
	// least: pair by each side's least cost (pairing.least).
	least bool
	// retakes is how many more times a measure that missed its limit is
	// taken; it is then judged by the median of all its takes.
	retakes int
	// printLimits: take each measure three times and end with the
	// regression limits of the medians, as limits.go writes them.
	printLimits bool
}

var (
	full = config{name: "full", rounds: 21, batch: 40 * time.Millisecond, docs: bench.Documents, sizes: bench.Sizes, peakSamples: 600,
		limit: func(m measure) float64 { return m.target.limit }}
	quick = config{name: "short", rounds: 7, batch: 15 * time.Millisecond, docs: bench.Documents, sizes: bench.Sizes[:2], peakSamples: 200,
		least: true, quiet: true, retakes: 4, limit: regressionLimit}
)

// target is what a measure must meet in the full run; atLeast turns "at
// most" into "at least". The short run judges by the measure's
// regression limit (limits.go).
type target struct {
	limit   float64
	atLeast bool
}

func (t target) met(v, limit float64) bool {
	if v != v { // NaN: not measured
		return false
	}
	if t.atLeast {
		return v >= limit
	}
	return v <= limit
}

func (t target) String() string {
	if t.atLeast {
		return ">="
	}
	return "<="
}

// result is one judged measure.
type result struct {
	doc, name string
	n         int
	value     float64
	op        string
	limit     float64
	pass      bool
}

// duration prints nanoseconds as benchstat does: three significant
// digits and a unit.
func duration(ns float64) string {
	switch {
	case ns >= 1e9:
		return fmt.Sprintf("%.3gs", ns/1e9)
	case ns >= 1e6:
		return fmt.Sprintf("%.3gms", ns/1e6)
	case ns >= 1e3:
		return fmt.Sprintf("%.3gµs", ns/1e3)
	}
	return fmt.Sprintf("%.3gns", ns)
}

// judged takes a measure and, when it misses its limit (met is false),
// retakes more times: the value is the median of all the takes, so that
// one slow spell of a shared machine fails nothing while a path that
// really regressed misses in most takes. It returns the takes too.
func judged(take func() float64, met func(float64) bool, retakes int) (float64, []float64) {
	takes := []float64{take()}
	if met(takes[0]) {
		return takes[0], takes
	}
	for i := 0; i < retakes; i++ {
		takes = append(takes, take())
	}
	return median(takes), takes
}

// run takes every measure of cfg and prints one line per measure; it
// reports whether all of them met their limits.
func run(w io.Writer, cfg config, only string) (bool, error) {
	load, _ := os.ReadFile("/proc/loadavg")
	start := time.Now()
	p := pairing{now: wallClock(), rounds: cfg.rounds, batch: cfg.batch, gc: runtime.GC, least: cfg.least, quiet: cfg.quiet}
	clockName := "wall time"
	if c, ok := cpuClock(); ok && !cfg.wall {
		p.now, clockName = c, "process CPU time"
	}
	fmt.Fprintf(w, "paired %s run: %d rounds of %v batches of %s, GOMAXPROCS=%d, load %s\n",
		cfg.name, cfg.rounds, cfg.batch, clockName, runtime.GOMAXPROCS(0), strings.Join(strings.Fields(string(load))[:min(3, len(strings.Fields(string(load))))], " "))
	ms, err := measures(cfg.docs, cfg.sizes, cfg.peakSamples)
	if err != nil {
		return false, err
	}
	var results []result
	for _, m := range ms {
		if only != "" && !strings.Contains(key(m.doc, m.n, m.name), only) {
			continue
		}
		limit := cfg.limit(m)
		take := func() float64 { return m.take(p) }
		met := func(v float64) bool { return m.target.met(v, limit) }
		if cfg.printLimits {
			// A limit is set from the median of three takes: every
			// take misses "never met".
			met = func(float64) bool { return false }
		}
		v, takes := judged(take, met, cfg.retakes)
		r := result{doc: m.doc, name: m.name, n: m.n, value: v, op: m.target.String(), limit: limit, pass: m.target.met(v, limit)}
		results = append(results, r)
		verdict := "PASS"
		if !r.pass {
			verdict = "FAIL"
		}
		costs := ""
		if m.costs != nil {
			costs = fmt.Sprintf("  [%s vs %s]", duration(m.costs[0]), duration(m.costs[1]))
		}
		if len(takes) > 1 {
			costs += fmt.Sprintf("  (median of takes %.3g)", takes)
		}
		fmt.Fprintf(w, "%-9s models=%-6d %-28s %8.2f  (target %s %.2f)  %s%s\n", r.doc, r.n, r.name, r.value, r.op, r.limit, verdict, costs)
	}
	if cfg.printLimits {
		fmt.Fprintln(w, "var regressionLimits = map[string]float64{")
		for _, r := range results {
			fmt.Fprintf(w, "\t%q: %.3g,\n", key(r.doc, r.n, r.name), regressionOf(r.value, r.op == ">="))
		}
		fmt.Fprintln(w, "}")
	}
	failed := slices.IndexFunc(results, func(r result) bool { return !r.pass }) >= 0
	bad := 0
	for _, r := range results {
		if !r.pass {
			bad++
		}
	}
	fmt.Fprintf(w, "paired %s run: %d measures, %d missed their targets, %.0f s\n", cfg.name, len(results), bad, time.Since(start).Seconds())
	if len(results) == 0 {
		return false, fmt.Errorf("no measure matches %q", only)
	}
	return !failed, nil
}
