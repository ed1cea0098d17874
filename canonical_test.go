package occkit

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/tidwall/gjson"
	"pgregory.net/rapid"
)

// refCanonical is the obvious recursive definition of the canonical form;
// the single-pass Canonical must agree with it on every document.
func refCanonical(b *bytes.Buffer, v gjson.Result) {
	switch {
	case v.IsObject():
		type kv struct {
			k string
			v gjson.Result
		}
		var ms []kv
		v.ForEach(func(k, val gjson.Result) bool { ms = append(ms, kv{k.String(), val}); return true })
		// RFC 8785: keys compare as UTF-16 code units.
		sort.SliceStable(ms, func(i, j int) bool {
			return slices.Compare(utf16.Encode([]rune(ms[i].k)), utf16.Encode([]rune(ms[j].k))) < 0
		})
		b.WriteByte('{')
		for i, m := range ms {
			if i > 0 {
				b.WriteByte(',')
			}
			b.Write(appendCanonicalString(nil, []byte(m.k)))
			b.WriteByte(':')
			refCanonical(b, m.v)
		}
		b.WriteByte('}')
	case v.IsArray():
		b.WriteByte('[')
		for i, e := range v.Array() {
			if i > 0 {
				b.WriteByte(',')
			}
			refCanonical(b, e)
		}
		b.WriteByte(']')
	case v.Type == gjson.String:
		b.Write(appendCanonicalString(nil, []byte(v.String())))
	case v.Type == gjson.Number:
		// encoding/json writes a float64 "as if by ES6 number to string
		// conversion", which is what RFC 8785 asks, except for -0.
		f, err := strconv.ParseFloat(v.Raw, 64)
		if err != nil {
			panic(err)
		}
		if f == 0 {
			f = 0
		}
		j, _ := json.Marshal(f)
		b.Write(j)
	default:
		b.WriteString(v.Raw)
	}
}

// rawNumber is a number literal the generator spells itself.
type rawNumber string

// genNumber draws a finite double and one of its spellings.
func genNumber(t *rapid.T) rawNumber {
	f := rapid.OneOf(rapid.Float64(), rapid.Float64Range(-1e6, 1e6),
		rapid.SampledFrom([]float64{0, 1, 16, 1e21, 1e-7, 1e-6, 5e-324, 1.7976931348623157e308, 123456789012345680000, 0.1, 2.5})).Draw(t, "f")
	if math.IsInf(f, 0) || math.IsNaN(f) {
		f = 0
	}
	var lit string
	switch rapid.IntRange(0, 4).Draw(t, "spelling") {
	case 0:
		lit = strconv.FormatFloat(f, 'e', -1, 64)
	case 1:
		lit = strconv.FormatFloat(f, 'E', 20, 64)
	case 2:
		lit = strconv.FormatFloat(f, 'f', -1, 64)
	case 3:
		lit = strconv.FormatFloat(f, 'f', -1, 64)
		if !strings.Contains(lit, ".") {
			lit += ".000"
		}
	default:
		lit = strconv.FormatFloat(f, 'g', -1, 64)
	}
	return rawNumber(lit)
}

func genJSON(t *rapid.T, depth int) any {
	kind := rapid.IntRange(0, 5).Draw(t, "kind")
	if depth > 4 {
		kind %= 3
	}
	switch kind {
	case 0:
		if rapid.Bool().Draw(t, "number") {
			return genNumber(t)
		}
		return rapid.OneOf(rapid.Just[any](nil), rapid.Just[any](true), rapid.Just[any](1.5e3), rapid.Just[any](-0.25)).Draw(t, "lit")
	case 1, 2:
		return rapid.OneOf(rapid.String(), rapid.StringMatching(`[a-c"\\\x00-\x1f<>&\x{2028}é]{0,6}`)).Draw(t, "s")
	case 3, 4:
		n := rapid.IntRange(0, 5).Draw(t, "n")
		// Now and then a large object whose keys share a prefix, as a
		// catalog's do (the canonical writer sorts those by rank).
		prefix := ""
		if depth < 2 && rapid.IntRange(0, 3).Draw(t, "large") == 0 {
			n = rapid.IntRange(13, 40).Draw(t, "n")
			prefix = rapid.SampledFrom([]string{"", "anthropic/model-", "é\U0001F600\ue000", "abcdefgh"}).Draw(t, "prefix")
		}
		// Keys are distinct: a Document never repeats one (DOC-2).
		m := make([][2]any, 0, n)
		seen := map[string]bool{}
		for i := 0; i < n; i++ {
			k := prefix + rapid.StringMatching(`[a-c"\\\x01é\x{e000}\x{ffff}\x{1F600}\x{10000}]{0,3}`).Draw(t, "k")
			if seen[k] {
				continue
			}
			seen[k] = true
			m = append(m, [2]any{k, genJSON(t, depth+1)})
		}
		return m
	default:
		n := rapid.IntRange(0, 4).Draw(t, "n")
		a := make([]any, n)
		for i := range a {
			a[i] = genJSON(t, depth+1)
		}
		return a
	}
}

