package resolver

import (
	"slices"
	"testing"

	"github.com/occkit/occkit"
)

// TestTopologyValue: the RES-11 reason's value is "harness/mode on
// compute" for every Harness, mode and Compute, bundled or not, spelled
// from a table or not.
func TestTopologyValue(t *testing.T) {
	computes := append(occkit.BundledComputes(), "nomad", "")
	for _, h := range append(occkit.AllHarnesses(), "other") {
		for _, m := range append(occkit.AllModes(), "other") {
			for _, c := range computes {
				want := string(h) + "/" + string(m) + " on " + string(c)
				if got := topologyValue(h, m, c); got != want {
					t.Errorf("topologyValue(%q, %q, %q) = %q, want %q", h, m, c, got, want)
				}
			}
		}
	}
}

// TestSupportedTopologies: the sets checkTopology reads are
// [occkit.Supported]'s, for the bundled Computes and custom ones alike.
func TestSupportedTopologies(t *testing.T) {
	declared := []occkit.Topology{{Harness: occkit.HarnessCodex, Mode: occkit.ModeDedicated}}
	for _, c := range append(occkit.BundledComputes(), "", "nomad") {
		for _, d := range [][]occkit.Topology{nil, declared} {
			if got, want := supportedTopologies(c, d), occkit.Supported(c, d); !slices.Equal(got, want) {
				t.Errorf("%q declaring %v: %v, Supported %v", c, d, got, want)
			}
		}
	}
}
