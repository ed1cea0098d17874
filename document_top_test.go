package occkit

import (
	"strings"
	"testing"

	"github.com/tidwall/gjson"
	"pgregory.net/rapid"
)

// TestGetFromRootMember: a lookup that starts at the root member located
// once per document (topIndex) finds what gjson finds walking the whole
// path from the first byte, with the same offset, for every path of a
// generated document and paths that miss.
func TestGetFromRootMember(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d := genDocument(t)
		var paths []Path
		var walk func(p Path, v gjson.Result)
		walk = func(p Path, v gjson.Result) {
			paths = append(paths, p.Key("absent"), p.Index(7))
			if !v.IsObject() && !v.IsArray() {
				return
			}
			i := 0
			v.ForEach(func(k, val gjson.Result) bool {
				q := p.Index(i)
				if v.IsObject() {
					q = p.Key(k.String())
				}
				paths = append(paths, q)
				walk(q, val)
				i++
				return true
			})
		}
		walk(Root(), gjson.Parse(d.String()))
		for _, p := range paths {
			got, want := d.Get(p).r, gjson.Get(d.String(), p.GJSON())
			if got.Raw != want.Raw || got.Index != want.Index || got.Type != want.Type || got.Str != want.Str {
				t.Fatalf("Get(%s) = %q at %d, gjson.Get = %q at %d in %s", p.String(), got.Raw, got.Index, want.Raw, want.Index, d.String())
			}
		}
	})
}

// rootMembersGJSON is the root-member index as gjson's ForEach reads it,
// the oracle for the root index.
func rootMembersGJSON(raw string) (obj bool, at map[string]gjson.Result) {
	root := gjson.Parse(raw)
	if !root.IsObject() {
		return false, nil
	}
	at = map[string]gjson.Result{}
	root.ForEach(func(k, v gjson.Result) bool {
		if _, seen := at[k.String()]; !seen {
			at[k.String()] = v
		}
		return true
	})
	return true, at
}

// checkRootMembers fails when the root index of raw, found by the byte
// scanner, and its oracle disagree on raw.
func checkRootMembers(t interface{ Fatalf(string, ...any) }, raw string) {
	checkTopIndex(t, new(topIndex), raw, "found")
}

// checkTopIndex fails unless the root index x of raw holds what gjson's
// ForEach over the root yields: the same names, each member's value
// (the first of a repeated name) at its offset.
func checkTopIndex(t interface{ Fatalf(string, ...any) }, x *topIndex, raw, how string) {
	_, _ = x.member(raw, "") // builds the index
	wantObj, want := rootMembersGJSON(raw)
	names := map[string]bool{}
	for _, m := range x.places.members {
		names[m.name(raw)] = true
	}
	if x.places.obj != wantObj || len(names) != len(want) || x.places.unique != (len(want) == len(x.places.members)) {
		t.Fatalf("%s: index of %q: object %v with %d names (unique %v), gjson %v with %d", how, raw, x.places.obj, len(names), x.places.unique, wantObj, len(want))
	}
	for k, w := range want {
		g, ok := x.member(raw, k)
		if !ok || g.Type != w.Type || g.Raw != w.Raw || g.Str != w.Str || g.Num != w.Num || g.Index != w.Index || g.Indexes != nil {
			t.Fatalf("%s: index of %q: [%q] = %#v, gjson %#v", how, raw, k, g, w)
		}
	}
	for _, k := range []string{"absent", "a\"", "\u0061"} {
		if _, ok := want[k]; !ok {
			if g, _ := x.member(raw, k); g.Exists() {
				t.Fatalf("%s: index of %q: [%q] = %#v, gjson has none", how, raw, k, g)
			}
		}
	}
}

// rootKeys are member keys that spell one name twice (plain and escaped),
// escape quotes and backslashes, or escape a lone surrogate.
var rootKeys = []string{`"a"`, `"\u0061"`, `"b"`, `"a\"b"`, `"\\"`, `"\ud800"`, `""`, `"é"`, `"\u00e9"`}

// TestRootMembersMatchGJSON: the root-member index read by the byte
// scanner holds what gjson's ForEach over the root yields, for generated
// documents and for roots with escaped and repeated keys (the first
// kept) and values of every type, with or without whitespace.
func TestRootMembersMatchGJSON(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		checkRootMembers(t, genDocument(t).String())
		var sb strings.Builder
		sp := rapid.SampledFrom([]string{"", " ", "\n\t"}).Draw(t, "space")
		sb.WriteString(sp + "{")
		for i, n := 0, rapid.IntRange(0, 12).Draw(t, "n"); i < n; i++ {
			if i > 0 {
				sb.WriteString(sp + ",")
			}
			sb.WriteString(sp + rapid.SampledFrom(rootKeys).Draw(t, "key") + sp + ":" + sp)
			sb.WriteString(genDocument(t).String())
		}
		sb.WriteString(sp + "}" + sp)
		checkRootMembers(t, sb.String())
	})
}

// FuzzRootMembers compares the root-member index with gjson's ForEach on
// any valid JSON.
func FuzzRootMembers(f *testing.F) {
	for _, s := range []string{`{}`, `[1]`, `"x"`, `{"a":1,"\u0061":[2],"b":{"c":"\n"}}`, ` { "a" : true , "b" : null } `} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		if gjson.Valid(raw) {
			checkRootMembers(t, raw)
		}
	})
}
