package render

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
	"sigs.k8s.io/yaml"

	"github.com/occkit/occkit/internal/bench"
)

// scalarText draws strings of the kinds rendered objects hold and the
// kinds that make go-yaml pick another style: names, numbers and words
// that read back as something else, indicators, long text with lone and
// repeated spaces (folding), quotes, non-ASCII, and the characters the
// writer leaves to JSONToYAML.
func scalarText(t *rapid.T, label string) string {
	pieces := []string{
		"a", "occ-", "kubernetes.occkit.io/agent", "10Gi", "18789", "3", "0", "-1", "1e3", "0x1F", "0b11", "1_000",
		"2026.5.1", "2001-12-14", "12:30", "1:20:30.5", ".5", ".inf", "yes", "no", "on", "null", "~", "true", "<<",
		" ", "  ", ": ", ":", "#", " #", "- ", "-", "?", "---", "...", "'", "\"", "\\", "{", "}", "[", "]", ",",
		"&", "*", "!", "|", ">", "%", "@", "`", "é", "日本", "\u00a0", "\ufffd", "\t", "\n", "\u0085", "\ufeff",
		"\U0001F600", "\x7f", "\u2028", `{"agents":{"defaults":{"model":"anthropic/claude"}}}`,
		"a long sentence of words that goes well past the eighty columns of a line so that it folds",
	}
	var b strings.Builder
	for n := rapid.IntRange(0, 8).Draw(t, label+"N"); n > 0; n-- {
		b.WriteString(rapid.SampledFrom(pieces).Draw(t, label+"P"))
	}
	return b.String()
}

// jsonValue draws an apply body's kind of JSON value.
func jsonValue(t *rapid.T, depth int) any {
	kind := rapid.IntRange(0, 6).Draw(t, "kind")
	if depth <= 0 && kind >= 4 {
		kind = 0
	}
	switch kind {
	case 0, 1:
		return scalarText(t, "s")
	case 2:
		return float64(rapid.IntRange(-5, 70000).Draw(t, "int"))
	case 3:
		return rapid.Bool().Draw(t, "bool")
	case 4:
		out := []any{}
		for n := rapid.IntRange(0, 3).Draw(t, "len"); n > 0; n-- {
			out = append(out, jsonValue(t, depth-1))
		}
		return out
	default:
		return jsonObject(t, depth-1)
	}
}

func jsonObject(t *rapid.T, depth int) map[string]any {
	keys := []string{"apiVersion", "kind", "metadata", "name", "a1", "a10", "a2", "a01", "a001", "b", "B", "_x", "-y",
		"1", "01", "10", "x.y/z", "é", "Ω", "9z", "", "yes", "key with space", "a:b", "# c"}
	m := map[string]any{}
	for n := rapid.IntRange(0, 5).Draw(t, "members"); n > 0; n-- {
		k := rapid.SampledFrom(keys).Draw(t, "key")
		if rapid.Bool().Draw(t, "drawnKey") {
			k = scalarText(t, "k")
		}
		m[k] = jsonValue(t, depth)
	}
	return m
}

// writeYAML writes the JSON object v with the writer; ok is false where
// the writer does not cover it.
func writeYAML(t interface{ Fatalf(string, ...any) }, v map[string]any) ([]byte, bool) {
	body, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("%v", err)
	}
	var tree yamlTree
	root, ok := tree.read(body)
	if !ok {
		t.Fatalf("the writer does not read %s", body)
	}
	return appendYAML(nil, &tree, root)
}

