package occkit_test

import (
	"fmt"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/occkit/occkit"
)

func TestSuggest(t *testing.T) {
	for _, tc := range []struct {
		word       string
		candidates []string
		want       string
	}{
		{"defualts", []string{"defaults", "entries", "list"}, "defaults"},
		{"fallback", []string{"primary", "fallbacks"}, "fallbacks"},
		{"kubernetse", []string{"kubernetes", "ssh", "docker"}, "kubernetes"},
		{"SSH", []string{"kubernetes", "ssh", "docker"}, "ssh"},
		{"codx", []string{"openclaw", "codex"}, "codex"},
		{"nomad", []string{"kubernetes", "ssh", "docker"}, ""},
		{"acme", []string{"kubernetes", "ssh", "docker"}, ""},
		{"ssh", []string{"ssh"}, ""},
		{"", []string{"a"}, "a"},
		{"x", nil, ""},
		{"modelsproviders", []string{"models"}, ""},
	} {
		if got := occkit.Suggest(tc.word, tc.candidates); got != tc.want {
			t.Errorf("Suggest(%q) = %q, want %q", tc.word, got, tc.want)
		}
	}
	if got := occkit.DidYouMean("defualts", []string{"defaults"}); got != "; did you mean defaults?" {
		t.Errorf("DidYouMean = %q", got)
	}
	if got := occkit.DidYouMean("zzz", []string{"defaults"}); got != "" {
		t.Errorf("DidYouMean = %q", got)
	}
}

// A word far longer than every candidate costs a pass over it, not a
// conversion per candidate (issue 31: a 1 MiB unknown key under a
// schema object allocated 222 MiB).
func TestSuggestLongWordAllocatesNothing(t *testing.T) {
	word := strings.Repeat("k", 1<<20)
	names := []string{"defaults", "entries", "list", "model", "models", "workspace", "sandbox"}
	if got := testing.AllocsPerRun(5, func() { occkit.Suggest(word, names) }); got != 0 {
		t.Errorf("Suggest of a 1 MiB word allocated %v times", got)
	}
	// Words within reach allocate a bounded amount, whatever the number
	// of candidates.
	many := make([]string, 1000)
	for i := range many {
		many[i] = fmt.Sprintf("setting%03d", i)
	}
	if got := testing.AllocsPerRun(5, func() { occkit.Suggest("settnig500", many) }); got > 8 {
		t.Errorf("Suggest over 1,000 candidates allocated %v times", got)
	}
	if got := occkit.Suggest("settnig500", many); got != "setting500" {
		t.Errorf("Suggest = %q", got)
	}
}

// Suggest agrees with a plain edit distance on random words.
func TestSuggestMatchesDistance(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		word := rapid.StringMatching(`[a-cA-C]{0,8}`).Draw(t, "word")
		cands := rapid.SliceOfN(rapid.StringMatching(`[a-cA-C]{0,8}`), 0, 6).Draw(t, "candidates")
		limit := 1
		switch n := len(word); {
		case n > 12:
			limit = 3
		case n > 4:
			limit = 2
		}
		want, bestD := "", limit+1
		for _, c := range cands {
			if c == word {
				continue
			}
			d := osa(word, c)
			if strings.EqualFold(word, c) {
				d = min(d, 1)
			}
			if d < bestD {
				want, bestD = c, d
			}
		}
		if got := occkit.Suggest(word, cands); got != want {
			t.Fatalf("Suggest(%q, %q) = %q, want %q", word, cands, got, want)
		}
	})
}

// osa is the optimal string alignment distance, written out in full.
func osa(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}
