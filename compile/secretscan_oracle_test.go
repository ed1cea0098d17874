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
	"github.com/occkit/occkit/compile/openclawschema"
	"github.com/occkit/occkit/compile/sensitive"
	"github.com/occkit/occkit/internal/bench"
	"github.com/occkit/occkit/internal/docjson"
	"github.com/occkit/occkit/internal/jsonwalk"
)

// This file keeps ScanSecrets' walk as it was before its cost was cut
// (scanPlaces and placeWalker, with the runtime ids read by a second
// walk of each agentRuntime and pickerRuntimes member, every id kept):
// the oracle of TestScanSecretsMatchesOracle and FuzzScanSecretsOracle,
// which hold the scan to the same places, references, refusals, model
// settings and plugins on drawn documents. Its key tests are the
// reference ones (referenceCredentialName, referenceHeadersKey).

// oracleWalker is placeWalker as it was.
type oracleWalker struct {
	base    scope
	steps   []step
	visit   func(at occkit.Path, v gjson.Result, kind placeKind)
	rt      *runtimeScan
	catalog bool
	known   []sensitive.Span
}

func (w *oracleWalker) know(at, end int) int {
	if end-at >= minKnown {
		w.known = append(w.known, sensitive.Span{Start: at, End: end})
	}
	return end
}

func (w *oracleWalker) entry() bool {
	switch len(w.steps) {
	case 0:
		return true
	case 2:
		return w.catalog && w.steps[0].index < 0 && w.steps[0].key == "models" && w.steps[1].index >= 0
	}
	return false
}

func (w *oracleWalker) at(extra ...string) occkit.Path {
	p := w.base.parent.Key(w.base.key)
	for _, s := range w.steps {
		if s.index >= 0 {
			p = p.Index(s.index)
		} else {
			p = p.Key(s.key)
		}
	}
	for _, k := range extra {
		p = p.Key(k)
	}
	return p
}

func (w *oracleWalker) scopes(parent occkit.Path, raw string, i int) int {
	if end := jsonwalk.Members(raw, i, func(lit string, escaped bool, at int) int {
		w.base, w.steps = scope{parent: parent, key: jsonwalk.JS{}.Decode(lit, escaped)}, w.steps[:0]
		return w.know(at, w.value(raw, at, w.base.key))
	}); end >= 0 {
		return w.know(i, end)
	}
	return jsonwalk.Skip(raw, i)
}

func (w *oracleWalker) value(raw string, i int, key string) int {
	if i >= len(raw) {
		return len(raw)
	}
	switch raw[i] {
	case '{':
		return jsonwalk.Members(raw, i, func(lit string, escaped bool, at int) int {
			name := jsonwalk.JS{}.Decode(lit, escaped)
			if w.rt != nil && w.entry() {
				w.rt.runtime(name, at)
			}
			switch {
			case at < len(raw) && raw[at] == '{' && referenceHeadersKey(name):
				end := jsonwalk.Skip(raw, at)
				gjson.Parse(raw[at:end]).ForEach(func(h, hv gjson.Result) bool {
					w.visit(w.at(name, h.String()), hv, placeValue)
					return true
				})
				return end
			case referenceCredentialName(name):
				end := jsonwalk.Skip(raw, at)
				w.visit(w.at(name), gjson.Parse(raw[at:end]), placeValue)
				return end
			}
			w.steps = append(w.steps, step{key: name, index: -1})
			end := w.value(raw, at, name)
			w.steps = w.steps[:len(w.steps)-1]
			if len(w.steps) == 0 {
				return w.know(at, end)
			}
			return end
		})
	case '[':
		return jsonwalk.Elements(raw, i, func(n, at int) int {
			w.steps = append(w.steps, step{index: n})
			end := w.value(raw, at, key)
			w.steps = w.steps[:len(w.steps)-1]
			return end
		})
	case '"':
		end, escaped := jsonwalk.StringEnd(raw, i)
		s := jsonwalk.JS{}.Decode(raw[i:end], escaped)
		if urlLike(key, s) {
			w.visit(w.at(), gjson.Result{Type: gjson.String, Raw: raw[i:end], Str: s}, placeURL)
		}
		return end
	default:
		return jsonwalk.Skip(raw, i)
	}
}

