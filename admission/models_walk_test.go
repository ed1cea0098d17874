package admission

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tidwall/gjson"
	"pgregory.net/rapid"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/resolver"
)

// selectedRefsGJSON is the walk eachSelectedRef made with gjson before it
// read with the byte scanner, kept as the oracle: occkit.Value's Key and
// ForEach, spelled on gjson.Result, over the agents object raw.
func selectedRefsGJSON(raw string, fn func(modelRef) bool) {
	key := func(r gjson.Result, name string) gjson.Result {
		if !r.IsObject() {
			return gjson.Result{}
		}
		return r.Get(name)
	}
	forEach := func(r gjson.Result, fn func(k, v gjson.Result) bool) {
		switch {
		case r.IsArray():
			r.ForEach(func(_, e gjson.Result) bool { return fn(gjson.Result{}, e) })
		case r.IsObject():
			r.ForEach(fn)
		}
	}
	more := true
	add := func(m modelRef, v gjson.Result) {
		if !more || v.Type != gjson.String {
			return
		}
		if r, ok := resolver.ParseRef(v.String()); ok {
			m.ref = r
			more = fn(m)
		}
	}
	model := func(m modelRef, v gjson.Result) {
		switch {
		case v.Type == gjson.String:
			m.primary = true
			add(m, v)
		case v.IsObject():
			add(modelRef{model: m.model, member: "primary", primary: true}, key(v, "primary"))
			if fb := key(v, "fallbacks"); fb.IsArray() {
				i := 0
				forEach(fb, func(_, f gjson.Result) bool {
					add(modelRef{model: m.model, member: "fallbacks", index: i}, f)
					i++
					return more
				})
			}
		}
	}
	agents := gjson.Parse(raw)
	model(modelRef{model: defaultsModel}, key(key(agents, "defaults"), "model"))
	forEach(key(agents, "entries"), func(k, e gjson.Result) bool {
		model(modelRef{model: entriesPath.Key(k.String()).Key("model")}, key(e, "model"))
		return more
	})
}

// refRow is what one visit tells: where, which member, the ref.
func refRow(m modelRef) string {
	return fmt.Sprintf("%s %s %q %d %v %+v", m.at().String(), m.model.String(), m.member, m.index, m.primary, m.ref)
}

// refRows are the rows of the visits walk makes over raw, stopping after
// limit visits (all when limit is negative).
func refRows(walk func(string, func(modelRef) bool), raw string, limit int) []string {
	var rows []string
	walk(raw, func(m modelRef) bool {
		rows = append(rows, refRow(m))
		return limit < 0 || len(rows) < limit
	})
	return rows
}

func refWalkOf(raw string, fn func(modelRef) bool) {
	w := refWalk{s: raw, fn: fn}
	w.agents()
}

// genMember writes a member of one of keys with a value of gen, keys
// spelled plain, escaped or repeated.
func genObject(t *rapid.T, label string, keys []string, gen func(*rapid.T) string) string {
	var sb strings.Builder
	sb.WriteByte('{')
	for i, n := 0, rapid.IntRange(0, 4).Draw(t, label+"n"); i < n; i++ {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString(rapid.SampledFrom(keys).Draw(t, label+"key") + ":" + gen(t))
	}
	sb.WriteByte('}')
	return sb.String()
}

func genArray(t *rapid.T, label string, gen func(*rapid.T) string) string {
	var parts []string
	for i, n := 0, rapid.IntRange(0, 4).Draw(t, label+"n"); i < n; i++ {
		parts = append(parts, gen(t))
	}
	return "[" + strings.Join(parts, ",") + "]"
}