// TestYAMLWriterMatchesJSONToYAML: wherever the writer covers an object,
// it writes what sigs.k8s.io/yaml.JSONToYAML writes for the same apply
// body, byte for byte, so Objects.Each's output never depends on which
// of the two ran.
func TestYAMLWriterMatchesJSONToYAML(t *testing.T) {
	covered := 0
	rapid.Check(t, func(t *rapid.T) {
		v := jsonObject(t, 3)
		body, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		want, err := yaml.JSONToYAML(yamlSafeJSON(body))
		if err != nil {
			t.Fatal(err)
		}
		got, ok := writeYAML(t, v)
		if !ok || intransitiveKeys(v) {
			return
		}
		covered++
		if d := cmp.Diff(string(want), string(got)); d != "" {
			t.Fatalf("%s: the writer differs from JSONToYAML (-JSONToYAML +writer):\n%s", body, d)
		}
	})
	if covered == 0 {
		t.Fatal("the writer covered no drawn object")
	}
}

// intransitiveKeys reports whether a mapping of v has three keys go-yaml's
// key order ranks in a cycle (a < b < c < a, e.g. "0b1", "1", "01": it
// compares a letter with a digit and runs of digits by value). Its
// encoder sorts the keys as its map iteration hands them over, so what
// JSONToYAML writes for such a mapping changes from one run to the next,
// and the writer's order is one of them.
func intransitiveKeys(v any) bool {
	switch x := v.(type) {
	case map[string]any:
		for a := range x {
			for b := range x {
				for c := range x {
					if yamlKeyLess(a, b) && yamlKeyLess(b, c) && yamlKeyLess(c, a) {
						return true
					}
				}
			}
		}
		for _, e := range x {
			if intransitiveKeys(e) {
				return true
			}
		}
	case []any:
		for _, e := range x {
			if intransitiveKeys(e) {
				return true
			}
		}
	}
	return false
}

// TestYAMLWriterCoversLongText: a document-sized single line with spaces
// (a ConfigMap's openclaw.json) is covered and folds as JSONToYAML folds
// it, at every indentation.
func TestYAMLWriterCoversLongText(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 400; i++ {
		fmt.Fprintf(&b, `{"k%d":"v %d's"},`, i, i)
	}
	text := b.String()
	for _, v := range []map[string]any{
		{"data": map[string]any{"openclaw.json": text}},
		{"a": []any{text, map[string]any{"b": text, "c": []any{[]any{text}}}}},
		{"k": text},
	} {
		checkCovered(t, v)
	}
}

// checkCovered checks that the writer covers v and writes what
// JSONToYAML writes for it.
func checkCovered(t *testing.T, v map[string]any) {
	t.Helper()
	body, _ := json.Marshal(v)
	want, err := yaml.JSONToYAML(yamlSafeJSON(body))
	if err != nil {
		t.Fatal(err)
	}
	got, ok := writeYAML(t, v)
	if !ok {
		t.Fatalf("not covered: %q", body)
	}
	if d := cmp.Diff(string(want), string(got)); d != "" {
		t.Errorf("%.80s (-JSONToYAML +writer):\n%s", body, d)
	}
}

// TestYAMLWriterCoversEscapes: text that go-yaml double-quotes for a
// character only an escape writes (an emoji, a tab, DEL, a C1 control,
// U+FEFF past the start, U+FFFE; '\r' and U+0085 in a value) is covered,
// folded at a space past column 80 with a following space escaped, and
// written as JSONToYAML writes it, as a value and (unfolded) as a key.
func TestYAMLWriterCoversEscapes(t *testing.T) {
	long := strings.Repeat(`{"name":"Lobster 🦞","note":"tab\there"}, `, 12)
	for _, s := range []string{
		"🦞", "Lobster 🦞", "a\tb", "\x7f", "x\u0080y", "\u009f", "a\ufeffb", "\ufffe", "\U0010FFFF",
		"\x00\x07\x08\x0b\x0c\x1b", `quote " and back \ slash 🦞`, "true 🦞", "🦞 ", " 🦞", "- 🦞", "#🦞", "🦞: x",
		long, long + "  two spaces", strings.Repeat("🦞 ", 60), strings.Repeat("a  ", 50) + "\t",
	} {
		checkCovered(t, map[string]any{"k": s, "list": []any{s, map[string]any{"in": s}}})
		if len(s) <= 128 { // a longer key is a complex key, left to JSONToYAML
			checkCovered(t, map[string]any{s: "v"})
		}
	}
	for _, s := range []string{"a\rb", "x\u0085y", "\r" + long} {
		checkCovered(t, map[string]any{"k": s, "list": []any{s}})
	}
}

