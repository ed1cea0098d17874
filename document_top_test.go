package occkit

import (
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
