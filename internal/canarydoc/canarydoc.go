// Package canarydoc draws Configuration texts for the author-view canary
// property (issue 31): each writes a canary credential in a place the
// credential policy strips (compile's package doc, "Credential policy"),
// in one of the encodings JSON and JSON5 allow, on a line that a refusal
// of a drawn kind points at, sometimes in an included file. The tests
// of every output form that prints source text (occkit.Error's %+v and
// Snippet, occcheck's text and -json) search for the canary and must not
// find it.
package canarydoc

import (
	"fmt"
	"strings"

	"pgregory.net/rapid"
)

// Case is one drawn Configuration.
type Case struct {
	// Files maps a slash-separated name to its text; Main is the one to
	// load, the others are what it includes.
	Files map[string]string
	// Canary is the part of the credential written verbatim: no output
	// may hold it.
	Canary string
	// Place, Encoding and Refusal name what was drawn, for failures.
	Place, Encoding, Refusal string
	// Lookup is the environment the load substitutes ${VAR} from, nil for
	// none; MaxStringBytes is the string limit to load with (0: default).
	Lookup         map[string]string
	MaxStringBytes int
}

// Main is the name of the file to load.
const Main = "main.json5"

// A place is where the canary goes: the keys of the object holding it
// and the member written there, the value given as v (the credential's
// text, already holding the canary).
type place struct {
	name  string
	at    []string
	key   string // the member's key
	value func(secret string) string
	array bool // the value is an array: [flag, value] or [header]
}

var places = []place{
	{name: "provider apiKey", at: []string{"models", "providers", "p"}, key: "apiKey", value: plain},
	{name: "baseUrl user info", at: []string{"models", "providers", "p"}, key: "baseUrl", value: func(s string) string { return "https://user:" + s + "@api.example.com/v1" }},
	{name: "baseUrl query", at: []string{"models", "providers", "p"}, key: "baseUrl", value: func(s string) string { return "https://api.example.com/v1?key=" + s }},
	{name: "baseUrl path", at: []string{"models", "providers", "p"}, key: "baseUrl", value: func(s string) string { return "https://api.example.com/" + s + "/v1" }},
	{name: "scheme-less baseUrl", at: []string{"models", "providers", "p"}, key: "baseUrl", value: func(s string) string { return "svc:" + s + "@api.example.com/v1" }},
	{name: "custom header", at: []string{"models", "providers", "p", "headers"}, key: "X-Tenant-Route", value: plain},
	{name: "request auth", at: []string{"models", "providers", "p", "request", "auth"}, key: "token", value: plain},
	{name: "local service argument", at: []string{"models", "providers", "p", "localService"}, key: "args", value: plain, array: true},
	{name: "channel token", at: []string{"channels", "telegram"}, key: "botToken", value: plain},
	{name: "env variable", at: []string{"env", "vars"}, key: "OCC_UPSTREAM", value: plain},
	{name: "sensitive path", at: []string{"channels", "googlechat"}, key: "serviceAccount", value: plain},
	{name: "proxy URL", at: []string{"proxy"}, key: "proxyUrl", value: func(s string) string { return "http://proxy:" + s + "@proxy.internal:3128" }},
	{name: "MCP server env", at: []string{"mcp", "servers", "tools", "env"}, key: "LOOKUP_VALUE", value: plain},
	{name: "MCP header line", at: []string{"mcp", "servers", "tools"}, key: "args", value: func(s string) string { return "Authorization: Bearer " + s }, array: true},
}

func plain(s string) string { return "sk-live-" + s }

