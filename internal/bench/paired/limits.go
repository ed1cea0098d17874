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
// recording. The sampled measure (bench.PeakSampled) is at most the true
// peak, and a starved run lowers it (indented at 40 models read 2.8
// beside two busy processes, 3.0 to 3.2 on a quiet machine), so the
// highest take is its usual value.
//
// Set again on 2026-12-07 (the median of three recordings on a quiet
// machine): the paths had grown cheaper since the limits were last set
// (compact at 40 models, objects/U read 1.12 against a limit of 1.95, so
// that a path grown 1.7 times costlier passed), and the peak measure no
// longer counts the runtime's threads (its takes at 40 models ranged
// from 3.1 to 6.2, now 3.0 to 3.2).
var regressionLimits = map[string]float64{
	"compact models=40 objects/U":                   1.61,
	"compact models=40 manifests/U":                 1.96,
	"compact models=40 ssh-unit/U":                  1.48,
	"compact models=40 prepare/U":                   0.275,
	"compact models=40 one-shot cel-go/occkit":      3.57,
	"compact models=40 prepared plain-go/occkit":    0.653,
	"compact models=40 objects allocs/U":            0.133,
	"compact models=40 objects peak-heap/doc":       4.27,
	"compact models=1000 objects/U":                 1.13,
	"compact models=1000 manifests/U":               1.18,
	"compact models=1000 ssh-unit/U":                1.11,
	"compact models=1000 prepare/U":                 0.256,
	"compact models=1000 one-shot cel-go/occkit":    3.8,
	"compact models=1000 prepared plain-go/occkit":  0.628,
	"compact models=1000 objects allocs/U":          0.00715,
	"compact models=1000 objects peak-heap/doc":     3.53,
	"indented models=40 objects/U":                  1.65,
	"indented models=40 manifests/U":                2.08,
	"indented models=40 ssh-unit/U":                 1.5,
	"indented models=40 prepare/U":                  0.253,
	"indented models=40 one-shot cel-go/occkit":     2.88,
	"indented models=40 prepared plain-go/occkit":   0.687,
	"indented models=40 objects allocs/U":           0.179,
	"indented models=40 objects peak-heap/doc":      4.51,
	"indented models=1000 objects/U":                1.1,
	"indented models=1000 manifests/U":              1.14,
	"indented models=1000 ssh-unit/U":               1.07,
	"indented models=1000 prepare/U":                0.239,
	"indented models=1000 one-shot cel-go/occkit":   3.02,
	"indented models=1000 prepared plain-go/occkit": 0.663,
	"indented models=1000 objects allocs/U":         0.00913,
	"indented models=1000 objects peak-heap/doc":    3.37,
}
