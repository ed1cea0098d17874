package resolver

import "sync"

// scratch is what a Prepare builds and drops before it returns, kept for
// the next one: the chunks of the catalogs' keys and of the providers'
// rows, and the hash tables over them. A Configuration's index is as
// large as its catalogs, and without this every Prepare would allocate
// it anew and leave it to the garbage collector at once. Only memory is
// kept, never what it held: every member a seq hands back was pushed by
// its current owner, and every table is cleared when it is taken. A
// scratch serves one Prepare at a time (scratchPool), and a kept
// [Prepared] references none of it (the catalogs, rows and tables are
// dropped once resolution is decided; see [docIndex.keepSelected]).
type scratch struct {
	keys   pile[seq[catalogKey]]
	rows   pile[seq[catalogRow]]
	tables pile[indexTable]
}

// scratchPool holds the scratches between Prepares. Like any sync.Pool,
// it is emptied by the garbage collector, so what it keeps lives at most
// two collections after the last Prepare.
var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

// pileMax is how many of one kind a scratch keeps, and pileRoom how many
// members (or slots) one may hold to be kept: memory for a few
// catalogs of tens of thousands of models, not for the largest document
// ever prepared.
const (
	pileMax  = 8
	pileRoom = 1 << 16
)

// pile is the free values of one kind a scratch keeps, and the places
// the current Prepare set from it.
type pile[T any] struct {
	free  []T
	taken []*T
}

// take sets *at to the free value that fits best (the one of least room
// among those fits accepts, room and fits nil: the first), or leaves it
// as it is when none fits, and remembers at so that giveBack finds it.
func (p *pile[T]) take(at *T, room func(*T) int, fits func(*T) bool) {
	best := -1
	for i := range p.free {
		if fits != nil && !fits(&p.free[i]) {
			continue
		}
		if best < 0 || room != nil && room(&p.free[i]) < room(&p.free[best]) {
			best = i
		}
	}
	if best >= 0 {
		*at = p.free[best]
		last := len(p.free) - 1
		p.free[best] = p.free[last]
		var zero T
		p.free[last] = zero
		p.free = p.free[:last]
	}
	p.taken = append(p.taken, at)
}

// giveBack takes every value taken back from its place (which it
// zeroes), keeping the ones reset accepts, as reset leaves them.
func (p *pile[T]) giveBack(reset func(*T) bool) {
	var zero T
	for _, at := range p.taken {
		if len(p.free) < pileMax && reset(at) {
			p.free = append(p.free, *at)
		}
		*at = zero
	}
	clear(p.taken)
	p.taken = p.taken[:0]
}

// seqRoom is how many members q's chunks hold.
func seqRoom[T any](q *seq[T]) int {
	n := len(q.head)
	for _, c := range q.more {
		n += len(c)
	}
	return n
}

// resetSeq empties q, keeping its chunks when they are not too large.
func resetSeq[T any](q *seq[T]) bool {
	q.n = 0
	return seqRoom(q) <= pileRoom
}

// keySeq sets *q, an empty seq, to a kept one (s may be nil: a scratch
// that keeps nothing).
func (s *scratch) keySeq(q *seq[catalogKey]) {
	if s != nil {
		s.keys.take(q, nil, nil)
	}
}

// rowSeq sets *q, an empty seq, to a kept one.
func (s *scratch) rowSeq(q *seq[catalogRow]) {
	if s != nil {
		s.rows.take(q, nil, nil)
	}
}

// table sets *t to an empty table with room for n keys ([newIndexTable]),
// a kept one when one is large enough.
func (s *scratch) table(t *indexTable, n int) {
	if s == nil {
		*t = newIndexTable(n)
		return
	}
	size := tableSize(n)
	s.tables.take(t, func(t *indexTable) int { return cap(*t) }, func(t *indexTable) bool { return cap(*t) >= size })
	if *t == nil {
		*t = newIndexTable(n)
		return
	}
	*t = (*t)[:size]
	clear(*t)
}

// giveBack takes back everything the current Prepare took: its catalogs'
// keys, its providers' rows and its tables are emptied.
func (s *scratch) giveBack() {
	if s == nil {
		return
	}
	s.keys.giveBack(resetSeq[catalogKey])
	s.rows.giveBack(resetSeq[catalogRow])
	s.tables.giveBack(func(t *indexTable) bool {
		*t = (*t)[:cap(*t)]
		return len(*t) <= pileRoom
	})
}