// oracleScanPlaces is scanPlaces as it was.
func oracleScanPlaces(doc occkit.Document, pol SecretPolicy, visit func(at occkit.Path, v gjson.Result, kind placeKind), settings *modelSettings) {
	seen := map[string]bool{}
	once := func(at occkit.Path, v gjson.Result, kind placeKind) {
		k := at.String()
		if !seen[k] {
			seen[k] = true
			visit(at, v, kind)
		}
	}
	var providers, defaults, entries []secretPlace
	collect := func(into *[]secretPlace) func(occkit.Path, gjson.Result, placeKind) {
		return func(at occkit.Path, v gjson.Result, kind placeKind) {
			*into = append(*into, secretPlace{at, v, kind})
		}
	}
	root := doc.String()
	w := oracleWalker{}
	rt := &runtimeScan{text: root}
	if settings != nil {
		w.rt = rt
	}
	members := func(at int, fn func(key string, at int) int) int {
		if end := jsonwalk.Members(root, at, func(lit string, escaped bool, at int) int {
			return fn(jsonwalk.JS{}.Decode(lit, escaped), at)
		}); end >= 0 {
			return w.know(at, end)
		}
		return jsonwalk.Skip(root, at)
	}
	scopes := func(at int, path occkit.Path, into *[]secretPlace, catalog bool) int {
		if settings != nil && (at >= len(root) || root[at] != '{') {
			if catalog {
				return rt.providers(at)
			}
			return rt.each(at, rt.entry)
		}
		w.visit, w.catalog = collect(into), catalog
		return w.scopes(path, root, at)
	}
	agentScope := func(at int, path func() occkit.Path, into *[]secretPlace) int {
		return members(at, func(k string, at int) int {
			switch {
			case k == "models" && into != nil:
				return scopes(at, path(), into, false)
			case k == "models" && settings != nil:
				return rt.each(at, rt.entry)
			case k == "model" && settings != nil:
				end := jsonwalk.Skip(root, at)
				eachModelRef([]selection{{model: root[at:end]}}, func(ref string) {
					if p, _, ok := strings.Cut(ref, "/"); ok && p != "" {
						settings.providers = append(settings.providers, p)
					}
				})
				return end
			}
			return jsonwalk.Skip(root, at)
		})
	}
	element := func(at int) int { return agentScope(at, nil, nil) }
	members(0, func(k string, at int) int {
		switch k {
		case "models":
			return members(at, func(k string, at int) int {
				if k != "providers" {
					return jsonwalk.Skip(root, at)
				}
				return scopes(at, providersPath, &providers, true)
			})
		case "agents":
			return members(at, func(k string, at int) int {
				switch k {
				case "defaults":
					return agentScope(at, func() occkit.Path { return defaultsModelsPath }, &defaults)
				case "entries":
					if settings != nil && at < len(root) && root[at] == '[' {
						return rt.each(at, element)
					}
					return members(at, func(k string, at int) int {
						return agentScope(at, func() occkit.Path { return occkit.NewPath("agents", "entries", k, "models") }, &entries)
					})
				case "list":
					if settings != nil && at < len(root) && root[at] == '[' {
						return rt.each(at, element)
					}
				}
				return jsonwalk.Skip(root, at)
			})
		}
		return jsonwalk.Skip(root, at)
	})
	if settings != nil {
		settings.runtimes = rt.out
	}
	slices.SortFunc(w.known, func(a, b sensitive.Span) int { return a.Start - b.Start })
	pol.eachSensitive(doc, w.known, func(at occkit.Path, v gjson.Result) { once(at, v, placeValue) })
	for _, list := range [][]secretPlace{providers, defaults, entries} {
		for _, p := range list {
			once(p.at, p.v, p.kind)
		}
	}
}

