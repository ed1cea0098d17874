package occkit_test

import (
	"testing"

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
