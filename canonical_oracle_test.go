package occkit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// oracleKeys are the keys of TestCanonicalMatchesOldWriter's documents:
// plain ones, one name in several spellings, keys that order otherwise
// in UTF-16 than in UTF-8, keys with escapes, and keys sharing a long
// prefix (a catalog's) or their first eight bytes.
var oracleKeys = []string{
	`a`, `\u0061`, `b`, `ab`, `id`, `name`, `alias`, `params`, `agentRuntime`,
	`contextWindow`, `contextTokens`, `contextWindowX`, `logging`, `diagnostics`,
	`é`, `\u00e9`, `😀`, `\ud83d\ude00`, `\uffff`, "\uE000", `\"q`, `back\\slash`,
	`tab\t`, `\u0000`, `\/`, `0`, `x.y`, ``,
	`anthropic/model-1`, `anthropic/model-10`, `anthropic/model-2`, `anthropic/model-\u0033`,
}

// genOracleString is a JSON string literal: plain, with escapes of every
// kind, or with characters of every UTF-8 length.
func genOracleString(t *rapid.T, label string) string {
	return rapid.SampledFrom([]string{
		`""`, `"plain"`, `"Model 12"`, `"a\u0041b"`, `"\/x"`, `"\u00e9"`, `"é😀"`, `"<\u003c>"`,
		`"\u2028"`, `"\n\t\r\b\f"`, `"\u001f"`, `"\"\\"`, `"\ud83d\ude00"`, `"\uE000\uFFFF"`,
		`"https://api.anthropic.com"`, `"` + strings.Repeat("long", 40) + `"`,
	}).Draw(t, label)
}

// genOracleNumber is a JSON number in one of many spellings.
func genOracleNumber(t *rapid.T) string {
	if rapid.Bool().Draw(t, "drawn number") {
		return fmt.Sprint(rapid.IntRange(-100000, 100000).Draw(t, "int"))
	}
	return rapid.SampledFrom([]string{
		`0`, `-0`, `1`, `1.0`, `1E2`, `1e21`, `1e-7`, `0.10`, `0.5`, `128000`, `-2.50e-3`,
		`12345678901234567890`, `1.7976931348623157e308`, `5e-324`, `0.000001`, `100e-2`, `1e300`, `-1E+300`,
	}).Draw(t, "number")
}

// genOracleValue is a compact JSON value up to depth levels deep: objects
// of up to a few dozen members (keys repeated now and then), arrays,
// strings, numbers and literals; now and then a chain of objects much
// deeper than the rest.
func genOracleValue(t *rapid.T, b *strings.Builder, depth int) {
	kind := rapid.IntRange(0, 9).Draw(t, "kind")
	if depth <= 0 && kind < 6 {
		kind = 6 + kind%4
	}
	switch kind {
	case 0, 1, 2:
		genOracleObject(t, b, depth-1, 0)
	case 3:
		b.WriteByte('[')
		for n := rapid.IntRange(0, 4).Draw(t, "elements"); n > 0; n-- {
			if b.Len() > 0 && b.String()[b.Len()-1] != '[' {
				b.WriteByte(',')
			}
			genOracleValue(t, b, depth-1)
		}
		b.WriteByte(']')
	case 4:
		n := rapid.IntRange(1, 60).Draw(t, "deep")
		key := rapid.SampledFrom(oracleKeys).Draw(t, "deep key")
		for i := 0; i < n; i++ {
			b.WriteString(`{"` + key + `":`)
		}
		genOracleValue(t, b, 0)
		b.WriteString(strings.Repeat("}", n))
	case 5:
		// Its members' values are shallow: one such object is enough.
		many := rapid.IntRange(30, 70).Draw(t, "many")
		if rapid.IntRange(0, 9).Draw(t, "large") == 0 {
			many = rapid.IntRange(256, 300).Draw(t, "many") // let go once written
		}
		genOracleObject(t, b, min(depth-1, 1), many)
	case 6:
		b.WriteString(genOracleString(t, "string"))
	case 7:
		b.WriteString(genOracleNumber(t))
	default:
		b.WriteString(rapid.SampledFrom([]string{`true`, `false`, `null`, `{}`, `[]`}).Draw(t, "literal"))
	}
}

// genOracleObject is an object of up to a dozen members, or of exactly
// many (catalog-like keys then, most distinct).
func genOracleObject(t *rapid.T, b *strings.Builder, depth, many int) {
	n := many
	if n == 0 {
		n = rapid.IntRange(0, 12).Draw(t, "members")
	}
	b.WriteByte('{')
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		key := rapid.SampledFrom(oracleKeys).Draw(t, "key")
		if many > 0 && rapid.IntRange(0, 9).Draw(t, "repeat") > 0 {
			key = fmt.Sprintf("anthropic/model-%d", rapid.IntRange(0, 500).Draw(t, "model"))
		}
		b.WriteString(`"` + key + `":`)
		genOracleValue(t, b, depth)
	}
	b.WriteByte('}')
}

