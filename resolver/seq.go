package resolver

import "math/bits"

// seqMin is how many members the first chunk of a [seq] holds.
const seqMin = 16

// seq is a sequence of T appended one at a time and read by index, for
// the per-model tables (catalog keys, provider rows, fallbacks) whose
// length is known only once the container they come from has been read.
// It stores its members in chunks of seqMin, seqMin, 2·seqMin, 4·seqMin,
// … members, each chunk as large as all before it: a member is never
// copied when more come, the chunks hold at most twice the members (at
// most seqMin for up to seqMin members), and the container is read once,
// not skipped over first to be sized. The zero seq is empty.
type seq[T any] struct {
	head []T   // members 0 to seqMin-1
	more [][]T // more[k-1] holds seqMin<<(k-1) members from seqMin<<(k-1)
	n    int
}

// seqSlot is the chunk (0: head, k: more[k-1]) and the place in it of
// member i.
func seqSlot(i int) (chunk, at int) {
	if i < seqMin {
		return 0, i
	}
	chunk = bits.Len(uint(i / seqMin))
	return chunk, i - seqMin<<(chunk-1)
}

// push appends v and returns its index.
func (q *seq[T]) push(v T) int {
	i := q.n
	q.n++
	if i < seqMin {
		if q.head == nil {
			q.head = make([]T, seqMin)
		}
		q.head[i] = v
		return i
	}
	k, j := seqSlot(i)
	if k > len(q.more) {
		if q.more == nil {
			// Room for up to 256 members before it grows.
			q.more = make([][]T, 0, 4)
		}
		q.more = append(q.more, make([]T, seqMin<<(k-1)))
	}
	q.more[k-1][j] = v
	return i
}

// at is member i (0 <= i < q.len()).
func (q *seq[T]) at(i int) *T {
	if i < seqMin {
		return &q.head[i]
	}
	k, j := seqSlot(i)
	return &q.more[k-1][j]
}

// len is how many members q holds.
func (q *seq[T]) len() int { return q.n }

// chunks is how many chunks hold q's members: [seq.chunk] 0 to
// chunks()-1 hold them in order, for a walk over all of them that does
// not find each member's chunk anew (at).
func (q *seq[T]) chunks() int {
	if q.n == 0 {
		return 0
	}
	k, _ := seqSlot(q.n - 1)
	return k + 1
}

// chunk is chunk k's members (0: head), the last chunk cut to those
// pushed.
func (q *seq[T]) chunk(k int) []T {
	c, start := q.head, 0
	if k > 0 {
		c, start = q.more[k-1], seqMin<<(k-1)
	}
	if rest := q.n - start; rest < len(c) {
		c = c[:rest]
	}
	return c
}
