package bench

import (
	"errors"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"sync/atomic"
)

// PeakLive runs f with the collector at GOGC=1, so that it runs at every
// 1% of heap growth (but, after a collection the runtime sweeps
// concurrently, not before 1 MB more is allocated), while a goroutine polls the live heap the last
// collection marked (/gc/heap/live:bytes). It returns the highest live heap
// seen above the live heap before f: the memory f held at its peak,
// whatever it allocated and dropped on the way. f's result stays alive to
// the end, as a caller would keep it.
//
// PeakLive sees only the collections f's own allocation starts, so it
// misses what f holds for less than about a megabyte of allocation: for a
// function that allocates less than that, it reports what f keeps, not
// what f held at its peak. PeakSampled measures those.
func PeakLive(f func() any) uint64 {
	defer debug.SetGCPercent(debug.SetGCPercent(1))
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	read := func(s []metrics.Sample) uint64 {
		metrics.Read(s)
		return s[0].Value.Uint64()
	}
	// The first read in a process builds the runtime's table of metrics
	// on the heap. Read once before the collection that sets the base, so
	// that the table is in the base and not counted as f's.
	read(sample)
	runtime.GC()
	base := read(sample)
	done, peakc := make(chan struct{}), make(chan uint64)
	go func() {
		s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		var peak uint64
		for {
			if v := read(s); v > peak {
				peak = v
			}
			select {
			case <-done:
				peakc <- peak
				return
			default:
				runtime.Gosched()
			}
		}
	}()
	out := f()
	runtime.GC() // the result, marked once more
	close(done)
	peak := <-peakc
	runtime.KeepAlive(out)
	if peak < base {
		return 0
	}
	return peak - base
}

// PreciseStops reports whether the process was started with
// GODEBUG=gcstoptheworld=1,asyncpreemptoff=1, which PeakSampled needs: a
// collection that marks with the world stopped, and goroutines stopped only
// where the compiler recorded which stack slots are live. (A goroutine
// stopped anywhere else has its innermost frame scanned conservatively, and
// a dead slot still holding an old pointer keeps that object marked.) The
// runtime reads both settings only at start, so a caller runs PeakSampled
// in a child process it starts with them (PreciseStopsEnv).
func PreciseStops() bool {
	stw, noAsync := false, false
	for _, kv := range strings.Split(os.Getenv("GODEBUG"), ",") {
		// The last setting wins, as in the runtime.
		if v, ok := strings.CutPrefix(kv, "gcstoptheworld="); ok {
			stw = v == "1" || v == "2"
		}
		if v, ok := strings.CutPrefix(kv, "asyncpreemptoff="); ok {
			noAsync = v == "1"
		}
	}
	return stw && noAsync
}

// PreciseStopsEnv is the GODEBUG entry of a child process's environment
// under which PreciseStops holds.
const PreciseStopsEnv = "GODEBUG=gcstoptheworld=1,asyncpreemptoff=1"

// PeakSampled measures the peak live heap of f by sampling it: one
// goroutine runs f over and over, dropping each result before the next
// run starts, while the caller's goroutine collects the garbage samples
// times in a row and reads the live heap after each collection. It returns
// the highest reading above the live heap before the first run, and how
// many runs of f the samples fell across.
//
// It needs precise stops (PreciseStops): then a collection marks what is
// reachable at one instant inside a run, at one of f's calls, and nothing
// allocated while it marks, nor left in a dead stack slot, is counted as
// live. Each reading is the heap live at an instant, so the
// highest is at most f's true peak and comes closer to it as samples grow;
// a peak that lasts a small share of a run needs samples well above the
// number of runs it spans. Unlike PeakLive, the readings do not depend on
// how much f allocates.
func PeakSampled(f func() any, samples int) (peak uint64, runs int, err error) {
	if !PreciseStops() {
		return 0, 0, errors.New("bench: PeakSampled needs the process started with " + PreciseStopsEnv)
	}
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	read := func() uint64 {
		metrics.Read(s)
		return s[0].Value.Uint64()
	}
	read() // builds the runtime's metrics table before the base
	runtime.GC()
	base := read()
	var stop atomic.Bool
	var kept atomic.Pointer[any]
	done := make(chan int)
	go func() {
		n := 0
		for !stop.Load() {
			kept.Store(nil)
			v := f()
			kept.Store(&v)
			n++
		}
		done <- n
	}()
	var high uint64
	for range samples {
		runtime.GC()
		high = max(high, read())
	}
	stop.Store(true)
	runs = <-done
	kept.Store(nil)
	if high < base {
		return 0, runs, nil
	}
	return high - base, runs, nil
}
