package admission

import (
	"slices"
	"testing"

	"github.com/occkit/occkit"
)

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
