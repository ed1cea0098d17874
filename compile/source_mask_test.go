package compile_test

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"pgregory.net/rapid"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/compile"
	"github.com/occkit/occkit/compile/sensitive"
)

// TestAuthorViewMasksByValue (issue 31): the cases an outside review
// found leaking through %+v and Snippet, each with the secret on the line
// a refusal points at: the author view masks what the credential policy
// strips, by value and by where the value sits in the whole text, and
// keeps the rest of the line.
func TestAuthorViewMasksByValue(t *testing.T) {
	for _, tc := range []struct {
		name  string
		src   string
		path  string // the refusal's path; "" for the load's own refusal
		shows string // what stays on the line
	}{
		{"baseUrl user info", `{models: {providers: {p: {baseUrl: "https://u:SECRET@h.example/v1", x: 1}}}}`, "models.providers.p.x", `"https://h.example/***"`},
		{"baseUrl query", `{models: {providers: {p: {baseUrl: "https://h/v1?key=SECRET", x: 1}}}}`, "models.providers.p.x", `x: 1`},
		{"baseUrl path", `{channels: {x: {webhook: "https://hooks.example/services/SECRET"}}}`, "channels.x.webhook", `"https://hooks.example/***"`},
		{"scheme-less URL", `{models: {providers: {p: {baseUrl: "svc:SECRET@h/v1", x: 1}}}}`, "models.providers.p.x", `"svc://h/***"`},
		{"custom header opened on an earlier line", "{models: {providers: {p: {headers: {\n  \"X-Tenant\": \"SECRET\", x: 1}}}}}", "models.providers.p.headers.x", `"X-Tenant"`},
		{"inside an array", "{apiKeys: [\n  \"SECRET\",\n  \"SECRET2\"]}", "apiKeys[0]", ""},
		{"tail of a multi-line string", "{token: 'abc\\\nSECRET', x: 1}", "x", "x: 1"},
		{"escaped key", `{api\u004bey: "SECRET", x: 1}`, "x", `api\u004bey: "***"`},
		{"escaped quoted key", `{"to\u006ben": "SECRET", "x": 1}`, "x", `"x": 1`},
		{"syntax refusal after it", `{apiKey: "SECRET" oops}`, "", `apiKey: "***"`},
		{"syntax refusal before it", `{x: 1 y, z: "SECRET", w: 'SECRET'}`, "", `{x: 1 ***, ***: ***, ***: ***}`},
		{"unterminated string", "{x: 1, note: \"SECRET\n}", "", "note: ***"},
		{"duplicate key", `{token: "SECRET", token: "SECRET"}`, "", `token: "***"`},
		{"sensitive path with a plain name", `{channels: {googlechat: {serviceAccount: "SECRET", x: 1}}}`, "channels.googlechat.x", "serviceAccount"},
		{"sensitive env pattern", `{mcp: {servers: {s: {env: {LOOKUP: "SECRET"}, x: 1}}}}`, "mcp.servers.s.x", "LOOKUP"},
		{"env variable", `{env: {vars: {UPSTREAM: "SECRET"}, x: 1}}`, "env.x", "UPSTREAM"},
		{"credential flag", `{models: {providers: {p: {localService: {args: ["--api-key", "SECRET", "--port", "80"]}}}}}`, "models.providers.p.localService.args[3]", `"--port", "80"`},
		{"flag with its value", `{x: {args: ["--upstream-token=SECRET"], y: 1}}`, "x.y", "y: 1"},
		{"authorization line", `{x: {args: ["-H", "Authorization: Bearer SECRETSECRET"], y: 1}}`, "x.y", `"-H"`},
		{"commented out", "{x: 1, // apiKey: 'SECRET'\n}", "x", "x: 1, //***"},
		{"block comment", "{x: /* SECRET */ 1}", "x", "x: /*****/ 1"},
		{"comment ended by U+2028", "{x: 1, // note\u2028 apiKey: \"SECRET\"}", "x", `apiKey: "***"`},
		{"number under a credential key", `{pin: {token: 123456789, x: true}}`, "pin.x", "x: true"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc, err := compile.Load([]byte(tc.src), compile.LoadOptions{Filename: "c.json5"})
			if tc.path != "" {
				if err != nil {
					t.Fatal(err)
				}
				p, perr := occkit.ParsePath(tc.path)
				if perr != nil {
					t.Fatal(perr)
				}
				err = doc.Place(occkit.Invalid("DOC-5", p, "refused"))
			}
			e := occkit.First(err)
			if e == nil || !e.Position.IsValid() {
				t.Fatalf("no placed refusal: %v", err)
			}
			text := e.Position.Text
			for _, out := range []string{text, e.Snippet(), fmt.Sprintf("%+v", e)} {
				if strings.Contains(out, "SECRET") {
					t.Errorf("shows the secret:\n%s", out)
				}
			}
			if !strings.Contains(text, tc.shows) {
				t.Errorf("text %q lacks %q", text, tc.shows)
			}
		})
	}
}

