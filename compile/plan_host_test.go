package compile

import (
	"regexp"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// validHost is the placement host pattern matched by hand: it agrees with
// the regular expression it replaces on every string.
func TestValidHostMatchesPattern(t *testing.T) {
	pattern := regexp.MustCompile(`^[A-Za-z0-9]([A-Za-z0-9.-]{0,252})$|^\[[0-9a-fA-F:]+\]$`)
	for _, s := range []string{"", "a", "127.0.0.1", "-a", "a-", "[::1]", "[]", "[", "]", "[g]", "a b", "a\n", "é",
		"[::1]x", "x[::1]", strings.Repeat("a", 253), strings.Repeat("a", 254), "[" + strings.Repeat("f", 300) + "]"} {
		if got, want := validHost(s), pattern.MatchString(s); got != want {
			t.Errorf("validHost(%q) = %v, the pattern says %v", s, got, want)
		}
	}
	rapid.Check(t, func(t *rapid.T) {
		s := rapid.OneOf(
			rapid.StringMatching(`[\[\]A-Za-z0-9.:\-_ \n]{0,8}`),
			rapid.StringMatching(`\[[0-9a-gA-G:\]]{0,6}\]?`),
			rapid.StringMatching(`[a-z][a-z.-]{250,254}`),
			rapid.String(),
		).Draw(t, "s")
		if got, want := validHost(s), pattern.MatchString(s); got != want {
			t.Fatalf("validHost(%q) = %v, the pattern says %v", s, got, want)
		}
	})
}

// validEnvName is the variable name pattern matched by hand: it agrees
// with envName on every string.
func TestValidEnvNameMatchesPattern(t *testing.T) {
	for _, s := range []string{"", "A", "_", "9", "A9", "a_b", "A-B", "A B", "É", "A\n", "\nA",
		strings.Repeat("A", 128), strings.Repeat("A", 129), "_" + strings.Repeat("9", 127), "9" + strings.Repeat("A", 127)} {
		if got, want := validEnvName(s), envName.MatchString(s); got != want {
			t.Errorf("validEnvName(%q) = %v, envName says %v", s, got, want)
		}
	}
	rapid.Check(t, func(t *rapid.T) {
		s := rapid.OneOf(
			rapid.StringMatching(`[A-Za-z0-9_\- \n$é]{0,8}`),
			rapid.StringMatching(`[A-Z_][A-Z0-9_]{125,130}`),
			rapid.String(),
		).Draw(t, "s")
		if got, want := validEnvName(s), envName.MatchString(s); got != want {
			t.Fatalf("validEnvName(%q) = %v, envName says %v", s, got, want)
		}
	})
}
