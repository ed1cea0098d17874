package sensitive

import (
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/internal/bench"
)

// walkFinds reports whether the walk finds a location of set in the JSON
// text raw (which need not be compact).
func walkFinds(set *Set, raw string) bool {
	f := finder{raw: raw}
	f.walk(set.root, &knownSpans{}, 0)
	return len(f.found) > 0
}

// spaced is the JSON text raw with whitespace drawn around its
// structural bytes (outside its strings, which hold no quote but those
// around them when raw holds no backslash, and are left whole
// otherwise).
func spaced(t *rapid.T, raw string) string {
	if strings.Contains(raw, `\`) {
		return raw
	}
	var b strings.Builder
	in := false
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if c == '"' {
			in = !in
		}
		if !in && strings.IndexByte("{}[]:,", c) >= 0 {
			b.WriteString(rapid.SampledFrom([]string{"", " ", "\n\t", "\r\n  "}).Draw(t, "space"))
		}
		b.WriteByte(c)
	}
	return b.String()
}

// TestMayMatchOracle: where the walk finds a location, mayMatch says a
// pattern may match: in documents drawn along the patterns (escaped keys
// among them), as compact text and with whitespace, under the release's
// patterns and under patterns drawn from the keys, wildcards and arrays.
func TestMayMatchOracle(t *testing.T) {
	keys := []string{"channels", "slack", "botToken", "accounts", "a", "agents", "entries", "tts", "providers",
		"apiKey", "models", "token", "tools", "media", "request", "headers", "key", ""}
	skipped, found := 0, 0
	rapid.Check(t, func(t *rapid.T) {
		set := SetFor("")
		if rapid.Bool().Draw(t, "drawn patterns") {
			var lines []string
			for n := rapid.IntRange(0, 4).Draw(t, "patterns"); n > 0; n-- {
				var segs []string
				for m := rapid.IntRange(1, 4).Draw(t, "segments"); m > 0; m-- {
					seg := rapid.SampledFrom(append([]string{"*"}, keys...)).Draw(t, "segment")
					if rapid.IntRange(0, 3).Draw(t, "array") == 0 {
						seg += "[]"
					}
					segs = append(segs, seg)
				}
				lines = append(lines, strings.Join(segs, "."))
			}
			set = Compile(ParseList(lines))
		}
		src := genValue(t, 6)
		if rapid.Bool().Draw(t, "along") {
			// Values where the release's patterns run, now and then with
			// a provider's key planted, so that a check of a hundred
			// draws sees the walk find something (one in two hundred
			// drew nothing it finds without one).
			provider := genValue(t, 3)
			if rapid.IntRange(0, 3).Draw(t, "planted") == 0 {
				provider = `{"apiKey":"${K}","api":` + genValue(t, 1) + `}`
			}
			src = `{"models":{"providers":{"p":` + provider + `}},"channels":` + genValue(t, 4) + `}`
		}
		doc, err := occkit.ParseDocument([]byte(src))
		if err != nil {
			t.Skipf("not a document: %v", err)
		}
		for _, raw := range []string{doc.String(), spaced(t, doc.String())} {
			if walkFinds(set, raw) {
				found++
				if !set.mayMatch(raw) {
					t.Fatalf("%s: the walk finds a location, mayMatch says none can match", raw)
				}
			} else if !set.mayMatch(raw) {
				skipped++
			}
		}
	})
	if skipped == 0 || found == 0 {
		t.Errorf("%d drawn texts were told to match nothing, and the walk found something in %d: want some of each", skipped, found)
	}
}

// TestMayMatchSmallDocuments: the walk is left out for a small document
// without credential keys, the bare benchmark document of one model,
// and not for one that holds one (a provider's apiKey, a header, a key
// written with an escape), nor for a larger one.
func TestMayMatchSmallDocuments(t *testing.T) {
	set := SetFor("")
	bare := string(bench.Bare(1))
	if set.mayMatch(bare) {
		t.Errorf("mayMatch holds for the bare document of one model:\n%s", bare)
	}
	for _, src := range []string{
		strings.Replace(bare, `"api":`, `"apiKey":"${K}","api":`, 1),
		strings.Replace(bare, `"api":`, `"headers":{"X":"1"},"api":`, 1),
		strings.Replace(bare, `"api":`, `"api\u004bey":"${K}","api":`, 1),
		`{"models":{"providers":{"p":{"apiKey":"k"}}}}`,
		`{"token":1}`,
		string(bench.Bare(40)),
	} {
		if !set.mayMatch(src) {
			t.Errorf("mayMatch does not hold for\n%s", src)
		}
	}
	// A set with a pattern of no key may match anything.
	if !Compile(ParseList([]string{"models.providers.*.apiKey", "*.*"})).mayMatch(`{}`) {
		t.Error("mayMatch does not hold for a set with the pattern *.*")
	}
}