// The author view masks the sensitive paths it is given: those of the
// document's release instead of the pinned one's.
func TestAuthorViewSensitivePaths(t *testing.T) {
	src := []byte(`{channels: {googlechat: {serviceAccount: "SA", x: 1}}, custom: {field: "CF", x: 1}}`)
	for _, tc := range []struct {
		name  string
		paths []sensitive.Pattern
		shown []string
		gone  []string
	}{
		{"pinned release", nil, []string{`"CF"`}, []string{"SA"}},
		{"another release", []sensitive.Pattern{sensitive.Parse("custom.field")}, []string{`"SA"`}, []string{"CF"}},
	} {
		doc, err := compile.Load(src, compile.LoadOptions{Filename: "c.json5", SensitivePaths: tc.paths})
		if err != nil {
			t.Fatal(err)
		}
		pos, _ := doc.SourceMap().Position(occkit.NewPath("custom", "x"))
		for _, s := range tc.shown {
			if !strings.Contains(pos.Text, s) {
				t.Errorf("%s: %q lacks %s", tc.name, pos.Text, s)
			}
		}
		for _, s := range tc.gone {
			if strings.Contains(pos.Text, s) {
				t.Errorf("%s: %q shows %s", tc.name, pos.Text, s)
			}
		}
	}
}

// TestPositionAgreesWithLocate: the index a source map places refusals
// with finds, for any path of any document, the line and column Locate
// finds by reading the text, and its excerpt is bounded with the caret
// on a character of it.
func TestPositionAgreesWithLocate(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		src := genJSON5(t, 0)
		doc, err := compile.Load([]byte(src), compile.LoadOptions{Filename: "g.json5"})
		if err != nil {
			t.Skip(err)
		}
		var paths []occkit.Path
		forPaths(doc.Get(occkit.Root()), occkit.Root(), &paths)
		for _, p := range paths {
			for _, q := range []occkit.Path{p, p.Key("absent"), p.Index(7)} {
				pos, ok := doc.SourceMap().Position(q)
				line, col, lok := compile.Locate([]byte(src), q)
				if q.IsRoot() || !lok {
					continue
				}
				if !ok {
					// Only a path nothing of which is written is unplaced.
					if k, _, _ := q.Elem(0); doc.Has(occkit.NewPath(k)) {
						t.Fatalf("%s not placed in\n%s", q, src)
					}
					continue
				}
				if pos.Line != line || pos.Column != col {
					t.Fatalf("%s at %d:%d, Locate says %d:%d, in\n%s", q, pos.Line, pos.Column, line, col, src)
				}
				if n := utf8.RuneCountInString(pos.Text); n > occkit.MaxSnippetRunes || pos.TextColumn < 1 || pos.TextColumn > n+1 {
					t.Fatalf("%s: excerpt %q, column %d", q, pos.Text, pos.TextColumn)
				}
			}
		}
	})
}

func forPaths(v occkit.Value, at occkit.Path, out *[]occkit.Path) {
	*out = append(*out, at)
	if v.IsArray() {
		for i, c := range v.Array() {
			forPaths(c, at.Index(i), out)
		}
		return
	}
	v.ForEach(func(k, c occkit.Value) bool {
		forPaths(c, at.Key(k.String()), out)
		return true
	})
}

