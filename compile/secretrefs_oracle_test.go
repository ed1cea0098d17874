package compile

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tidwall/gjson"
	"pgregory.net/rapid"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/internal/jsonwalk"
)

// referenceDocumentRefs is documentRefs as it was before its fast paths
// (the oracle of TestDocumentRefsMatchesReference): it returns every variable doc references, as OpenClaw would
// ask its environment for them: ${NAME} in any string value (never in a
// key), an env SecretRef's id anywhere, and the $NAME shorthand at a
// credential place. One pass over the bytes finds the first two.
func referenceDocumentRefs(doc occkit.Document, places []secretPlace) []envRef {
	src := doc.String()
	var out []envRef
	var names []string
	// The objects open at i: where each starts and where its "source":
	// "env" key is (-1: none), so that an env SecretRef is read when it
	// closes, without a search from the root.
	type open struct{ start, source int }
	var objects []open
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '{':
			objects = append(objects, open{i, -1})
			continue
		case '}':
			if len(objects) == 0 {
				continue
			}
			o := objects[len(objects)-1]
			objects = objects[:len(objects)-1]
			// Its path (that of the key's object) is found only for a
			// refusal.
			if o.source >= 0 {
				if name, ok := secretRef(gjson.Parse(src[o.start : i+1])); ok && name != "" {
					out = append(out, envRef{name: name, off: o.source})
				}
			}
			continue
		case '"':
		default:
			continue
		}
		// A string is skipped by jsonwalk's scanner, which searches its
		// closing quote with IndexByte (many bytes a step).
		start := i
		end, _ := jsonwalk.StringEnd(src, start)
		i = end - 1
		if isKey := i+1 < len(src) && src[i+1] == ':'; isKey {
			if len(objects) > 0 && referenceJSONStringIs(src[start:i+1], "source") && i+2 < len(src) && src[i+2] == '"' {
				if vend, _ := jsonwalk.StringEnd(src, i+2); referenceJSONStringIs(src[i+2:vend], "env") {
					objects[len(objects)-1].source = start
				}
			}
			continue
		}
		// OpenClaw reads the decoded string: a '$' is there when the
		// literal holds one or an escape (\u0024 is one).
		if strings.IndexByte(src[start:i], '$') < 0 && strings.IndexByte(src[start:i], '\\') < 0 {
			continue
		}
		s := gjson.Parse(src[start : i+1]).Str
		names = appendVarRefs(names[:0], s)
		for _, n := range names {
			out = append(out, envRef{name: n, off: start})
		}
	}
	for _, pl := range places {
		if pl.kind != placeValue || pl.v.Type != gjson.String {
			continue
		}
		t := strings.TrimSpace(pl.v.Str)
		if name, ok := wholeRef(t); ok && !strings.HasPrefix(t, "${") {
			out = append(out, envRef{name: name, off: -1, at: pl.at})
		}
	}
	return out
}

// referenceJSONStringIs reports whether the JSON string literal lit (quotes
// included) decodes to s, escapes and all.
func referenceJSONStringIs(lit, s string) bool {
	if strings.IndexByte(lit, '\\') < 0 {
		return len(lit) == len(s)+2 && lit[1:len(lit)-1] == s
	}
	return gjson.Parse(lit).Str == s
}

