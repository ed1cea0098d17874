package openclawschema

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
	"pgregory.net/rapid"
)

// TestStringChoices: a union of string enums, which the walker checks as
// one enum (stringChoice), gives the verdict of its branches tried in
// turn (the gjson oracle, oracle_test.go) on each of its strings, those
// strings spelled with an escape, near misses and values of every other
// type; and the schema's unions of literals (logging.level among them)
// are checked so.
func TestStringChoices(t *testing.T) {
	v, err := New()
	if err != nil {
		t.Fatal(err)
	}
	others := []string{`""`, `"x"`, `null`, `true`, `false`, `0`, `1.5`, `{}`, `[]`, `{"a":"b"}`, `["info"]`, `"\ud83e\udd9e"`}
	collapsed := 0
	seen := map[*node]bool{}
	var visit func(n *node, at string)
	visit = func(n *node, at string) {
		if n == nil || seen[n] {
			return
		}
		seen[n] = true
		if len(n.anyOf) > 0 && n.w != nil && n.w.AnyOf == nil {
			collapsed++
			values := append([]string(nil), others...)
			for _, c := range n.anyOf {
				for _, e := range c.enum {
					values = append(values, strconv.Quote(e.str), strconv.Quote(e.str+"x"), strconv.Quote(strings.ToUpper(e.str)))
					if e.str != "" {
						values = append(values, fmt.Sprintf(`"\u%04x%s"`, e.str[0], e.str[1:]), strconv.Quote(e.str[1:]))
					}
				}
			}
			for _, raw := range values {
				r := gjson.Parse(raw)
				if got, want := n.valid(r), n.oracleValid(r); got != want {
					t.Errorf("%s: the walker says %v, the branches %v, of %s", at, got, want, raw)
				}
			}
		}
		for k, c := range n.props {
			visit(c, at+"/"+k)
		}
		for _, c := range []*node{n.additional, n.items, n.extraItems, n.keys} {
			visit(c, at+"/*")
		}
		for _, us := range [][]*node{n.tuple, n.allOf, n.anyOf, n.oneOf} {
			for _, c := range us {
				visit(c, at+"/|")
			}
		}
	}
	visit(v.root, "")
	if collapsed < 100 {
		t.Errorf("%d unions of literals checked as one enum, want the schema's (about 200)", collapsed)
	}
	level, _ := v.root.props["logging"].child("level")
	if level.w.AnyOf != nil {
		t.Error("logging.level: its literals are tried one by one")
	}
}

// TestLengthWithin: the string length bounds, told without counting
// where the byte length decides, say what counting the UTF-16 code units
// says, for any bytes (invalid UTF-8 and characters of every width).
func TestLengthWithin(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		parts := rapid.SliceOfN(rapid.SampledFrom([]string{"a", "é", "日", "🦞", "\xff", "\xe6\x97", "~"}), 0, 24).Draw(t, "parts")
		s := strings.Join(parts, "")
		min, max := rapid.IntRange(-1, 30).Draw(t, "min"), rapid.IntRange(-1, 30).Draw(t, "max")
		l := utf16Len(s)
		if got, want := lengthWithin(s, min, max), (min < 0 || l >= min) && (max < 0 || l <= max); got != want {
			t.Fatalf("%q (%d units) within [%d, %d]: %v, want %v", s, l, min, max, got, want)
		}
	})
}
