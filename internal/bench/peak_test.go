package bench_test

import (
	"encoding/json"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"

	"github.com/occkit/occkit/internal/bench"
)

// peakLive runs f with the collector at GOGC=1, so that it runs at every
// 1% of heap growth, while a goroutine polls the live heap the last
// collection marked (/gc/heap/live:bytes). It returns the highest live heap
// seen above the live heap before f: the memory f held at its peak,
// whatever it allocated and dropped on the way. f's result stays alive to
// the end, as a caller would keep it.
func peakLive(f func() any) uint64 {
	defer debug.SetGCPercent(debug.SetGCPercent(1))
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	read := func(s []metrics.Sample) uint64 {
		metrics.Read(s)
		return s[0].Value.Uint64()
	}
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

// BenchmarkPeakHeap reports, for the 10,000-model Configuration, the peak
// live heap of one end-to-end run (peak-live/doc, a multiple of the
// document's size) beside the same measure for the floor, one
// encoding/json Unmarshal of the same bytes into a map[string]any. It is
// slow (the collector runs at every 1% of growth): run it alone,
// -benchtime 3x.
func BenchmarkPeakHeap(b *testing.B) {
	p := newPipeline(b)
	src := bench.Configuration(10_000)
	for _, c := range []struct {
		name string
		run  func() any
	}{
		{"end-to-end", func() any {
			gw, err := p.run(src)
			if err != nil {
				b.Fatal(err)
			}
			return gw
		}},
		{"floor", func() any {
			var v map[string]any
			if err := json.Unmarshal(src, &v); err != nil {
				b.Fatal(err)
			}
			return v
		}},
	} {
		b.Run(c.name+"/models=10000", func(b *testing.B) {
			var worst uint64
			for i := 0; i < b.N; i++ {
				if v := peakLive(c.run); v > worst {
					worst = v
				}
			}
			b.ReportMetric(float64(worst)/float64(len(src)), "peak-live/doc")
			b.ReportMetric(float64(worst), "peak-live-B")
			b.ReportMetric(float64(len(src)), "doc-B")
		})
	}
}
