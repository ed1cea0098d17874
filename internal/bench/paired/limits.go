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
// takes them and prints the map). Not the worst recording: 1.4 times the
// worst could let a path grown 1.5 times from its usual value pass. Set
// them again whenever a change moves a measure for good. The allocation
// counts keep their earlier recording (they are printed to two decimals
// only, and no change since moved them). Two peak heaps keep 1.4 times
// their upper value: the takes of compact 1,000 models fall at about 3.7
// to 5 or about 8.0, those of indented 1,000 models at about 4.6 to 5.6
// or about 6.8 (where a collection lands), and a usual value at the lower
// one would set a limit the upper one misses.
var regressionLimits = map[string]float64{
	"compact models=40 objects/U":                   4.73,
	"compact models=40 manifests/U":                 8.79,
	"compact models=40 ssh-unit/U":                  4.34,
	"compact models=40 prepare/U":                   0.476,
	"compact models=40 one-shot cel-go/occkit":      2.54,
	"compact models=40 prepared plain-go/occkit":    0.407,
	"compact models=40 objects allocs/U":            0.687,
	"compact models=40 objects peak-heap/doc":       11.6,
	"compact models=1000 objects/U":                 3.57,
	"compact models=1000 manifests/U":               4.42,
	"compact models=1000 ssh-unit/U":                3.43,
	"compact models=1000 prepare/U":                 0.35,
	"compact models=1000 one-shot cel-go/occkit":    3.35,
	"compact models=1000 prepared plain-go/occkit":  0.421,
	"compact models=1000 objects allocs/U":          0.0311,
	"compact models=1000 objects peak-heap/doc":     11.2,
	"indented models=40 objects/U":                  4.7,
	"indented models=40 manifests/U":                10.4,
	"indented models=40 ssh-unit/U":                 4.24,
	"indented models=40 prepare/U":                  0.434,
	"indented models=40 one-shot cel-go/occkit":     2.17,
	"indented models=40 prepared plain-go/occkit":   0.407,
	"indented models=40 objects allocs/U":           0.96,
	"indented models=40 objects peak-heap/doc":      13.9,
	"indented models=1000 objects/U":                3.04,
	"indented models=1000 manifests/U":              3.74,
	"indented models=1000 ssh-unit/U":               2.97,
	"indented models=1000 prepare/U":                0.308,
	"indented models=1000 one-shot cel-go/occkit":   2.94,
	"indented models=1000 prepared plain-go/occkit": 0.429,
	"indented models=1000 objects allocs/U":         0.0437,
	"indented models=1000 objects peak-heap/doc":    9.52,
}
