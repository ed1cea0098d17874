//go:build !race

package compile

// raceAllocs is what the race detector adds to an allocation bound.
const raceAllocs = 0
