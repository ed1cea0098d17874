package main

import (
	"math"
	"runtime/debug"
	"testing"
	"time"
)

// fakeClock is a clock that only the operations move.
type fakeClock struct{ t time.Duration }

func (c *fakeClock) now() time.Duration { return c.t }

// TestRatio: an operation that costs three ticks beside one that costs
// one is three, whichever runs first in a round, and a slow spell that
// lands on both batches of a round leaves the median alone.
func TestRatio(t *testing.T) {
	for _, spell := range []int{-1, 2} {
		c := &fakeClock{}
		p := pairing{now: c.now, rounds: 7, batch: 100, gc: func() {}}
		slow := time.Duration(1)
		round := 0
		p.gc = func() {
			round++
			slow = 1
			if spell >= 0 && (round-1)/2 == spell+4 { // both batches of one round
				slow = 10
			}
		}
		got := p.ratio(func() { c.t += 3 * slow }, func() { c.t += slow })
		if got != 3 {
			t.Errorf("spell %d: ratio = %v, want 3", spell, got)
		}
	}
}

func TestCalibrate(t *testing.T) {
	c := &fakeClock{}
	p := pairing{now: c.now, batch: 1000}
	for _, cost := range []time.Duration{1, 7, 999, 5000} {
		n := p.calibrate(func() { c.t += cost })
		want := max(1, int(1000/cost))
		if n < want*9/10 || n > want*11/10+1 {
			t.Errorf("cost %d: %d calls per batch, want about %d", cost, n, want)
		}
	}
}

// TestCalibrateDisturbed: a first call ten times as costly (a cold
// start) and a collection landing in one of the three counts leave the
// count of calls per batch where the undisturbed cost puts it.
func TestCalibrateDisturbed(t *testing.T) {
	c := &fakeClock{}
	calls, counts := 0, 0
	p := pairing{now: c.now, batch: 1000, gc: func() { counts++ }}
	n := p.calibrate(func() {
		calls++
		switch {
		case calls == 1:
			c.t += 100
		case counts == 1: // the first count: every call pays for a collection
			c.t += 40
		default:
			c.t += 10
		}
	})
	if n != 100 {
		t.Errorf("%d calls per batch, want 100", n)
	}
}

// TestLeast: with p.least, a side disturbed in every round but one is
// judged by its undisturbed round, and the ratio and costs are the least
// costs of each side.
func TestLeast(t *testing.T) {
	c := &fakeClock{}
	round := 0
	p := pairing{now: c.now, rounds: 7, batch: 100, least: true, gc: func() { round++ }}
	slow := func(r int) time.Duration {
		if (r-1)/2 == 5 { // one round undisturbed
			return 1
		}
		return time.Duration(1 + r%3)
	}
	r, a, b := p.costs(func() { c.t += 3 * slow(round) }, func() { c.t += 1 })
	if r != 3 || a != 3 || b != 1 {
		t.Errorf("least: ratio %v of %v and %v, want 3 of 3 and 1", r, a, b)
	}
}

func TestMedian(t *testing.T) {
	for _, c := range []struct {
		in   []float64
		want float64
	}{
		{[]float64{3, 1, 2}, 2},
		{[]float64{4, 1, 3, 2}, 2.5},
		{[]float64{5}, 5},
	} {
		if got := median(c.in); got != c.want {
			t.Errorf("median(%v) = %v, want %v", c.in, got, c.want)
		}
	}
	if got := median(nil); !math.IsNaN(got) {
		t.Errorf("median of nothing = %v, want NaN", got)
	}
}

// TestTargets: a missing measure (NaN) meets no target.
func TestTargets(t *testing.T) {
	for _, c := range []struct {
		t    target
		v    float64
		want bool
	}{
		{tObjects, 1.2, true},
		{tObjects, 1.6, false},
		{tObjects, nan(), false},
		{tOneShot, 2.5, true},
		{tOneShot, 1.5, false},
		{tOneShot, nan(), false},
	} {
		if got := c.t.met(c.v, c.t.limit); got != c.want {
			t.Errorf("%v %s %v: met = %v, want %v", c.v, c.t, c.t.limit, got, c.want)
		}
	}
}

// TestJudged: a take that meets its limit is the value; one that misses
// is taken again and the median of the takes judges, so one outlier
// passes and a regression that misses in most takes fails.
func TestJudged(t *testing.T) {
	under := func(v float64) bool { return v <= 2 }
	for _, c := range []struct {
		name      string
		takes     []float64
		want      float64
		wantTakes int
	}{
		{"met at once", []float64{1.5, 9, 9}, 1.5, 1},
		{"one slow spell", []float64{3, 1.6, 1.7}, 1.7, 3},
		{"a regression", []float64{3, 2.9, 1.9}, 2.9, 3},
		{"not measured", []float64{nan(), nan(), nan()}, nan(), 3},
	} {
		i := 0
		got, takes := judged(func() float64 { i++; return c.takes[i-1] }, under, 2)
		if len(takes) != c.wantTakes || !(got == c.want || math.IsNaN(got) && math.IsNaN(c.want)) {
			t.Errorf("%s: %v after %d takes, want %v after %d", c.name, got, len(takes), c.want, c.wantTakes)
		}
		if under(got) != under(c.want) {
			t.Errorf("%s: judged %v", c.name, under(got))
		}
	}
}

// TestQuiet: with p.quiet the collector is off while a batch runs and on
// again after it.
func TestQuiet(t *testing.T) {
	c := &fakeClock{}
	p := pairing{now: c.now, rounds: 1, batch: 10, quiet: true, gc: func() {}}
	var during int
	p.timed(func() {
		during = debug.SetGCPercent(-1)
		debug.SetGCPercent(during)
		c.t++
	}, 1)
	if during != -1 {
		t.Errorf("GC percent %d while a batch runs, want -1 (off)", during)
	}
	if after := debug.SetGCPercent(100); after == -1 {
		t.Errorf("the collector stays off after a batch")
	}
}