// oracleScanSecrets is ScanSecrets as it was: the places of
// oracleScanPlaces, the references of referenceDocumentRefs.
func oracleScanSecrets(doc occkit.Document, pol SecretPolicy) *SecretScan {
	s := &SecretScan{doc: doc, pol: pol}
	oracleScanPlaces(doc, pol, func(at occkit.Path, v gjson.Result, kind placeKind) {
		s.places = append(s.places, secretPlace{at, v, kind})
	}, &s.settings)
	s.refs = referenceDocumentRefs(doc, s.places)
	s.literals = s.checkLiterals()
	return s
}

// scanReport is what a scan reports, written out to be compared: its
// places (path, kind, type and text), references (name, where made and
// path), refusals (code, rule and path, in order), runtime ids (as the
// set RequiredPlugins makes of them), selected model texts, in order,
// and plugins for two releases.
func scanReport(s *SecretScan) []string {
	var out []string
	for _, p := range s.places {
		out = append(out, fmt.Sprintf("place %s %d %v %q %q", p.at, p.kind, p.v.Type, p.v.Raw, p.v.Str))
	}
	for _, r := range s.refs {
		out = append(out, fmt.Sprintf("ref %s@%d %s", r.name, r.off, r.path(s.doc)))
	}
	for _, e := range occkit.Errors(s.CheckLiterals()) {
		out = append(out, fmt.Sprintf("refused %s %s %s %q", e.Code, e.Rule, e.Path, e.Detail))
	}
	runtimes := slices.Compact(slices.Sorted(slices.Values(s.settings.runtimes)))
	out = append(out, fmt.Sprintf("runtimes %q", runtimes))
	providers := slices.Compact(slices.Sorted(slices.Values(s.settings.providers)))
	out = append(out, fmt.Sprintf("providers %q", providers))
	for _, release := range []string{"2026.9.6", ""} {
		out = append(out, fmt.Sprintf("plugins %s %v", release, s.requiredPlugins(release)))
	}
	return out
}

// checkScanOracle fails when ScanSecrets and the oracle report
// differently on doc, or the scan's places differ from secretPlaces'.
func checkScanOracle(t interface {
	Fatalf(string, ...any)
}, doc occkit.Document, pol SecretPolicy) {
	got := ScanSecrets(doc, pol)
	if d := cmp.Diff(scanReport(oracleScanSecrets(doc, pol)), scanReport(got)); d != "" {
		t.Fatalf("%s: scans differ (-oracle +ScanSecrets):\n%s", doc, d)
	}
	var alone []secretPlace
	secretPlaces(doc, pol, func(at occkit.Path, v gjson.Result, kind placeKind) {
		alone = append(alone, secretPlace{at, v, kind})
	})
	if d := cmp.Diff(scanReport(&SecretScan{doc: doc, pol: pol, places: got.places}), scanReport(&SecretScan{doc: doc, pol: pol, places: alone})); d != "" {
		t.Fatalf("%s: places differ (-with settings +alone):\n%s", doc, d)
	}
}

