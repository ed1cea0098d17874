package jsonwalk

import (
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// pairKeys are the key literals of drawn documents: plain ones, one
// spelled with an escape ("\u0062" is b under every policy), and ones
// two policies decode apart (a lone surrogate, a byte that is not UTF-8,
// which Exact reads as U+FFFD and JS as itself).
var pairKeys = []string{`"a"`, `"b"`, `"c"`, `"\u0062"`, `"é"`, `"\ud800"`, "\"\xff\""}

// pairNames are the names pairKeys decode to under either policy: what
// a drawn schema names and an omitted path takes.
var pairNames = []string{"a", "b", "c", "é", "\ufffd", "\xff"}

// pairScalars are scalar literals, some of which two policies read apart
// (1e400 is no number to JS, a whole number to Exact).
var pairScalars = []string{`1`, `-0`, `1.5`, `2.0`, `1e400`, `12345678901234567890`,
	`""`, `"x"`, `"é"`, `"\u00e9"`, `"\ud800"`, "\"\xff\"", `true`, `false`, `null`}

// drawPairText is a JSON text of objects (keys drawn from pairKeys,
// repeats included), arrays and scalars.
func drawPairText(t *rapid.T, b *strings.Builder, depth int) {
	kind := rapid.IntRange(0, 5).Draw(t, "kind") % 3
	switch {
	case depth == 0:
		kind = 0 // a document is an object
	case depth >= 3:
		kind = 2
	}
	switch kind {
	case 0:
		b.WriteByte('{')
		for j := range rapid.IntRange(min(1, 2-depth), 4).Draw(t, "members") {
			if j > 0 {
				b.WriteByte(',')
			}
			b.WriteString(rapid.SampledFrom(pairKeys).Draw(t, "key") + ":")
			drawPairText(t, b, depth+1)
		}
		b.WriteByte('}')
	case 1:
		b.WriteByte('[')
		for j := range rapid.IntRange(0, 4).Draw(t, "elements") {
			if j > 0 {
				b.WriteByte(',')
			}
			drawPairText(t, b, depth+1)
		}
		b.WriteByte(']')
	default:
		b.WriteString(rapid.SampledFrom(pairScalars).Draw(t, "scalar"))
	}
}

// pairCheck accepts a value by its type bits, its literal and its
// decoded string, so that any of them read wrong shows.
type pairCheck struct{ mod int }

func (c pairCheck) Accepts(kind uint8, raw, s string) bool {
	return (int(kind)+len(raw)+3*len(s))%c.mod != 0
}

// drawPairNode is a schema of every kind the walker reads: typed,
// closed, required and named members, propertyNames, bounds, checks,
// tuples, references (allOf one) and unions. Each assertion is drawn
// rarely, so that texts pass or fail by one of them.
func drawPairNode(t *rapid.T, depth int) *Node {
	if depth >= 4 || depth > 0 && rapid.IntRange(0, 7).Draw(t, "nil") == 4 {
		return nil
	}
	rarely := func(label string) bool { return depth > 0 && rapid.IntRange(0, 15).Draw(t, label) == 8 }
	n := NewNode()
	if rarely("alias") {
		n.AllOf = []*Node{drawPairNode(t, depth+1)}
		return n
	}
	n.Never = rapid.IntRange(0, 40).Draw(t, "never") == 20
	if rarely("typed") {
		n.Types = uint8(rapid.SampledFrom([]int{int(Object), int(Array), int(Object | Array),
			int(String | Number), int(Integer | String | Object | Array), int(Number | Boolean | Null | Array)}).Draw(t, "types"))
	}
	n.Props = map[string]*Node{}
	for _, k := range pairNames {
		if rapid.Bool().Draw(t, "prop") {
			n.Props[k] = drawPairNode(t, depth+1)
		}
	}
	n.Closed = rarely("closed")
	if !n.Closed {
		n.Additional = drawPairNode(t, depth+1)
	}
	for _, k := range pairNames[:3] {
		if rarely("required") {
			n.Required = append(n.Required, k)
		}
	}
	if rarely("keys") {
		n.Keys = drawKeyNode(t, 1)
	}
	if rarely("maxProps") {
		n.MaxProps = rapid.IntRange(0, 3).Draw(t, "max")
	}
	for range rapid.IntRange(0, 2).Draw(t, "prefix") {
		n.Prefix = append(n.Prefix, drawPairNode(t, depth+1))
	}
	n.Rest = drawPairNode(t, depth+1)
	if rarely("minItems") {
		n.MinItems = rapid.IntRange(0, 2).Draw(t, "min")
	}
	if rarely("maxItems") {
		n.MaxItems = rapid.IntRange(0, 2).Draw(t, "max")
	}
	if rapid.IntRange(0, 4).Draw(t, "checked") == 2 {
		n.Check = pairCheck{mod: rapid.IntRange(5, 20).Draw(t, "mod")}
	}
	if rarely("union") {
		union := &n.AnyOf
		switch rapid.IntRange(0, 2).Draw(t, "kind") {
		case 0:
			union = &n.AllOf
		case 1:
			union = &n.OneOf
		}
		for range rapid.IntRange(1, 2).Draw(t, "branches") {
			*union = append(*union, drawPairNode(t, depth+1))
		}
	}
	return n
}

// sameOutline reports whether two outlines hold the same objects,
// members (offsets included) and met keys.
func sameOutline(x, y *Outline) bool {
	return slices.Equal(x.objects, y.objects) && slices.Equal(x.members, y.members) && x.met == y.met
}

// TestValidBothIsBothWalks: on drawn JSON texts and schema pairs, the
// one walk accepts exactly when each schema's own walk does, and then
// leaves the outline b's own walk leaves, omissions included, whichever
// policy reads which schema.
func TestValidBothIsBothWalks(t *testing.T) {
	var both, one, neither int
	check := func(t *rapid.T) {
		a, b := drawPairNode(t, 0), drawPairNode(t, 0)
		if err := Seal(a); err != nil {
			t.Fatal(err)
		}
		if err := Seal(b); err != nil {
			t.Fatal(err)
		}
		var text strings.Builder
		drawPairText(t, &text, 0)
		s := text.String()
		if rapid.Bool().Draw(t, "space") {
			s = " " + s + "\n"
		}
		var omit [][]string
		for range rapid.IntRange(0, 2).Draw(t, "omit") {
			omit = append(omit, rapid.SliceOfN(rapid.SampledFrom(pairNames), 1, 3).Draw(t, "path"))
		}
		depth := rapid.IntRange(0, 3).Draw(t, "depth")
		watch := []string{"b", "\xff", "c"}
		unrecorded := rapid.SliceOfN(rapid.SampledFrom(pairNames), 0, 2).Draw(t, "unrecorded")
		mine := &Outline{Depth: depth, Watch: watch, Omit: omit, Unrecorded: unrecorded}
		theirs := &Outline{Depth: depth, Watch: watch, Omit: omit, Unrecorded: unrecorded}
		var got, okA, okB bool
		if rapid.Bool().Draw(t, "exactFirst") {
			got = ValidBoth(Exact{}, a, JS{}, b, s, mine)
			okA, okB = Valid(Exact{}, a, s), ValidOutline(JS{}, b, s, theirs)
		} else {
			got = ValidBoth(JS{}, a, Exact{}, b, s, mine)
			okA, okB = Valid(JS{}, a, s), ValidOutline(Exact{}, b, s, theirs)
		}
		if got != (okA && okB) {
			t.Fatalf("%q: ValidBoth %v, the walks %v and %v", s, got, okA, okB)
		}
		if got && !sameOutline(mine, theirs) {
			t.Fatalf("%q: ValidBoth outlines %v %v met %b; b's walk %v %v met %b", s,
				mine.objects, mine.members, mine.met, theirs.objects, theirs.members, theirs.met)
		}
		switch {
		case okA && okB:
			both++
		case okA || okB:
			one++
		default:
			neither++
		}
	}
	// Ten rounds of draws (each its own seed): a difference the one walk
	// makes shows only where both schemas walk an object that one of its
	// assertions decides.
	for range 10 {
		rapid.Check(t, check)
	}
	t.Logf("%d texts passed both schemas, %d one, %d neither", both, one, neither)
	if both == 0 || one == 0 || neither == 0 {
		t.Errorf("%d texts passed both schemas, %d one, %d neither: want some of each", both, one, neither)
	}
}

// TestValidBothClosedRequired: a closed object that requires a key it
// does not name refuses the key as any unknown one (and so every object
// that has it), in the one walk as in each schema's own, on either side;
// the drawn pairs of TestValidBothIsBothWalks seldom make one.
func TestValidBothClosedRequired(t *testing.T) {
	closed := NewNode()
	closed.Closed, closed.Required = true, []string{"a"}
	named := NewNode()
	named.Props, named.Required = map[string]*Node{"b": nil}, []string{"b"}
	anyObject := NewNode() // looks at its members: bounds them
	anyObject.Types, anyObject.MaxProps = Object, 5
	for _, n := range []*Node{closed, named, anyObject} {
		if err := Seal(n); err != nil {
			t.Fatal(err)
		}
	}
	for _, s := range []string{`{"a":1}`, `{}`, `{"b":1}`, `{"a":1,"b":2}`, `{"\u0061":1}`} {
		for _, pair := range [][2]*Node{{closed, anyObject}, {anyObject, closed}, {closed, named}, {named, closed}} {
			want := Valid(Exact{}, pair[0], s) && Valid(JS{}, pair[1], s)
			if got := ValidBoth(Exact{}, pair[0], JS{}, pair[1], s, &Outline{Depth: 1}); got != want {
				t.Errorf("%s: ValidBoth %v, the two walks %v", s, got, want)
			}
		}
	}
}
