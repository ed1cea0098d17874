package occkit

import (
	"strings"
	"unicode/utf8"
)

// Suggest is the candidate closest to word by edit distance, when it is
// close enough to be a typo of it, else "": a difference of case only,
// or at most one edit (insertion, deletion, substitution or swap of two
// neighbours) for words of up to four characters, two up to twelve,
// three beyond. Ties go to the earlier candidate. Refusals use it for a
// did-you-mean: "agents.defualts" → "defaults", "kubernetse" →
// "kubernetes".
//
// Its cost is bounded by the candidates, not the word: a word more than
// three characters longer or shorter than a candidate is never within
// reach of it, so that candidate costs a rune count; a word out of reach
// of all of them (a 1 MiB key under a schema of short names) costs one
// pass over it and allocates nothing.
func Suggest(word string, candidates []string) string {
	n := utf8.RuneCountInString(word)
	limit := 1
	switch {
	case n > 12:
		limit = 3
	case n > 4:
		limit = 2
	}
	var d distance
	best, bestD := "", limit+1
	for _, c := range candidates {
		if c == word {
			continue
		}
		if m := utf8.RuneCountInString(c); m-n > 3 || n-m > 3 {
			continue
		}
		dist := d.between(word, c)
		if strings.EqualFold(word, c) {
			dist = min(dist, 1)
		}
		if dist < bestD {
			best, bestD = c, dist
		}
	}
	return best
}

// DidYouMean is "; did you mean X?" for [Suggest]'s answer, or "".
func DidYouMean(word string, candidates []string) string {
	if s := Suggest(word, candidates); s != "" {
		return "; did you mean " + s + "?"
	}
	return ""
}

// distance computes Damerau (optimal string alignment) distances by
// code point, reusing its buffers from one pair to the next; the word's
// runes are decoded once.
type distance struct {
	word            string
	a, b            []rune
	prev2, prev, cu []int
}

// between is the distance between word and c, 4 for any above 3.
func (d *distance) between(word, c string) int {
	if d.a == nil || d.word != word {
		d.word, d.a = word, []rune(word)
	}
	d.b = d.b[:0]
	for _, r := range c {
		d.b = append(d.b, r)
	}
	ra, rb := d.a, d.b
	if k := len(ra) - len(rb); k > 3 || k < -3 {
		return 4
	}
	grow := func(s []int) []int {
		if cap(s) < len(rb)+1 {
			return make([]int, len(rb)+1)
		}
		return s[:len(rb)+1]
	}
	prev2, prev, cur := grow(d.prev2), grow(d.prev), grow(d.cu)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	d.prev2, d.prev, d.cu = prev2, prev, cur
	return min(prev[len(rb)], 4)
}
