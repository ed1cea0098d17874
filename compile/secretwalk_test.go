package compile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tidwall/gjson"
	"pgregory.net/rapid"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/internal/docjson"
)

// referenceWalk is the walk of one model scope through gjson, member by
// member, as secretPlaces made it before placeWalker: the oracle of
// TestPlaceWalkerMatchesGJSON.
func referenceWalk(sc scope, visit func(at occkit.Path, v gjson.Result, kind placeKind)) {
	w := placeWalker{base: sc}
	var walk func(v gjson.Result, key string)
	walk = func(v gjson.Result, key string) {
		switch {
		case v.IsObject():
			v.ForEach(func(k, c gjson.Result) bool {
				name := k.String()
				switch {
				case headersKey(name) && c.IsObject():
					c.ForEach(func(h, hv gjson.Result) bool {
						visit(w.at(name, h.String()), hv, placeValue)
						return true
					})
				case credentialName(name):
					visit(w.at(name), c, placeValue)
				default:
					w.steps.Push(step{key: name, index: -1})
					walk(c, name)
					w.steps.Pop()
				}
				return true
			})
		case v.IsArray():
			i := 0
			v.ForEach(func(_, c gjson.Result) bool {
				w.steps.Push(step{index: i})
				walk(c, key)
				w.steps.Pop()
				i++
				return true
			})
		case v.Type == gjson.String && urlLike(key, v.Str):
			visit(w.at(), v, placeURL)
		}
	}
	walk(sc.v, sc.key)
}

// genScopeJSON draws a JSON value of the kind model scopes hold, with
// keys and strings that hit every branch of the walk: header maps,
// credential keys in several spellings, URL-like keys and strings, and
// escapes in keys and strings.
func genScopeJSON(t *rapid.T, depth int) string {
	keys := []string{"headers", "Headers", "HEADERS", "apiKey", "x-api-key", "token", "auth", "baseUrl", "url", "proxy",
		"models", "id", "name", "params", `api\u004bey`, `head\u0065rs`, "héaders", "ключ", "cert", "passwd", "maxTokens"}
	strs := []string{"plain", "https://api.example.com/v1", "https://u:p@h/x?token=1", "svc:KEY@host/v1", "a@b", "?x",
		`https:\/\/h\/v1?key=1`, `x\u0040y`, "${TOKEN}", "Bearer ${T}", "", `tab\there`, "日本://",
		`https\u003a\/\/h\/v1`, `say \"hi\"\n`, `k\u0065y\u0023x`, `a\\u003a`, `caf\u00e9 \u00e8`, `h\u003F\u00e9`}
	kind := rapid.IntRange(0, 5).Draw(t, "kind")
	if depth <= 0 && kind >= 3 {
		kind = 0
	}
	switch kind {
	case 0:
		return `"` + rapid.SampledFrom(strs).Draw(t, "s") + `"`
	case 1:
		return rapid.SampledFrom([]string{"0", "-1.5e3", "true", "false", "null"}).Draw(t, "scalar")
	case 2:
		return `"` + rapid.SampledFrom(strs).Draw(t, "s2") + `"`
	case 3:
		n := rapid.IntRange(0, 3).Draw(t, "len")
		parts := make([]string, n)
		for i := range parts {
			parts[i] = genScopeJSON(t, depth-1)
		}
		return "[" + strings.Join(parts, ",") + "]"
	default:
		n := rapid.IntRange(0, 4).Draw(t, "members")
		seen := map[string]bool{}
		var parts []string
		for i := 0; i < n; i++ {
			k := rapid.SampledFrom(keys).Draw(t, "key")
			if seen[k] {
				continue
			}
			seen[k] = true
			parts = append(parts, `"`+k+`":`+genScopeJSON(t, depth-1))
		}
		return "{" + strings.Join(parts, ",") + "}"
	}
}

// TestPlaceWalkerMatchesGJSON: the byte walk visits the same places, in
// the same order, with the same values and kinds as the walk through
// gjson, on compact and on indented text.
func TestPlaceWalkerMatchesGJSON(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		raw := genScopeJSON(t, 4)
		if !gjson.Valid(raw) {
			t.Fatalf("generated invalid JSON %s", raw)
		}
		key := rapid.SampledFrom([]string{"openai", "anthropic/claude", "baseUrl", "headers"}).Draw(t, "scope")
		record := func(out *[]string) func(at occkit.Path, v gjson.Result, kind placeKind) {
			return func(at occkit.Path, v gjson.Result, kind placeKind) {
				*out = append(*out, fmt.Sprintf("%s %d %v %q %q", at, kind, v.Type, v.Raw, v.String()))
			}
		}
		for _, text := range []string{raw, indent(raw)} {
			sc := scope{parent: occkit.NewPath("models", "providers"), key: key, v: gjson.Parse(text)}
			var want, got []string
			referenceWalk(sc, record(&want))
			w := placeWalker{base: sc}
			w.value(sc.v.Raw, 0, sc.key)
			for _, p := range w.lists[0] {
				record(&got)(p.at, p.v, p.kind)
			}
			if d := cmp.Diff(want, got); d != "" {
				t.Fatalf("%s: places differ (-gjson +bytes):\n%s", text, d)
			}
		}
	})
}

