package resolver

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tidwall/gjson"
	"pgregory.net/rapid"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/internal/bench"
)

// indexOpts compares two docIndex values field by field, unexported ones
// included: gjson values by type and text, paths and documents by value,
// problems by message, code, path and rule.
var indexOpts = cmp.Options{
	cmp.Exporter(func(reflect.Type) bool { return true }),
	cmp.Comparer(func(a, b gjson.Result) bool {
		return a.Type == b.Type && a.Raw == b.Raw && a.Str == b.Str && a.Num == b.Num
	}),
	cmp.Comparer(func(a, b occkit.Path) bool { return a.Equal(b) }),
	cmp.Comparer(func(a, b occkit.Document) bool { return a.Equal(b) }),
	cmp.Comparer(func(a, b error) bool {
		return a.Error() == b.Error() && cmp.Equal(occkit.MatchersOf(a), occkit.MatchersOf(b))
	}),
}

// checkIndexMatchesGJSON fails when the one-pass index of doc differs
// from the index built through gjson.
func checkIndexMatchesGJSON(t interface{ Fatalf(string, ...any) }, doc occkit.Document) {
	want, got := gjBuildIndex(doc), buildIndex(doc)
	// Nothing reads the path of an absent catalog: the one-pass index
	// builds it only for a catalog that is there.
	for _, x := range []*docIndex{want, got} {
		cats := []*catalogIndex{&x.catalog}
		for _, e := range x.entries {
			if e.models != nil {
				cats = append(cats, e.models)
			}
		}
		for _, c := range cats {
			if !c.present {
				c.path = occkit.Path{}
			}
		}
	}
	if d := cmp.Diff(want, got, indexOpts); d != "" {
		t.Fatalf("%s: index differs (-gjson +one pass):\n%s", doc.String(), d)
	}
}

