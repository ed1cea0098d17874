package bench

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
)

// PeakLive runs f with the collector at GOGC=1, so that it runs at every
// 1% of heap growth, while a goroutine polls the live heap the last
// collection marked (/gc/heap/live:bytes). It returns the highest live heap
// seen above the live heap before f: the memory f held at its peak,
// whatever it allocated and dropped on the way. f's result stays alive to
// the end, as a caller would keep it.
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
