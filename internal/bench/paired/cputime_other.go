//go:build !linux

package main

// cpuClock is not offered here: the pairings use wall time.
func cpuClock() (clock, bool) { return nil, false }
