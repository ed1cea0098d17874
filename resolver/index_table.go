package resolver

import (
	"math/bits"
	"math/rand/v2"
)

// indexTable maps a string to a small integer (an index into its owner's
// slice) by open addressing, for the per-model indexes. It stores only the
// integers, never the strings: the owner's probe reads the key of a
// stored value from the owner (catalogIndex.slot, providerConfig.slot),
// so the table is pointer-free and a quarter of the size of
// a map[string]int32. The garbage collector does not scan it, which keeps
// large catalogs linear in cost (a map's string keys are scanned on every
// collection while the index is live).
type indexTable []uint32 // 0: empty; else value+1

// tableKeys seed the hashes of every indexTable of the process (tableHash),
// drawn at random once, as the runtime draws its own hash keys, so that
// which keys of a document collide is not known before it is read.
var tableKeys = [2]uint64{rand.Uint64(), rand.Uint64()}

// tableHash is the hash of key in an indexTable: wyhash's reading of a
// string, as the runtime hashes one where it has no AES instructions
// (runtime.memhashFallback, without its three lanes for a key longer than
// 48 bytes), over the words of the string loaded in place. Keys are most
// often refs and model IDs of 8 to 32 bytes, which it reads in two to four
// loads and two to three multiplications, inlined in no call, where
// maphash.String takes three calls into the runtime.
func tableHash(key string) uint64 {
	const m5 = 0x1d8e4e27c47d124f
	n := len(key)
	seed := tableKeys[0]
	var a, b uint64
	switch {
	case n == 0:
		return seed
	case n < 4:
		a = uint64(key[0]) | uint64(key[n>>1])<<8 | uint64(key[n-1])<<16
	case n < 8:
		a, b = uint64(word4(key[:4])), uint64(word4(key[n-4:]))
	case n <= 16:
		a, b = word8(key[:8]), word8(key[n-8:])
	default:
		rest := key
		for ; len(rest) > 16; rest = rest[16:] {
			seed = mix(word8(rest[:8])^tableKeys[1], word8(rest[8:16])^seed)
		}
		// The last sixteen bytes, which may overlap the block before.
		a, b = word8(key[n-16:n-8]), word8(key[n-8:])
	}
	return mix(m5^uint64(n), mix(a^tableKeys[1], b^seed))
}

// mix is wyhash's step: the two halves of a·b folded.
func mix(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	return hi ^ lo
}

// word8 is the number of the eight bytes w (its first the lowest).
func word8(w string) uint64 {
	_ = w[7]
	return uint64(w[0]) | uint64(w[1])<<8 | uint64(w[2])<<16 | uint64(w[3])<<24 |
		uint64(w[4])<<32 | uint64(w[5])<<40 | uint64(w[6])<<48 | uint64(w[7])<<56
}

// word4 is the number of the four bytes w (its first the lowest).
func word4(w string) uint32 {
	_ = w[3]
	return uint32(w[0]) | uint32(w[1])<<8 | uint32(w[2])<<16 | uint32(w[3])<<24
}

// newIndexTable has room for n keys at a load of at most one third (the
// keys of a catalog often share a long prefix, so every probe past the
// key's own slot costs a long comparison). Its size is 3n, not a power
// of two: a key's first slot is its hash scaled to the size (the high
// word of hash·size), so a table is never up to twice as large as the
// load asks.
func newIndexTable(n int) indexTable {
	return make(indexTable, max(3*n, 2))
}

// firstSlot is where the probe for key starts in t: its hash scaled to
// t's size. t must not be empty.
func firstSlot(t indexTable, key string) int {
	i, _ := bits.Mul64(tableHash(key), uint64(len(t)))
	return int(i)
}

// The probes of the two kinds of table (catalogIndex.slot and
// providerConfig.slot) are written once for each owner, not as one
// generic function: the owners are pointers, which share one shape, so
// each slot probed would read its key through a function value, an
// indirect call beside the generic dictionary's.
