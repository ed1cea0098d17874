//go:build race

package render

// raceSlack is how far the race detector moves an allocation count: its
// own bookkeeping allocates now and then, so counts taken apart and
// summed (TestYAMLAllocations) may differ by one from a count of the
// whole.
const raceSlack = 1
