package compile

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/internal/jsonwalk"
)

// modelRefs are the model refs the agents select: agents.defaults.model
// and each agent's model, a string or {primary, fallbacks} (the first
// member of each name, as gjson reads them), read with the byte scanner
// in their order. pluginsOf read their providers this way before
// eachRefProvider; kept for the oracles (TestAgentSelectionsScan,
// pluginsOfBefore).
func modelRefs(selections []selection) []string {
	var out []string
	eachModelRef(selections, func(ref string) { out = append(out, ref) })
	return out
}

// eachModelRef calls fn with each of [modelRefs], in order.
func eachModelRef(selections []selection, fn func(ref string)) {
	for _, s := range selections {
		r := runtimeScan{text: s.model}
		if ref, ok := r.str(0); ok {
			fn(ref)
			continue
		}
		if r.kind(0) != '{' {
			continue
		}
		primary, fallbacks := -1, -1
		jsonwalk.Members(r.text, 0, func(lit string, esc bool, at int) int {
			switch k := (jsonwalk.JS{}).Decode(lit, esc); {
			case k == "primary" && primary < 0:
				primary = at
			case k == "fallbacks" && fallbacks < 0:
				fallbacks = at
			}
			return jsonwalk.Skip(r.text, at)
		})
		if ref, ok := r.str(primary); ok {
			fn(ref)
		}
		if r.kind(fallbacks) == '[' {
			jsonwalk.Elements(r.text, fallbacks, func(_, at int) int {
				if ref, ok := r.str(at); ok {
					fn(ref)
				}
				return jsonwalk.Skip(r.text, at)
			})
		}
	}
}

// refProviders is the set of providers eachRefProvider reads of doc's
// selections, sorted.
func refProviders(doc occkit.Document) []string {
	var got []string
	eachRefProvider(agentSelections(doc), func(p string) { got = append(got, p) })
	slices.Sort(got)
	return slices.Compact(got)
}

// refProvidersValues is refProviders as the Value walks read it (the
// oracle: agentSelectionsValues, modelRefsValues), each ref's provider
// cut with strings.Cut.
func refProvidersValues(doc occkit.Document) []string {
	var want []string
	for _, ref := range modelRefsValues(agentSelectionsValues(doc)) {
		if p, _, ok := strings.Cut(ref, "/"); ok && p != "" {
			want = append(want, p)
		}
	}
	slices.Sort(want)
	return slices.Compact(want)
}

// checkRefProviders fails when eachRefProvider and the Value walks read
// another set of providers from doc, when modelProviders ends a model
// setting elsewhere than jsonwalk.Skip does, and when the secret scan,
// which reads them in its walk, holds another set.
func checkRefProviders(t interface{ Fatalf(string, ...any) }, doc occkit.Document) {
	want := refProvidersValues(doc)
	if got := refProviders(doc); !slices.Equal(got, want) {
		t.Fatalf("%s: providers\ngot  %q\nwant %q", doc, got, want)
	}
	for _, s := range agentSelections(doc) {
		// Within the document's text, as the scan reads it.
		text := `{"model":` + s.model + `,"next":1}`
		if got, skip := modelProviders(text, 9, func(string) {}), jsonwalk.Skip(text, 9); got != skip {
			t.Fatalf("%s: modelProviders ends %s at %d, Skip at %d", doc, s.model, got, skip)
		}
	}
	scan := ScanSecrets(doc, SecretPolicyFor(""))
	if got := slices.Compact(slices.Sorted(slices.Values(scan.settings.providers))); !slices.Equal(got, want) {
		t.Fatalf("%s: the scan's providers\ngot  %q\nwant %q", doc, got, want)
	}
}