// genRefsJSON draws a JSON value whose strings and keys hold references,
// SecretRefs and their escaped spellings, or none of them.
func genRefsJSON(t *rapid.T, depth int) string {
	strs := []string{
		"plain", "${A}", "x${B_C}y", "$${D}", `\u0024{E}`, `$\u007bF\u007d`, `caf\u00e9{X}`, `\u00e9\u0024{Y}`, "$G", "${lower}", "${", "$", `a\\b`, `\\u0024{Q}`, `\n$\t${R}\\`,
		`\"${H}\"`, "https://u:${P}@h", "env", `\u0065nv`, "default", "I", " J ",
	}
	keys := []string{"source", `sourc\u0065`, "id", "provider", "apiKey", "token", "$K", "${L}", `\u0024{M}`, "headers", "x"}
	kind := rapid.IntRange(0, 5).Draw(t, "kind")
	if depth == 0 && kind > 2 {
		kind = 0
	}
	switch kind {
	case 0, 1:
		return `"` + rapid.SampledFrom(strs).Draw(t, "s") + `"`
	case 2:
		return rapid.SampledFrom([]string{"0", "true", "null"}).Draw(t, "scalar")
	case 3:
		n := rapid.IntRange(0, 3).Draw(t, "len")
		var parts []string
		for range n {
			parts = append(parts, genRefsJSON(t, depth-1))
		}
		return "[" + strings.Join(parts, ",") + "]"
	case 4:
		// A SecretRef, spelled one way or another.
		src := rapid.SampledFrom([]string{`"source":"env"`, `"sourc\u0065":"env"`, `"source":"\u0065nv"`, `"source":"file"`, `"source":1`}).Draw(t, "src")
		id := rapid.SampledFrom([]string{`"id":"N_1"`, `"id":"N_\u0032"`, `"id":" "`, `"id":2`}).Draw(t, "id")
		members := []string{src, id}
		if rapid.Bool().Draw(t, "provider") {
			members = append(members, `"provider":"default"`)
		}
		if rapid.Bool().Draw(t, "extra") {
			members = append(members, `"x":`+genRefsJSON(t, depth-1))
		}
		return "{" + strings.Join(rapid.Permutation(members).Draw(t, "order"), ",") + "}"
	default:
		n := rapid.IntRange(0, 4).Draw(t, "members")
		var parts []string
		for i := range n {
			parts = append(parts, fmt.Sprintf(`"%s%s":%s`, rapid.SampledFrom(keys).Draw(t, "key"), strings.Repeat("_", i), genRefsJSON(t, depth-1)))
		}
		return "{" + strings.Join(parts, ",") + "}"
	}
}

// TestDocumentRefsMatchesReference: documentRefs finds what the pass it
// replaced found, in its order, on documents as written (escapes kept)
// and as loaded.
func TestDocumentRefsMatchesReference(t *testing.T) {
	pol := SecretPolicyFor("")
	show := func(doc occkit.Document, refs []envRef) []string {
		var out []string
		for _, r := range refs {
			out = append(out, fmt.Sprintf("%s@%d %s", r.name, r.off, r.path(doc)))
		}
		return out
	}
	rapid.Check(t, func(t *rapid.T) {
		body := fmt.Sprintf(`{"models":{"providers":{"p":%s}},"agents":{"defaults":{"models":{"m":%s}}},"x":%s}`,
			genRefsJSON(t, 3), genRefsJSON(t, 3), genRefsJSON(t, 3))
		switch rapid.IntRange(0, 2).Draw(t, "escapes") {
		case 1:
			// Without escapes and env SecretRefs: the '$' to '$' pass,
			// with no SecretRef or with those of other sources.
			rename := rapid.SampledFrom([][2]string{{"source", "sorce"}, {`"env"`, `"file"`}}).Draw(t, "rename")
			body = strings.NewReplacer(`\u0024`, "$", `\u007b`, "{", `\u007d`, "}", `\u0065`, "e", `\u0032`, "2",
				`\\`, "/", `\"`, "'", rename[0], rename[1]).Replace(body)
		case 2:
			// Escapes, but no \u and no env SecretRef: escaped quotes
			// and backslashes around '$'.
			rename := rapid.SampledFrom([][2]string{{"source", "sorce"}, {`"env"`, `"file"`}}).Draw(t, "rename")
			body = strings.NewReplacer(`\\u`, `\\u`, `\u0024`, "$", `\u007b`, "{", `\u007d`, "}", `\u0065`, "e", `\u0032`, "2",
				`\u00e9`, "é", rename[0], rename[1]).Replace(body)
		}
		doc, err := occkit.ParseDocument([]byte(body))
		if err != nil {
			t.Skip(err)
		}
		docs := []occkit.Document{doc}
		if loaded, err := Load([]byte(body), LoadOptions{}); err == nil {
			docs = append(docs, loaded)
		}
		for _, d := range docs {
			places := placesOf(d, pol)
			if diff := cmp.Diff(show(d, referenceDocumentRefs(d, places)), show(d, documentRefs(d, places))); diff != "" {
				t.Fatalf("%s (-reference +documentRefs):\n%s", d.String(), diff)
			}
		}
	})
}

// TestHoldsEnvLiteral: holdsEnvLiteral finds "env" where strings.Contains
// does, on text of quotes, v's and the letters around them.
func TestHoldsEnvLiteral(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := strings.Join(rapid.SliceOfN(rapid.SampledFrom([]string{`"`, "e", "n", "v", "env", `"env`, `v"`, "x", "vv"}), 0, 10).Draw(t, "parts"), "")
		if got, want := holdsEnvLiteral(s), strings.Contains(s, `"env"`); got != want {
			t.Fatalf("holdsEnvLiteral(%q) = %v, want %v", s, got, want)
		}
	})
}

