package bench_test

import (
	"encoding/json"
	"testing"

	"github.com/occkit/occkit/internal/bench"
)

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
				if v := bench.PeakLive(c.run); v > worst {
					worst = v
				}
			}
			b.ReportMetric(float64(worst)/float64(len(src)), "peak-live/doc")
			b.ReportMetric(float64(worst), "peak-live-B")
			b.ReportMetric(float64(len(src)), "doc-B")
		})
	}
}