// genScanDocument draws a document of every kind the scan reads: the
// agents and providers of genAgentsDocument, the model scopes of
// genScopeJSON and the references of genRefsJSON, set at places of the
// model maps, the channels and env; or a benchmark document.
func genScanDocument(t *rapid.T) occkit.Document {
	if rapid.IntRange(0, 9).Draw(t, "bench") == 0 {
		d := rapid.SampledFrom(bench.Documents).Draw(t, "document")
		doc, err := occkit.ParseDocument(d.Make(rapid.IntRange(1, 12).Draw(t, "models")))
		if err != nil {
			t.Fatal(err)
		}
		return doc
	}
	doc := genAgentsDocument(t)
	value := func(label string) string {
		if rapid.Bool().Draw(t, label+" kind") {
			return genScopeJSON(t, 3)
		}
		return genRefsJSON(t, 3)
	}
	at := []occkit.Path{
		occkit.NewPath("models", "providers", "p"),
		occkit.NewPath("models", "providers", "q", "models"),
		occkit.NewPath("agents", "defaults", "models", "a/b"),
		occkit.NewPath("agents", "defaults", "models", "a/b", "params"),
		occkit.NewPath("agents", "entries", "main", "models", "m"),
		occkit.NewPath("agents", "entries", "main", "models", "m", "agentRuntime"),
		occkit.NewPath("agents", "entries", "main", "model"),
		occkit.NewPath("channels", "slack", "botToken"),
		occkit.NewPath("channels", "telegram", "accounts", "a", "botToken"),
		occkit.NewPath("gateway", "auth", "token"),
		occkit.NewPath("env", "vars", "OPENAI_API_KEY"),
		occkit.NewPath("env", "vars", "MY_VAR"),
		occkit.NewPath("env", "SECRET_X"),
		occkit.NewPath("x"),
	}
	if n := rapid.IntRange(0, 24).Draw(t, "accounts"); n > 0 {
		// Many sensitive places, some of them in a provider's scope too.
		var accounts, providers []string
		for i := range n {
			accounts = append(accounts, fmt.Sprintf(`"a%d":{"botToken":%s}`, i, value("account")))
			if i%3 == 0 {
				providers = append(providers, fmt.Sprintf(`"p%d":{"apiKey":%s,"headers":{"X":"v"}}`, i, value("provider")))
			}
		}
		edits := []occkit.Edit{
			{Path: occkit.NewPath("channels", "telegram", "accounts"), Raw: []byte("{" + strings.Join(accounts, ",") + "}")},
			{Path: occkit.NewPath("models", "providers"), Raw: []byte("{" + strings.Join(providers, ",") + "}")},
		}
		if next, err := doc.Apply(edits...); err == nil {
			doc = next
		}
	}
	for i, n := 0, rapid.IntRange(0, 5).Draw(t, "edits"); i < n; i++ {
		p := rapid.SampledFrom(at).Draw(t, "at")
		next, err := doc.Apply(occkit.Edit{Path: p, Raw: []byte(value("edit"))})
		if err != nil {
			continue // a scalar or an array on the way
		}
		doc = next
	}
	return doc
}

// TestScanSecretsMatchesOracle: ScanSecrets reports what the scan before
// its cost was cut reported, on drawn documents.
func TestScanSecretsMatchesOracle(t *testing.T) {
	pol := SecretPolicyFor("")
	rapid.Check(t, func(t *rapid.T) {
		defer func(n int) { minKnown = n }(minKnown)
		minKnown = rapid.SampledFrom([]int{0, 1, minKnown}).Draw(t, "minKnown")
		checkScanOracle(t, genScanDocument(t), pol)
	})
}

// FuzzScanSecretsOracle: on any document, ScanSecrets reports what the
// oracle reports.
func FuzzScanSecretsOracle(f *testing.F) {
	for _, s := range []string{
		`{"agents":{"defaults":{"model":"a/b","models":{"a/b":{"agentRuntime":{"id":"codex"},"pickerRuntimes":["claude-cli",1,["x"]],"headers":{"A":"${A}"}}}}}}`,
		`{"models":{"providers":{"p":{"agentRuntime":{"id":"\u0063odex","apiKey":"k"},"models":[{"pickerRuntimes":["x"],"agentRuntime":["y"]},{"agentRuntime":{"id":1}}],"baseUrl":"https://u:p@h"}}}}`,
		`{"agents":{"entries":{"m":{"models":{"x":{"agentRuntime":{"x":{"id":"n"},"id":"o"}}}}},"list":[{"model":{"primary":"a/b"}}]},"env":{"vars":{"TOKEN":"t"}}}`,
		`{"channels":{"slack":{"botToken":{"source":"env","id":"S"}}},"models":{"providers":["x"]}}`,
		string(bench.Compact(3)),
		string(bench.Configuration(2)),
	} {
		f.Add(s)
	}
	pol := SecretPolicyFor("")
	f.Fuzz(func(t *testing.T, s string) {
		if doc, err := occkit.ParseDocument([]byte(s)); err == nil {
			checkScanOracle(t, doc, pol)
		}
	})
}

