package admission_test

import (
	"strings"
	"testing"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/admission"
)

// TestParseRevisionDeepNesting: a record nested past encoding/json's
// 10,000 levels is refused as not JSON (ADM-3), never a stack overflow.
func TestParseRevisionDeepNesting(t *testing.T) {
	for _, tt := range []struct{ name, in string }{
		{"20 MB of [", strings.Repeat("[", 20<<20)},
		{"deep under a key", `{"document":` + strings.Repeat("[", 1<<20)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := admission.ParseRevision([]byte(tt.in))
			e := occkit.First(err)
			if e == nil || e.Code != occkit.CodeInvalidRequest || e.Rule != "ADM-3" || !e.Path.IsRoot() {
				t.Fatalf("got %v, want 400 INVALID_REQUEST ADM-3 at the root", err)
			}
		})
	}
}
