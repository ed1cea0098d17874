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
// fall at about 4.7 or about 8.0 (where a collection lands), and three
// takes at the lower one would set a limit the upper one misses.
var regressionLimits = map[string]float64{
	"compact models=40 objects/U":                   5.56,
	"compact models=40 manifests/U":                 10.8,
	"compact models=40 ssh-unit/U":                  4.94,
	"compact models=40 prepare/U":                   0.94,
	"compact models=40 one-shot cel-go/occkit":      1.22,
	"compact models=40 prepared plain-go/occkit":    0.186,
	"compact models=40 objects allocs/U":            0.724,
	"compact models=40 objects peak-heap/doc":       11.6,
	"compact models=1000 objects/U":                 4.4,
	"compact models=1000 manifests/U":               5.47,
	"compact models=1000 ssh-unit/U":                5,
	"compact models=1000 prepare/U":                 0.824,
	"compact models=1000 one-shot cel-go/occkit":    1.31,
	"compact models=1000 prepared plain-go/occkit":  0.199,
	"compact models=1000 objects allocs/U":          0.0328,
	"compact models=1000 objects peak-heap/doc":     16.2,
	"indented models=40 objects/U":                  6.26,
	"indented models=40 manifests/U":                11.8,
	"indented models=40 ssh-unit/U":                 5.34,
	"indented models=40 prepare/U":                  0.84,
	"indented models=40 one-shot cel-go/occkit":     1.36,
	"indented models=40 prepared plain-go/occkit":   0.187,
	"indented models=40 objects allocs/U":           1,
	"indented models=40 objects peak-heap/doc":      13.9,
	"indented models=1000 objects/U":                4.24,
	"indented models=1000 manifests/U":              5.01,
	"indented models=1000 ssh-unit/U":               4.17,
	"indented models=1000 prepare/U":                0.8,
	"indented models=1000 one-shot cel-go/occkit":   1.56,
	"indented models=1000 prepared plain-go/occkit": 0.197,
	"indented models=1000 objects allocs/U":         0.0456,
	"indented models=1000 objects peak-heap/doc":    11.6,
}