// TestYAMLWriterLeavesBreaks: what go-yaml writes as a literal block or
// with a written line break ('\n', U+2028, U+2029), a key with any line
// break (a complex key) and text after a leading byte order mark (every
// character escaped) are left to JSONToYAML: the writer refuses them.
func TestYAMLWriterLeavesBreaks(t *testing.T) {
	for _, v := range []map[string]any{
		{"k": "a\nb"}, {"k": "a\u2028b"}, {"k": "a\u2029b"}, {"k": "\ufeffab"},
		{"a\rb": "v"}, {"a\u0085b": "v"}, {"k": "🦞\n"},
	} {
		if _, ok := writeYAML(t, v); ok {
			t.Errorf("%q: covered", v)
		}
	}
}

// TestYAMLWriterCoversRenderedObjects: every object of a rendered
// revision, its ConfigMap holding a document of 1,000 models included,
// is written by the writer, not by JSONToYAML.
func TestYAMLWriterCoversRenderedObjects(t *testing.T) {
	// The compact document, and the same with an emoji, a tab and a
	// control character in a string: a double-quoted scalar with
	// escapes, folded.
	emoji := bench.Document{Name: "emoji", Make: func(n int) []byte {
		return []byte(strings.Replace(string(bench.Compact(n)), `"alias":"Model 1"`, `"alias":"Model 1 🦞\t\u0007 caf\u00e9"`, 1))
	}}
	for _, d := range []bench.Document{bench.Documents[0], emoji} {
		rev := benchRevision(t, d, 1000)
		objs, err := Render(rev, benchOptions)
		if err != nil {
			t.Fatal(err)
		}
		checkRenderedCovered(t, objs)
	}
}

func checkRenderedCovered(t *testing.T, objs Objects) {
	t.Helper()
	for _, obj := range objs.List() {
		var tree yamlTree
		root, ok := tree.readObject(obj)
		if !ok {
			t.Fatalf("%s %s: not read", obj.GetObjectKind().GroupVersionKind().Kind, obj.GetName())
		}
		got, ok := appendYAML(nil, &tree, root)
		if !ok {
			t.Errorf("%s %s: not covered by the writer", obj.GetObjectKind().GroupVersionKind().Kind, obj.GetName())
			continue
		}
		want, err := appendSigsYAML(nil, obj)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(string(want), string(got)); d != "" {
			t.Errorf("%s %s: the writer differs from JSONToYAML (-JSONToYAML +writer):\n%s", obj.GetObjectKind().GroupVersionKind().Kind, obj.GetName(), d)
		}
	}
}

// TestYAMLWriterWords: words, the plain ones and those that read back as
// something else, are written as JSONToYAML writes them, as keys and as
// values.
func TestYAMLWriterWords(t *testing.T) {
	for _, w := range []string{"a", "y", "Y", "n", "yes", "Yes", "YES", "yEs", "no", "on", "On", "off", "OFF", "true",
		"True", "false", "FALSE", "null", "Null", "nulls", "trueish", "a.b/c_d-e", "v1", "occ-0d6e4079e367-gw",
		"ServiceAccount", "x1e3", "e5", "inf", "nan", "NaN", "a:b", "a#b", "a b"} {
		checkCovered(t, map[string]any{"k": w, w: "v", "list": []any{w}})
	}
	for w := range yamlWords {
		if len(w) > 5 {
			t.Errorf("yamlWords holds %q, longer than the five bytes yamlResolvesToString looks up", w)
		}
	}
}