// genIndexJSON draws JSON text of the shapes buildIndex reads, slot by
// slot (the root, agents, a catalog, a provider row, …): mostly the shape
// the rules ask, sometimes another kind of value, with keys in any
// order, spelled with escapes now and then, beside keys no rule reads.
func genIndexJSON(t *rapid.T, slot string, depth int) string {
	if slot != "root" && rapid.SampledFrom([]bool{false, false, false, false, false, true}).Draw(t, slot+"-odd") {
		return rapid.SampledFrom([]string{`"x"`, `3`, `-1.5e3`, `true`, `false`, `null`, `[]`, `{}`, `["anthropic/a"]`,
			`{"id":"openclaw"}`, `"openai/gpt-5"`}).Draw(t, slot+"-odd-value")
	}
	str := func(label string, xs ...string) string {
		s, _ := json.Marshal(rapid.SampledFrom(xs).Draw(t, label))
		return string(s)
	}
	refs := []string{"anthropic/a", "anthropic/b", " anthropic/c ", "Anthropic/a", "openai/gpt-5", "codex/x", "anthropic/a@work",
		"bad", "", "google/g/x", "openai/codex/y", "ollama/m"}
	obj := func(keys map[string]func() string) string {
		names := make([]string, 0, len(keys)+1)
		for k := range keys {
			names = append(names, k)
		}
		sort.Strings(names)
		near, of := nearMiss(t, slot, names)
		names = append(names, "noise", near)
		perm := rapid.Permutation(names).Draw(t, slot+"-order")
		var parts []string
		for _, k := range perm {
			if !rapid.Bool().Draw(t, slot+"-has-"+k) {
				continue
			}
			var v string
			switch k {
			case "noise":
				v = `{"a":[1,"\"}",{"b":null}],"agentRuntime":{"id":"codex"}}`
			case near:
				// A key one byte away from a key the rules read, holding
				// a value of that key's kind: read as that key, it would
				// change the index.
				v = keys[of]()
			default:
				v = keys[k]()
			}
			parts = append(parts, spell(t, k)+":"+v)
		}
		return "{" + strings.Join(parts, ",") + "}"
	}
	keyed := func(label string, keys []string, value func() string) string {
		n := rapid.IntRange(0, 4).Draw(t, label+"-n")
		seen := map[string]bool{}
		var parts []string
		for i := 0; i < n; i++ {
			k := rapid.SampledFrom(keys).Draw(t, label+"-key")
			if seen[k] {
				continue
			}
			seen[k] = true
			parts = append(parts, spell(t, k)+":"+value())
		}
		return "{" + strings.Join(parts, ",") + "}"
	}
	list := func(label string, value func() string) string {
		n := rapid.IntRange(0, 4).Draw(t, label+"-n")
		parts := make([]string, n)
		for i := range parts {
			parts[i] = value()
		}
		return "[" + strings.Join(parts, ",") + "]"
	}
	runtime := func() string { return genIndexJSON(t, "runtime", depth) }
	switch slot {
	case "root":
		return obj(map[string]func() string{
			"agents":  func() string { return genIndexJSON(t, "agents", depth) },
			"models":  func() string { return genIndexJSON(t, "models", depth) },
			"plugins": func() string { return genIndexJSON(t, "plugins", depth) },
		})
	case "agents":
		return obj(map[string]func() string{
			"defaults": func() string { return genIndexJSON(t, "scope", depth) },
			"entries": func() string {
				return keyed("entries", []string{"main", "helper", "ops", "Main"}, func() string { return genIndexJSON(t, "scope", depth) })
			},
			"list":      func() string { return str("list", "x") },
			"ownership": func() string { return str("ownership", "explicit", "implicit") },
		})
	case "scope":
		return obj(map[string]func() string{
			// An entry's "default" is refused by the roster rules (RES-10).
			"default": func() string { return rapid.SampledFrom([]string{"true", "{}", `"main"`}).Draw(t, "default") },
			"model":   func() string { return genIndexJSON(t, "model", depth) },
			"models": func() string {
				return keyed("catalog", refs, func() string { return genIndexJSON(t, "holder", depth) })
			},
		})
	case "model":
		if rapid.Bool().Draw(t, "model-string") {
			return str("primary", refs...)
		}
		return obj(map[string]func() string{
			"primary":   func() string { return str("primary", refs...) },
			"fallbacks": func() string { return list("fallbacks", func() string { return genIndexJSON(t, "ref", depth) }) },
		})
	case "ref":
		return str("ref", refs...)
	case "holder":
		return obj(map[string]func() string{"agentRuntime": runtime, "alias": func() string { return str("alias", "A") }})
	case "runtime":
		return obj(map[string]func() string{"id": func() string { return str("id", "openclaw", "codex", "auto", "OpenClaw") }})
	case "models":
		return obj(map[string]func() string{
			"providers": func() string {
				return keyed("providers", []string{"anthropic", "openai", " Anthropic", "codex", "google"}, func() string { return genIndexJSON(t, "provider", depth) })
			},
		})
	case "provider":
		return obj(map[string]func() string{
			"agentRuntime": runtime,
			"models":       func() string { return list("rows", func() string { return genIndexJSON(t, "row", depth) }) },
			"baseUrl":      func() string { return str("url", "https://h/v1") },
		})
	case "row":
		return obj(map[string]func() string{
			"agentRuntime": runtime,
			"id":           func() string { return str("row-id", "a", "b", " c ", "anthropic/a", "anthropic/ b", "", "x/y") },
		})
	case "plugins":
		return obj(map[string]func() string{
			"entries": func() string {
				return keyed("plugin-entries", []string{"codex", "Codex", "openai", " google "}, func() string { return genIndexJSON(t, "plugin", depth) })
			},
		})
	case "plugin":
		return obj(map[string]func() string{
			"enabled": func() string { return rapid.SampledFrom([]string{"true", "false"}).Draw(t, "enabled") },
			"config":  func() string { return `{"appServer":{"transport":"websocket"}}` },
		})
	}
	panic("unknown slot " + slot)
}

