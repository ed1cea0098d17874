package main

import "fmt"

// regressionMargin is how far the short run lets a measure move from the
// value measured when its limit was set: 1.4 times (an at-least measure:
// divided by 1.4), room for a noisy machine, yet below the 1.5 times a
// regression must not pass. A miss is retaken before it fails (judged).
const regressionMargin = 1.4

// key names a measure in the output and in regressionLimits.
func key(doc string, n int, name string) string {
	return fmt.Sprintf("%s models=%d %s", doc, n, name)
}

// regressionOf is the regression limit of value v.
func regressionOf(v float64, atLeast bool) float64 {
	if atLeast {
		return v / regressionMargin
	}
	return v * regressionMargin
}

// regressionLimit is the short run's limit of m: its entry in
// regressionLimits, else its target.
func regressionLimit(m measure) float64 {
	if l, ok := regressionLimits[key(m.doc, m.n, m.name)]; ok {
		return l
	}
	return m.target.limit
}

// regressionLimits are the short run's limits: regressionOf the usual
// value of each measure, the median of three recordings on a shared
// machine, each the median of three takes (`go run . -short -limits`
// takes them and prints the takes and the map). Not the worst recording:
// 1.4 times the worst could let a path grown 1.5 times from its usual
// value pass. Set them again whenever a change moves a measure for good.
// The peak heaps are the exception: 1.4 times the highest take seen while
// recording, beside other work. The sampled measure (bench.PeakSampled)
// is a lower bound that a starved run only lowers, and the takes of one
// tree spread by a fifth at 40 models (indented: 5.2 to 6.2), where a
// few hundred samples land in one run's few places that hold the most.
// A peak limit is set again only upward: the limits of 2026-12-05 were
// recorded beside busy processes, which a quiet recording does not see.
var regressionLimits = map[string]float64{
	"compact models=40 objects/U":                   1.95,
	"compact models=40 manifests/U":                 2.32,
	"compact models=40 ssh-unit/U":                  1.88,
	"compact models=40 prepare/U":                   0.28,
	"compact models=40 one-shot cel-go/occkit":      3.21,
	"compact models=40 prepared plain-go/occkit":    0.627,
	"compact models=40 objects allocs/U":            0.14,
	"compact models=40 objects peak-heap/doc":       8.1,
	"compact models=1000 objects/U":                 1.4,
	"compact models=1000 manifests/U":               1.5,
	"compact models=1000 ssh-unit/U":                1.43,
	"compact models=1000 prepare/U":                 0.252,
	"compact models=1000 one-shot cel-go/occkit":    3.42,
	"compact models=1000 prepared plain-go/occkit":  0.609,
	"compact models=1000 objects allocs/U":          0.014,
	"compact models=1000 objects peak-heap/doc":     3.67,
	"indented models=40 objects/U":                  1.93,
	"indented models=40 manifests/U":                2.39,
	"indented models=40 ssh-unit/U":                 1.78,
	"indented models=40 prepare/U":                  0.252,
	"indented models=40 one-shot cel-go/occkit":     2.79,
	"indented models=40 prepared plain-go/occkit":   0.657,
	"indented models=40 objects allocs/U":           0.196,
	"indented models=40 objects peak-heap/doc":      8.7,
	"indented models=1000 objects/U":                1.27,
	"indented models=1000 manifests/U":              1.4,
	"indented models=1000 ssh-unit/U":               1.3,
	"indented models=1000 prepare/U":                0.224,
	"indented models=1000 one-shot cel-go/occkit":   2.94,
	"indented models=1000 prepared plain-go/occkit": 0.642,
	"indented models=1000 objects allocs/U":         0.014,
	"indented models=1000 objects peak-heap/doc":    3.6,
}