// TestIntSyntax: text intSyntax refuses is text strconv.ParseInt and
// ParseUint (base 0) both refuse, so yamlResolvesToString skips them
// without changing its answer.
func TestIntSyntax(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var b strings.Builder
		for n := rapid.IntRange(0, 6).Draw(t, "n"); n > 0; n-- {
			b.WriteString(rapid.SampledFrom([]string{"0", "1", "2", "7", "8", "9", "_", "+", "-", "x", "X", "o", "O", "b", "B",
				"a", "d", "f", "F", "g", "0x", "0o", "0b", "0B", "0X", "0O", ".", "e", " ", "é"}).Draw(t, "p"))
		}
		s := b.String()
		if rapid.Bool().Draw(t, "arbitrary") {
			s = rapid.String().Draw(t, "s")
		}
		if intSyntax(s) {
			return
		}
		if _, err := strconv.ParseInt(s, 0, 64); err == nil {
			t.Fatalf("intSyntax(%q) is false, ParseInt reads it", s)
		}
		if _, err := strconv.ParseUint(s, 0, 64); err == nil {
			t.Fatalf("intSyntax(%q) is false, ParseUint reads it", s)
		}
	})
	for _, s := range []string{"0", "-12", "+0x1F", "0o17", "0b101", "1_000", "0x_1f", "0755", "18446744073709551615",
		"0B1", "0O7", "0X1", "-0", "00", "0_7", "0b_1"} {
		if !intSyntax(s) {
			t.Errorf("intSyntax(%q) = false", s)
		}
	}
	for _, s := range []string{"0b93da7d4af4", "0o8", "08", "0x", "0b", "0b2", "0xg", "0o", "-", ""} {
		if intSyntax(s) {
			t.Errorf("intSyntax(%q) = true", s)
		}
	}
}

// TestBinarySyntax: text binarySyntax refuses is text strconv.ParseInt
// and ParseUint (base 2) both refuse.
func TestBinarySyntax(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var b strings.Builder
		for n := rapid.IntRange(0, 5).Draw(t, "n"); n > 0; n-- {
			b.WriteString(rapid.SampledFrom([]string{"0", "1", "2", "_", "+", "-", "b", "0b", " ", "é"}).Draw(t, "p"))
		}
		s := b.String()
		if rapid.Bool().Draw(t, "arbitrary") {
			s = rapid.String().Draw(t, "s")
		}
		if binarySyntax(s) {
			return
		}
		if _, err := strconv.ParseInt(s, 2, 64); err == nil {
			t.Fatalf("binarySyntax(%q) is false, ParseInt reads it", s)
		}
		if _, err := strconv.ParseUint(s, 2, 64); err == nil {
			t.Fatalf("binarySyntax(%q) is false, ParseUint reads it", s)
		}
	})
}

// TestDotFloatBytes: text after a dot that dotFloatBytes refuses is
// text strconv.ParseFloat refuses, so yamlResolvesToString skips it.
func TestDotFloatBytes(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var b strings.Builder
		b.WriteString(".")
		for n := rapid.IntRange(0, 6).Draw(t, "n"); n > 0; n-- {
			b.WriteString(rapid.SampledFrom([]string{"0", "5", "9", "_", "+", "-", "e", "E", "x", "p", "inf", "nan", ".", " "}).Draw(t, "p"))
		}
		s := b.String()
		if rapid.Bool().Draw(t, "arbitrary") {
			s = "." + rapid.String().Draw(t, "s")
		}
		if dotFloatBytes(s) {
			return
		}
		if _, err := strconv.ParseFloat(s, 64); err == nil {
			t.Fatalf("dotFloatBytes(%q) is false, ParseFloat reads it", s)
		}
	})
	for _, s := range []string{".5", ".0_0", ".5e3", ".5E-3", "._5"} {
		if !dotFloatBytes(s) {
			t.Errorf("dotFloatBytes(%q) = false", s)
		}
	}
}

