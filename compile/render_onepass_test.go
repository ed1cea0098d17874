package compile

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tidwall/gjson"
	"pgregory.net/rapid"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/compile/sensitive"
	"github.com/occkit/occkit/internal/docjson"
)

// eachModelScope calls fn with every model scope of doc, as the render
// found them before its one-pass rewrite: every models.providers entry
// and every agent models map entry. It is the oracle's, and
// TestSecretPlacesMatchesGJSON's.
func eachModelScope(doc occkit.Document, fn func(scope)) {
	entries := func(at occkit.Path, v gjson.Result) {
		if !v.IsObject() {
			return
		}
		v.ForEach(func(k, c gjson.Result) bool {
			fn(scope{at, k.String(), c})
			return true
		})
	}
	root := docjson.Root(doc)
	entries(occkit.NewPath("models", "providers"), root.Get("models").Get("providers"))
	agents := root.Get("agents")
	entries(occkit.NewPath("agents", "defaults", "models"), agents.Get("defaults").Get("models"))
	if e := agents.Get("entries"); e.IsObject() {
		e.ForEach(func(k, c gjson.Result) bool {
			entries(occkit.NewPath("agents", "entries", k.String(), "models"), c.Get("models"))
			return true
		})
	}
}

// deletePathsOneByOne deletes paths one Document.Delete each, deepest
// and last first so that indexes stay valid: the render's deletion
// before the one-pass rewrite.
func deletePathsOneByOne(doc occkit.Document, paths []occkit.Path) (occkit.Document, error) {
	sorted := append([]occkit.Path(nil), paths...)
	for i := 1; i < len(sorted); i++ {
		for j := i; j > 0 && sorted[j-1].Compare(sorted[j]) < 0; j-- {
			sorted[j-1], sorted[j] = sorted[j], sorted[j-1]
		}
	}
	var err error
	for i, p := range sorted {
		if i > 0 && sorted[i-1].Equal(p) || !doc.Has(p) {
			continue
		}
		if doc, err = doc.Delete(p); err != nil {
			return occkit.Document{}, err
		}
	}
	return doc, nil
}

// dropEnvByPath is dropEnv as one deletion per variable.
func dropEnvByPath(doc occkit.Document, drop func(string) bool) (occkit.Document, error) {
	var paths []occkit.Path
	for _, base := range []occkit.Path{occkit.NewPath("env"), occkit.NewPath("env", "vars")} {
		v := docjson.Get(doc, base)
		if !v.IsObject() {
			continue
		}
		v.ForEach(func(k, _ gjson.Result) bool {
			if drop(k.String()) {
				paths = append(paths, base.Key(k.String()))
			}
			return true
		})
	}
	return deletePathsOneByOne(doc, paths)
}

// stripInferenceByPath is StripInference as it was before the one-pass
// rewrite: the floor's paths found and deleted one by one, then each
// model scope scrubbed and set back, then the env variables deleted one
// by one. The oracle of TestRenderOnePassMatchesByPath.
func stripInferenceByPath(doc occkit.Document) (occkit.Document, error) {
	refs := map[string]bool{}
	floor := sensitive.Find(doc, gatewayFloor)
	for _, p := range floor {
		collectRefs(docjson.Get(doc, p), refs)
	}
	doc, err := deletePathsOneByOne(doc, floor)
	if err != nil {
		return occkit.Document{}, err
	}
	providers := map[string]bool{}
	docjson.Get(doc, occkit.NewPath("models", "providers")).ForEach(func(k, _ gjson.Result) bool {
		providers[k.String()] = true
		return true
	})
	var scopes []scope
	eachModelScope(doc, func(s scope) { scopes = append(scopes, s) })
	for _, sc := range scopes {
		at := sc.parent.Key(sc.key)
		v := docjson.Get(doc, at)
		if !v.IsObject() && !v.IsArray() {
			continue
		}
		var b strings.Builder
		scrub(&b, v, "", sensitive.Cursor{}, refs)
		if b.String() == v.Raw {
			continue
		}
		if doc, err = doc.SetRaw(at, []byte(b.String())); err != nil {
			return occkit.Document{}, err
		}
	}
	return dropEnvByPath(doc, func(name string) bool {
		if inferenceEnv[name] || refs[name] {
			return true
		}
		for p := range providers {
			if strings.EqualFold(name, envKeyName(p)) {
				return true
			}
		}
		return false
	})
}

