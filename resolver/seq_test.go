package resolver

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"pgregory.net/rapid"
)

// TestSeqMatchesSlice: a seq holds what a slice appended to holds, at
// the same indexes and, walked chunk by chunk, in the same order, and its
// chunks hold at most twice its members (seqMin for up to seqMin
// members).
func TestSeqMatchesSlice(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 5000).Draw(t, "n")
		var q seq[int32]
		var want []int32
		for i := range n {
			v := int32(i*7 + 3)
			if got := q.push(v); got != i {
				t.Fatalf("push %d returned index %d", i, got)
			}
			want = append(want, v)
		}
		got := make([]int32, q.len())
		for i := range got {
			got[i] = *q.at(i)
		}
		if d := cmp.Diff(want, got, cmpopts.EquateEmpty()); d != "" {
			t.Fatalf("members (-slice +seq):\n%s", d)
		}
		var walked []int32
		for k := range q.chunks() {
			walked = append(walked, q.chunk(k)...)
		}
		if d := cmp.Diff(want, walked, cmpopts.EquateEmpty()); d != "" {
			t.Fatalf("members walked chunk by chunk (-slice +seq):\n%s", d)
		}
		room := len(q.head)
		for _, c := range q.more {
			room += len(c)
		}
		if limit := max(2*n, seqMin); n > 0 && room > limit {
			t.Fatalf("%d members take room for %d (limit %d)", n, room, limit)
		}
	})
}