// genAgents is an agents value: model settings of every shape, of the
// wrong types, under escaped and repeated keys.
func genAgents(t *rapid.T) string {
	other := rapid.SampledFrom([]string{`1`, `null`, `true`, `[]`, `{}`, `{"model":"x/y"}`, `"s"`})
	ref := rapid.SampledFrom([]string{`"openai/gpt-5"`, `"anthropic/claude-opus-4"`, `"\u0070/m\"q"`, `"bad"`, `"a/b\\c"`, `""`, `"/x"`, `"p/"`})
	value := func(t *rapid.T) string {
		if rapid.Bool().Draw(t, "ref") {
			return ref.Draw(t, "r")
		}
		return other.Draw(t, "o")
	}
	model := func(t *rapid.T) string {
		switch rapid.IntRange(0, 2).Draw(t, "model") {
		case 0:
			return value(t)
		}
		return genObject(t, "m", []string{`"primary"`, `"\u0070rimary"`, `"fallbacks"`, `"fallback\u0073"`, `"x"`}, func(t *rapid.T) string {
			if rapid.Bool().Draw(t, "fb") {
				return genArray(t, "f", value)
			}
			return value(t)
		})
	}
	holder := func(t *rapid.T) string {
		if rapid.IntRange(0, 4).Draw(t, "holder") == 0 {
			return other.Draw(t, "h")
		}
		return genObject(t, "e", []string{`"model"`, `"\u006dodel"`, `"name"`}, model)
	}
	entries := func(t *rapid.T) string {
		switch rapid.IntRange(0, 4).Draw(t, "entries") {
		case 0:
			return other.Draw(t, "x")
		case 1:
			return genArray(t, "a", holder)
		}
		return genObject(t, "id", []string{`"a"`, `"b"`, `"\u0061"`, `""`, `"a.b"`, `"\\"`}, holder)
	}
	if rapid.IntRange(0, 9).Draw(t, "agents") == 0 {
		return other.Draw(t, "agents-other")
	}
	return genObject(t, "agents", []string{`"defaults"`, `"entries"`, `"\u0064efaults"`, `"entrie\u0073"`, `"list"`}, func(t *rapid.T) string {
		if rapid.Bool().Draw(t, "which") {
			return entries(t)
		}
		return holder(t)
	})
}

// TestRefWalkMatchesGJSON: the byte scanner's walk over the agents object
// visits the refs the gjson walk visited, in its order, with the same
// paths, members and refs, and stops where fn says.
func TestRefWalkMatchesGJSON(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		raw := genAgents(t)
		limit := rapid.IntRange(-1, 4).Draw(t, "limit")
		if d := cmp.Diff(refRows(selectedRefsGJSON, raw, limit), refRows(refWalkOf, raw, limit)); d != "" {
			t.Fatalf("walk of %s (limit %d), -gjson +scanner:\n%s", raw, limit, d)
		}
	})
}

// FuzzRefWalk compares the two walks on any valid JSON.
func FuzzRefWalk(f *testing.F) {
	f.Add(`{"defaults":{"model":{"primary":"a/b","fallbacks":["c/d",1]}},"entries":{"x":{"model":"e/f"}}}`, 0)
	f.Add(`{"entries":[{"model":"a/b"}],"defaults":{"model":"c/d"}}`, 1)
	f.Fuzz(func(t *testing.T, raw string, limit int) {
		if !gjson.Valid(raw) {
			return
		}
		limit = limit%5 - 1
		if d := cmp.Diff(refRows(selectedRefsGJSON, raw, limit), refRows(refWalkOf, raw, limit)); d != "" {
			t.Fatalf("walk of %s (limit %d), -gjson +scanner:\n%s", raw, limit, d)
		}
	})
}

// configuredProvidersValues is configuredProviders as it read before the
// byte scanner, kept as the oracle: ForEach over each object.
func configuredProvidersValues(doc occkit.Document) map[string]bool {
	configured := map[string]bool{}
	for _, root := range []occkit.Path{providersKey, pluginsKey} {
		if v := doc.Get(root); v.IsObject() {
			v.ForEach(func(k, _ occkit.Value) bool {
				configured[k.String()] = true
				return true
			})
		}
	}
	return configured
}

