package drivers_test

import (
	"strings"
	"testing"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/drivers"
)

// TestParseSandboxManifestDeepNesting: a manifest nested past
// encoding/json's 10,000 levels is refused as not JSON (DRV-2), never a
// stack overflow.
func TestParseSandboxManifestDeepNesting(t *testing.T) {
	for _, tt := range []struct{ name, in string }{
		{"20 MB of [", strings.Repeat("[", 20<<20)},
		{"deep facet list", `{"facets":` + strings.Repeat("[", 1<<20)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := drivers.ParseSandboxManifest([]byte(tt.in))
			e := occkit.First(err)
			if e == nil || e.Code != occkit.CodeInvalidRequest || e.Rule != "DRV-2" || !e.Path.IsRoot() {
				t.Fatalf("got %v, want 400 INVALID_REQUEST DRV-2 at the root", err)
			}
		})
	}
}