// harnessDocumentByPath is HarnessDocument's removal as it was before the
// one-pass rewrite: the gateway's sections and the harness floor found
// and deleted one by one.
func harnessDocumentByPath(doc occkit.Document) (occkit.Document, error) {
	var drop []occkit.Path
	for _, p := range []occkit.Path{occkit.NewPath("channels"), occkit.NewPath("gateway", "auth"), occkit.NewPath("gateway", "remote")} {
		if doc.Has(p) {
			drop = append(drop, p)
		}
	}
	drop = append(drop, sensitive.Find(doc, harnessFloor)...)
	refs := map[string]bool{}
	for _, p := range drop {
		collectRefs(docjson.Get(doc, p), refs)
	}
	doc, err := deletePathsOneByOne(doc, drop)
	if err != nil {
		return occkit.Document{}, err
	}
	return dropEnvByPath(doc, func(name string) bool { return refs[name] })
}

// renderNode is a JSON value the generator builds: an object (ordered
// members), an array or a scalar's text.
type renderNode struct {
	keys  []string
	vals  []*renderNode
	elems []*renderNode
	array bool
	text  string
}

func (n *renderNode) member(k string) *renderNode {
	for i, kk := range n.keys {
		if kk == k {
			return n.vals[i]
		}
	}
	c := &renderNode{}
	n.keys, n.vals = append(n.keys, k), append(n.vals, c)
	return c
}

func (n *renderNode) write(b *strings.Builder) {
	switch {
	case n.text != "":
		b.WriteString(n.text)
	case n.array:
		b.WriteByte('[')
		for i, e := range n.elems {
			if i > 0 {
				b.WriteByte(',')
			}
			e.write(b)
		}
		b.WriteByte(']')
	default:
		b.WriteByte('{')
		for i, k := range n.keys {
			if i > 0 {
				b.WriteByte(',')
			}
			b.Write(gjson.AppendJSONString(nil, k))
			b.WriteByte(':')
			n.vals[i].write(b)
		}
		b.WriteByte('}')
	}
}

// renderVars are the variables the generated documents reference and
// define: each scrubbed, floored or kept.
var renderVars = []string{"TOKEN", "T2", "KEY", "PW", "OPENAI_API_KEY", "ANTHROPIC_API_KEY", "MY_PROVIDER_API_KEY", "openai_api_key", "\u212a_API_KEY", "KEEP", "vars", "HOME"}

// genRenderLeaf draws a scalar or small value of the kinds the render
// reads: references, URLs with user info and queries, scheme-less URLs,
// numbers, and objects that start a process.
func genRenderLeaf(t *rapid.T) string {
	v := rapid.SampledFrom(renderVars).Draw(t, "var")
	return rapid.SampledFrom([]string{
		`"plain"`, `"${` + v + `}"`, `"Bearer ${` + v + `}"`, `"https://u:${` + v + `}@h:8/v1?key=${` + v + `}#f"`,
		`"svc:${` + v + `}@host/v1"`, `"x@y?z"`, `"https://h/v1"`, `1`, `null`, `true`, `{}`, `[]`,
		`{"command":"/bin/s","args":["--key","${` + v + `}"]}`, `["${` + v + `}","a"]`,
	}).Draw(t, "leaf")
}

// genRenderValue draws a value with keys of the render's vocabulary.
func genRenderValue(t *rapid.T, depth int, keys []string) *renderNode {
	switch k := rapid.IntRange(0, 3).Draw(t, "kind"); {
	case depth <= 0 || k == 0:
		return &renderNode{text: genRenderLeaf(t)}
	case k == 1:
		n := &renderNode{array: true}
		for i := rapid.IntRange(0, 3).Draw(t, "len"); i > 0; i-- {
			n.elems = append(n.elems, genRenderValue(t, depth-1, keys))
		}
		return n
	default:
		n := &renderNode{}
		for i := rapid.IntRange(0, 4).Draw(t, "members"); i > 0; i-- {
			k := rapid.SampledFrom(keys).Draw(t, "key")
			c := n.member(k)
			if c.text == "" && !c.array && len(c.keys) == 0 {
				*c = *genRenderValue(t, depth-1, keys)
			}
		}
		return n
	}
}

// placeAlong puts a value at a path that pattern names (a random key for
// each *, a one or two element array for each []), inside root.
func placeAlong(t *rapid.T, root *renderNode, pattern string, keys []string) {
	n := root
	segs := strings.Split(pattern, ".")
	for i, s := range segs {
		k, arr := strings.CutSuffix(s, "[]")
		if k == "*" {
			// Provider IDs whose key variables the env section defines
			// (in other cases too), or any key.
			k = rapid.SampledFrom([]string{"openai", "anthropic", "my-provider", "k", ""}).Draw(t, "provider")
			if k == "" {
				k = rapid.SampledFrom(keys).Draw(t, "any")
			}
		}
		if n.text != "" || n.array {
			return
		}
		n = n.member(k)
		if arr {
			if n.text != "" || len(n.keys) > 0 {
				return
			}
			n.array = true
			if len(n.elems) == 0 {
				n.elems = append(n.elems, &renderNode{})
				if rapid.Bool().Draw(t, "second") {
					n.elems = append(n.elems, &renderNode{text: genRenderLeaf(t)})
				}
			}
			n = n.elems[0]
		}
		if i == len(segs)-1 && n.text == "" && !n.array && len(n.keys) == 0 {
			*n = *genRenderValue(t, 2, keys)
		}
	}
}

