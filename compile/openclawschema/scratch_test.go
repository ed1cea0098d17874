package openclawschema

import (
	"fmt"
	"strings"
	"testing"

	"github.com/occkit/occkit"
)

// TestScratchReuse: a scratch (the pooled outline and refiner of Valid
// and ValidBeside) that validations of other documents left gives every
// document the verdict a fresh outline and refiner give it, whatever
// those documents were: larger than the room (a roster of 300 agents,
// whose index grows past it), read twice (agents.list: the view is
// walked again in the same scratch), refused by the schema or by a
// refinement, or escaped. Once given back, a scratch holds nothing of
// the document it read (jsonwalk's TestOutlineReset: nor its outline's
// room).
func TestScratchReuse(t *testing.T) {
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
	for round := 0; round < 3; round++ {
		for i := range docs {
			// Each document after each other, in turn.
			d := docs[(i*(round+1))%len(docs)]
			doc, err := occkit.ParseDocument([]byte(d))
			if err != nil {
				t.Fatal(err)
			}
			want := fresh(doc)
			if err := v.Validate(doc); want != (err == nil) {
				t.Fatalf("%s: a fresh reading %v, Validate %v", d, want, err)
			}
			if got := v.Valid(doc); got != want {
				t.Errorf("%s: Valid %v in a used scratch, %v in a fresh one", d, got, want)
			}
			if got := v.ValidBeside(doc, nil); got != want {
				t.Errorf("%s: ValidBeside %v in a used scratch, %v in a fresh one", d, got, want)
			}
		}
	}

	s := takeScratch()
	doc := occkit.MustParseDocument(docs[1])
	if !v.passes(s, v.walkIn(s, doc)) {
		t.Fatal("the roster is refused")
	}
	if _, ok := s.out.Members(0); !ok || !s.out.Met(watchAlsoAllow) || s.ref.src == "" {
		t.Fatal("the scratch did not read the document")
	}
	s.give()
	if s.ref.src != "" || s.ref.kids != nil {
		t.Error("a scratch given back holds the refiner's index of the document it read")
	}
	for _, k := range s.ref.kidsRoom {
		if k.key != "" || k.kids != nil || k.byKey != nil {
			t.Fatal("a scratch given back holds the refiner's index of the document it read in its room")
		}
	}
	if _, ok := s.out.Members(0); ok || s.out.Met(watchAlsoAllow) {
		t.Error("a scratch given back holds the outline of the document it read")
	}
}
