package openclawschema

import (
	"regexp/syntax"
	"unicode/utf8"
)

// byteRuns is a pattern anchored at both ends that is a sequence of ASCII
// classes, each repeated between a least and a most number of times:
// "^[a-z0-9_][a-z0-9_-]{0,63}$", the form of the schema's id and key
// patterns. It matches a string byte by byte, without the regexp engine,
// and means what RE2 means by the pattern: a class of ASCII runes never
// matches a byte of a multi-byte or invalid UTF-8 sequence, which RE2
// reads as a rune past ASCII or U+FFFD.
type byteRuns []byteRun

// byteRun is one class of a [byteRuns], repeated min to max times (max
// -1: without bound).
type byteRun struct {
	set      [2]uint64 // the ASCII bytes of the class
	min, max int
}

func (c *byteRun) has(b byte) bool { return b < utf8.RuneSelf && c.set[b>>6]&(1<<(b&63)) != 0 }

// maxRunText is the longest string byteRuns matches itself; a longer
// one goes to the regexp (match's table of places is on the stack).
const maxRunText = 128

// newByteRuns is the byteRuns of the RE2 pattern text, or nil when the
// pattern is of another form.
func newByteRuns(text string) byteRuns {
	re, err := syntax.Parse(text, syntax.Perl)
	if err != nil || re.Op != syntax.OpConcat || len(re.Sub) < 2 ||
		re.Sub[0].Op != syntax.OpBeginText || re.Sub[len(re.Sub)-1].Op != syntax.OpEndText {
		return nil
	}
	var out byteRuns
	for _, sub := range re.Sub[1 : len(re.Sub)-1] {
		least, most := 1, 1
		switch sub.Op {
		case syntax.OpStar:
			least, most, sub = 0, -1, sub.Sub[0]
		case syntax.OpPlus:
			least, most, sub = 1, -1, sub.Sub[0]
		case syntax.OpQuest:
			least, most, sub = 0, 1, sub.Sub[0]
		case syntax.OpRepeat:
			least, most, sub = sub.Min, sub.Max, sub.Sub[0]
		}
		switch sub.Op {
		case syntax.OpCharClass:
			var run byteRun
			for i := 0; i+1 < len(sub.Rune); i += 2 {
				lo, hi := sub.Rune[i], sub.Rune[i+1]
				if hi >= utf8.RuneSelf {
					return nil
				}
				for r := lo; r <= hi; r++ {
					run.set[r>>6] |= 1 << (r & 63)
				}
			}
			run.min, run.max = least, most
			out = append(out, run)
		case syntax.OpLiteral:
			if sub.Flags&syntax.FoldCase != 0 || len(sub.Rune) != 1 && (least != 1 || most != 1) {
				return nil
			}
			for _, r := range sub.Rune {
				if r >= utf8.RuneSelf {
					return nil
				}
				run := byteRun{min: least, max: most}
				run.set[r>>6] |= 1 << (r & 63)
				out = append(out, run)
			}
		default:
			return nil
		}
	}
	return out
}

// match reports whether s matches, and ok false when s is longer than
// maxRunText. It follows every place in s the runs so far can end at.
func (rs byteRuns) match(s string) (matched, ok bool) {
	if len(s) > maxRunText {
		return false, false
	}
	var places [2][maxRunText + 1]bool
	cur, next := &places[0], &places[1]
	cur[0] = true
	lo, hi := 0, 0 // the places cur may hold
	for i := range rs {
		run := &rs[i]
		*next = [maxRunText + 1]bool{}
		nlo, nhi := len(s)+1, -1
		for p := lo; p <= hi; p++ {
			if !cur[p] {
				continue
			}
			k := 0
			for p+k < len(s) && (run.max < 0 || k < run.max) && run.has(s[p+k]) {
				k++
			}
			for j := run.min; j <= k; j++ {
				next[p+j] = true
			}
			if run.min <= k {
				nlo, nhi = min(nlo, p+run.min), max(nhi, p+k)
			}
		}
		if nhi < 0 {
			return false, true
		}
		cur, next, lo, hi = next, cur, nlo, nhi
	}
	return cur[len(s)], true
}