// spell writes the key k as a JSON string, now and then with bytes
// escaped: one letter or every letter, as \u with lower- or upper-case
// hex digits, or a short escape where JSON has one (the walk decodes keys
// as gjson does).
func spell(t *rapid.T, k string) string {
	how := rapid.SampledFrom([]string{"plain", "plain", "plain", "plain", "plain", "one", "all"}).Draw(t, "escape-"+k)
	if k == "" || how == "plain" {
		b, _ := json.Marshal(k)
		return string(b)
	}
	hex := rapid.SampledFrom([]string{`\u%04x`, `\u%04X`}).Draw(t, "escape-hex-"+k)
	at := -1
	if how == "one" {
		at = rapid.IntRange(0, len(k)-1).Draw(t, "escape-at-"+k)
	}
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(k); i++ {
		c := k[i]
		switch {
		case c == '"' || c == '\\' || c < 0x20 || c >= 0x80:
			// Only as JSON must spell it (a byte >= 0x80 is part of a
			// UTF-8 sequence, written as it stands).
			q, _ := json.Marshal(string(c))
			if c >= 0x80 {
				q = []byte{'"', c, '"'}
			}
			b.Write(q[1 : len(q)-1])
		case (at < 0 || i == at) && c == '/':
			b.WriteString(`\/`)
		case at < 0 || i == at:
			fmt.Fprintf(&b, hex, c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// nearMiss draws a key near one byte away from the key of, one of names
// (a byte changed, dropped or added, or its case flipped): never one of
// names itself.
func nearMiss(t *rapid.T, slot string, names []string) (near, of string) {
	k := names[rapid.IntRange(0, len(names)-1).Draw(t, slot+"-near-of")]
	i := rapid.IntRange(0, len(k)).Draw(t, slot+"-near-at")
	b := rapid.SampledFrom([]byte{'x', 'R', 'r', 'I', 'e', 'E', ' ', '"', '\\', '\n', 0, '/', 'u'}).Draw(t, slot+"-near-byte")
	switch rapid.IntRange(0, 3).Draw(t, slot+"-near-how") {
	case 0: // change a byte
		if i < len(k) {
			near = k[:i] + string([]byte{b}) + k[i+1:]
		}
	case 1: // drop a byte
		if i < len(k) {
			near = k[:i] + k[i+1:]
		}
	case 2: // flip the case of a byte
		if i < len(k) {
			near = k[:i] + string([]byte{k[i] ^ 0x20}) + k[i+1:]
		}
	}
	if near == "" { // add a byte
		near = k[:i] + string([]byte{b}) + k[i:]
	}
	if slices.Contains(names, near) || near == "noise" {
		near += "x"
	}
	return near, k
}

// checkDrawnIndexes calls check on drawn documents of every shape the
// rules read (genIndexJSON) and on the property tests' configurations.
func checkDrawnIndexes(t *testing.T, check func(*rapid.T, occkit.Document)) {
	rapid.Check(t, func(t *rapid.T) {
		raw := genIndexJSON(t, "root", 0)
		doc, err := occkit.ParseDocument([]byte(raw))
		if err != nil {
			t.Fatalf("generated %s: %v", raw, err)
		}
		check(t, doc)
	})
	rapid.Check(t, func(t *rapid.T) {
		v, _ := genConfig(t)
		check(t, testDoc(shuffle(t, v, "shuffle")))
	})
}

// TestBuildIndexMatchesGJSON: the one-pass index is the index built
// through gjson, field by field, problems in the same order, on drawn
// documents of every shape the rules read, on the property tests'
// configurations, and on the benchmark documents.
func TestBuildIndexMatchesGJSON(t *testing.T) {
	checkDrawnIndexes(t, func(t *rapid.T, doc occkit.Document) { checkIndexMatchesGJSON(t, doc) })
	for _, d := range bench.Documents {
		doc, err := occkit.ParseDocument(d.Make(40))
		if err != nil {
			t.Fatal(err)
		}
		checkIndexMatchesGJSON(t, doc)
	}
}

// FuzzBuildIndexMatchesGJSON: on any document, the one-pass index is
// the index built through gjson.
func FuzzBuildIndexMatchesGJSON(f *testing.F) {
	for _, s := range []string{
		`{}`, `[]`, `{"agents":1}`, `{"agents":{"defaults":{"model":"anthropic/a","models":{"anthropic/a":{"agentRuntime":{"id":"codex"}}}}}}`,
		`{"agents":{"defaults":{"model":{"fallbacks":["openai/x",3,"anthropic/b"],"primary":"anthropic/a"}},"entries":{"b":{"model":"x/y"},"a":1}},"models":{"providers":{"anthropic":{"models":[{"id":"a"},"b",{"id":" anthropic/c ","agentRuntime":[]}],"agentRuntime":{"id":"auto"}}}},"plugins":{"entries":{"codex":{"enabled":true},"Openai":{}}}}`,
		`{"\u0061gents":{"list":[],"ownership":"explicit"},"models":{"providers":[]},"plugins":{"entries":[]}}`,
		`{"agents":{"entries":{"a":{},"b":2,"\u0063":3,"d":null}}}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		doc, err := occkit.ParseDocument([]byte(s))
		if err != nil {
			return
		}
		checkIndexMatchesGJSON(t, doc)
	})
}

// TestProvidersNamed: the providers found under a name, through the map
// (more than providersScanned of them) or by reading them all, are the
// providers of that normalized name in document order.
func TestProvidersNamed(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		names := []string{"openai", "OpenAI", " openai", "anthropic", "Anthropic ", "google", "codex", "x"}
		n := rapid.IntRange(0, 2*providersScanned+2).Draw(t, "providers")
		var parts []string
		seen := map[string]bool{}
		for i := range n {
			k := rapid.SampledFrom(names).Draw(t, "name")
			if seen[k] {
				k = fmt.Sprintf("%s-%d", k, i)
			}
			seen[k] = true
			b, _ := json.Marshal(k)
			parts = append(parts, string(b)+`:{"models":[]}`)
		}
		doc := occkit.MustParseDocument(`{"models":{"providers":{` + strings.Join(parts, ",") + `}}}`)
		x := buildIndex(doc)
		if len(x.provOrder) != n {
			t.Fatalf("%d providers indexed, want %d", len(x.provOrder), n)
		}
		for _, name := range append(names, "openai-0", "none") {
			norm := normProvider(name)
			var want, got []string
			for _, p := range x.provOrder {
				if p.name == norm {
					want = append(want, p.raw)
				}
			}
			for p := range x.providersNamed(norm) {
				got = append(got, p.raw)
			}
			if d := cmp.Diff(want, got); d != "" {
				t.Fatalf("providers named %q (-want +got):\n%s", norm, d)
			}
		}
	})
}

// TestPolicySourcePath: the path of a policy, built in one allocation, is
// the policy holder's path with agentRuntime.id appended key by key, for
// every catalog key, provider row and provider of drawn documents; and so
// is each of the paths of all of them built in turn in one builder, as
// the reasons' are.
func TestPolicySourcePath(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		doc, err := occkit.ParseDocument([]byte(genIndexJSON(t, "root", 0)))
		if err != nil {
			t.Fatal(err)
		}
		x := buildIndex(doc)
		var srcs []policySource
		var wants []occkit.Path
		check := func(s policySource, want occkit.Path) {
			if got := s.path(); !got.Equal(want) || got.Doc() != want.Doc() {
				t.Fatalf("%s: path %s, want %s", doc.String(), got, want)
			}
			srcs, wants = append(srcs, s), append(wants, want)
		}
		defer func() {
			var b occkit.PathBuilder
			n := 0
			for _, s := range srcs {
				n += s.pathLen()
			}
			b.Grow(n)
			var got []occkit.Path
			for _, s := range srcs {
				b.Reset()
				s.build(&b)
				got = append(got, b.Path())
			}
			for i, want := range wants {
				if !got[i].Equal(want) || got[i].Doc() != want.Doc() {
					t.Fatalf("%s: path %d built in one builder %s, want %s", doc.String(), i, got[i], want)
				}
			}
		}()
		cats := []*catalogIndex{&x.catalog}
		for _, e := range x.entries {
			if e.models != nil {
				cats = append(cats, e.models)
			}
		}
		for _, c := range cats {
			for i := range c.keys.len() {
				check(policySource{cat: c, at: int32(i)}, c.keyPath(i).Key("agentRuntime").Key("id"))
			}
		}
		for _, p := range x.provOrder {
			for i := range p.rows.len() {
				check(policySource{prov: p, at: int32(i)}, p.rowPath(i).Key("agentRuntime").Key("id"))
			}
			check(policySource{prov: p, at: -1}, pathProviders.Key(p.raw).Key("agentRuntime").Key("id"))
		}
	})
}
