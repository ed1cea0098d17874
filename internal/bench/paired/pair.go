package main

import (
	"runtime"
	"runtime/debug"
	"slices"
	"time"
)

// clock is the time source of a pairing; tests replace it.
type clock func() time.Duration

func wallClock() clock {
	start := time.Now()
	return func() time.Duration { return time.Since(start) }
}

// pairing measures two operations side by side: interleaved short
// batches of each, so that a slow spell of a shared machine lands on both
// alike, and the median of the per-round ratios of their costs per
// operation.
type pairing struct {
	now    clock
	rounds int
	batch  time.Duration // the target length of one batch
	gc     func()        // run, untimed, before every batch
	// least: the ratio of each side's least cost per call over the
	// rounds, not the median of the per-round ratios. A shared
	// machine's contention (a virtual CPU the host takes away is CPU
	// time to the guest) only ever adds to a batch, so each side's least
	// batch is its cost undisturbed; the short run judges by it.
	least bool
	// quiet: the collector is off while a batch runs (on again after
	// it; an untimed collection precedes every batch), so a batch times
	// its operation's own work alone: whether a collection of the
	// program's whole heap lands inside a batch otherwise decides much
	// of its cost. The short run, a regression gate, sets it; the full
	// run leaves the collector on, as a user's process runs (a batch
	// that does not collect then writes fresh memory, whose first touch
	// costs in proportion to what it allocates, so quiet would favour
	// the side that allocates less).
	quiet bool
}

// calibrate returns how many calls of op make one batch. One untimed
// call warms op up (its first call pays for caches and lazily built
// tables that a batch never sees again). Then, three times over, after
// an untimed collection: calls doubling from one until they take half a
// batch, scaled to a whole one; the most calls of the three, taken where
// no collection or slow spell landed, so that a batch's length does not
// hang on one disturbed count (and with it whether a collection of the
// harness's heap lands inside the batch).
func (p pairing) calibrate(op func()) int {
	op()
	most := 1
	for range 3 {
		p.collect()
		most = max(most, p.count(op))
	}
	return most
}

// count is one calibration: calls of op doubling from one until they
// take half a batch, then scaled to a whole one.
func (p pairing) count(op func()) int {
	for n := 1; ; n *= 2 {
		start := p.now()
		for i := 0; i < n; i++ {
			op()
		}
		took := p.now() - start
		if took >= p.batch/2 || n >= 1<<30 {
			if took <= 0 {
				return n
			}
			return max(1, int(int64(n)*int64(p.batch)/int64(took)))
		}
	}
}

// collect runs p.gc, when there is one.
func (p pairing) collect() {
	if p.gc != nil {
		p.gc()
	}
}

// timed runs op n times after an untimed collection and returns the
// cost of one call.
func (p pairing) timed(op func(), n int) float64 {
	p.collect()
	if p.quiet {
		defer debug.SetGCPercent(debug.SetGCPercent(-1))
	}
	start := p.now()
	for i := 0; i < n; i++ {
		op()
	}
	return float64(p.now()-start) / float64(n)
}

// ratio returns the median over p.rounds of cost(a) / cost(b), each
// round timing one batch of each, a first in even rounds and b first in
// odd ones.
func (p pairing) ratio(a, b func()) float64 {
	r, _, _ := p.costs(a, b)
	return r
}

// costs is ratio with the cost of one call of a and of b, in
// nanoseconds: the median over the rounds, or the least when p.least
// (and then ratio is their quotient).
func (p pairing) costs(a, b func()) (ratio, costA, costB float64) {
	na, nb := p.calibrate(a), p.calibrate(b)
	rs := make([]float64, 0, p.rounds)
	as := make([]float64, 0, p.rounds)
	bs := make([]float64, 0, p.rounds)
	for r := 0; r < p.rounds; r++ {
		var ta, tb float64
		if r%2 == 0 {
			ta = p.timed(a, na)
			tb = p.timed(b, nb)
		} else {
			tb = p.timed(b, nb)
			ta = p.timed(a, na)
		}
		as, bs = append(as, ta), append(bs, tb)
		if tb > 0 {
			rs = append(rs, ta/tb)
		}
	}
	if p.least {
		la, lb := slices.Min(as), slices.Min(bs)
		if lb <= 0 {
			return nan(), la, lb
		}
		return la / lb, la, lb
	}
	return median(rs), median(as), median(bs)
}

// median is the middle value of xs (the mean of the two middle ones for
// an even count); NaN for none, so that a missing measure never meets a
// target.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return nan()
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func nan() float64 {
	var zero float64
	return zero / zero
}

// allocs returns the heap allocations of one call of op, averaged over
// runs calls after a warm-up call.
func allocs(op func(), runs int) float64 {
	op()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for i := 0; i < runs; i++ {
		op()
	}
	runtime.ReadMemStats(&after)
	return float64(after.Mallocs-before.Mallocs) / float64(runs)
}
