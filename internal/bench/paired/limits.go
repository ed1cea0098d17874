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
// and prints the map), the looser of two such recordings on a shared
// machine. Not the worst: 1.4 times the
// worst of three could let a path grown 1.5 times from its usual value
// pass. Set them again whenever a change moves a measure for good. The
// compact 1,000-model peak heap keeps 1.4 times its upper value: its takes
// fall at about 3.7 to 5 or about 8.0 (where a collection lands), and
// three takes at the lower one would set a limit the upper one misses.
var regressionLimits = map[string]float64{
	"compact models=40 objects/U":                   5.75,
	"compact models=40 manifests/U":                 9.15,
	"compact models=40 ssh-unit/U":                  5.2,
	"compact models=40 prepare/U":                   0.505,
	"compact models=40 one-shot cel-go/occkit":      2.51,
	"compact models=40 prepared plain-go/occkit":    0.41,
	"compact models=40 objects allocs/U":            0.687,
	"compact models=40 objects peak-heap/doc":       11.6,
	"compact models=1000 objects/U":                 3.38,
	"compact models=1000 manifests/U":               4,
	"compact models=1000 ssh-unit/U":                3.35,
	"compact models=1000 prepare/U":                 0.328,
	"compact models=1000 one-shot cel-go/occkit":    2.23,
	"compact models=1000 prepared plain-go/occkit":  0.438,
	"compact models=1000 objects allocs/U":          0.0311,
	"compact models=1000 objects peak-heap/doc":     11.2,
	"indented models=40 objects/U":                  5.13,
	"indented models=40 manifests/U":                10.2,
	"indented models=40 ssh-unit/U":                 4.98,
	"indented models=40 prepare/U":                  0.412,
	"indented models=40 one-shot cel-go/occkit":     1.59,
	"indented models=40 prepared plain-go/occkit":   0.401,
	"indented models=40 objects allocs/U":           0.96,
	"indented models=40 objects peak-heap/doc":      14,
	"indented models=1000 objects/U":                3.12,
	"indented models=1000 manifests/U":              4.19,
	"indented models=1000 ssh-unit/U":               2.94,
	"indented models=1000 prepare/U":                0.297,
	"indented models=1000 one-shot cel-go/occkit":   2.88,
	"indented models=1000 prepared plain-go/occkit": 0.393,
	"indented models=1000 objects allocs/U":         0.0437,
	"indented models=1000 objects peak-heap/doc":    9.52,
}