// indent spreads JSON text over lines, as an author writes it; strings
// keep their escapes.
func indent(raw string) string {
	var b bytes.Buffer
	if err := json.Indent(&b, []byte(raw), "", "  "); err != nil {
		panic(err)
	}
	return b.String()
}

// referencePlaces is secretPlaces as it was made through gjson: the
// sensitive paths, then every scope of eachModelScope walked by
// referenceWalk, each path once.
func referencePlaces(doc occkit.Document, pol SecretPolicy, visit func(at occkit.Path, v gjson.Result, kind placeKind)) {
	seen := map[string]bool{}
	once := func(at occkit.Path, v gjson.Result, kind placeKind) {
		if k := at.String(); !seen[k] {
			seen[k] = true
			visit(at, v, kind)
		}
	}
	for _, p := range pol.match.Find(doc) {
		once(p, docjson.Get(doc, p), placeValue)
	}
	eachModelScope(doc, func(sc scope) { referenceWalk(sc, once) })
}

// TestSecretPlacesMatchesGJSON: the whole scan (scope maps read by the
// byte walker) visits what the gjson walk visits, in its order.
func TestSecretPlacesMatchesGJSON(t *testing.T) {
	pol := SecretPolicyFor("")
	rapid.Check(t, func(t *rapid.T) {
		scopeMap := func(label string) string {
			n := rapid.IntRange(0, 3).Draw(t, label)
			var parts []string
			for i := 0; i < n; i++ {
				parts = append(parts, fmt.Sprintf(`"%s%d":%s`, rapid.SampledFrom([]string{"openai", "a/b", `q\"x`, "headers"}).Draw(t, "k"), i, genScopeJSON(t, 3)))
			}
			return "{" + strings.Join(parts, ",") + "}"
		}
		agents := fmt.Sprintf(`"agents":{"defaults":{"model":"a/b","models":%s},"entries":{"x":"y","main":{"models":%s},"other":{"models":"x"},"last":{"models":%s}}}`,
			scopeMap("defaults"), scopeMap("entry"), scopeMap("last"))
		models := fmt.Sprintf(`"models":{"mode":"merge","providers":%s}`, scopeMap("providers"))
		if rapid.Bool().Draw(t, "modelsNotObject") {
			models = `"models":["x"]`
		}
		members := []string{agents, models, `"channels":{"slack":{"botToken":"xoxb"}}`, `"env":"x"`}
		perm := rapid.Permutation(members).Draw(t, "order")
		src := "{" + strings.Join(perm, ",") + "}"
		doc, err := occkit.ParseDocument([]byte(src))
		if err != nil {
			t.Skipf("a key written twice (once escaped): %v", err)
		}
		record := func(out *[]string) func(at occkit.Path, v gjson.Result, kind placeKind) {
			return func(at occkit.Path, v gjson.Result, kind placeKind) {
				*out = append(*out, fmt.Sprintf("%s %d %v %q", at, kind, v.Type, v.Raw))
			}
		}
		var want, got []string
		referencePlaces(doc, pol, record(&want))
		// The sensitive paths' walk passes over the extents the scope
		// walk hands it: every one of them, or only the large.
		defer func(n int) { minKnown = n }(minKnown)
		minKnown = rapid.SampledFrom([]int{0, 1, minKnown}).Draw(t, "minKnown")
		secretPlaces(doc, pol, record(&got))
		if d := cmp.Diff(want, got); d != "" {
			t.Fatalf("%s: places differ (-gjson +bytes):\n%s", src, d)
		}
	})
}

// referenceCredentialName is credentialName as first written: every
// credential word tried as a suffix.
func referenceCredentialName(k string) bool {
	n := normalizeKey(k)
	if n == "ca" || n == "pfx" {
		return true
	}
	for _, w := range []string{
		"key", "keys", "token", "secret", "secrets", "password", "passwd", "passphrase",
		"credential", "credentials", "cookie", "bearer", "authorization", "signature", "cert", "certificate",
	} {
		if strings.HasSuffix(n, w) {
			return true
		}
	}
	return false
}

