package sensitive

import (
	"math/bits"
	"strings"
)

// anchors are the anchor keys of a set's patterns, built once with the
// set: each pattern's last key that is no `*` (its last segment's, or,
// for one that ends in `*`, as models.providers.*.headers.* does, the
// key before). A location a pattern names lies under a member of that
// key, so a document that holds no member of any anchor key matches no
// pattern. Most documents hold none (the anchors are the credential keys,
// apiKey, token, botToken, …, and the maps of them, headers and env), and
// a small one is told so by one pass over its text ([Set.mayMatch]),
// cheaper than the walk, whose cost is mostly fixed: it reads every
// member along the patterns' first keys (agents, models,
// models.providers' entries) and passes over the rest value by value.
type anchors struct {
	// keys are the anchor keys.
	keys map[string]bool
	// sigs has the bit [anchorSig] of each key set: a string whose bit
	// is not set is no anchor, told without a look-up.
	sigs [anchorBits / 64]uint64
}

// anchorBits is the size of anchors' table: with OpenClaw's some 40
// anchors, about one string in a hundred that is none is looked up.
const anchorBits = 4096

// anchorsOf are the anchors of patterns, or nil when a pattern has none
// (it is all `*`), so that any document may match.
func anchorsOf(patterns []Pattern) *anchors {
	a := &anchors{keys: map[string]bool{}}
	for _, p := range patterns {
		k, ok := p.anchor()
		if !ok {
			return nil
		}
		if !a.keys[k] {
			a.keys[k] = true
			sig := anchorSig(`"`+k+`"`, 1, len(k)+1)
			a.sigs[sig/64] |= 1 << (sig % 64)
		}
	}
	return a
}

// anchor is the pattern's last key that is no `*`, if it has one.
func (p Pattern) anchor() (string, bool) {
	for i := len(p.segs) - 1; i >= 0; i-- {
		if s := p.segs[i]; !s.any {
			return s.key, true
		}
	}
	return "", false
}

// anchorSig is the bit in anchors' table of the string raw[open:close],
// between two quotes, from its length and its first and last bytes (of
// the empty string, the quotes around it).
func anchorSig(raw string, open, close int) uint32 {
	x := uint32(close-open) | uint32(raw[open])<<8 | uint32(raw[close-1])<<16
	return x * 0x9e3779b1 >> (32 - 12)
}

// holds reports whether the string raw[open:close] is an anchor key.
func (a *anchors) holds(raw string, open, close int) bool {
	sig := anchorSig(raw, open, close)
	return a.sigs[sig/64]&(1<<(sig%64)) != 0 && a.keys[raw[open:close]]
}

// mayMatchMax is the longest text [Set.mayMatch] reads: it reads every
// byte, about three times faster than the walk, but the walk passes over
// the values the caller has read in one step each ([Set.EachKnown]),
// which are most of a larger document (the models maps, the catalogs).
// Up to a kilobyte (the bare document of ten models) the pass costs less
// than the walk's fixed part; from about two the walk costs less.
const mayMatchMax = 1024

// mayMatch reports whether a pattern of s may match in the JSON text
// raw: whether raw holds a string that is an anchor key, or an escape,
// which the walk would decode (a key written with one may be an
// anchor). It answers true for a text longer than mayMatchMax.
//
// Without a backslash in raw every quote opens or closes a string, and
// a string's value is its bytes between the quotes. The quotes are found
// eight bytes a step, and each string is looked up.
func (s *Set) mayMatch(raw string) bool {
	a := s.anchors
	if a == nil || len(raw) > mayMatchMax || strings.IndexByte(raw, '\\') >= 0 {
		return true
	}
	open := -1 // the offset after the quote that opened the string read, or -1
	for i := 0; i < len(raw); i += 8 {
		var x uint64
		if i+8 <= len(raw) {
			w := raw[i : i+8] // the loop's bounds let each load go unchecked
			x = uint64(w[0]) | uint64(w[1])<<8 | uint64(w[2])<<16 | uint64(w[3])<<24 |
				uint64(w[4])<<32 | uint64(w[5])<<40 | uint64(w[6])<<48 | uint64(w[7])<<56
		} else {
			// The last bytes, and zeros (no quote) above them.
			for k := len(raw) - 1; k >= i; k-- {
				x = x<<8 | uint64(raw[k])
			}
		}
		q := quotes(x)
		if q == 0 {
			continue
		}
		if open >= 0 {
			// The string opened in a word before closes at the first
			// quote.
			j := i + bits.TrailingZeros64(q)>>3
			if a.holds(raw, open, j) {
				return true
			}
			q &= q - 1
		}
		// The quotes left open and close strings by twos.
		open = -1
		for q != 0 {
			o := i + bits.TrailingZeros64(q)>>3 + 1
			if q &= q - 1; q == 0 {
				open = o // closed in a word after
				break
			}
			if a.holds(raw, o, i+bits.TrailingZeros64(q)>>3) {
				return true
			}
			q &= q - 1
		}
	}
	return false
}

// quotes has the high bit set in each byte of the word x that is '"',
// and only there (jsonwalk.Matches sets it in the lowest such byte, and
// maybe in bytes above it, which a pass that visits every quote cannot
// tell from quotes).
func quotes(x uint64) uint64 {
	const low, high = 0x0101010101010101, 0x8080808080808080
	y := x ^ '"'*low
	return ^((y&^high + 0x7f*low) | y) & high
}
