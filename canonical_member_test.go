package occkit

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// memberKeys and memberValues are the spellings canon.object tells apart
// member by member: a key or a string value without an escape (read in
// the loop itself), one with an escape RFC 8785 writes, one with an
// escape it does not write (decoded), and the values that go through
// canon.value (numbers in and out of their canonical spelling, literals,
// containers, and strings the loop hands on).
var (
	memberKeys = []string{
		`a`, `b`, `id`, `name`, ``, `é`, "\uE000", `😀`, `\"q`, `\n`, `\u0061`, `\u00e9`, `\/`,
		`anthropic/model-1`, `anthropic/model-10`, `anthropic/model-2`, `anthropic/model-\u0031`,
	}
	memberValues = []string{
		`"openclaw"`, `""`, `"Model 1"`, `"é😀"`, `"\"\\\n"`, `"\u001f"`, `"\u0041"`, `"\/"`, `"a\tb\u00e9"`,
		`"` + string(bytes.Repeat([]byte("long"), 20)) + `"`,
		`0`, `12`, `1.0`, `1E2`, `-0`, `0.5`, `true`, `false`, `null`,
		`{}`, `[]`, `{"id":"x"}`, `{"b":1,"a":2}`, `["z","\u0041"]`,
	}
)

// TestCanonicalMembersMatchOldWriter holds canon.object's reading of a
// member in its loop (a key or a string value without an escape copied
// there, the others through writeKey, string and value) to the writer it
// replaced, byte for byte and root place for root place: objects of two
// members of every pairing of key and value spelling, in either order,
// at the root and below it, behind a member whose value is not its own
// canonical form (so that the output no longer mirrors the source), and
// under an edit of their object (CanonicalApply's tree).
func TestCanonicalMembersMatchOldWriter(t *testing.T) {
	check := func(t *testing.T, src string) {
		t.Helper()
		d := newDocument([]byte(src))
		for _, withPlaces := range []bool{false, true} {
			got, places, obj := canonical(d, withPlaces)
			want, wplaces, wobj := oldCanonicalForm(d, withPlaces)
			if !bytes.Equal(got, want) || obj != wobj || !samePlaces(places, wplaces) {
				t.Fatalf("canonical(%s, %v) = %s %+v, the old writer %s %+v", src, withPlaces, got, places, want, wplaces)
			}
		}
		edit := Edit{Path: NewPath("x", "new"), Raw: []byte(`1`)}
		got, err := CanonicalApply(d, edit)
		want, werr := oldCanonicalApply(d, edit)
		if (err == nil) != (werr == nil) || err == nil && (!bytes.Equal(got.bytes(), want.bytes()) ||
			got.top != nil && want.top != nil && !samePlaces(got.top.places, want.top.places)) {
			t.Fatalf("CanonicalApply(%s) = %s (%v), the old writer %s (%v)", src, got, err, want, werr)
		}
	}
	for _, k1 := range memberKeys {
		for _, k2 := range memberKeys {
			if k1 == k2 {
				continue
			}
			for _, v := range memberValues {
				obj := `{"` + k1 + `":` + v + `,"` + k2 + `":` + v + `}`
				check(t, obj)
				check(t, `{"x":`+obj+`}`)
				check(t, `{"n":1.50,"x":[`+obj+`,`+obj+`]}`)
				check(t, `{"z":`+obj+`,"a":`+obj+`}`)
			}
		}
	}
}

// TestCanonicalMembersDrawn is TestCanonicalMembersMatchOldWriter over
// drawn objects of up to a dozen such members, nested.
func TestCanonicalMembersDrawn(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var b bytes.Buffer
		var object func(depth int)
		object = func(depth int) {
			b.WriteByte('{')
			for n := rapid.IntRange(0, 12).Draw(t, "members"); n > 0; n-- {
				if b.Bytes()[b.Len()-1] != '{' {
					b.WriteByte(',')
				}
				b.WriteString(`"` + rapid.SampledFrom(memberKeys).Draw(t, "key") + `":`)
				if depth > 0 && rapid.IntRange(0, 3).Draw(t, "nested") == 0 {
					object(depth - 1)
				} else {
					b.WriteString(rapid.SampledFrom(memberValues).Draw(t, "value"))
				}
			}
			b.WriteByte('}')
		}
		object(3)
		d := newDocument(b.Bytes())
		for _, withPlaces := range []bool{false, true} {
			got, places, obj := canonical(d, withPlaces)
			want, wplaces, wobj := oldCanonicalForm(d, withPlaces)
			if !bytes.Equal(got, want) || obj != wobj || !samePlaces(places, wplaces) {
				t.Fatalf("canonical(%s, %v) = %s %+v, the old writer %s %+v", b.Bytes(), withPlaces, got, places, want, wplaces)
			}
		}
	})
}

// TestCanonicalPunctuationOutOfLine holds the writer's brackets, commas
// and colons (canon.punct, which leaves one where it is while out mirrors
// src at its offset) to the old writer where the output stops lining up
// with the source (a number written longer or shorter than it was
// spelled) and lines up again, in documents of every length over a few
// size classes (one of each fills its copy of the source).
func TestCanonicalPunctuationOutOfLine(t *testing.T) {
	for pad := 0; pad < 200; pad++ {
		for _, shape := range []string{
			`{"a":1e21,"b":0.10,"c":"%s","d":[1,2,{"e":[]}],"f":{"g":1,"h":[3]}}`,
			`[1e21,0.10,"%s",{"b":1,"a":[2,3]},[4,{}]]`,
			`{"z":1e21,"y":0.10,"x":"%s","w":{"v":1,"u":[2]}}`,
		} {
			src := fmt.Sprintf(shape, strings.Repeat("p", pad))
			d := newDocument([]byte(src))
			got, places, obj := canonical(d, true)
			want, wplaces, wobj := oldCanonicalForm(d, true)
			if !bytes.Equal(got, want) || obj != wobj || !samePlaces(places, wplaces) {
				t.Fatalf("canonical(%s) = %q, the old writer %q", src, got, want)
			}
		}
	}
}
