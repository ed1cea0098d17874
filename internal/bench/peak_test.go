package bench_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
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

// TestPeakLiveCountsOnlyF holds PeakLive to a function whose peak is
// known: it keeps one block of 256 KiB. The call is the first in a fresh
// process, where the runtime still builds what its first metrics read
// needs; none of that may be counted as f's.
func TestPeakLiveCountsOnlyF(t *testing.T) {
	const size = 256 << 10
	if os.Getenv("OCCKIT_PEAK_CHILD") == "1" {
		got := bench.PeakLive(func() any { return make([]byte, size) })
		fmt.Println("peak", got)
		return
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^TestPeakLiveCountsOnlyF$", "-test.count=1")
	cmd.Env = append(os.Environ(), "OCCKIT_PEAK_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	var got uint64
	for _, line := range strings.Split(string(out), "\n") {
		if _, err := fmt.Sscanf(line, "peak %d", &got); err == nil {
			break
		}
	}
	// The block, plus what PeakLive itself allocates (two channels and a
	// sample slice, well under 1 KiB).
	if got < size || got > size+2<<10 {
		t.Fatalf("first PeakLive in a process = %d bytes for a function keeping %d\n%s", got, size, out)
	}
}