// referenceHeadersKey is headersKey before its first-letter test: the
// normal form compared whole.
func referenceHeadersKey(k string) bool {
	var buf [16]byte
	return len(k) >= len("headers") && len(k) < 32 && string(appendNormalKey(buf[:0], k)) == "headers"
}

// TestKeyChecksMatchReference: the walk's per-key and per-string tests
// answer as the full ones, on keys spelled every way a normal form
// allows (case, separators, runes that lower to ASCII letters, runes
// that drop out).
func TestKeyChecksMatchReference(t *testing.T) {
	parts := []string{"h", "H", "eaders", "EADERS", "headers", "Headers", "-", "_", " ", "0", "\u212a", "\u0130", "\uff28", "é", "ß",
		"key", "Token", "api", "x", "\xff", "://", "@", "?", "#", ":", "https", "a.b/c", strings.Repeat("y", 30)}
	rapid.Check(t, func(t *rapid.T) {
		k := strings.Join(rapid.SliceOfN(rapid.SampledFrom(parts), 0, 6).Draw(t, "parts"), "")
		if got, want := headersKey(k), referenceHeadersKey(k); got != want {
			t.Fatalf("headersKey(%q) = %v, want %v", k, got, want)
		}
		if got, want := credentialName(k), referenceCredentialName(k); got != want {
			t.Fatalf("credentialName(%q) = %v, want %v", k, got, want)
		}
		for _, key := range []string{"baseUrl", "alias", "proxy"} {
			if urlLike(key, k) && !mayBeURL(k) {
				t.Fatalf("mayBeURL(%q) = false, and urlLike(%q, it) holds", k, key)
			}
		}
	})
}

// FuzzDocumentRefs: on any document, documentRefs finds what the pass it
// replaced found.
func FuzzDocumentRefs(f *testing.F) {
	for _, s := range []string{
		`{"a":"${A}","b":{"source":"env","id":"B"},"${C}":"x"}`,
		`{"a":"\u0024{A}","b":{"sourc\u0065":"env","provider":"default","id":"B"}}`,
		`{"a":["$${A}","${B}${C}"],"b":"$","c":"\"${D}\""}`,
	} {
		f.Add([]byte(s))
	}
	pol := SecretPolicyFor("")
	f.Fuzz(func(t *testing.T, b []byte) {
		doc, err := occkit.ParseDocument(b)
		if err != nil {
			return
		}
		places := placesOf(doc, pol)
		if diff := cmp.Diff(referenceDocumentRefs(doc, places), documentRefs(doc, places), cmp.AllowUnexported(envRef{}, occkit.Path{})); diff != "" {
			t.Fatalf("%s (-reference +documentRefs):\n%s", b, diff)
		}
	})
}

// placesOf lists the places secretPlaces visits in doc.
func placesOf(doc occkit.Document, pol SecretPolicy) []secretPlace {
	var places []secretPlace
	secretPlaces(doc, pol, func(at occkit.Path, v gjson.Result, kind placeKind) {
		places = append(places, secretPlace{at, v, kind})
	})
	return places
}

// TestDocumentRefsEscapes: the names documentRefs finds in documents
// that hold escapes (as written, not loaded), each answer written out by
// hand.
func TestDocumentRefsEscapes(t *testing.T) {
	pol := SecretPolicyFor("")
	for _, tc := range []struct {
		doc  string
		want []string
	}{
		{`{"a":"\u0024{E}"}`, []string{"E"}},
		{`{"a":"$\u007bF}"}`, []string{"F"}},
		{`{"a":"x\n\"${G}\"\t"}`, []string{"G"}},
		{`{"a":"\"","b":"${H}"}`, []string{"H"}},
		{`{"a":"\\","b":"$I","c":"${J}"}`, []string{"J"}},
		{`{"a":"\\u0024{K}"}`, nil},
		{`{"a":"\"${L}"}`, []string{"L"}},
		{`{"s":{"source":"\u0065nv","id":"M"}}`, []string{"M"}},
		{`{"s":{"sourc\u0065":"env","id":"N"}}`, []string{"N"}},
		{`{"s":{"source":"file","id":"O"},"t":"\n"}`, nil},
		{`{"k\"${P}":"\n"}`, nil},
	} {
		doc, err := occkit.ParseDocument([]byte(tc.doc))
		if err != nil {
			t.Fatalf("%s: %v", tc.doc, err)
		}
		var got []string
		for _, r := range documentRefs(doc, placesOf(doc, pol)) {
			got = append(got, r.name)
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.doc, diff)
		}
	}
}
