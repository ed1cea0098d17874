package compile

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
	"pgregory.net/rapid"

	"github.com/occkit/occkit"
)

// refRuntimeIDs is runtimeIDs read the plain way, with gjson, member by
// member: the reference the byte scanner is checked against.
func refRuntimeIDs(doc string) []string {
	var out []string
	runtimes := func(entry gjson.Result) {
		if !entry.IsObject() {
			return
		}
		if id := entry.Get("agentRuntime.id"); id.Type == gjson.String && entry.Get("agentRuntime").IsObject() {
			out = append(out, id.Str)
		}
		if p := entry.Get("pickerRuntimes"); p.IsArray() {
			for _, r := range p.Array() {
				if r.Type == gjson.String {
					out = append(out, r.Str)
				}
			}
		}
	}
	each := func(v gjson.Result, fn func(gjson.Result)) {
		if v.IsObject() || v.IsArray() {
			v.ForEach(func(_, e gjson.Result) bool { fn(e); return true })
		}
	}
	agents := gjson.Get(doc, "agents")
	if agents.IsObject() {
		scopes := []gjson.Result{agents.Get("defaults")}
		each(agents.Get("entries"), func(e gjson.Result) { scopes = append(scopes, e) })
		if l := agents.Get("list"); l.IsArray() {
			scopes = append(scopes, l.Array()...)
		}
		for _, s := range scopes {
			if s.IsObject() {
				each(s.Get("models"), runtimes)
			}
		}
	}
	if m := gjson.Get(doc, "models"); m.IsObject() {
		each(m.Get("providers"), func(p gjson.Result) {
			runtimes(p)
			if p.IsObject() {
				if ms := p.Get("models"); ms.IsArray() {
					for _, e := range ms.Array() {
						runtimes(e)
					}
				}
			}
		})
	}
	slices.Sort(out)
	return out
}

// runtimeIDs reads the runtime ids of any document as the plain reading
// does: entries, maps and catalogs of every shape, escaped keys and
// values, white space.
func TestRuntimeIDsScan(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		sp := func() string { return rapid.SampledFrom([]string{"", " ", "\n  "}).Draw(t, "space") }
		key := func(k string) string {
			if rapid.IntRange(0, 4).Draw(t, "escaped") == 0 {
				return fmt.Sprintf(`"\u%04x%s"`, k[0], k[1:])
			}
			return `"` + k + `"`
		}
		str := func() string {
			return rapid.SampledFrom([]string{`"codex"`, `"claude-cli"`, `"x\"y"`, `"\u0063odex"`, `""`, `1`, `null`, `{}`}).Draw(t, "id")
		}
		// obj writes the members fields draws, each key at most once.
		obj := func(fields map[string]func() string) string {
			names := make([]string, 0, len(fields))
			for k := range fields {
				names = append(names, k)
			}
			slices.Sort(names)
			var parts []string
			for _, k := range rapid.Permutation(names).Draw(t, "order") {
				if rapid.IntRange(0, 3).Draw(t, "present") > 0 {
					parts = append(parts, sp()+key(k)+sp()+":"+sp()+fields[k]())
				}
			}
			return "{" + strings.Join(parts, ",") + sp() + "}"
		}
		list := func(elem func() string) string {
			parts := make([]string, rapid.IntRange(0, 3).Draw(t, "len"))
			for i := range parts {
				parts[i] = sp() + elem()
			}
			return "[" + strings.Join(parts, ",") + "]"
		}
		// either is a map or an array of elem, or something else.
		either := func(elem func() string) string {
			switch rapid.IntRange(0, 5).Draw(t, "shape") {
			case 0:
				return list(elem)
			case 1:
				return str()
			default:
				return obj(map[string]func() string{"a": elem, "b/c": elem, "d": elem})
			}
		}
		entryFields := func() map[string]func() string {
			return map[string]func() string{
				"agentRuntime": func() string {
					if rapid.IntRange(0, 5).Draw(t, "runtime shape") == 0 {
						return list(str)
					}
					return obj(map[string]func() string{"id": str, "x": str})
				},
				"pickerRuntimes": func() string {
					if rapid.IntRange(0, 5).Draw(t, "picker shape") == 0 {
						return str()
					}
					return list(str)
				},
				"params": func() string { return obj(map[string]func() string{"id": str, "agentRuntime": str}) },
			}
		}
		entry := func() string { return obj(entryFields()) }
		scope := func() string {
			return obj(map[string]func() string{"models": func() string { return either(entry) }, "model": str})
		}
		provider := func() string {
			f := entryFields()
			f["models"] = func() string { return either(entry) }
			return obj(f)
		}
		agents := obj(map[string]func() string{
			"defaults": scope,
			"entries":  func() string { return either(scope) },
			"list":     func() string { return list(scope) },
		})
		src := `{"agents":` + agents + `,"models":{"providers":` + either(provider) + `}}`
		doc, err := occkit.ParseDocument([]byte(src))
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		got := runtimeIDs(doc, agentSelections(doc))
		slices.Sort(got)
		if want := refRuntimeIDs(doc.String()); !slices.Equal(got, want) {
			t.Fatalf("%s:\ngot  %q\nwant %q", doc, got, want)
		}
	})
}
