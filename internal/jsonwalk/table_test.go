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
