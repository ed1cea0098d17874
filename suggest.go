package occkit

import "strings"

// Suggest is the candidate closest to word by edit distance, when it is
// close enough to be a typo of it, else "": a difference of case only,
// or at most one edit (insertion, deletion, substitution or swap of two
// neighbours) for words of up to four characters, two up to twelve,
// three beyond. Ties go to the earlier candidate. Refusals use it for a
// did-you-mean: "agents.defualts" → "defaults", "kubernetse" →
// "kubernetes".
func Suggest(word string, candidates []string) string {
	limit := 1
	switch n := len([]rune(word)); {
	case n > 12:
		limit = 3
	case n > 4:
		limit = 2
	}
	best, bestD := "", limit+1
	for _, c := range candidates {
		if c == word {
			continue
		}
		d := editDistance(word, c)
		if strings.EqualFold(word, c) {
			d = min(d, 1)
		}
		if d < bestD {
			best, bestD = c, d
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

// editDistance is the Damerau (optimal string alignment) distance
// between a and b by code point; it answers 4 for any distance above 3.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	if d := len(ra) - len(rb); d > 3 || d < -3 {
		return 4
	}
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
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
	return prev[len(rb)]
}
