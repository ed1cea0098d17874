package jsonwalk

import (
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// keyCheck accepts a value by its raw literal and its decoded string, so
// that a key checked from the wrong bytes shows.
type keyCheck struct{ mod int }

func (c keyCheck) Accepts(kind uint8, raw, s string) bool {
	return kind == String && (len(raw)+len(s))%c.mod != 0 && !strings.Contains(s, "x")
}

// drawKeyNode is a propertyNames schema: maybe false, typed, checked, or
// a union of such.
func drawKeyNode(t *rapid.T, depth int) *Node {
	n := NewNode()
	n.Never = rapid.IntRange(0, 9).Draw(t, "never") == 0
	n.Types = uint8(rapid.IntRange(0, 127).Draw(t, "types"))
	if rapid.Bool().Draw(t, "checked") {
		n.Check = keyCheck{mod: rapid.IntRange(2, 5).Draw(t, "mod")}
	}
	if depth == 0 {
		for range rapid.IntRange(0, 2).Draw(t, "anyOf") {
			n.AnyOf = append(n.AnyOf, drawKeyNode(t, depth+1))
		}
	}
	return n
}

// TestKeysMatchTheirOwnWalk: an object whose schema has propertyNames k
// is valid exactly when every key, walked alone as a string value against
// k, is: the walker checks a key from the literal it read as the key
// (walker.key) instead of reading it again as a value.
func TestKeysMatchTheirOwnWalk(t *testing.T) {
	keys := []string{`"a"`, `"x"`, `""`, `"ab\u0063"`, `"\\"`, `"é"`, `"\"q\""`,
		`"` + strings.Repeat("k", 20) + `"`, `"` + strings.Repeat("long", 30) + `"`, `"\ud83d\ude00"`}
	rapid.Check(t, func(t *rapid.T) {
		k := drawKeyNode(t, 0)
		obj := NewNode()
		obj.Keys = k
		if err := Seal(obj); err != nil {
			t.Fatal(err)
		}
		lits := rapid.SliceOfN(rapid.SampledFrom(keys), 0, 4).Draw(t, "keys")
		var b strings.Builder
		b.WriteByte('{')
		want := true
		for j, l := range lits {
			if j > 0 {
				b.WriteByte(',')
			}
			b.WriteString(l + ":0")
			want = want && Valid(JS{}, k, l)
		}
		b.WriteByte('}')
		if got := Valid(JS{}, obj, b.String()); got != want {
			t.Fatalf("JS: %s: got %v, its keys alone say %v", b.String(), got, want)
		}
		wantExact := true
		for _, l := range lits {
			wantExact = wantExact && Valid(Exact{}, k, l)
		}
		if got := Valid(Exact{}, obj, b.String()); got != wantExact {
			t.Fatalf("Exact: %s: got %v, its keys alone say %v", b.String(), got, wantExact)
		}
	})
}