// encode writes v as JSON; objects are [][2]any so duplicate keys and key
// order are under the generator's control.
func encode(b *strings.Builder, v any) {
	switch x := v.(type) {
	case [][2]any:
		b.WriteByte('{')
		for i, kv := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			k, _ := json.Marshal(kv[0])
			b.Write(k)
			b.WriteByte(':')
			encode(b, kv[1])
		}
		b.WriteByte('}')
	case rawNumber:
		b.WriteString(string(x))
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			encode(b, e)
		}
		b.WriteByte(']')
	default:
		j, _ := json.Marshal(x)
		b.Write(j)
	}
}

// genDocument is a Document of genJSON.
func genDocument(t *rapid.T) Document {
	var sb strings.Builder
	encode(&sb, genJSON(t, 0))
	d, err := ParseDocument([]byte(sb.String()))
	if err != nil {
		t.Fatalf("generator made invalid JSON %s", sb.String())
	}
	return d
}

func TestCanonicalMatchesDefinition(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d := genDocument(t)
		var want bytes.Buffer
		refCanonical(&want, gjson.Parse(d.String()))
		got := Canonical(d)
		if !bytes.Equal(got, want.Bytes()) {
			t.Fatalf("Canonical(%s)\n got %s\nwant %s", d, got, want.Bytes())
		}
		if !json.Valid(got) {
			t.Fatalf("Canonical produced invalid JSON %s", got)
		}
		// CanonicalDocument skips the parse because it could not refuse.
		parsed, err := ParseDocument(got)
		if err != nil {
			t.Fatalf("ParseDocument refuses the canonical form %s: %v", got, err)
		}
		if cd := CanonicalDocument(d); !cd.Equal(parsed) || !bytes.Equal(Canonical(cd), got) {
			t.Fatalf("CanonicalDocument(%s) = %s, want %s, a fixed point", d, cd, got)
		}
	})
}

func TestCanonicalTable(t *testing.T) {
	for in, want := range map[string]string{
		`{}`:  `{}`,
		`[]`:  `[]`,
		`"x"`: `"x"`,
		`{"b":1,"a":{"d":[3,{"z":0,"y":1}],"c":null}}`:  `{"a":{"c":null,"d":[3,{"y":1,"z":0}]},"b":1}`,
		`{"\u00e9":1,"e":2}`:                            `{"e":2,"é":1}`,
		`{"a":"\u003c\/"}`:                              `{"a":"</"}`,
		`{"a":1e10,"b":-0.0}`:                           `{"a":10000000000,"b":0}`,
		`[16,16.0,1.6e1,1.6E1,160e-1,1e6,1000000,-0,0]`: `[16,16,16,16,16,1000000,1000000,0,0]`,
		`[1e21,1e-7,1e-6,123456789012345678901,0.1,5e-324,1.7976931348623157e308]`: `[1e+21,1e-7,0.000001,123456789012345680000,0.1,5e-324,1.7976931348623157e+308]`,
		`{"a":"\ud83d\ude00","b":"\u00e9\u001f\u007f"}`:                            "{\"a\":\"\U0001F600\",\"b\":\"é\\u001f\x7f\"}",
		"{\"\ue000\":1,\"\U0001F600\":2,\"z\":3}":                                  "{\"z\":3,\"\U0001F600\":2,\"\ue000\":1}",
		`[{"b":1,"a":2},{"d":1,"c":2}]`:                                            `[{"a":2,"b":1},{"c":2,"d":1}]`,
	} {
		if got := string(Canonical(MustParseDocument(in))); got != want {
			t.Errorf("Canonical(%s) = %s, want %s", in, got, want)
		}
	}
}

