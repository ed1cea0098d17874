package compile

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
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
		doc := genAgentsDocument(t)
		got := runtimeIDs(doc, agentSelections(doc))
		slices.Sort(got)
		if want := refRuntimeIDs(doc.String()); !slices.Equal(got, want) {
			t.Fatalf("%s:\ngot  %q\nwant %q", doc, got, want)
		}
	})
}

// genAgentsDocument is a document whose agents, model maps and provider
// catalogs take every shape, with escaped keys and values, white space
// and values of the wrong types.
func genAgentsDocument(t *rapid.T) occkit.Document {
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
	model := func() string {
		if rapid.IntRange(0, 2).Draw(t, "model shape") == 0 {
			return obj(map[string]func() string{"primary": str, "fallbacks": func() string { return either(str) }, "x": str})
		}
		return str()
	}
	scope := func() string {
		return obj(map[string]func() string{"models": func() string { return either(entry) }, "model": model})
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
	return doc
}

// valueSelection is a scope's model and models as occkit.Values, as the
// walks before the byte scanner read them.
type valueSelection struct{ model, models occkit.Value }

// agentSelectionsValues is agentSelections as it read before the byte
// scanner (pluginScopes, then scopeSelection of each scope), kept as the
// oracle: ForEach over the agents section and over each scope.
func agentSelectionsValues(doc occkit.Document) []valueSelection {
	var defaults occkit.Value
	var entries, list []occkit.Value
	doc.Get(agentsPath).ForEach(func(k, v occkit.Value) bool {
		switch k.String() {
		case "defaults":
			defaults = v
		case "entries":
			v.ForEach(func(_, e occkit.Value) bool {
				entries = append(entries, e)
				return true
			})
		case "list":
			list = v.Array()
		}
		return true
	})
	var out []valueSelection
	for _, scope := range append(append([]occkit.Value{defaults}, entries...), list...) {
		var s valueSelection
		scope.ForEach(func(k, v occkit.Value) bool {
			switch k.String() {
			case "model":
				s.model = v
			case "models":
				s.models = v
			}
			return true
		})
		out = append(out, s)
	}
	return out
}

// modelRefsValues is modelRefs as it read before the byte scanner, kept
// as the oracle: Key and ForEach on each scope's model.
func modelRefsValues(selections []valueSelection) []string {
	var out []string
	for _, s := range selections {
		m := s.model
		if m.IsString() {
			out = append(out, m.String())
			continue
		}
		if p := m.Key("primary"); p.IsString() {
			out = append(out, p.String())
		}
		if fs := m.Key("fallbacks"); fs.IsArray() {
			fs.ForEach(func(_, f occkit.Value) bool {
				if f.IsString() {
					out = append(out, f.String())
				}
				return true
			})
		}
	}
	return out
}

// checkSelections fails when agentSelections or modelRefs and their
// oracles disagree on doc.
func checkSelections(t interface{ Fatalf(string, ...any) }, doc occkit.Document) {
	got, want := agentSelections(doc), agentSelectionsValues(doc)
	var gotRows, wantRows []string
	for _, s := range got {
		gotRows = append(gotRows, s.model+" | "+s.models)
	}
	for _, s := range want {
		wantRows = append(wantRows, s.model.Raw()+" | "+s.models.Raw())
	}
	if !slices.Equal(gotRows, wantRows) {
		t.Fatalf("%s: selections\ngot  %q\nwant %q", doc, gotRows, wantRows)
	}
	if g, w := modelRefs(got), modelRefsValues(want); !slices.Equal(g, w) {
		t.Fatalf("%s: model refs\ngot  %q\nwant %q", doc, g, w)
	}
}

// TestAgentSelectionsScan: one pass of the byte scanner finds the scopes,
// their model and models, and the selected refs, in the order the
// Value walks found them, on documents of every shape.
func TestAgentSelectionsScan(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) { checkSelections(t, genAgentsDocument(t)) })
}

// FuzzAgentSelections compares the byte scanner's selections with the
// Value walks on any document.
func FuzzAgentSelections(f *testing.F) {
	f.Add(`{"agents":{"defaults":{"model":{"primary":"a/b","fallbacks":["c/d",1]}},"entries":{"x":{"model":"e/f","models":{}}},"list":[{"model":"\u0067/h"}]}}`)
	f.Add(`{"agents":{"entries":[{"model":{"fallbacks":"x"}}],"list":{}}}`)
	f.Fuzz(func(t *testing.T, src string) {
		if doc, err := occkit.ParseDocument([]byte(src)); err == nil {
			checkSelections(t, doc)
		}
	})
}

// TestScanReadsModelSettings: the secret scan's walk reads the model
// settings RequiredPlugins needs as the separate reading does (the
// oracle: agentSelections, runtimeIDs, modelRefs), finds the same places
// as secretPlaces alone, and plans the same plugins, on documents of
// every shape.
func TestScanReadsModelSettings(t *testing.T) {
	pol := SecretPolicyFor("")
	rapid.Check(t, func(t *rapid.T) {
		doc := genAgentsDocument(t)
		if rapid.Bool().Draw(t, "wrapped") {
			// Other members around the sections, and a provider's
			// credentials beside its runtimes.
			var err error
			if doc, err = doc.Apply(
				occkit.Edit{Path: occkit.NewPath("channels", "slack", "botToken"), Raw: []byte(`"${SLACK}"`)},
				occkit.Edit{Path: occkit.NewPath("a"), Raw: []byte(`{"models":{"x":{"agentRuntime":{"id":"codex"}}}}`)},
			); err != nil {
				t.Fatal(err)
			}
		}
		want := readModelSettings(doc)
		var got modelSettings
		var places, alone []string
		record := func(out *[]string) func(at occkit.Path, v gjson.Result, kind placeKind) {
			return func(at occkit.Path, v gjson.Result, kind placeKind) {
				*out = append(*out, fmt.Sprintf("%s %d %q", at, kind, v.Raw))
			}
		}
		scanPlaces(doc, pol, record(&places), &got)
		secretPlaces(doc, pol, record(&alone))
		if !slices.Equal(places, alone) {
			t.Fatalf("%s: places\nwith settings %q\nalone         %q", doc, places, alone)
		}
		// The scan keeps a runtime id once in a run: the plugins make a
		// set of them.
		g, w := slices.Compact(slices.Sorted(slices.Values(got.runtimes))), slices.Compact(slices.Sorted(slices.Values(want.runtimes)))
		if !slices.Equal(g, w) {
			t.Fatalf("%s: runtime ids\ngot  %q\nwant %q", doc, g, w)
		}
		// The providers of the refs, a set, as the Value walks read them.
		g, w = slices.Compact(slices.Sorted(slices.Values(got.providers))), refProvidersValues(doc)
		if !slices.Equal(g, w) {
			t.Fatalf("%s: model ref providers\ngot  %q\nwant %q", doc, g, w)
		}
		if alone := slices.Compact(slices.Sorted(slices.Values(want.providers))); !slices.Equal(alone, w) {
			t.Fatalf("%s: model ref providers read alone\ngot  %q\nwant %q", doc, alone, w)
		}
		release := rapid.SampledFrom([]string{"2026.9.6", ""}).Draw(t, "release")
		if d := cmp.Diff(RequiredPlugins(doc, release), ScanSecrets(doc, pol).requiredPlugins(release)); d != "" {
			t.Fatalf("%s: plugins (-alone +scan):\n%s", doc, d)
		}
	})
}