// genJSON5 draws an object in JSON5 with the forms a reader must place:
// quoted, bare and escaped keys, comments, blank lines, CRLF, long lines
// and multi-line strings.
func genJSON5(t *rapid.T, depth int) string {
	var b strings.Builder
	b.WriteString("{")
	n := rapid.IntRange(0, 4).Draw(t, "members")
	for i := 0; i < n; i++ {
		b.WriteString(rapid.SampledFrom([]string{"", " ", "\n  ", "\r\n", " // c\n ", "/* x */"}).Draw(t, "space"))
		key := rapid.SampledFrom([]string{"a", "b", "apiKey", "é", "k-1"}).Draw(t, "key") + fmt.Sprint(i)
		switch rapid.IntRange(0, 3).Draw(t, "key form") {
		case 0:
			fmt.Fprintf(&b, "%q", key)
		case 1:
			fmt.Fprintf(&b, "'%s'", key)
		case 2:
			if strings.HasPrefix(key, "a") {
				key = `\u0061` + key[1:]
			}
			fallthrough
		default:
			if strings.Contains(key, "-") {
				fmt.Fprintf(&b, "%q", key)
			} else {
				b.WriteString(key)
			}
		}
		b.WriteString(": ")
		switch k := rapid.IntRange(0, 4).Draw(t, "value"); {
		case k == 0 && depth < 3:
			b.WriteString(genJSON5(t, depth+1))
		case k == 1 && depth < 3:
			b.WriteString("[" + genJSON5(t, depth+1) + ", 1, 'x\\\ny', " + genJSON5(t, depth+1) + "]")
		case k == 2:
			b.WriteString(`"` + strings.Repeat("v", rapid.IntRange(0, 150).Draw(t, "len")) + `"`)
		default:
			b.WriteString("1")
		}
		b.WriteString(",")
	}
	b.WriteString("}")
	return b.String()
}

// FuzzAuthorView: any text, placed at any of its paths, gives a bounded
// excerpt with the caret on it, and never prints a string written under
// a credential-like key (one long enough, and written once, to be told
// from the rest of the text).
func FuzzAuthorView(f *testing.F) {
	f.Add("{models: {providers: {p: {apiKey: 'sk-live-0123456789', headers: {\n'X-A': \"hdr-secret-value\"}}}}}")
	f.Add("{token: 'abc\\\nsecret-tail-xyz', n: [1, {auth: ['x-secret-in-array']}]}")
	f.Add(`{"api\u004bey": "escaped-key-secret", "b": "https://u:pw-secret@h/v1?q=1"}`)
	f.Add("{a: 1, // c\u2028 password: 'after-line-sep-secret'\n}")
	f.Fuzz(func(t *testing.T, src string) {
		doc, err := compile.Load([]byte(src), compile.LoadOptions{Filename: "f.json5"})
		if err != nil {
			if e := occkit.First(err); e != nil && e.Position.IsValid() {
				checkExcerpt(t, e.Position)
			}
			return
		}
		var paths []occkit.Path
		forPaths(doc.Get(occkit.Root()), occkit.Root(), &paths)
		var secrets []string
		for _, p := range paths {
			v := doc.Get(p)
			if !v.IsString() || len(v.String()) < 8 || strings.Count(src, v.String()) != 1 {
				continue
			}
			for i := 0; i < p.Len(); i++ {
				if k, _, isIdx := p.Elem(i); !isIdx && compile.CredentialKey(k) {
					secrets = append(secrets, v.String())
					break
				}
			}
		}
		for _, p := range paths[:min(len(paths), 200)] {
			pos, ok := doc.SourceMap().Position(p)
			if !ok {
				continue
			}
			checkExcerpt(t, pos)
			for _, s := range secrets {
				if strings.Contains(pos.Text, s) {
					t.Fatalf("%s: %q shows %q", p, pos.Text, s)
				}
			}
		}
	})
}

func checkExcerpt(t *testing.T, pos occkit.Position) {
	t.Helper()
	if n := utf8.RuneCountInString(pos.Text); n > occkit.MaxSnippetRunes || pos.TextColumn < 1 || pos.TextColumn > n+1 {
		t.Fatalf("excerpt %q, column %d", pos.Text, pos.TextColumn)
	}
	e := occkit.Invalid("DOC-5", occkit.Root(), "m")
	e.Position = pos
	if s := e.Snippet(); pos.Text != "" && strings.Count(s, "\n") != 1 {
		t.Fatalf("snippet %q", s)
	}
}
