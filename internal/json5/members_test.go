package json5

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"pgregory.net/rapid"
)

// membersOf reads the places of the root object's members in the compact
// JSON out the plain way, the oracle for [Normalized.Members]: a scan of
// every byte that follows strings and nesting. At depth 1 a string
// followed by ':' is a key, and a ',' or the root's '}' ends a value.
func membersOf(out []byte) []Member {
	if len(out) == 0 || out[0] != '{' {
		return nil
	}
	var ms []Member
	depth := 0
	for i := 0; i < len(out); i++ {
		switch out[i] {
		case '"':
			start := i
			for i++; out[i] != '"'; i++ {
				if out[i] == '\\' {
					i++
				}
			}
			if depth == 1 && out[i+1] == ':' {
				ms = append(ms, Member{Key: start, Value: i + 2})
			}
		case '{', '[':
			depth++
		case '}', ']':
			if depth--; depth == 0 && len(ms) > 0 {
				ms[len(ms)-1].End = i
			}
		case ',':
			if depth == 1 {
				ms[len(ms)-1].End = i
			}
		}
	}
	return ms
}

// checkMembers fails t unless Normalize of src (when it succeeds) knows
// where its root members are, as membersOf finds them in its output:
// through the fast path, and through the general loop alone (which is
// what Options.OnToken asks for).
func checkMembers(t interface{ Fatalf(string, ...any) }, src []byte, opts Options) {
	for _, general := range []bool{false, true} {
		o := opts
		if general {
			o.OnToken = func(Token) {}
		}
		n, err := Normalize(src, o)
		if err != nil {
			return
		}
		if diff := cmp.Diff(membersOf(n.Bytes()), n.Members(), cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("Normalize(%q) (general loop only %v) to %s: members (-scanned +recorded):\n%s", src, general, n.Bytes(), diff)
		}
	}
}

// TestMembersRecorded: for root objects of up to 40 members (past the
// parser's own array), strict JSON compact (written as the source's own
// prefix) or indented, or JSON5 with comments, odd keys, trailing commas
// and damage, the members recorded are the members scanned.
func TestMembersRecorded(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		g := docGen{t: t, indent: rapid.Bool().Draw(t, "indent"), json5: rapid.Bool().Draw(t, "json5")}
		var b strings.Builder
		b.WriteString(g.ws(0) + "{")
		n := rapid.IntRange(0, 12).Draw(t, "members")
		if g.rare("many") {
			n = rapid.IntRange(13, 40).Draw(t, "many members")
		}
		for i := range n {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString(g.ws(1) + g.key() + ":" + g.ws(1) + g.value(1))
		}
		if n > 0 && g.json5 && g.rare("trailing comma") {
			b.WriteString(",")
		}
		b.WriteString(g.ws(0) + "}" + g.ws(0))
		checkMembers(t, []byte(b.String()), Options{MaxDepth: 64})
	})
}

func TestMembersExamples(t *testing.T) {
	for _, c := range []struct {
		src  string
		want []Member
	}{
		{`{}`, nil},
		{`[{"a":1}]`, nil},
		{`"s"`, nil},
		{`{"a":1}`, []Member{{1, 5, 6}}},
		{"{ \"a\" : [1, 2] ,\n \"bc\":{\"d\":{}} }", []Member{{1, 5, 10}, {11, 16, 24}}},
		{`{a: 'x', /* c */ "b": 0x10,}`, []Member{{1, 5, 8}, {9, 13, 15}}},
		{`{"\u0061b": "\n", c: {}}`, []Member{{1, 6, 10}, {11, 15, 17}}},
	} {
		n, err := Normalize([]byte(c.src), Options{})
		if err != nil {
			t.Fatalf("%s: %v", c.src, err)
		}
		if diff := cmp.Diff(c.want, n.Members(), cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("%s (written %s): members (-want +got):\n%s", c.src, n.Bytes(), diff)
		}
	}
}
