// Package bench holds occkit's end-to-end benchmark and the Configurations
// it runs on. [Configuration] generates an embedded OpenClaw Configuration
// with a selectable catalog of n models; the benchmarks run it through the
// whole pipeline beside a floor of one encoding/json Unmarshal.
//
// # Benchmarks
//
// BenchmarkEndToEnd/models=N runs compile.Load, the caller's resolution
// (admission.Prepare, then Resolve), admission.Admitter.Admit with that
// analysis (Kubernetes, embedded OpenClaw, one Admitter reused) and
// compile.GatewayDocument on the bytes of
// Configuration(N), for N = 40, 1,000 and 10,000. BenchmarkFloor/models=N
// unmarshals the same bytes into a map[string]any. The script .ci/bench
// runs both ten times, in rounds interleaved with the resolver's own
// BenchmarkResolve and its floor, and reports the ratios against the
// targets: at most 2× the floor's time and bytes and 8× its allocations
// per size, at most 11× the time from 1,000 to 10,000 models, and a
// 40-model resolution cheaper than its floor. A benchmark that did not
// run fails its check.
//
// The user's whole path (to Kubernetes objects, YAML manifests, an SSH
// unit) is measured paired by the module internal/bench/paired, on
// Configuration and on [Compact], which .ci/bench runs first.
//
// BenchmarkPrepareDecision/models=N times selection.Prepare of
// Configuration(N); .ci/bench checks it at most half the floor.
//
// BenchmarkDecision/models=N takes the four [Decisions] with
// selection.Prepare's index on Configuration(N); the nested module
// internal/bench/celpeer takes the same four in cel-go (BenchmarkCEL), and
// .ci/bench prints the ratio as `models=N decision cel-go/occkit time`.
//
// BenchmarkPeakHeap reports the peak live heap of one end-to-end run on
// Configuration(10,000) as a multiple of the document's size
// (peak-live/doc), beside the same measure for the floor: the collector
// runs at GOGC=1 while a goroutine polls /gc/heap/live:bytes ([PeakLive]).
// It is slow: .ci/bench runs it once, -benchtime 3x, and checks at most
// 4× the document. At that size a run allocates enough for PeakLive to see
// collections inside it; for small runs it cannot ([PeakLive]), and the
// paired program's peak measure samples instead ([PeakSampled]).
package bench