// renderKeys is the generator's vocabulary: every key the floors name,
// the scrub's words (headers, credential keys, launch keys, URL keys)
// and keys gjson would read as syntax.
func renderKeys() []string {
	seen := map[string]bool{}
	var out []string
	add := func(k string) {
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	for _, p := range append(append([]sensitive.Pattern(nil), gatewayFloor...), harnessFloor...) {
		for _, s := range strings.Split(p.String(), ".") {
			if s = strings.TrimSuffix(s, "[]"); s != "*" {
				add(s)
			}
		}
	}
	for _, k := range []string{"models", "providers", "agents", "defaults", "entries", "main", "env", "vars", "shellEnv",
		"channels", "gateway", "auth", "remote", "port", "headers", "Authorization", "apiKey", "x-api-key", "maxTokens",
		"baseUrl", "proxy", "command", "args", "extraArgs", "localService", "params", "temperature", "openai", "my.provider",
		"a*b", "#", "k|v", "openai/gpt-5", "nodeHost", "tools", "media", "hooks", "mappings", "sessionKey", "OPENAI_API_KEY", "TOKEN"} {
		add(k)
	}
	return out
}

// genRenderDoc draws a document whose paths run along the floors'
// patterns and the model scopes, with an env section defining the
// variables the rest references.
func genRenderDoc(t *rapid.T, keys []string) string {
	root := &renderNode{}
	patterns := append(append([]sensitive.Pattern(nil), gatewayFloor...), harnessFloor...)
	for i := rapid.IntRange(0, 6).Draw(t, "along"); i > 0; i-- {
		placeAlong(t, root, rapid.SampledFrom(patterns).Draw(t, "pattern").String(), keys)
	}
	scopes := []string{"models.providers.*", "agents.defaults.models.*", "agents.entries.*.models.*", "channels.*.accounts.*", "gateway.auth", "gateway.remote.token"}
	for i := rapid.IntRange(0, 6).Draw(t, "scopes"); i > 0; i-- {
		placeAlong(t, root, rapid.SampledFrom(scopes).Draw(t, "scope"), keys)
	}
	for i := rapid.IntRange(0, 3).Draw(t, "noise"); i > 0; i-- {
		c := root.member(rapid.SampledFrom(keys).Draw(t, "top"))
		if c.text == "" && !c.array && len(c.keys) == 0 {
			*c = *genRenderValue(t, 4, keys)
		}
	}
	if rapid.Bool().Draw(t, "env") {
		env := root.member("env")
		if env.text == "" && !env.array {
			for i := rapid.IntRange(0, 5).Draw(t, "envs"); i > 0; i-- {
				under := env
				if rapid.Bool().Draw(t, "inVars") {
					if under = env.member("vars"); under.text != "" || under.array {
						continue
					}
				}
				c := under.member(rapid.SampledFrom(renderVars).Draw(t, "name"))
				if c.text == "" && !c.array && len(c.keys) == 0 {
					c.text = `"v"`
				}
			}
		}
	}
	var b strings.Builder
	root.write(&b)
	return b.String()
}

// TestRenderOnePassMatchesByPath: the one-pass rewrite of the gateway's
// and the harness's documents writes the bytes the deletion one path at
// a time wrote, on documents along every floor pattern and model scope.
func TestRenderOnePassMatchesByPath(t *testing.T) {
	keys := renderKeys()
	rapid.Check(t, func(t *rapid.T) {
		src := genRenderDoc(t, keys)
		doc, err := occkit.ParseDocument([]byte(src))
		if err != nil {
			t.Fatalf("the generator wrote no document: %v\n%s", err, src)
		}
		for _, c := range []struct {
			name      string
			got, want func(occkit.Document) (occkit.Document, error)
		}{
			{"gateway", StripInference, stripInferenceByPath},
			{"harness", func(d occkit.Document) (occkit.Document, error) {
				return HarnessDocument(d, occkit.HarnessOpenClaw, occkit.ModeDedicated)
			}, harnessDocumentByPath},
		} {
			got, gerr := c.got(doc)
			want, werr := c.want(doc)
			if d := cmp.Diff(fmt.Sprint(werr), fmt.Sprint(gerr)); d != "" {
				t.Fatalf("%s: errors differ on %s (-by path +one pass):\n%s", c.name, src, d)
			}
			if d := cmp.Diff(want.String(), got.String()); d != "" {
				t.Fatalf("%s: %s (-by path +one pass):\n%s", c.name, src, d)
			}
		}
	})
}
