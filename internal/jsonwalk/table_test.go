package jsonwalk

import (
	"testing"

	"pgregory.net/rapid"
)

// TestTableFindsWhatAMapFinds: a node's table of many members finds a key
// exactly when the map of its members holds it, with the same meaning,
// for drawn key sets (lengths, shared first and last bytes, the empty
// key) and drawn keys, present or not.
func TestTableFindsWhatAMapFinds(t *testing.T) {
	key := rapid.StringOfN(rapid.SampledFrom([]rune("abcé_\\x00")), 0, 12, -1)
	rapid.Check(t, func(t *rapid.T) {
		members := map[string]member{}
		for i, k := range rapid.SliceOfN(key, 0, 80).Draw(t, "keys") {
			members[k] = member{named: i%2 == 0, bit: uint64(i)}
		}
		tab := newTable(members)
		for k, want := range members {
			if got, ok := tab.find(k); !ok || got != want {
				t.Fatalf("find(%q) = %v %v, want %v", k, got, ok, want)
			}
		}
		for _, k := range rapid.SliceOfN(key, 1, 20).Draw(t, "lookups") {
			want, wantOK := members[k]
			if got, ok := tab.find(k); ok != wantOK || got != want {
				t.Fatalf("find(%q) = %v %v, want %v %v", k, got, ok, want, wantOK)
			}
		}
	})
}

// TestMemberFindsWhatAMapFinds: a sealed node finds a key among its
// members, few or many, exactly when the map of its members holds it,
// with the same meaning: keys of every length around a word's, sharing
// their first eight bytes, holding zero bytes (a head's padding) or not.
func TestMemberFindsWhatAMapFinds(t *testing.T) {
	key := rapid.OneOf(
		rapid.StringOfN(rapid.SampledFrom([]rune("ab\x00é")), 0, 11, -1),
		rapid.StringOfN(rapid.SampledFrom([]rune("ab")), 15, 20, -1),
		rapid.Custom(func(t *rapid.T) string {
			return "prefix12" + rapid.StringOfN(rapid.SampledFrom([]rune("xy\x00")), 0, 10, -1).Draw(t, "middle") + "suffix12"
		}))
	rapid.Check(t, func(t *rapid.T) {
		n := NewNode()
		n.Props = map[string]*Node{}
		for _, k := range rapid.SliceOfN(key, 0, 20).Draw(t, "props") {
			n.Props[k] = NewNode()
		}
		n.Required = rapid.SliceOfNDistinct(key, 0, 4, rapid.ID).Draw(t, "required")
		if err := Seal(n); err != nil {
			t.Fatal(err)
		}
		lookups := rapid.SliceOfN(key, 1, 20).Draw(t, "lookups")
		for k := range n.members {
			lookups = append(lookups, k)
		}
		for _, k := range lookups {
			want, wantOK := n.members[k]
			if got, ok := n.member(k); ok != wantOK || got != want {
				t.Fatalf("member(%q) = %v %v, want %v %v", k, got, ok, want, wantOK)
			}
		}
	})
}

// TestHeadsAreTheFirstAndLastBytes: heads is the key's first eight
// bytes, the first in the lowest byte, zero past its end, and, past eight
// bytes, its last eight.
func TestHeadsAreTheFirstAndLastBytes(t *testing.T) {
	le := func(b string) uint64 {
		var x uint64
		for i := len(b) - 1; i >= 0; i-- {
			x = x<<8 | uint64(b[i])
		}
		return x
	}
	rapid.Check(t, func(t *rapid.T) {
		k := rapid.StringN(0, 20, -1).Draw(t, "k")
		wantHead, wantTail := le(k[:min(len(k), 8)]), uint64(0)
		if len(k) > 8 {
			wantTail = le(k[len(k)-8:])
		}
		if h, tl := heads(k); h != wantHead || tl != wantTail {
			t.Fatalf("heads(%q) = %#x, %#x; want %#x, %#x", k, h, tl, wantHead, wantTail)
		}
	})
}
