package selection

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math/rand"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tidwall/gjson"
	"pgregory.net/rapid"

	"github.com/occkit/occkit"
)

// indexOptions compare two Indexes field by field, a table as the map
// of its entries (the order they were added in is not kept).
var indexOptions = cmp.Options{
	cmp.AllowUnexported(Index{}, provEntry{}, agent{}, modelMap{}, keyRef{}, modelKey{}, provider{}, row{}, route{}, qualKey{}),
	cmp.Comparer(func(a, b occkit.Path) bool { return a.Equal(b) }),
	cmp.Transformer("agents", tableMap[*agent]),
	cmp.Transformer("provs", tableMap[provEntry]),
	cmp.Transformer("byModel", tableMap[keyRef]),
	cmp.Transformer("rows", tableMap[*row]),
}

// tableMap is the map of t's entries.
func tableMap[V any](t table[V]) map[string]V {
	m := map[string]V{}
	for _, e := range t.few[:t.n] {
		m[e.name] = e.v
	}
	for name, v := range t.m {
		m[name] = v
	}
	return m
}

// samePreparation fails t unless the scanner's preparation of doc equals
// the gjson one, whole and focused on req.
func samePreparation(t interface{ Fatalf(string, ...any) }, doc occkit.Document, req Request) {
	if d := cmp.Diff(gjsonPrepare(doc, nil), prepare(doc, nil), indexOptions); d != "" {
		t.Fatalf("Prepare reads %s unlike gjson (-gjson +scanner):\n%s", doc, d)
	}
	f, ok := focusOf(req)
	if !ok {
		return
	}
	g, _ := focusOf(req)
	if d := cmp.Diff(gjsonPrepare(doc, g), prepare(doc, f), indexOptions); d != "" {
		t.Fatalf("the preparation focused on %+v reads %s unlike gjson (-gjson +scanner):\n%s", req, doc, d)
	}
	if d := cmp.Diff(g.provs, f.provs); d != "" {
		t.Fatalf("the focus on %+v names other providers (-gjson +scanner):\n%s", req, d)
	}
}

// genNoise draws a JSON value of any kind, with strings that need
// escapes, at most depth levels deep.
func genNoise(t *rapid.T, depth int) any {
	kinds := 5
	if depth > 0 {
		kinds = 7
	}
	switch rapid.IntRange(0, kinds-1).Draw(t, "kind") {
	case 0:
		return nil
	case 1:
		return rapid.Bool().Draw(t, "bool")
	case 2:
		return rapid.SampledFrom([]float64{0, 1, -2.5, 1e21, 3}).Draw(t, "num")
	case 3:
		return rapid.SampledFrom([]string{"", "high", "a\"b", `back\slash`, "é\u2028", " codex "}).Draw(t, "str")
	case 4:
		return rapid.SampledFrom(genRuntimes).Draw(t, "runtime")
	case 5:
		var a []any
		for i := rapid.IntRange(0, 2).Draw(t, "n"); i > 0; i-- {
			a = append(a, genNoise(t, depth-1))
		}
		return a
	}
	m := map[string]any{}
	for i := rapid.IntRange(0, 2).Draw(t, "n"); i > 0; i-- {
		m[rapid.SampledFrom(noiseKeys).Draw(t, "key")] = genNoise(t, depth-1)
	}
	return m
}

// noiseKeys are member names selection reads, at one level or another,
// and some it does not.
var noiseKeys = []string{"id", "agentRuntime", "params", "models", "baseUrl", "api", "headers", "compat", "thinking",
	"fastMode", "fastSeconds", "providers", "defaults", "entries", "list", "ownership", "systemAgent", "embeddedHarness",
	"temperature", "x\"y", "openai/gpt-5.5", "vllm/*"}

