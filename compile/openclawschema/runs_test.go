package openclawschema

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
	"pgregory.net/rapid"
)

// schemaPatterns are the patterns of every release's schema.
func schemaPatterns(t testing.TB) []string {
	seen := map[string]bool{}
	var walk func(v gjson.Result)
	walk = func(v gjson.Result) {
		v.ForEach(func(k, c gjson.Result) bool {
			if k.String() == "pattern" && c.Type == gjson.String {
				seen[c.String()] = true
			}
			if c.IsObject() || c.IsArray() {
				walk(c)
			}
			return true
		})
	}
	for _, version := range Releases() {
		c, err := ContractFor(version)
		if err != nil {
			t.Fatal(err)
		}
		walk(gjson.ParseBytes(c.Schema()))
	}
	var out []string
	for p := range seen {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}

// TestByteRunsForms: which patterns byteRuns takes, written out by hand.
func TestByteRunsForms(t *testing.T) {
	for _, tt := range []struct {
		pattern string
		runs    int // 0: not a byteRuns
	}{
		{`^[a-z0-9_][a-z0-9_-]{0,63}$`, 2},
		{`^\d+$`, 1},
		{`^ghp_[a-f0-9]{32}$`, 5},
		{`^#?[0-9a-fA-F]{6}$`, 2},
		{`^[A-Z_][A-Z0-9_]*$`, 2},
		{`^[a-z0-9-]+$`, 1},
		{`^https?:\/\/`, 0}, // not anchored at the end
		{`[a-z]+$`, 0},      // nor at the start
		{`^[^/]+$`, 0},      // a class past ASCII
		{`^(?:ab)+$`, 0},    // a repeated group
		{`^a|b$`, 0},        // an alternation
		{`^é+$`, 0},         // a literal past ASCII
		{`^(?:[A-Za-z][A-Za-z0-9_./-]*)?$`, 0},
	} {
		p, err := compilePattern(tt.pattern)
		if err != nil {
			t.Fatalf("%s: %v", tt.pattern, err)
		}
		if len(p.runs) != tt.runs {
			t.Errorf("%s: %d runs, want %d", tt.pattern, len(p.runs), tt.runs)
		}
	}
	// RE2 text with flags no schema pattern has: folding adds the
	// Kelvin sign to [a-z], and a folded literal is two bytes.
	for _, text := range []string{`(?i)^[a-z]+$`, `(?i)^ab$`, `(?m)^ab$`} {
		if runs := newByteRuns(text); runs != nil {
			t.Errorf("%s: %d runs, want none", text, len(runs))
		}
	}
}

// TestByteRunsMatchRE2: for every schema pattern byteRuns takes, and
// for a few more, a match is RE2's on any string, past maxRunText too.
func TestByteRunsMatchRE2(t *testing.T) {
	patterns := append(schemaPatterns(t), `^[a-z]*[a-z0-9]$`, `^a?a?a?aaa$`, `^[ab]{2,3}b{1,}[a-c]?$`, `^x$`, `^[a-z]{0,2}[0-9]{3}$`)
	var taken []*pattern
	var texts []string
	for _, src := range patterns {
		p, err := compilePattern(src)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		if p.runs != nil {
			taken = append(taken, p)
			texts = append(texts, src)
		}
	}
	if len(taken) < 10 {
		t.Fatalf("byteRuns takes %d patterns, fewer than the schema's id and key patterns", len(taken))
	}
	matched := make([]int, len(taken))
	rapid.Check(t, func(t *rapid.T) {
		i := rapid.IntRange(0, len(taken)-1).Draw(t, "pattern")
		p := taken[i]
		// An alphabet of the pattern's own bytes and some others: ASCII
		// of every kind, a multi-byte rune, an invalid byte, NUL.
		alphabet := []string{"a", "z", "A", "Z", "0", "9", "_", "-", ".", " ", "é", "日", "\xff", "\x00"}
		for _, c := range texts[i] {
			if c < 0x80 && c != '\\' && c != '^' && c != '$' {
				alphabet = append(alphabet, string(c))
			}
		}
		var s string
		if rapid.Bool().Draw(t, "near") {
			// A text near a match: each run's count of its own bytes,
			// then maybe one byte changed.
			var b strings.Builder
			for _, run := range p.runs {
				hi := run.min + 3
				if run.max >= 0 && hi > run.max {
					hi = run.max
				}
				for range rapid.IntRange(run.min, hi).Draw(t, "count") {
					b.WriteByte(rapid.SampledFrom(run.bytes()).Draw(t, "byte"))
				}
			}
			s = b.String()
			if len(s) > 0 && rapid.Bool().Draw(t, "change") {
				at := rapid.IntRange(0, len(s)-1).Draw(t, "at")
				s = s[:at] + rapid.SampledFrom(alphabet).Draw(t, "with") + s[at+1:]
			}
		} else {
			s = strings.Join(rapid.SliceOfN(rapid.SampledFrom(alphabet), 0, maxRunText+12).Draw(t, "text"), "")
		}
		want := regexp.MustCompile(p.re.String()).MatchString(s)
		if got := p.match(s); got != want {
			t.Fatalf("%s on %q: %v, RE2 %v", texts[i], s, got, want)
		}
		if want {
			matched[i]++
		}
	})
	any := 0
	for _, n := range matched {
		any += n
	}
	if any == 0 {
		t.Fatal("no drawn text matched any pattern: the draws test only refusals")
	}
}

// bytes are the bytes of run's class.
func (c *byteRun) bytes() []byte {
	var out []byte
	for b := range byte(0x80) {
		if c.has(b) {
			out = append(out, b)
		}
	}
	return out
}