func TestEachRefProvider(t *testing.T) {
	for _, tc := range []struct{ name, src string }{
		{"string model", `{"agents":{"defaults":{"model":"a/b"}}}`},
		{"primary and fallbacks", `{"agents":{"defaults":{"model":{"primary":"a/b","fallbacks":["c/d","e/f/g"]}}}}`},
		{"fallbacks first", `{"agents":{"defaults":{"model":{"fallbacks":["c/d",1,null,{"x":"q/r"},["s/t"]],"primary":"a/b"}}}}`},
		{"no provider", `{"agents":{"defaults":{"model":{"primary":"/b","fallbacks":["c","","/"]}}}}`},
		{"escaped", `{"agents":{"defaults":{"model":{"primary":"\u0061\u002fb","fallbacks":["x\"y/z","\\/w"]}},"entries":{"k":{"model":"p\u002fq"}}}}`},
		{"escaped keys", `{"agents":{"defaults":{"model":{"\u0070rimary":"a/b","fallback\u0073":["c/d"]}}}}`},
		{"odd kinds", `{"agents":{"defaults":{"model":{"primary":["a/b"],"fallbacks":"c/d"}},"list":[{"model":1},{"model":{"primary":{"x":"e/f"}}},{"model":"g/h"}]}}`},
		{"other members", `{"agents":{"defaults":{"model":{"x":"a/b","primaryX":"c/d","fallbacks":[],"y":["e/f"],"primary":"g/h"}}}}`},
		{"whitespace", "{\"agents\":{\"defaults\":{\"model\":{ \"fallbacks\" : [ \"c/d\" ,\n \"e/f\" ] , \"primary\" : \"a/b\" }}}}"},
		{"entries and list", `{"agents":{"entries":{"x":{"model":{"primary":"a/b"}},"y":{"model":"c/d"}},"list":[{"model":{"fallbacks":["e/f"]}}]}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc, err := occkit.ParseDocument([]byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			if len(refProvidersValues(doc)) == 0 && tc.name != "no provider" && tc.name != "odd kinds" {
				t.Fatalf("%s: the case reads no provider", tc.src)
			}
			checkRefProviders(t, doc)
		})
	}
}

// genRefsDocument is an agents section whose scopes' models are refs
// with and without a provider, escaped or not, in objects whose primary
// and fallbacks come in any order, beside other members and values of
// other kinds.
func genRefsDocument(t *rapid.T) occkit.Document {
	ref := func() string {
		s := rapid.SampledFrom([]string{"a/b", "c/d/e", "a/x", "/b", "b", "", "q\"/r", "é/s", "p/"}).Draw(t, "ref")
		b, _ := json.Marshal(s)
		if rapid.IntRange(0, 3).Draw(t, "escape") == 0 {
			b = []byte(strings.ReplaceAll(string(b), "/", `\u002f`))
		}
		return string(b)
	}
	odd := func() string {
		return rapid.SampledFrom([]string{`1`, `null`, `{}`, `["a/b"]`, `{"primary":"z/z"}`}).Draw(t, "odd")
	}
	value := func() string {
		if rapid.IntRange(0, 4).Draw(t, "odd value") == 0 {
			return odd()
		}
		return ref()
	}
	key := func(k string) string {
		if rapid.IntRange(0, 4).Draw(t, "escaped key") == 0 {
			return fmt.Sprintf(`"\u%04x%s"`, k[0], k[1:])
		}
		return `"` + k + `"`
	}
	model := func() string {
		if rapid.IntRange(0, 3).Draw(t, "model kind") == 0 {
			return value()
		}
		fields := map[string]func() string{
			"primary": value,
			"fallbacks": func() string {
				if rapid.IntRange(0, 5).Draw(t, "fallbacks kind") == 0 {
					return odd()
				}
				var parts []string
				for range rapid.IntRange(0, 6).Draw(t, "fallbacks") {
					parts = append(parts, " "+value())
				}
				return "[" + strings.Join(parts, ",") + "]"
			},
			"primaryX": value,
			"x":        odd,
		}
		var parts []string
		for _, k := range rapid.Permutation([]string{"fallbacks", "primary", "primaryX", "x"}).Draw(t, "order") {
			if rapid.IntRange(0, 3).Draw(t, "present") > 0 {
				parts = append(parts, key(k)+": "+fields[k]())
			}
		}
		return "{" + strings.Join(parts, ",") + "}"
	}
	var entries, list []string
	for i := range rapid.IntRange(0, 3).Draw(t, "entries") {
		entries = append(entries, fmt.Sprintf(`"e%d":{"model":%s}`, i, model()))
	}
	for range rapid.IntRange(0, 3).Draw(t, "list") {
		list = append(list, `{"model":`+model()+`}`)
	}
	src := `{"agents":{"defaults":{"model":` + model() + `},"entries":{` + strings.Join(entries, ",") + `},"list":[` + strings.Join(list, ",") + `]}}`
	doc, err := occkit.ParseDocument([]byte(src))
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	return doc
}

// TestEachRefProviderMatchesValues: one pass of eachRefProvider reads the
// set of providers the Value walks read, on documents of every shape
// (the refs' and genAgentsDocument's).
func TestEachRefProviderMatchesValues(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		if rapid.Bool().Draw(t, "refs") {
			checkRefProviders(t, genRefsDocument(t))
		} else {
			checkRefProviders(t, genAgentsDocument(t))
		}
	})
}

// FuzzEachRefProvider compares eachRefProvider with the Value walks on
// any document.
func FuzzEachRefProvider(f *testing.F) {
	f.Add(`{"agents":{"defaults":{"model":{"fallbacks":["c/d",1],"primary":"a/b"}},"entries":{"x":{"model":"e\u002ff"}},"list":[{"model":{"primary":"g/h"}}]}}`)
	f.Add(`{"agents":{"defaults":{"model":{"primary":"a/b","primary":"c/d"}}}}`)
	f.Fuzz(func(t *testing.T, src string) {
		if doc, err := occkit.ParseDocument([]byte(src)); err == nil {
			checkRefProviders(t, doc)
		}
	})
}