// genProvidersDocument is a document whose models.providers and
// plugins.entries are objects with escaped keys and values of every
// type, or of the wrong type.
func genProvidersDocument(t *rapid.T) occkit.Document {
	keys := []string{`"openai"`, `"\u006fpenai"`, `"a\"b"`, `""`, `"x.y"`, `"\\"`, `"é"`, `"\u00e9"`}
	value := rapid.SampledFrom([]string{`1`, `null`, `"s"`, `[]`, `{"models":[{"id":"m"}]}`, `{"baseUrl":"\u0068ttp://x"}`})
	section := func(label string) string {
		if rapid.IntRange(0, 4).Draw(t, label) == 0 {
			return value.Draw(t, label+"-other")
		}
		ks := rapid.SliceOfNDistinct(rapid.SampledFrom(keys), 0, 4, func(k string) string { return gjson.Parse(k).String() }).Draw(t, label+"-keys")
		parts := make([]string, len(ks))
		for i, k := range ks {
			parts[i] = k + ":" + value.Draw(t, label+"-value")
		}
		return "{" + strings.Join(parts, ",") + "}"
	}
	src := `{"models":{"providers":` + section("providers") + `},"plugins":{"entries":` + section("entries") + `}}`
	doc, err := occkit.ParseDocument([]byte(src))
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	return doc
}

// TestConfiguredProvidersScan: the byte scanner finds the keys the
// ForEach walk found.
func TestConfiguredProvidersScan(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		doc := genProvidersDocument(t)
		if d := cmp.Diff(configuredProvidersValues(doc), configuredProviders(doc)); d != "" {
			t.Fatalf("%s: -ForEach +scanner:\n%s", doc, d)
		}
	})
}

// FuzzConfiguredProviders compares the two on any document.
func FuzzConfiguredProviders(f *testing.F) {
	f.Add(`{"models":{"providers":{"a":{},"\u0062":1}},"plugins":{"entries":{"c":[]}}}`)
	f.Fuzz(func(t *testing.T, src string) {
		if doc, err := occkit.ParseDocument([]byte(src)); err == nil {
			if d := cmp.Diff(configuredProvidersValues(doc), configuredProviders(doc)); d != "" {
				t.Fatalf("%s: -ForEach +scanner:\n%s", doc, d)
			}
		}
	})
}

// TestCheckModelsFindsPrimary: the check of the selected models finds
// where the primary is written as primaryPath does on its own, and its
// answer is checkModels', on agents of every shape and for every
// primary, a release with a catalog or without.
func TestCheckModelsFindsPrimary(t *testing.T) {
	for _, c := range []struct {
		doc  string
		want occkit.Path
	}{
		// A fallback equal to the primary is not where the primary is.
		{`{"agents":{"defaults":{"model":{"fallbacks":["openai/gpt-5"]}},"entries":{"a":{"model":"openai/gpt-5"}}}}`, occkit.NewPath("agents", "entries", "a", "model")},
		{`{"agents":{"defaults":{"model":{"fallbacks":["openai/gpt-5"]}}}}`, occkit.Root()},
	} {
		_, at, err := walkCheckModelsAt(occkit.MustParseDocument(c.doc), "2026.9.6", "openai/gpt-5")
		if err != nil || at.String() != c.want.String() {
			t.Errorf("%s: at %s (%v), want %s", c.doc, at, err, c.want)
		}
	}
	rapid.Check(t, func(t *rapid.T) {
		raw := genAgents(t)
		doc, err := occkit.ParseDocument([]byte(`{"agents":` + raw + `,"models":{"providers":{"openai":{}}}}`))
		if err != nil {
			t.Skipf("a key written twice (once escaped): %v", err)
		}
		primary := rapid.SampledFrom([]string{"openai/gpt-5", "anthropic/claude-opus-4", "p/m\"q", "bad", "x/y"}).Draw(t, "primary")
		release := rapid.SampledFrom([]string{"2026.9.6", "1999.1.1"}).Draw(t, "release")
		warnings, at, err := walkCheckModelsAt(doc, release, primary)
		if want := primaryPath(doc, primary); at.String() != want.String() {
			t.Fatalf("%s, primary %s: at %s, primaryPath %s", doc, primary, at, want)
		}
		wantWarnings, wantErr := walkCheckModels(doc, release)
		if d := cmp.Diff(occkit.MatchersOf(wantErr), occkit.MatchersOf(err)); d != "" {
			t.Fatalf("%s: refusals (-checkModels +checkModelsAt):\n%s", doc, d)
		}
		if len(warnings) != len(wantWarnings) {
			t.Fatalf("%s: %d warnings, checkModels %d", doc, len(warnings), len(wantWarnings))
		}
	})
}