// benchDocument is a 1,000-row provider catalog, the shape that dominates
// large Configurations.
func benchDocument() []byte {
	var sb strings.Builder
	sb.WriteString(`{"models":{"providers":{"p":{"models":[`)
	for i := 0; i < 1000; i++ {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString(`{"name":"Model","id":"vendor/m`)
		sb.WriteString(strings.Repeat("x", i%7))
		sb.WriteString(`","contextWindow":128000,"compat":{"z":true,"a":false}}`)
	}
	sb.WriteString(`]}}},"agents":{"defaults":{"model":"p/vendor/m"}}}`)
	return []byte(sb.String())
}

func BenchmarkCanonical(b *testing.B) {
	d, err := ParseDocument(benchDocument())
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(d.raw)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		Canonical(d)
	}
}

// BenchmarkCanonicalFloorUnmarshal is the floor Canonical is measured
// against: one encoding/json Unmarshal of the same bytes.
func BenchmarkCanonicalFloorUnmarshal(b *testing.B) {
	raw := benchDocument()
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		var v map[string]any
		_ = json.Unmarshal(raw, &v)
	}
}

// FuzzCanonical: for every Document, Canonical is valid JSON with the same
// meaning (encoding/json decodes both to equal values, numbers as
// doubles), agrees with the recursive definition, and is a fixed point.
func FuzzCanonical(f *testing.F) {
	for _, s := range []string{
		`{"b":1,"a":{"d":[3,{"z":0,"y":1}],"c":null}}`, `[16,16.0,1.6e1,-0,1e21,1e-7,5e-324]`,
		`{"\ue000":1,"\ud83d\ude00":2,"z":"\u001f\u007f\""}`, `"x"`, `{"a":"\ud800"}`, `{"a":1e400}`,
		"{\"\xff\":1}", `{"numbers":[333333333.33333329,1E30,4.50,2e-3,0.000000000000000000000000001]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		d, err := ParseDocument(b)
		if err != nil {
			return
		}
		got := Canonical(d)
		var want bytes.Buffer
		refCanonical(&want, gjson.Parse(d.String()))
		if !bytes.Equal(got, want.Bytes()) {
			t.Fatalf("Canonical(%s)\n got %s\nwant %s", d, got, want.Bytes())
		}
		var a, c any
		if err := json.Unmarshal(d.bytes(), &a); err != nil {
			t.Fatalf("document %q: %v", d, err)
		}
		if err := json.Unmarshal(got, &c); err != nil {
			t.Fatalf("canonical %q: %v", got, err)
		}
		if !reflect.DeepEqual(a, c) {
			t.Fatalf("meaning changed: %s -> %s", d, got)
		}
		again, err := ParseDocument(got)
		if err != nil || !bytes.Equal(Canonical(again), got) {
			t.Fatalf("not a fixed point: %s -> %s (%v)", got, Canonical(again), err)
		}
	})
}

// TestCompareUTF16Property: compareUTF16 orders valid UTF-8 strings as
// their UTF-16 code units compare, whatever mix of ASCII, U+E000–U+FFFF
// and supplementary characters they hold and however long the prefix
// they share (the word-at-a-time scan and the lead-byte shortcut).
func TestCompareUTF16Property(t *testing.T) {
	alphabet := []rune{'a', 'b', 0, 0x7f, 0x80, 0x7ff, 0x800, 0xd7ff, 0xe000, 0xfeff, 0xffff, 0x10000, 0x1f600, 0x10ffff}
	runes := rapid.SliceOfN(rapid.SampledFrom(alphabet), 0, 20)
	rapid.Check(t, func(t *rapid.T) {
		prefix := string(runes.Draw(t, "prefix"))
		a := prefix + string(runes.Draw(t, "a"))
		b := prefix + string(runes.Draw(t, "b"))
		ua, ub := utf16.Encode([]rune(a)), utf16.Encode([]rune(b))
		want := slices.Compare(ua, ub)
		got := compareUTF16([]byte(a), []byte(b))
		if (got < 0) != (want < 0) || (got == 0) != (want == 0) {
			t.Fatalf("compareUTF16(%q, %q) = %d, UTF-16 order %d", a, b, got, want)
		}
	})
}

// TestCanonicalReorderProperty: objects whose members are written in any
// order, from sorted but for a few moved members (where most stay in
// place and the moved ones cross them both ways) to shuffled, with values
// of very different lengths (a large section beside small ones) and
// nested objects of the same kind, canonicalize as encoding/json writes
// the decoded value (its keys sorted, which for these ASCII and é keys is
// also UTF-16 order), and the canonical document's root places are the
// ones gjson reads.
func TestCanonicalReorderProperty(t *testing.T) {
	checkReorder(t, 0, 40)
}

// TestCanonicalLargeObjectProperty is TestCanonicalReorderProperty for
// objects of more members than the canon holds in itself (the ranks and
// work of 48, the members stack of 64 beside the nested objects' own) and
// as many as make the writer let its buffers go (largeObject), also
// while the members of the objects around are on the stack.
func TestCanonicalLargeObjectProperty(t *testing.T) {
	checkReorder(t, 40, 2*largeObject)
}

// checkReorder checks the canonical form of objects genReorderObject
// makes of minKeys to maxKeys members against encoding/json's.
func checkReorder(t *testing.T, minKeys, maxKeys int) {
	rapid.Check(t, func(t *rapid.T) {
		d := MustParseDocument(genReorderObject(t, 0, minKeys, maxKeys))
		var v any
		if err := json.Unmarshal(d.bytes(), &v); err != nil {
			t.Fatal(err)
		}
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(v); err != nil {
			t.Fatal(err)
		}
		wantBytes := bytes.TrimSuffix(want.Bytes(), []byte("\n"))
		if got := Canonical(d); !bytes.Equal(got, wantBytes) {
			t.Fatalf("Canonical(%s)\n got %s\nwant %s", d, got, wantBytes)
		}
		cd := CanonicalDocument(d)
		if !bytes.Equal(cd.bytes(), wantBytes) {
			t.Fatalf("CanonicalDocument(%s)\n got %s\nwant %s", d, cd, wantBytes)
		}
		checkIndex(t, cd, "CanonicalDocument")
	})
}

// genReorderObject is an object of minKeys to maxKeys members (its
// nested objects of up to 40, and, when maxKeys is more, now and then
// the root's of largeObject to maxKeys) in one of the orders of
// TestCanonicalReorderProperty.
func genReorderObject(t *rapid.T, depth, minKeys, maxKeys int) string {
	keys := rapid.SliceOfNDistinct(rapid.StringMatching(`(model-|é)?[a-d0-9\\"]{0,3}`), minKeys, maxKeys, rapid.ID[string]).Draw(t, "keys")
	sort.Strings(keys)
	switch rapid.IntRange(0, 2).Draw(t, "order") {
	case 0: // sorted but for a few members moved elsewhere
		for n := rapid.IntRange(0, 3).Draw(t, "moves"); n > 0 && len(keys) > 1; n-- {
			from, to := rapid.IntRange(0, len(keys)-1).Draw(t, "from"), rapid.IntRange(0, len(keys)-1).Draw(t, "to")
			k := keys[from]
			keys = slices.Insert(slices.Delete(keys, from, from+1), to, k)
		}
	case 1:
		slices.Reverse(keys)
	default:
		seed := rapid.Int64().Draw(t, "seed")
		r := rand.New(rand.NewSource(seed))
		r.Shuffle(len(keys), func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
	}
	var b strings.Builder
	b.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		b.Write(kb)
		b.WriteByte(':')
		if depth < 2 && rapid.IntRange(0, 4).Draw(t, "nested") == 0 {
			// Now and then as large as its parent may be, below the
			// parent's members on the stack.
			if maxKeys > 40 && depth == 0 && rapid.IntRange(0, 19).Draw(t, "large nested") == 0 {
				b.WriteString(genReorderObject(t, depth+1, largeObject, maxKeys))
			} else {
				b.WriteString(genReorderObject(t, depth+1, 0, 40))
			}
			continue
		}
		// Mostly short values, now and then a long one.
		n := rapid.IntRange(0, 8).Draw(t, "len")
		if rapid.IntRange(0, 5).Draw(t, "long") == 0 {
			n = rapid.IntRange(100, 3000).Draw(t, "long len")
		}
		vb, _ := json.Marshal(strings.Repeat(string(rune('a'+i%26)), n))
		b.Write(vb)
	}
	b.WriteByte('}')
	return b.String()
}

// TestCanonicalStringRuns: the writer that copies runs writes every byte
// string, invalid UTF-8 and encoded surrogates included, as the old one
// (oldAppendCanonicalString) that goes a character at a time.
func TestCanonicalStringRuns(t *testing.T) {
	pieces := []string{"a", " ", "é", "日", "🙂", "\"", "\\", "\n", "\x01", "\x1f", "\x7f",
		"\xed", "\xed\xa0", "\xed\xa0\x80", "\xed\xbf\xbf", "\xed\x9f\xbf", "\xe0", "\x80", "\xff", "\xf0\x9f"}
	rapid.Check(t, func(t *rapid.T) {
		var s []byte
		for _, k := range rapid.SliceOf(rapid.IntRange(0, len(pieces)-1)).Draw(t, "pieces") {
			s = append(s, pieces[k]...)
		}
		if rapid.Bool().Draw(t, "raw") {
			s = rapid.SliceOf(rapid.Byte()).Draw(t, "bytes")
		}
		if got, want := appendCanonicalString(nil, s), oldAppendCanonicalString(nil, s); !bytes.Equal(got, want) {
			t.Fatalf("%q: got %q, want %q", s, got, want)
		}
	})
}

// TestCanonicalStringEscapes holds the canonical form of string values
// written with every kind of escape to RFC 8785's spelling, written out by
// hand: a literal whose escapes RFC 8785 writes is copied, any other is
// written again. The old writer, which decoded every escaped literal,
// must agree.
func TestCanonicalStringEscapes(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`"plain"`, `"plain"`},
		{`"a\"b\\c"`, `"a\"b\\c"`},
		{`"\b\f\n\r\t"`, `"\b\f\n\r\t"`},
		{`"\u0000\u001f\u0001\u000b\u000e"`, `"\u0000\u001f\u0001\u000b\u000e"`},
		{`"\u001F"`, `"\u001f"`},
		{`"\u000B"`, `"\u000b"`},
		{`"\u0008\u0009\u000a\u000c\u000d"`, `"\b\t\n\f\r"`},
		{`"\/"`, `"/"`},
		{`"\u0041\u0020z"`, `"A z"`},
		{`"\u007f"`, "\"\x7f\""},
		{`"\u0022\u005c"`, `"\"\\"`},
		{`"caf\u00e9 \u65e5"`, `"café 日"`},
		{`"\ud83e\udd9e"`, `"🦞"`},
		{`"line one\nline \"two\"\tcafé \\ back\/slash"`, `"line one\nline \"two\"\tcafé \\ back/slash"`},
		{`"` + strings.Repeat("a", 40) + `\n` + strings.Repeat("b", 40) + `\u0041"`, `"` + strings.Repeat("a", 40) + `\n` + strings.Repeat("b", 40) + `A"`},
		{`"\\u0041"`, `"\\u0041"`},
		{`"\\/"`, `"\\/"`},
	} {
		d, err := ParseDocument([]byte(`{"k":[` + tc.in + `,{"v":` + tc.in + `}]}`))
		if err != nil {
			t.Fatalf("%s: %v", tc.in, err)
		}
		want := `{"k":[` + tc.want + `,{"v":` + tc.want + `}]}`
		if got := string(Canonical(d)); got != want {
			t.Errorf("%s: got %s, want %s", tc.in, got, want)
		}
		if old := string(oldCanonicalDocument(d).bytes()); old != want {
			t.Errorf("%s: the old writer gives %s, want %s", tc.in, old, want)
		}
	}
}
