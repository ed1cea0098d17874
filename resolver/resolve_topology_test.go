package resolver

import (
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