// genOracleDocument is a compact document, an object most often. Keys
// may repeat (a Document made inside the package can hold them), so it is
// made without validation.
func genOracleDocument(t *rapid.T) Document {
	var b strings.Builder
	if rapid.IntRange(0, 9).Draw(t, "root") == 0 {
		genOracleValue(t, &b, 4)
	} else {
		genOracleObject(t, &b, 4, 0)
	}
	if !json.Valid([]byte(b.String())) {
		t.Fatalf("generator made invalid JSON: %s", b.String())
	}
	return newDocument([]byte(b.String()))
}

// genOracleEdit is an edit of the kind CanonicalApply takes the one-pass
// way for (a root member or one below it) or goes the long way for.
func genOracleEdit(t *rapid.T) Edit {
	p := Root()
	if rapid.IntRange(0, 9).Draw(t, "edit of root") > 0 {
		p = p.Key(rapid.SampledFrom([]string{"logging", "diagnostics", "a", "é", "0", "x.y", "new"}).Draw(t, "edit key"))
	}
	for n := rapid.IntRange(0, 2).Draw(t, "edit depth"); n > 0; n-- {
		if rapid.IntRange(0, 5).Draw(t, "edit index") == 0 {
			p = p.Index(rapid.IntRange(0, 2).Draw(t, "i"))
		} else {
			p = p.Key(rapid.SampledFrom([]string{"level", "otel", "logs", "a", "b"}).Draw(t, "edit key"))
		}
	}
	if rapid.IntRange(0, 3).Draw(t, "delete") == 0 {
		return Edit{Path: p, Delete: true}
	}
	var b strings.Builder
	genOracleValue(t, &b, 2)
	raw := []byte(b.String())
	switch rapid.IntRange(0, 9).Draw(t, "raw") {
	case 0:
		var buf bytes.Buffer
		_ = json.Indent(&buf, raw, "", "  ")
		raw = buf.Bytes()
	case 1:
		raw = []byte(`{"unclosed":`)
	}
	return Edit{Path: p, Raw: raw}
}

// samePlaces reports whether two root indexes are the same.
func samePlaces(a, b rootPlaces) bool {
	if a.obj != b.obj || a.unique != b.unique || len(a.members) != len(b.members) {
		return false
	}
	for k := range a.members {
		if a.members[k] != b.members[k] {
			return false
		}
	}
	return true
}

// TestCanonicalMatchesOldWriter holds the canonical writer to the one it
// replaced (canonical_old_test.go), byte for byte, root place for root
// place and error for error: Canonical and CanonicalDocument over random
// documents (unicode and escaped keys, repeated keys, deep nesting,
// numbers in every spelling, objects large and small, in order or not),
// and CanonicalApply with random edits of them.
func TestCanonicalMatchesOldWriter(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d := genOracleDocument(t)
		for _, withPlaces := range []bool{false, true} {
			got, places, obj := canonical(d, withPlaces)
			want, wplaces, wobj := oldCanonicalForm(d, withPlaces)
			if !bytes.Equal(got, want) {
				t.Fatalf("canonical(%s, %v)\n got %s\nwant %s", d, withPlaces, got, want)
			}
			if obj != wobj || !samePlaces(places, wplaces) {
				t.Fatalf("canonical(%s, %v): places %+v (%v), want %+v (%v)", d, withPlaces, places, obj, wplaces, wobj)
			}
		}
		var edits []Edit
		for n := rapid.IntRange(0, 5).Draw(t, "edits"); n > 0; n-- {
			edits = append(edits, genOracleEdit(t))
		}
		before := d.String()
		got, err := CanonicalApply(d, edits...)
		want, werr := oldCanonicalApply(d, edits...)
		if d.String() != before {
			t.Fatalf("CanonicalApply changed its source: %s, was %s", d, before)
		}
		switch {
		case (err == nil) != (werr == nil):
			t.Fatalf("%s with %v: error %v, the old writer %v", d, edits, err, werr)
		case err != nil:
			if err.Error() != werr.Error() || fmt.Sprintf("%#v", err) != fmt.Sprintf("%#v", werr) {
				t.Fatalf("%s with %v: error %#v, the old writer %#v", d, edits, err, werr)
			}
			return
		}
		if !bytes.Equal(got.bytes(), want.bytes()) {
			t.Fatalf("%s with %v:\n got %s\nwant %s", d, edits, got, want)
		}
		if got.top != nil && want.top != nil {
			gp, wp := got.top.places, want.top.places
			if !samePlaces(gp, wp) {
				t.Fatalf("%s with %v: places %+v, want %+v", d, edits, gp, wp)
			}
		}
	})
}
