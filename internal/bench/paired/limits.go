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

// regressionLimits are the short run's limits: regressionOf the median
// of three takes of each measure (`go run . -short -limits` takes them
// and prints the map). Not the worst: 1.4 times the
// worst of three could let a path grown 1.5 times from its usual value
// pass. Set them again whenever a change moves a measure for good.
var regressionLimits = map[string]float64{
	"compact models=40 objects/U":                   5.64,
	"compact models=40 manifests/U":                 10.2,
	"compact models=40 ssh-unit/U":                  7.68,
	"compact models=40 prepare/U":                   1.37,
	"compact models=40 one-shot cel-go/occkit":      0.575,
	"compact models=40 prepared plain-go/occkit":    0.166,
	"compact models=40 objects allocs/U":            0.65,
	"compact models=40 objects peak-heap/doc":       11.4,
	"compact models=1000 objects/U":                 4.56,
	"compact models=1000 manifests/U":               5.88,
	"compact models=1000 ssh-unit/U":                6.03,
	"compact models=1000 prepare/U":                 1.55,
	"compact models=1000 one-shot cel-go/occkit":    0.542,
	"compact models=1000 prepared plain-go/occkit":  0.179,
	"compact models=1000 objects allocs/U":          0.0293,
	"compact models=1000 objects peak-heap/doc":     11.2,
	"indented models=40 objects/U":                  5.33,
	"indented models=40 manifests/U":                10.6,
	"indented models=40 ssh-unit/U":                 7,
	"indented models=40 prepare/U":                  1.14,
	"indented models=40 one-shot cel-go/occkit":     0.647,
	"indented models=40 prepared plain-go/occkit":   0.174,
	"indented models=40 objects allocs/U":           0.901,
	"indented models=40 objects peak-heap/doc":      13.5,
	"indented models=1000 objects/U":                3.88,
	"indented models=1000 manifests/U":              4.59,
	"indented models=1000 ssh-unit/U":               5.84,
	"indented models=1000 prepare/U":                1.12,
	"indented models=1000 one-shot cel-go/occkit":   0.629,
	"indented models=1000 prepared plain-go/occkit": 0.183,
	"indented models=1000 objects allocs/U":         0.0408,
	"indented models=1000 objects peak-heap/doc":    9.68,
}
