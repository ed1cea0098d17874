//go:build race

package openclawschema_test

// raceEnabled: the race detector's sync.Pool drops a quarter of what is
// put back, so a pooled scratch is allocated again now and then
// (TestValidFixedCost).
const raceEnabled = true
