package compile

import (
	"testing"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/compile/openclawschema"
)

// TestValidBesideIsBoth: on the public conformance Configurations (as
// written and in canonical form, what admission checks), ValidBeside
// accepts exactly what the fast check and OpenClaw's check both accept,
// and what it accepts Validate accepts. (openclawschema's
// TestValidBesideIsBoth draws documents against this schema.)
func TestValidBesideIsBoth(t *testing.T) {
	v, err := NewValidator()
	if err != nil || v.fast == nil {
		t.Fatalf("the embedded schema has no fast check: %v", err)
	}
	oc, err := openclawschema.New()
	if err != nil {
		t.Fatal(err)
	}
	var both, refused int
	for _, c := range conformanceConfigurations(t) {
		doc, err := occkit.ParseDocument([]byte(c.cfg.Raw))
		if err != nil {
			continue
		}
		for _, d := range []occkit.Document{doc, occkit.CanonicalDocument(doc)} {
			got, want := v.ValidBeside(d, oc), v.fast.Valid(d.String()) && oc.Valid(d)
			if got != want {
				t.Errorf("%s: ValidBeside %v, the two checks %v", c.name, got, want)
			}
			if got && v.Validate(d) != nil {
				t.Errorf("%s: ValidBeside accepts what Validate refuses", c.name)
			}
			if got {
				both++
			} else {
				refused++
			}
		}
	}
	t.Logf("%d accepted by both, %d refused by one", both, refused)
	if both == 0 || refused == 0 {
		t.Errorf("want configurations of both verdicts: %d accepted, %d refused", both, refused)
	}
}