// genMutate replaces or adds, in v, members drawn by genNoise.
func genMutate(t *rapid.T, v any, label string) {
	switch x := v.(type) {
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(x)) {
			e := x[k]
			switch rapid.IntRange(0, 9).Draw(t, label+"op") {
			case 0:
				x[k] = genNoise(t, 2)
			case 1:
				x[rapid.SampledFrom(noiseKeys).Draw(t, label+"add")] = genNoise(t, 2)
			default:
				genMutate(t, e, label+"/"+k)
			}
		}
	case []any:
		for i, e := range x {
			if rapid.IntRange(0, 9).Draw(t, label+"op") == 0 {
				x[i] = genNoise(t, 2)
			} else {
				genMutate(t, e, fmt.Sprint(label, "/", i))
			}
		}
	}
}

// renderEscaped is render with some characters of keys and strings
// written as \u escapes.
func renderEscaped(b *bytes.Buffer, v any, rng *rand.Rand) {
	var out bytes.Buffer
	render(&out, v, nil)
	in := out.Bytes()
	for i := 0; i < len(in); i++ {
		c := in[i]
		if c == '\\' { // an escape render wrote: copy it whole
			b.WriteByte(c)
			if i+1 < len(in) {
				i++
				b.WriteByte(in[i])
			}
			continue
		}
		if inString(in, i) && c >= 'a' && c <= 'z' && rng.Intn(8) == 0 {
			fmt.Fprintf(b, `\u%04x`, c)
			continue
		}
		b.WriteByte(c)
	}
}

// inString reports whether the byte at i of the compact JSON text s is
// inside a string literal (not its quotes).
func inString(s []byte, i int) bool {
	in := false
	for j := 0; j < i; j++ {
		switch s[j] {
		case '\\':
			j++
		case '"':
			in = !in
		}
	}
	return in && s[i] != '"'
}

// TestPrepareReadsAsGJSON: the preparation reading the document with the
// byte scanner builds, whole and focused, the Index the gjson reading
// built, on documents with escaped keys and strings, nulls and values of
// every kind where selection reads one.
func TestPrepareReadsAsGJSON(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		cfg := genConfig(t)
		genSpellings(t, cfg)
		if rapid.Bool().Draw(t, "mutate") {
			genMutate(t, cfg, "")
		}
		var b bytes.Buffer
		renderEscaped(&b, cfg, rand.New(rand.NewSource(rapid.Int64().Draw(t, "seed"))))
		doc, err := occkit.ParseDocument(b.Bytes())
		if err != nil { // an escaped key repeating another
			t.Skip(err)
		}
		req := genRequest(t)
		req.AgentID = rapid.SampledFrom([]string{"", "main", "other", "ghost"}).Draw(t, "agentid")
		samePreparation(t, doc, req)
		sameIndented(t, doc)
	})
}

// sameIndented fails t unless the scanner reads the model maps and the
// provider configs of doc, written indented, as gjson reads them: a
// Document is compact, the scanner reads any JSON.
func sameIndented(t interface{ Fatalf(string, ...any) }, doc occkit.Document) {
	indented := func(v gjson.Result) string {
		var b bytes.Buffer
		if err := json.Indent(&b, []byte(v.Raw), "\n ", "\t"); err != nil {
			t.Fatalf("indent %s: %v", v.Raw, err)
		}
		return " " + b.String()
	}
	root := gjson.Parse(doc.String())
	at := occkit.NewPath("m")
	for _, path := range []string{"agents.defaults.models", "agents.entries.main.models"} {
		if m := root.Get(path); m.Exists() {
			text := indented(m)
			got, end := readModelMap(text, 1, at, &table[provEntry]{}, nil)
			if d := cmp.Diff(gjsonModelMap(at, gjson.Parse(text), &table[provEntry]{}, nil), got, indexOptions); d != "" || end != len(text) {
				t.Fatalf("the model map %s is read unlike gjson (-gjson +scanner, end %d of %d):\n%s", text, end, len(text), d)
			}
		}
	}
	root.Get("models.providers").ForEach(func(k, v gjson.Result) bool {
		if v.IsObject() {
			text := indented(v)
			got, end := newProvider(k.String(), text, 1, false, nil)
			if d := cmp.Diff(gjsonProvider(k.String(), gjson.Parse(text), false, nil), got, indexOptions); d != "" || end != len(text) {
				t.Fatalf("the provider %s is read unlike gjson (-gjson +scanner, end %d of %d):\n%s", text, end, len(text), d)
			}
		}
		return true
	})
}

