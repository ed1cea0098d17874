package main

import "fmt"

// regressionMargin is how far the short run lets a measure move from the
// value measured when its limit was set: 1.4 times (an at-least measure:
// divided by 1.4), room for a noisy machine, yet below the 1.5 times a
// regression must not pass.
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

// regressionLimits are the short run's limits: regressionOf the worst
// value of three short runs (`go run . -short -limits` prints one run's).
// Set them again whenever a change moves a measure for good.
var regressionLimits = map[string]float64{
	"compact models=40 objects/U":                   5.88,
	"compact models=40 manifests/U":                 12.7,
	"compact models=40 ssh-unit/U":                  3.93,
	"compact models=40 prepare/U":                   1.51,
	"compact models=40 one-shot cel-go/occkit":      0.564,
	"compact models=40 prepared plain-go/occkit":    0.15,
	"compact models=40 objects allocs/U":            0.644,
	"compact models=40 objects peak-heap/doc":       13.9,
	"compact models=1000 objects/U":                 4.87,
	"compact models=1000 manifests/U":               6.23,
	"compact models=1000 ssh-unit/U":                4.62,
	"compact models=1000 prepare/U":                 1.76,
	"compact models=1000 one-shot cel-go/occkit":    0.793,
	"compact models=1000 prepared plain-go/occkit":  0.164,
	"compact models=1000 objects allocs/U":          0.028,
	"compact models=1000 objects peak-heap/doc":     12.6,
	"indented models=40 objects/U":                  5.17,
	"indented models=40 manifests/U":                15,
	"indented models=40 ssh-unit/U":                 5.81,
	"indented models=40 prepare/U":                  1.39,
	"indented models=40 one-shot cel-go/occkit":     0.571,
	"indented models=40 prepared plain-go/occkit":   0.15,
	"indented models=40 objects allocs/U":           0.896,
	"indented models=40 objects peak-heap/doc":      13.4,
	"indented models=1000 objects/U":                3.99,
	"indented models=1000 manifests/U":              6.94,
	"indented models=1000 ssh-unit/U":               4.33,
	"indented models=1000 prepare/U":                1.65,
	"indented models=1000 one-shot cel-go/occkit":   0.464,
	"indented models=1000 prepared plain-go/occkit": 0.179,
	"indented models=1000 objects allocs/U":         0.042,
	"indented models=1000 objects peak-heap/doc":    5.91,
}