// TestScanOracleSeesEveryKind: the drawn documents hold places of each
// kind, references, refusals, runtime ids and model ref providers, so
// that the oracle's comparison has something to compare.
func TestScanOracleSeesEveryKind(t *testing.T) {
	pol := SecretPolicyFor("")
	seen := map[string]int{}
	rapid.Check(t, func(t *rapid.T) {
		s := oracleScanSecrets(genScanDocument(t), pol)
		for _, p := range s.places {
			seen[fmt.Sprint("place ", p.kind)]++
		}
		for _, row := range scanReport(s) {
			if kind, rest, _ := strings.Cut(row, " "); kind != "runtimes" && kind != "providers" || rest != "[]" {
				seen[kind]++
			}
		}
	})
	for _, kind := range []string{"place 0", "place 1", "ref", "refused", "runtimes", "providers"} {
		if seen[kind] == 0 {
			t.Errorf("no drawn document has a %q row (%v)", kind, seen)
		}
	}
}

// TestSecretPolicyForPinned: the pinned release's policy, made once, is
// the one made for it each time: the same shared data.
func TestSecretPolicyForPinned(t *testing.T) {
	r := openclawschema.Release()
	got, want := SecretPolicyFor(r), secretPolicyFor(r)
	if got.match != want.match || got.Env != want.Env || len(got.Sensitive) != len(want.Sensitive) ||
		len(got.Sensitive) == 0 || &got.Sensitive[0] != &want.Sensitive[0] {
		t.Errorf("SecretPolicyFor(%q) is not the policy made for it", r)
	}
	if !ScanSecrets(occkit.MustParseDocument(`{}`), want).of(occkit.MustParseDocument(`{}`), got) {
		t.Error("a scan under the policy made for the pinned release is not one under SecretPolicyFor's")
	}
}

// TestScanRootMembersMatchGet: the gateway, env, plugins and channels
// members a scan reads in passing are those docjson.Get reads (their text, offset
// and type), or absent where Get finds none, in documents whose root
// holds such members of any kind, written plain or escaped, among others,
// or holds none, or is no object; and a scan of another document, or no
// scan, reads them with Get.
func TestScanRootMembersMatchGet(t *testing.T) {
	pol := SecretPolicyFor("")
	values := []string{`{}`, `{"mode":"local","port":1}`, `"x"`, `1`, `[{"a":1}]`, `null`, `{"auth":{"token":"${T}"}}`, `{"vars":{"A":"b"}}`}
	keys := []string{"gateway", `gate\u0077ay`, "env", `\u0065nv`, "plugins", `plugin\u0073`, "channels", `channel\u0073`, "models", "agents", "logging", "gateways", "x"}
	rapid.Check(t, func(t *rapid.T) {
		var members []string
		for n := rapid.IntRange(0, 6).Draw(t, "members"); n > 0; n-- {
			members = append(members, `"`+rapid.SampledFrom(keys).Draw(t, "key")+`":`+rapid.SampledFrom(values).Draw(t, "value"))
		}
		src := "{" + strings.Join(members, ",") + "}"
		if rapid.IntRange(0, 9).Draw(t, "array") == 0 {
			src = "[" + src + "]"
		}
		doc, err := occkit.ParseDocument([]byte(src))
		if err != nil {
			t.Skipf("not a document (a repeated key): %v", err)
		}
		other := occkit.MustParseDocument(`{"gateway":{"mode":"other"},"env":{},"plugins":{},"channels":{}}`)
		for i, p := range rootMemberPaths {
			want := docjson.Get(doc, p)
			for _, s := range []*SecretScan{ScanSecrets(doc, pol), ScanSecrets(other, pol), nil} {
				got := s.rootMember(doc, i)
				if got.Raw != want.Raw || got.Index != want.Index || got.Type != want.Type || got.Exists() != want.Exists() {
					t.Fatalf("%s: rootMember(%v) is %q at %d (type %v), docjson.Get %q at %d (type %v)",
						doc, p, got.Raw, got.Index, got.Type, want.Raw, want.Index, want.Type)
				}
			}
		}
	})
}