// Draw draws one Case.
func Draw(t *rapid.T) Case {
	canary := "cnry" + rapid.StringMatching(`[a-z]{10}`).Draw(t, "canary")
	pl := rapid.SampledFrom(places).Draw(t, "place")
	enc := rapid.SampledFrom([]string{"json", "json5", "escaped key", "escaped value", "multi-line string", "comment"}).Draw(t, "encoding")
	refusal := rapid.SampledFrom([]string{"none", "unknown key", "wrong type", "syntax", "duplicate key", "non-finite", "lone surrogate", "depth", "missing variable", "long string", "include missing"}).Draw(t, "refusal")
	if enc == "json" && (refusal == "non-finite" || refusal == "include missing") {
		refusal = "syntax"
	}
	pretty := rapid.Bool().Draw(t, "pretty")
	include := rapid.Bool().Draw(t, "include")
	w := writer{json: enc == "json", pretty: pretty}
	c := Case{Canary: canary, Place: pl.name, Encoding: enc, Refusal: refusal, Files: map[string]string{}}

	// The member holding the canary, then the refusal's trigger on the
	// same line.
	member := w.member(pl.key, enc == "escaped key") + w.colon() + w.secret(pl, canary, enc)
	if enc == "comment" {
		member = w.member("name", false) + w.colon() + w.str("ok", "") + " /* was " + pl.value(canary) + " */"
	}
	trigger := ""
	switch refusal {
	case "unknown key":
		trigger = w.member("bogusSetting", false) + w.colon() + "1"
	case "wrong type":
		trigger = w.member("enabled", false) + w.colon() + w.str("yes", "")
	case "syntax":
		trigger = "@"
	case "duplicate key":
		trigger = member
	case "non-finite":
		trigger = w.member("n", false) + w.colon() + "NaN"
	case "lone surrogate":
		trigger = w.member("s", false) + w.colon() + `"\ud800"`
	case "depth":
		trigger = w.member("d", false) + w.colon() + strings.Repeat("[", 70) + strings.Repeat("]", 70)
	case "missing variable":
		trigger = w.member("note", false) + w.colon() + w.str("${OCC_MISSING}", "")
		c.Lookup = map[string]string{"OCC_UPSTREAM": "x"}
	case "long string":
		trigger = w.member("note", false) + w.colon() + w.str(strings.Repeat("n", 80), "")
		c.MaxStringBytes = 64
	case "include missing":
		trigger = w.member("$include", false) + w.colon() + w.str("./missing.json5", "")
	}
	line := member
	if trigger != "" {
		if refusal == "syntax" {
			line += " " + trigger
		} else {
			line += ", " + trigger
		}
	}
	if rapid.Bool().Draw(t, "trigger first") && refusal != "syntax" && trigger != "" && !(pl.array && pretty) {
		line = trigger + ", " + member
	}

	// The canary's object, in the main file or in an included one.
	api := w.member("api", false) + w.colon() + w.str("openai-completions", "")
	lines := []string{line}
	if pl.at[len(pl.at)-1] == "p" {
		lines = append(lines, api)
	}
	inner := w.object(lines)
	var body string
	if include {
		c.Files["part.json5"] = inner + "\n"
		body = w.object([]string{w.member("$include", false) + w.colon() + w.str("./part.json5", "")})
	} else {
		body = inner
	}
	for i := len(pl.at) - 1; i >= 0; i-- {
		members := []string{w.member(pl.at[i], false) + w.colon() + body}
		if i == 0 {
			members = append([]string{w.member("agents", false) + w.colon() + w.object([]string{
				w.member("defaults", false) + w.colon() + w.object([]string{w.member("model", false) + w.colon() + w.str("p/m-1", "")}),
			})}, members...)
		}
		if i > 0 && pl.at[i-1] == "p" {
			members = append(members, api)
		}
		body = w.object(members)
	}
	c.Files[Main] = body + "\n"
	return c
}

// writer writes JSON or JSON5 text, on one line or many.
type writer struct {
	json, pretty bool
}

func (w writer) colon() string { return ": " }

// member writes a key: quoted in JSON, bare when it can be in JSON5
// (with a \u escape in place of its first letter when escaped).
func (w writer) member(k string, escaped bool) string {
	if escaped {
		e := fmt.Sprintf(`\u%04x`, k[0]) + k[1:]
		if w.json || strings.ContainsAny(k, "-$") {
			return `"` + e + `"`
		}
		return e
	}
	if w.json || strings.ContainsAny(k, "-$") {
		return `"` + k + `"`
	}
	return k
}

// str writes a string; in JSON5 with single quotes. A multi-line string
// breaks before tail.
func (w writer) str(s, tail string) string {
	q := `"`
	if !w.json {
		q = `'`
	}
	if tail != "" {
		i := strings.Index(s, tail)
		return q + s[:i] + "\\\n" + s[i:] + q
	}
	return q + s + q
}

// secret writes the place's value holding canary in the encoding.
func (w writer) secret(pl place, canary, enc string) string {
	v := pl.value(canary)
	var s string
	switch enc {
	case "escaped value":
		s = `"` + fmt.Sprintf(`\u%04x`, v[0]) + v[1:] + `"`
	case "multi-line string":
		s = w.str(v, canary)
	default:
		s = w.str(v, "")
	}
	if !pl.array {
		return s
	}
	items := []string{s}
	if !strings.HasPrefix(v, "Authorization") {
		items = []string{w.str("--api-key", ""), s}
	}
	if w.pretty {
		return "[\n" + strings.Join(items, ",\n") + "\n]"
	}
	return "[" + strings.Join(items, ", ") + "]"
}

// object writes members as an object.
func (w writer) object(members []string) string {
	if !w.pretty {
		return "{" + strings.Join(members, ", ") + "}"
	}
	var b strings.Builder
	b.WriteString("{\n")
	for i, m := range members {
		b.WriteString("  " + strings.ReplaceAll(m, "\n", "\n  "))
		if i < len(members)-1 || !w.json {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("}")
	return b.String()
}
