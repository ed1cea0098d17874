package jsonwalk

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

// FuzzScan: on any text the scanner and the walker stay in bounds; on
// JSON, Skip finds the end of the value, Members and Elements find the
// members and elements gjson finds (keys decoded alike), and a schema
// that accepts everything accepts it.
func FuzzScan(f *testing.F) {
	for _, s := range []string{`{}`, `[]`, `{"a":1,"b":[true,null,"x\"y"]}`, ` [1, 2.5e3, {"k\u0041": {}}] `,
		`{"a":`, `"\`, `[1,`, `{"a" 1}`, `-`, `tru`, `{"a":{"b":{"c":[[[]]]}}}`} {
		f.Add(s)
	}
	// Trees that accept every value but walk all of it: one naming every
	// type (which JS refuses an overflowing number), one naming none.
	tree := func(types uint8) *Node {
		obj := NewNode()
		obj.Types = types
		obj.Additional = NewNode()
		obj.Additional.Types = types
		obj.Rest = obj
		obj.Additional.Rest = obj
		obj.Additional.Additional = obj.Additional
		if err := Seal(obj); err != nil {
			f.Fatal(err)
		}
		return obj
	}
	typed, untyped := tree(Object|Array|String|Number|Boolean|Null), tree(0)
	f.Fuzz(func(t *testing.T, s string) {
		Skip(s, 0)
		if i := strPlainAgrees(s); i >= 0 {
			t.Fatalf("strPlain of %q at %d differs from before", s, i)
		}
		Members(s, 0, func(_ string, _ bool, at int) int { return Skip(s, at) })
		Elements(s, 0, func(_, at int) int { return Skip(s, at) })
		accepted := ValidOutline(JS{}, untyped, s, &Outline{Depth: 3, Watch: []string{"a"}}) &&
			Valid(Exact{}, typed, s)
		Valid(JS{}, typed, s)
		if !json.Valid([]byte(s)) {
			return
		}
		if !accepted || !Valid(Exact{}, nil, s) {
			t.Fatalf("a schema accepting every value refused %q", s)
		}
		trimmed := strings.TrimRight(s, " \t\r\n")
		if end := Skip(s, 0); end != len(trimmed) {
			t.Fatalf("Skip(%q) = %d, want %d", s, end, len(trimmed))
		}
		r := gjson.Parse(s)
		var want []string
		r.ForEach(func(k, v gjson.Result) bool { want = append(want, k.String()+"="+v.Raw); return true })
		var got []string
		var end int
		if r.IsObject() {
			end = Members(s, 0, func(k string, esc bool, at int) int {
				e := Skip(s, at)
				got = append(got, JS{}.Decode(k, esc)+"="+s[at:e])
				return e
			})
		} else if r.IsArray() {
			end = Elements(s, 0, func(i, at int) int {
				e := Skip(s, at)
				got = append(got, strconv.Itoa(i)+"="+s[at:e])
				return e
			})
		} else {
			return
		}
		if end != len(trimmed) || strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Fatalf("members of %q: %q (end %d), gjson %q", s, got, end, want)
		}
	})
}
