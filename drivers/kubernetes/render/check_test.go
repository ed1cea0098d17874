package render

import (
	"regexp"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation"
	"pgregory.net/rapid"

	"github.com/occkit/occkit"
)

// labelText draws text near the edges of DNS-1123 labels and image tags:
// their characters and a few others, dashes and dots at either end, and
// lengths around their limits.
func labelText(t *rapid.T) string {
	if rapid.IntRange(0, 4).Draw(t, "arbitrary") == 0 {
		return rapid.String().Draw(t, "s")
	}
	chars := []string{"a", "z", "A", "Z", "0", "9", "-", ".", "_", "/", ":", "é", " ", "\n"}
	var b strings.Builder
	for n := rapid.IntRange(0, 3).Draw(t, "n"); n > 0; n-- {
		b.WriteString(rapid.SampledFrom(chars).Draw(t, "c"))
	}
	mid := strings.Repeat(rapid.SampledFrom([]string{"a", "0", "_", "-"}).Draw(t, "fill"), rapid.SampledFrom([]int{0, 1, 60, 61, 62, 63, 125, 126, 127, 128}).Draw(t, "len"))
	return b.String() + mid + rapid.SampledFrom(append(chars, "")).Draw(t, "last")
}

// TestDNS1123Label: dns1123Label is validation.IsDNS1123Label.
func TestDNS1123Label(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := labelText(t)
		if got, want := dns1123Label(s), len(validation.IsDNS1123Label(s)) == 0; got != want {
			t.Fatalf("dns1123Label(%q) = %v, validation says %v", s, got, want)
		}
	})
}

// TestImageTag: imageTag is the registry's tag syntax.
func TestImageTag(t *testing.T) {
	tag := regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$`)
	rapid.Check(t, func(t *rapid.T) {
		s := labelText(t)
		if got, want := imageTag(s), tag.MatchString(s); got != want {
			t.Fatalf("imageTag(%q) = %v, the syntax says %v", s, got, want)
		}
	})
}

// TestNamesFromHashes: the names a render makes from the hashes it takes
// once are the exported names of the IDs.
func TestNamesFromHashes(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		agent, digest := rapid.String().Draw(t, "agent"), rapid.String().Draw(t, "digest")
		p := rapid.SampledFrom([]occkit.Process{occkit.ProcessGateway, occkit.ProcessHarness}).Draw(t, "process")
		for _, c := range []struct{ got, want string }{
			{workloadName(Hash(agent), p), WorkloadName(agent, p)},
			{dataName(Hash(agent), p), DataName(agent, p)},
			{configName(Hash(agent), Hash(digest), p), ConfigName(agent, digest, p)},
			{gatewayTokenSecretName(Hash(agent)), GatewayTokenSecretName(agent)},
			{appServerTokenSecretName(Hash(agent)), AppServerTokenSecretName(agent)},
		} {
			if c.got != c.want {
				t.Fatalf("%q, want %q", c.got, c.want)
			}
		}
	})
}
