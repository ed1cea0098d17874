package sensitive

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tidwall/gjson"
	"pgregory.net/rapid"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/internal/docjson"
	"github.com/occkit/occkit/internal/jsonwalk"
)

// walkGJSON is the walk through gjson that finder replaced: the oracle
// of its test. It lists each place as "path=value text".
func (t *trie) walkGJSON(v gjson.Result, at occkit.Path, out *[]string) {
	if t.end {
		*out = append(*out, fmt.Sprint(at)+"="+v.Raw)
	}
	if !v.IsObject() || t.keys == nil && t.any == nil {
		return
	}
	// ForEach, not Get, so keys with gjson syntax characters are matched
	// literally.
	v.ForEach(func(k, child gjson.Result) bool {
		key := k.String()
		for _, st := range []*step{t.keys[key], t.any} {
			if st == nil {
				continue
			}
			p := at.Key(key)
			if st.obj != nil {
				st.obj.walkGJSON(child, p, out)
			}
			if st.arr != nil && child.IsArray() {
				i := 0
				child.ForEach(func(_, el gjson.Result) bool {
					st.arr.walkGJSON(el, p.Index(i), out)
					i++
					return true
				})
			}
		}
		return true
	})
}

// genValue draws JSON text whose keys run along the patterns (channels,
// accounts, agents entries, tts providers, arrays of objects) and off
// them, with escaped keys.
func genValue(t *rapid.T, depth int) string {
	keys := []string{"channels", "slack", "botToken", "accounts", "a", "agents", "entries", "main", "tts", "providers",
		"apiKey", "personas", "memory", "search", "remote", "discord", "token", "voice", "models", "x", "bot\\u0054oken", "gateway", "auth", "password",
		"hooks", "mappings", "sessionKey", "tools", "media", "request", "headers", "tls", "key"}
	switch k := rapid.IntRange(0, 4).Draw(t, "kind"); {
	case depth <= 0 || k == 0:
		return rapid.SampledFrom([]string{`"v"`, "1", "null", "true", `"${T}"`}).Draw(t, "scalar")
	case k == 1:
		n := rapid.IntRange(0, 3).Draw(t, "len")
		var parts []string
		for i := 0; i < n; i++ {
			parts = append(parts, genValue(t, depth-1))
		}
		return "[" + strings.Join(parts, ",") + "]"
	default:
		seen := map[string]bool{}
		var parts []string
		for n := rapid.IntRange(0, 4).Draw(t, "members"); n > 0; n-- {
			k := rapid.SampledFrom(keys).Draw(t, "key")
			if seen[k] || k == "botToken" && seen["bot\\u0054oken"] || k == "bot\\u0054oken" && seen["botToken"] {
				continue
			}
			seen[k] = true
			parts = append(parts, `"`+k+`":`+genValue(t, depth-1))
		}
		return "{" + strings.Join(parts, ",") + "}"
	}
}

// eachPlace lists what set.Each finds in doc as walkGJSON does, and
// fails the test when Find's paths are not Each's.
func eachPlace(set *Set, doc occkit.Document) []string {
	var out, paths, found []string
	set.Each(doc, func(at occkit.Path, raw string) {
		out = append(out, fmt.Sprint(at)+"="+raw)
		paths = append(paths, fmt.Sprint(at))
	})
	for _, p := range set.Find(doc) {
		found = append(found, fmt.Sprint(p))
	}
	if d := cmp.Diff(paths, found); d != "" {
		out = append(out, "Find differs from Each: "+d)
	}
	return out
}

// TestFindMatchesGJSON: the one-pass finder finds what the walk through
// gjson finds, in its order and with the same value text, with the
// release's patterns.
func TestFindMatchesGJSON(t *testing.T) {
	set := SetFor("")
	rapid.Check(t, func(t *rapid.T) {
		doc, err := occkit.ParseDocument([]byte(genValue(t, 6)))
		if err != nil {
			t.Skipf("not a document: %v", err)
		}
		if d := diffGJSON(set, doc); d != "" {
			t.Fatalf("%s (-gjson +finder):\n%s", doc, d)
		}
	})
}

// diffGJSON is the difference between what the walk through gjson finds
// in doc and what the finder finds (eachPlace).
func diffGJSON(set *Set, doc occkit.Document) string {
	var want []string
	set.root.walkGJSON(docjson.Root(doc), occkit.Root(), &want)
	return cmp.Diff(want, eachPlace(set, doc))
}

