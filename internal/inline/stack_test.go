package inline

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// TestStackMatchesSlice: a Stack holds what a slice pushed and popped
// the same way holds, below and beyond its own room.
func TestStackMatchesSlice(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var s Stack[int]
		var want []int
		for i, n := 0, rapid.IntRange(0, 60).Draw(t, "ops"); i < n; i++ {
			switch op := rapid.IntRange(0, 9).Draw(t, "op"); {
			case op == 0:
				s.Reset()
				want = want[:0]
			case op < 4 && len(want) > 0:
				s.Pop()
				want = want[:len(want)-1]
			default:
				s.Push(i)
				want = append(want, i)
			}
			if s.Len() != len(want) {
				t.Fatalf("Len = %d, want %d", s.Len(), len(want))
			}
			at := []int{}
			for j := range s.Len() {
				at = append(at, s.At(j))
			}
			if d := cmp.Diff(append([]int{}, want...), at); d != "" {
				t.Fatalf("At (-want +got):\n%s", d)
			}
			if d := cmp.Diff(append([]int{}, want...), append([]int{}, s.All()...)); d != "" {
				t.Fatalf("All (-want +got):\n%s", d)
			}
		}
	})
}
