//go:build unix

package openclawschema_test

import (
	"fmt"
	"syscall"
	"testing"
	"time"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/compile/openclawschema"
	"github.com/occkit/occkit/internal/bench"
	"github.com/occkit/occkit/logging"
)

// BenchmarkPairedDocuments measures the check Admit runs (DOC-5) on the
// documents of the paired benchmarks (internal/bench), compacted as
// compile.Load writes them: stamped, as Admit checks them, and as
// written. cpu-ns/op is the process's CPU time (the
// collector's included) per check, which a shared machine's preemption
// does not stretch.
func BenchmarkPairedDocuments(b *testing.B) {
	v, err := openclawschema.New()
	if err != nil {
		b.Fatal(err)
	}
	for _, d := range bench.Documents {
		for _, n := range []int{40, 1000} {
			written, err := occkit.ParseDocument(d.Make(n))
			if err != nil {
				b.Fatal(err)
			}
			// Admit checks the document stamped (LOG-1), which takes
			// logging.redactSensitive out.
			stamped, err := logging.Stamp(written, occkit.LevelInfo, occkit.OwnedByPlatform)
			if err != nil {
				b.Fatal(err)
			}
			for _, doc := range []struct {
				name string
				occkit.Document
			}{{"stamped", stamped}, {"written", written}} {
				b.Run(fmt.Sprintf("%s/models=%d/%s", d.Name, n, doc.name), func(b *testing.B) {
					b.ReportAllocs()
					start := processCPU()
					for i := 0; i < b.N; i++ {
						if err := v.Validate(doc.Document); err != nil {
							b.Fatal(err)
						}
					}
					b.ReportMetric(float64(processCPU()-start)/float64(b.N), "cpu-ns/op")
				})
			}
		}
	}
}

// processCPU is the CPU time the process has used, every thread's.
func processCPU() time.Duration {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		return 0
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}
