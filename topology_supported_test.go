package occkit_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/occkit/occkit"
)

// refusal is what a caller reads of a RES-11 check: nothing, or the
// refusal's code, status, path, rule, detail and suggestion.
func refusal(err error) string {
	var e *occkit.Error
	if !errors.As(err, &e) {
		return fmt.Sprint(err)
	}
	return fmt.Sprintf("%s %d %s %s %q %q", e.Code, e.HTTPStatus(), e.Path, e.Rule, e.Detail, e.Suggestion)
}

// TestCheckSupported: CheckSupported decides every topology on every
// Compute, bundled, custom, misspelled or empty, declaring or not, as
// CheckTopology does on the copy Supported makes: the same verdict and
// the same refusal.
func TestCheckSupported(t *testing.T) {
	declared := [][]occkit.Topology{nil, {{Harness: occkit.HarnessCodex, Mode: occkit.ModeDedicated}},
		{{Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeEmbedded}, {Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeDedicated}}}
	computes := append(occkit.BundledComputes(), "", "nomad", "kubernetse")
	for _, c := range computes {
		for _, d := range declared {
			for _, h := range append(occkit.AllHarnesses(), "other") {
				for _, m := range append(occkit.AllModes(), "other") {
					tp := occkit.Topology{Harness: h, Mode: m}
					got, want := refusal(occkit.CheckSupported(c, d, tp)), refusal(occkit.CheckTopology(c, occkit.Supported(c, d), tp))
					if got != want {
						t.Errorf("%s on %q declaring %v: CheckSupported %s, CheckTopology of Supported %s", tp, c, d, got, want)
					}
				}
			}
		}
	}
	// A bundled Compute runs its own rows, whatever it declares.
	if err := occkit.CheckSupported(occkit.ComputeSSH, []occkit.Topology{{Harness: occkit.HarnessCodex, Mode: occkit.ModeDedicated}},
		occkit.Topology{Harness: occkit.HarnessCodex, Mode: occkit.ModeDedicated}); err == nil {
		t.Error("ssh admitted dedicated codex because it declared it")
	}
}
