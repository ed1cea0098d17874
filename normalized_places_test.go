package occkit

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"pgregory.net/rapid"

	"github.com/occkit/occkit/internal/json5"
	"github.com/occkit/occkit/internal/normalized"
)

// genNormalizeSource writes a JSON5 or JSON text whose root is (mostly)
// an object: keys of carryKeys in JSON5 spellings (unquoted, single
// quoted, escaped) or numbered ones, values of genDocument compact or indented, or
// JSON5 scalars the transcoder rewrites, with comments, white space and
// trailing commas between them; now and then a repeated key (refused)
// or a root that is not an object.
func genNormalizeSource(t *rapid.T) string {
	ws := func() string {
		return rapid.SampledFrom([]string{"", "", "", " ", "\n  ", "\t", "/*c*/", "//c\n"}).Draw(t, "ws")
	}
	value := func() string {
		switch rapid.IntRange(0, 4).Draw(t, "value kind") {
		case 0:
			return rapid.SampledFrom([]string{"0x10", "16.0", "+1", ".5", "'s'", `"x\ny"`, `"\u00e9"`, "{a: [1,],}", "[/*c*/]"}).Draw(t, "json5")
		case 1:
			var b bytes.Buffer
			json.Indent(&b, []byte(genDocument(t).String()), "", "  ")
			return b.String()
		}
		return genDocument(t).String()
	}
	if rapid.IntRange(0, 9).Draw(t, "not an object") == 0 {
		return ws() + value() + ws()
	}
	var sb strings.Builder
	sb.WriteString(ws() + "{")
	n := rapid.IntRange(0, 20).Draw(t, "members")
	for i := range n {
		if i > 0 {
			sb.WriteString(ws() + ",")
		}
		k := rapid.SampledFrom(carryKeys).Draw(t, "key")
		if rapid.Bool().Draw(t, "numbered") {
			k = "k" + strconv.Itoa(rapid.IntRange(0, 40).Draw(t, "key number"))
		}
		lit, _ := json.Marshal(k)
		key := string(lit)
		switch rapid.IntRange(0, 4).Draw(t, "spelling") {
		case 0:
			if strings.Trim(k, "abcgintlowy") == "" {
				key = k // an identifier
			}
		case 1:
			key = "'" + strings.ReplaceAll(key[1:len(key)-1], `\"`, `"`) + "'"
		case 2:
			if k == "a" {
				key = `"\u0061"`
			}
		}
		sb.WriteString(ws() + key + ws() + ":" + ws() + value())
	}
	if n > 0 && rapid.Bool().Draw(t, "trailing comma") {
		sb.WriteString(",")
	}
	sb.WriteString(ws() + "}" + ws())
	return sb.String()
}

// TestNormalizedPlaces: the Document of what the transcoder normalized
// (compile.Load's) is given the places of its root members before any
// lookup, and they are the places findRootPlaces reads from its bytes;
// the index built from them is the one gjson reads (checkIndex).
func TestNormalizedPlaces(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		src := genNormalizeSource(t)
		n, err := json5.Normalize([]byte(src), json5.Options{})
		if err != nil {
			return // a repeated key
		}
		d := normalized.Document[Document](n)
		raw := d.String()
		if raw[0] != '{' {
			// Another root has no members to place: it finds that
			// itself, without a pass.
			if d.top.known.Load() {
				t.Fatalf("%s normalized to %s, not an object, with places", src, raw)
			}
			return
		}
		if !d.top.known.Load() {
			t.Fatalf("%s normalized to %s without places", src, raw)
		}
		want := findRootPlaces(raw)
		want.unique = true
		if diff := cmp.Diff(want, d.top.places, cmp.AllowUnexported(rootPlaces{}, memberPlace{}), cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("%s normalized to %s: places (-found +given):\n%s", src, raw, diff)
		}
		checkIndex(t, d, "normalized "+src)
	})
}
