//go:build !race

package render

// raceSlack is how far the race detector moves an allocation count (see
// race_on_test.go): without it, not at all.
const raceSlack = 0
