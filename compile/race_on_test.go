//go:build race

package compile

// raceAllocs is what the race detector adds to an allocation bound: a
// path built under it grows once more.
const raceAllocs = 1
