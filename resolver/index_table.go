package resolver

import (
	"hash/maphash"
	"math/bits"
)

// indexTable maps a string to a small integer (an index into its owner's
// slice) by open addressing, for the per-model indexes. It stores only the
// integers, never the strings: the owner gives back the key of a stored
// value (keyOf), so the table is pointer-free and a quarter of the size of
// a map[string]int32. The garbage collector does not scan it, which keeps
// large catalogs linear in cost (a map's string keys are scanned on every
// collection while the index is live).
type indexTable []uint32 // 0: empty; else value+1

// tableSeed seeds the hashes of every indexTable of the process.
var tableSeed = maphash.MakeSeed()

// newIndexTable has room for n keys at a load of at most one third (the
// keys of a catalog often share a long prefix, so every probe past the
// key's own slot costs a long comparison). Its size is 3n, not a power
// of two: a key's first slot is its hash scaled to the size (the high
// word of hash·size), so a table is never up to twice as large as the
// load asks.
func newIndexTable(n int) indexTable {
	return make(indexTable, max(3*n, 2))
}

// findSlot returns the slot holding key's value, or the empty slot where
// key belongs. t must not be empty.
func findSlot[S any](t indexTable, key string, owner S, keyOf func(S, uint32) string) (int, bool) {
	i, _ := bits.Mul64(maphash.String(tableSeed, key), uint64(len(t)))
	for {
		switch s := t[i]; {
		case s == 0:
			return int(i), false
		case keyOf(owner, s-1) == key:
			return int(i), true
		}
		if i++; i == uint64(len(t)) {
			i = 0
		}
	}
}

// tablePut stores v under key, returning the value it replaces, if any.
func tablePut[S any](t indexTable, key string, v uint32, owner S, keyOf func(S, uint32) string) (uint32, bool) {
	i, found := findSlot(t, key, owner, keyOf)
	prev := t[i]
	t[i] = v + 1
	return prev - 1, found
}

// tableGet returns the value stored under key.
func tableGet[S any](t indexTable, key string, owner S, keyOf func(S, uint32) string) (uint32, bool) {
	if len(t) == 0 {
		return 0, false
	}
	i, found := findSlot(t, key, owner, keyOf)
	return t[i] - 1, found
}
