//go:build !race

package openclawschema_test

// raceEnabled: see race_on_test.go.
const raceEnabled = false