// FuzzPrepareReadsAsGJSON: on any document, the scanner's preparation is
// the gjson one.
func FuzzPrepareReadsAsGJSON(f *testing.F) {
	f.Add(`{"agents":{"defaults":{"models":{"vllm/*":{"agentRuntime":{"id":"acme"},"params":{"thinking":"high"}}}}}}`, "vllm", "q")
	f.Add(`{"models":{"providers":{"openai":{"baseUrl":"https://api.openai.com/v1","models":[{"id":"a"},{"id":" a","api":"x"},7]}}}}`, "openai", "a")
	f.Add(`{"agents":{"entries":{"main":{"models":{"q":{"p\u0061rams":null,"agentRuntime":{"i\u0064":"\u0063odex"}}}}}}}`, "", "q")
	f.Add(`[{"agents":{"defaults":{"models":{"q":{}}}}}]`, "", "q")
	f.Add(`{"agents":{"defaults":{"models":[{"q":{}}]}},"models":{"providers":[{"id":"q"}]}}`, "vllm", "q")
	f.Fuzz(func(t *testing.T, src, provider, model string) {
		doc, err := occkit.ParseDocument([]byte(src))
		if err != nil {
			return
		}
		samePreparation(t, doc, Request{Provider: provider, Model: model, AgentID: "main"})
	})
}

// TestPrepareZeroDocument: the zero Document (the empty object) prepares
// as gjson read it.
func TestPrepareZeroDocument(t *testing.T) {
	samePreparation(t, occkit.Document{}, Request{Provider: "openai", Model: "gpt-5.5"})
}

// TestConfigKey: configKey is the index of each of configKeys, -1 for any
// other name.
func TestConfigKey(t *testing.T) {
	for j, k := range configKeys {
		if got := configKey(k); got != j {
			t.Errorf("configKey(%q) = %d, want %d", k, got, j)
		}
	}
	for _, k := range []string{"models", "id", "", "baseURL", "Api", "agentruntime"} {
		if got := configKey(k); got != -1 {
			t.Errorf("configKey(%q) = %d, want -1", k, got)
		}
	}
}

// TestTableIsAMap: a table holds what a map holds, in place and past
// its few entries; the provider table holds each ID under itself.
func TestTableIsAMap(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var tb table[provEntry]
		want := map[string]provEntry{}
		names := []string{"openai", "vllm", "anthropic", "google", "codex", "acme", "x", "y", "z"}
		for i := rapid.IntRange(0, 20).Draw(t, "n"); i > 0; i-- {
			name := rapid.SampledFrom(names).Draw(t, "name")
			if rapid.Bool().Draw(t, "set") {
				e := provEntry{name, &provider{key: name}}
				tb.set(name, e)
				want[name] = e
			} else {
				addProvider(&tb, name)
				if _, ok := want[name]; !ok {
					want[name] = provEntry{id: name}
				}
			}
			if d := cmp.Diff(want, tableMap(tb), indexOptions); d != "" {
				t.Fatalf("the table holds unlike a map (-map +table):\n%s", d)
			}
			if tb.len() != len(want) {
				t.Fatalf("the table holds %d, the map %d", tb.len(), len(want))
			}
			for _, n := range names {
				e, ok := tb.get(n)
				eb, okb := tb.getBytes([]byte(n))
				w, wok := want[n]
				if ok != wok || okb != wok || e != w || eb != w || ok && e.id != n {
					t.Fatalf("get(%q) = %v, %v; getBytes %v, %v; the map holds %v, %v", n, e, ok, eb, okb, w, wok)
				}
			}
		}
	})
}
