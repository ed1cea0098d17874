package bench

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"sync"
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
// the highest reading above the base, and how many runs of f the samples
// fell across.
//
// It needs precise stops (PreciseStops): then a collection marks what is
// reachable at one instant inside a run, at one of f's calls, and nothing
// allocated while it marks, nor left in a dead stack slot, is counted as
// live. Each reading is the heap live at an instant, so the highest
// comes closer to f's true peak as samples grow; a peak that lasts a
// small share of a run needs samples well above the number of runs it
// spans. Now and then the runtime holds a few KB of its own for a moment
// (a function that allocates nothing read 1.3 to 2.8 KB in twelve
// measures of 600 samples), so a caller judges a reading beside others.
// Unlike PeakLive, the readings do not depend on how much f allocates.
//
// The base is read with the runtime already as it will be while the
// samples are taken, so that no reading counts the runtime's own heap as
// f's. The runtime starts an OS thread the first time a collection beside
// a running goroutine needs one, and keeps its 5 KB of heap (measured: a
// function that allocates nothing read 5.3 KB in half its children, an
// 8 KB one up to 14 KB): PeakSampled starts spareThreads threads and
// leaves them idle before anything else, then runs f beside warmSamples
// collections, then parks the runner between two runs (its last result
// dropped) and reads the base. At the end it parks the runner again and
// reads the live heap once more: a base that moved by more than
// driftSlack is an error, ErrDrift, and the caller takes the measure
// again.
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
	spareThreads(2*runtime.GOMAXPROCS(0) + 2)

	// The runner parks (its result dropped) when park is set, sends how
	// many runs it made since it last parked, and runs on when resume
	// receives true.
	var park atomic.Bool
	var kept atomic.Pointer[any]
	parked, resume, done := make(chan int), make(chan bool), make(chan struct{})
	go func() {
		defer close(done)
		n := 0
		for {
			kept.Store(nil)
			if park.Load() {
				parked <- n
				n = 0
				if !<-resume {
					return
				}
			}
			v := f()
			kept.Store(&v)
			n++
		}
	}()
	halt := func() int {
		park.Store(true)
		n := <-parked
		park.Store(false)
		return n
	}
	for range warmSamples {
		runtime.GC()
	}
	halt()
	runtime.GC()
	base := read()
	resume <- true
	var high uint64
	for range samples {
		runtime.GC()
		high = max(high, read())
	}
	runs = halt()
	runtime.GC()
	end := read()
	resume <- false
	<-done
	if drift := int64(end) - int64(base); drift > driftSlack || drift < -driftSlack {
		return 0, runs, fmt.Errorf("%w: %d bytes", ErrDrift, drift)
	}
	if high < base {
		return 0, runs, nil
	}
	return high - base, runs, nil
}

// PeakSettled is PeakSampled taken again, up to retries more times, while
// it reports ErrDrift. The runtime's own heap moves now and then while
// the samples are taken, more often on a loaded machine: each processor
// keeps a cache of the records a blocked goroutine waits in (112-byte
// sudogs), filled from the heap when it runs dry and emptied in part at a
// collection, and with the collector's own goroutines contending for its
// locks the caches grow or shrink by a few KB (a function allocating
// nothing, beside three CPU-bound processes on two cores, drifted in 9
// measures of 15, by 1.1 to 3.1 KB, all of it in that size class). A
// measure taken again is a measure of f.
func PeakSettled(f func() any, samples, retries int) (peak uint64, runs int, err error) {
	for try := 0; ; try++ {
		peak, runs, err = PeakSampled(f, samples)
		if !errors.Is(err, ErrDrift) || try == retries {
			return peak, runs, err
		}
	}
}

// warmSamples is how many collections PeakSampled takes beside f before
// it reads the base; driftSlack how far the live heap with the runner
// parked may move between the base and the end (a few small objects of
// the runtime's).
const (
	warmSamples = 50
	driftSlack  = 1 << 10
)

// ErrDrift is PeakSampled's error when the runtime's own live heap moved
// while it sampled, so that its readings would count the runtime's as f's.
var ErrDrift = errors.New("bench: the live heap outside f moved while sampling")

// spareThreads has the runtime start n OS threads and leave them idle:
// n goroutines each hold a thread of its own at once, then let go of it.
// The runtime keeps an idle thread for the next goroutine that needs one,
// so a collection later starts none.
func spareThreads(n int) {
	var held, all sync.WaitGroup
	release := make(chan struct{})
	held.Add(n)
	all.Add(n)
	for range n {
		go func() {
			defer all.Done()
			runtime.LockOSThread()
			held.Done()
			<-release
			runtime.UnlockOSThread()
		}()
	}
	held.Wait()
	close(release)
	all.Wait()
}