func TestCredentialNameMatchesReference(t *testing.T) {
	words := []string{"key", "keys", "token", "secret", "secrets", "password", "passwd", "passphrase", "credential",
		"credentials", "cookie", "bearer", "authorization", "signature", "cert", "certificate", "ca", "pfx",
		"api", "X-", "_", "Max", "Tokens", "alias", "É", "ß", "id", "s", "e", "y",
		"temperature", "nature", "ure", "Ey", "\u212a", "P", "FX", "C", "a", "9", "word"}
	rapid.Check(t, func(t *rapid.T) {
		parts := rapid.SliceOfN(rapid.SampledFrom(words), 0, 4).Draw(t, "parts")
		k := strings.Join(parts, rapid.SampledFrom([]string{"", "-", "_", " ", "."}).Draw(t, "sep"))
		if got, want := credentialName(k), referenceCredentialName(k); got != want {
			t.Fatalf("credentialName(%q) = %v, want %v", k, got, want)
		}
	})
}

// TestEscapesASCII: a \u escape of a byte of the set is found in either
// case of hexadecimal, at the end of the literal too; an escape of
// another character, a short one or none is not.
func TestEscapesASCII(t *testing.T) {
	for lit, want := range map[string]bool{
		`"a\u0024b"`: true, `"\u003a"`: true, `"\u003A"`: true, `"x\u0040"`: true, `"\u00e9\u0023"`: true,
		`"caf\u00e9"`: false, `"\u2024"`: false, `"\u00"`: false, `"\n\t"`: false, `"plain"`: false, `"\u0025"`: false,
	} {
		if got := escapesASCII(lit, "$:@#"); got != want {
			t.Errorf("escapesASCII(%s) = %v, want %v", lit, got, want)
		}
	}
}

// TestLiteralMayBeURL: the test of a plain literal, read in words of the
// text around it, answers as mayBeURL of its value, whatever its length
// (a word's worth and more, past 32 bytes too), wherever it ends (a
// word read whole before the end of the text, or not), and whatever
// follows its closing quote (bytes the test looks for, which a word
// read past the value holds and must not count).
func TestLiteralMayBeURL(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		alphabet := rapid.SampledFrom([]byte("ab :@?#/0é\x80"))
		value := string(rapid.SliceOfN(alphabet, 0, 40).Draw(t, "value"))
		before := string(rapid.SliceOfN(alphabet, 0, 9).Draw(t, "before"))
		after := string(rapid.SliceOfN(rapid.SampledFrom([]byte(`:@?#,}]x `)), 0, 12).Draw(t, "after"))
		raw := before + `"` + value + `"` + after
		at, end := len(before), len(before)+len(value)+2
		if got, want := literalMayBeURL(raw, at, end, false), mayBeURL(value); got != want {
			t.Fatalf("literalMayBeURL(%q, %d, %d) = %v, mayBeURL(%q) = %v", raw, at, end, got, value, want)
		}
	})
}

// TestHeadersKeyFirstByte: headersKey, which tells most keys from their
// first byte, answers as the whole normal form for a key starting with
// any byte (a separator or a space, which drop out of it, a wider
// rune's, a letter or digit) before the rest of "headers", an "h" or
// neither.
func TestHeadersKeyFirstByte(t *testing.T) {
	for b := range 256 {
		for _, rest := range []string{"headers", "HEADERS", "eaders", "EADERS", "-headers", "\u0130eaders", "headers-"} {
			k := string([]byte{byte(b)}) + rest
			if got, want := headersKey(k), referenceHeadersKey(k); got != want {
				t.Errorf("headersKey(%q) = %v, want %v", k, got, want)
			}
		}
	}
}

// TestCredentialNameSplitWord: a credential word split anywhere by a
// byte that drops out of the normal form (a separator, a space, a wider
// rune that does) still names a credential, and a word whose letters
// differ there does not, in either case, after any prefix: the tail
// compared in place must leave such a key to the normal form.
func TestCredentialNameSplitWord(t *testing.T) {
	for _, w := range credentialSuffixWords {
		for i := 1; i < len(w); i++ {
			for _, sep := range []string{"-", "_", " ", ".", "\u00a0"} {
				for _, k := range []string{w[:i] + sep + w[i:], "x" + w[:i] + sep + w[i:], strings.ToUpper(w[:i]) + sep + w[i:],
					"q" + w[1:i] + sep + w[i:], w[:i] + sep + "q" + w[i+1:]} {
					if got, want := credentialName(k), referenceCredentialName(k); got != want {
						t.Errorf("credentialName(%q) = %v, want %v", k, got, want)
					}
				}
			}
		}
	}
}