// TestFindArrays: patterns through arrays and wildcards find each
// element's place, as the walk through gjson does.
func TestFindArrays(t *testing.T) {
	set := SetFor("")
	for _, src := range []string{
		`{"hooks":{"mappings":[{"sessionKey":"a"},{"x":1},{"sessionKey":{"k":"v"}}]}}`,
		`{"tools":{"media":{"models":[{"request":{"headers":{"A":"1","B":"2"},"tls":{"key":"k"}}},"s",{"request":{"auth":{"token":"t"}}}]}}}`,
		`{"channels":{"slack":{"accounts":{"a":{"botToken":"x"},"b":{"appToken":"y"}},"botToken":"z"}},"agents":{"entries":{"m":{"tts":{"providers":{"p":{"apiKey":"k"}}}}}}}`,
		`{"channels":"x","hooks":{"mappings":{"sessionKey":"not an array"}}}`,
	} {
		doc := occkit.MustParseDocument(src)
		var want []string
		set.root.walkGJSON(docjson.Root(doc), occkit.Root(), &want)
		if len(want) == 0 && !strings.Contains(src, "not an array") {
			t.Fatalf("%s: the patterns name nothing in it", src)
		}
		if d := cmp.Diff(want, eachPlace(set, doc)); d != "" {
			t.Errorf("%s (-gjson +finder):\n%s", src, d)
		}
	}
}

// TestEachKnownMatchesEach: the walk given the extents of some of the
// document's objects and arrays (each drawn in or out) finds what it
// finds without them.
func TestEachKnownMatchesEach(t *testing.T) {
	set := SetFor("")
	rapid.Check(t, func(t *rapid.T) {
		// Values off the patterns beside and between values on them.
		src := fmt.Sprintf(`{"x":%s,"channels":{"y":%s,"slack":%s,"z":%s},"agents":%s}`,
			genValue(t, 3), genValue(t, 3), genValue(t, 4), genValue(t, 3), genValue(t, 5))
		doc, err := occkit.ParseDocument([]byte(src))
		if err != nil {
			t.Skipf("not a document: %v", err)
		}
		raw := doc.String()
		var known []Span
		for i := 0; i < len(raw); i++ {
			if c := raw[i]; (c == '{' || c == '[') && rapid.Bool().Draw(t, "known") {
				known = append(known, Span{Start: i, End: jsonwalk.Skip(raw, i)})
			}
		}
		var want, got []string
		set.Each(doc, func(at occkit.Path, raw string) { want = append(want, fmt.Sprint(at)+"="+raw) })
		set.EachKnown(doc, known, func(at occkit.Path, raw string) { got = append(got, fmt.Sprint(at)+"="+raw) })
		if d := cmp.Diff(want, got); d != "" {
			t.Fatalf("%s (-Each +EachKnown):\n%s", doc, d)
		}
	})
}

// TestFindDeepPatterns: patterns deeper than the steps a finder holds
// itself find each place, as the walk through gjson does.
func TestFindDeepPatterns(t *testing.T) {
	patterns := []string{"a.b.c.d.e.f.g.h.i[].j.k.a.b.c.d.e.f[].*", "a.b.c.d.e.f.g.h.k", "a.*.c.d.e.f.g[].h.i[].j.k.a.b.c.d.e.f.g.h"}
	set := Compile(ParseList(patterns))
	// along draws a value along the segments of a pattern, each step
	// kept or left (another key, a scalar), beside other members.
	var along func(t *rapid.T, segs []string) string
	along = func(t *rapid.T, segs []string) string {
		if len(segs) == 0 || rapid.IntRange(0, 19).Draw(t, "leave") == 0 {
			return rapid.SampledFrom([]string{`"v"`, "1", `{"z":2}`, "[]"}).Draw(t, "scalar")
		}
		seg := segs[0]
		key, array := strings.CutSuffix(seg, "[]")
		if key == "*" {
			key = rapid.SampledFrom([]string{"b", "q"}).Draw(t, "any")
		}
		inner := along(t, segs[1:])
		if array {
			inner = "[" + inner + "," + along(t, segs[1:]) + "]"
		}
		return fmt.Sprintf(`{"x":1,%q:%s}`, key, inner)
	}
	deep := 0
	rapid.Check(t, func(t *rapid.T) {
		p := rapid.SampledFrom(patterns).Draw(t, "pattern")
		doc, err := occkit.ParseDocument([]byte(along(t, strings.Split(p, "."))))
		if err != nil {
			t.Fatalf("not a document: %v", err)
		}
		if d := diffGJSON(set, doc); d != "" {
			t.Fatalf("%s (-gjson +finder):\n%s", doc, d)
		}
		for _, at := range set.Find(doc) {
			if at.Len() > 16 { // the steps an inline.Stack holds itself
				deep++
			}
		}
	})
	if deep == 0 {
		t.Error("no drawn document holds a place deeper than the steps a finder holds itself")
	}
}