// TestTreeMarshal: the tree's reused encoder writes what json.Marshal
// writes, from one object to the next.
func TestTreeMarshal(t *testing.T) {
	var tree yamlTree
	rapid.Check(t, func(t *rapid.T) {
		v := jsonObject(t, 3)
		if rapid.Bool().Draw(t, "html") {
			v["h"] = "<a href='x'>&</a>\u2028"
		}
		want, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		got, err := tree.marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(string(want), string(got)); d != "" {
			t.Fatalf("(-json.Marshal +marshal):\n%s", d)
		}
	})
}

// TestYAMLKeyCompare: yamlKeyCompare's one call orders keys as asking
// yamlKeyLess both ways does.
func TestYAMLKeyCompare(t *testing.T) {
	keys := []string{"a", "b", "A", "Z", "0", "00", "01", "1", "10", "9", "_", "-", ".", "/", " ", "é", "Ω", "日",
		"\U0001F600", "a1", "a01", "a001", "a10", "x.y", "99999999999999999999"}
	rapid.Check(t, func(t *rapid.T) {
		draw := func(label string) string {
			var b strings.Builder
			for n := rapid.IntRange(0, 4).Draw(t, label+"N"); n > 0; n-- {
				b.WriteString(rapid.SampledFrom(keys).Draw(t, label))
			}
			return b.String()
		}
		a, b := draw("a"), draw("b")
		want := 0
		if yamlKeyLess(a, b) {
			want = -1
		} else if yamlKeyLess(b, a) {
			want = 1
		}
		if got := yamlKeyCompare(a, b); got != want {
			t.Fatalf("yamlKeyCompare(%q, %q) = %d, want %d", a, b, got, want)
		}
	})
}

// TestSWAR: the eight-byte tests say of every word what the byte-wise
// loops find in its bytes.
func TestSWAR(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		b := rapid.SliceOfN(rapid.SampledFrom([]byte{0, 1, 0x1f, ' ', '!', '\'', '"', '/', '0', '9', ':', 'a', '~', 0x7f, 0x80, 0xaf, 0xb0, 0xb9, 0xba, 0xc3, 0xff}), 8, 8).Draw(t, "bytes")
		if rapid.Bool().Draw(t, "any") {
			b = rapid.SliceOfN(rapid.Byte(), 8, 8).Draw(t, "arbitrary")
		}
		w := word(string(b), 0)
		wantPrintable, wantStop := true, false
		for _, c := range b {
			wantPrintable = wantPrintable && c >= 0x20 && c <= 0x7e
			wantStop = wantStop || foldStop[c]
		}
		wantDigit := false
		for _, c := range b {
			wantDigit = wantDigit || c >= '0' && c <= '9' || c >= 0x80
		}
		if printable(w) != wantPrintable || foldStops(w) != wantStop || digitsOrHigh(w) != wantDigit {
			t.Fatalf("%q: printable %v, foldStops %v, digitsOrHigh %v", b, printable(w), foldStops(w), digitsOrHigh(w))
		}
	})
}

// TestFloatSyntax: floatSyntax is go-yaml's float expression.
func TestFloatSyntax(t *testing.T) {
	yamlFloat := regexp.MustCompile(`^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`)
	rapid.Check(t, func(t *rapid.T) {
		var b strings.Builder
		for n := rapid.IntRange(0, 8).Draw(t, "n"); n > 0; n-- {
			b.WriteString(rapid.SampledFrom([]string{"+", "-", ".", "0", "7", "9", "e", "E", "_", "x", " ", "é", "12"}).Draw(t, "p"))
		}
		s := b.String()
		if got, want := floatSyntax(s), yamlFloat.MatchString(s); got != want {
			t.Fatalf("floatSyntax(%q) = %v, the expression %v", s, got, want)
		}
	})
}
