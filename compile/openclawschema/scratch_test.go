package openclawschema

import (
	"fmt"
	"strings"
	"testing"

	"github.com/occkit/occkit"
)

// TestScratchReading: Valid and ValidBeside, which read in a scratch
// (the outline and refiner in one allocation), give every document the
// verdict a reading in rooms of its own gives it: documents larger than
// the room (a roster of 300 agents, whose index grows past it), read
// twice (agents.list: the view is walked again in the same scratch),
// refused by the schema or by a refinement, or escaped.
func TestScratchReading(t *testing.T) {
	v, err := New()
	if err != nil {
		t.Fatal(err)
	}
	var roster strings.Builder
	for i := 0; i < 300; i++ {
		fmt.Fprintf(&roster, `,"a%d":{"heartbeat":{"every":"5m"},"tools":{"allow":["read"]}}`, i)
	}
	docs := []string{
		`{}`,
		`{"agents":{"entries":{"main":{}` + roster.String() + `}},"logging":{"level":"info"},"tools":{"alsoAllow":["read"]}}`,
		`{"agents":{"list":[{"id":"ops"}],"defaults":{"heartbeat":{"agentId":"ops"}}},"logging":{"redactSensitive":"off"}}`,
		`{"logging":{"level":"loud"}}`,
		`{"agents":{"defaults":{"heartbeat":{"every":"soon"}}}}`,
		`{"talk":{"agentId":"nobody"},"gateway":{"remote":{"edgeAuth":{}}}}`,
		`{"\u0061gents":{"defaults":{"heartbeat":{"agentId":"main"}}},"logging":{"level":"info","consoleStyle":"json"}}`,
		`{"tools":{"allow":["a"],"alsoAllow":["b"]},"secrets":{"providers":{"p":{"source":"file","path":"/x"}}}}`,
	}
	fresh := func(doc occkit.Document) bool { return v.passes(nil, v.walk(doc)) }
	for _, d := range docs {
		doc, err := occkit.ParseDocument([]byte(d))
		if err != nil {
			t.Fatal(err)
		}
		want := fresh(doc)
		if err := v.Validate(doc); want != (err == nil) {
			t.Fatalf("%s: a reading in rooms of its own %v, Validate %v", d, want, err)
		}
		if got := v.Valid(doc); got != want {
			t.Errorf("%s: Valid %v in a scratch, %v in rooms of its own", d, got, want)
		}
		if got := v.ValidBeside(doc, nil); got != want {
			t.Errorf("%s: ValidBeside %v in a scratch, %v in rooms of its own", d, got, want)
		}
	}
}
