package selection

import (
	"net/url"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// parsedURL is sanitizeURL as it was before plainURL: every base URL
// parsed by url.Parse and written back by String. It is the oracle of
// the plain URLs sanitizeURL returns unparsed.
func parsedURL(raw string) (string, bool) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return "", false
	}
	u, err := url.Parse(raw)
	if err != nil {
		return "", true
	}
	stripped := u.User != nil || u.RawQuery != "" || u.ForceQuery || u.Fragment != "" || strings.Contains(raw, "#")
	u.User, u.RawQuery, u.ForceQuery, u.Fragment, u.RawFragment = nil, "", false, "", ""
	return u.String(), stripped
}

// parsedHostPath is httpsHostPath as it was before plainURL: every URL
// parsed by url.Parse.
func parsedHostPath(raw string) (host, path string, ok bool) {
	u, err := url.Parse(raw)
	if err != nil || !strings.EqualFold(u.Scheme, "https") || u.Opaque != "" {
		return "", "", false
	}
	if u.User != nil || u.RawQuery != "" || u.ForceQuery || u.Fragment != "" || strings.Contains(raw, "#") {
		return "", "", false
	}
	if p := u.Port(); p != "" && p != "443" {
		return "", "", false
	}
	return strings.ToLower(u.Hostname()), u.EscapedPath(), true
}

// sameAsParsed fails t unless sanitizeURL(raw) and httpsHostPath(raw) are
// what url.Parse makes of raw, and a URL plainURL accepts is one
// url.Parse writes back unchanged with nothing stripped.
func sameAsParsed(t interface{ Fatalf(string, ...any) }, raw string) {
	got, stripped := sanitizeURL(raw)
	want, wantStripped := parsedURL(raw)
	if got != want || stripped != wantStripped {
		t.Fatalf("sanitizeURL(%q) = %q, %v; url.Parse reads %q, %v", raw, got, stripped, want, wantStripped)
	}
	host, path, ok := httpsHostPath(raw)
	wantHost, wantPath, wantOK := parsedHostPath(raw)
	if host != wantHost || path != wantPath || ok != wantOK {
		t.Fatalf("httpsHostPath(%q) = %q, %q, %v; url.Parse reads %q, %q, %v", raw, host, path, ok, wantHost, wantPath, wantOK)
	}
	if plainURL(raw) && (want != raw || wantStripped) {
		t.Fatalf("plainURL(%q) but url.Parse reads %q, stripped %v", raw, want, wantStripped)
	}
}

// urlParts are pieces of URLs, plain and not: schemes, hosts, ports,
// paths and what makes a URL other than plain.
var urlParts = []string{"https", "http", "HTTPS", "h2c", "a+b", "ws", "1x", "", "://", ":", "//", "/", "api.openai.com",
	"chatgpt.com", "localhost", "127.0.0.1", "[::1]", "EXAMPLE.com", "a-b.c", "a_b", "-", ".", "..", ":443", ":8000",
	":", ":x", ":99999", "/v1", "/backend-api/codex", "/v1/", "~u", "%20", "%zz", "?", "?q=1", "#", "#f", "@", "u:p@",
	" ", "\t", "é", "\x00", "\x7f", "+", "!", "$", "'", "(", ";", "=", ",", "*", "[", "]", "\\", "\""}

// TestPlainURLParses: on URLs drawn from plain and other parts,
// sanitizeURL reads as url.Parse, and plainURL accepts only URLs that
// url.Parse writes back unchanged.
func TestPlainURLParses(t *testing.T) {
	for _, raw := range []string{"https://api.anthropic.com", "https://api.openai.com/v1", "http://127.0.0.1:8000/v1",
		"https://chatgpt.com/backend-api/codex/", "https://h:", "https://h:0443", "https://h//x", "https://h/./../a",
		"https://H.Example.COM/A_b~c", "x://h", "https://-", "https://.", "https://h:1:2", "https://API.OpenAI.com:443/v1/",
		"https://api.openai.com:443", "https://api.openai.com:8443/v1", "https://api.openai.com:/v1", "https://api.openai.com/V1"} {
		sameAsParsed(t, raw)
	}
	rapid.Check(t, func(t *rapid.T) {
		var b strings.Builder
		for n := rapid.IntRange(1, 8).Draw(t, "n"); n > 0; n-- {
			b.WriteString(rapid.SampledFrom(urlParts).Draw(t, "part"))
		}
		sameAsParsed(t, b.String())
	})
	rapid.Check(t, func(t *rapid.T) {
		sameAsParsed(t, rapid.SampledFrom([]string{"https", "http", "x", "HTTPS"}).Draw(t, "scheme")+"://"+
			rapid.StringMatching(`[a-zA-Z0-9.\-_:\[\]@%]{0,12}`).Draw(t, "host")+
			rapid.StringMatching(`(/[a-zA-Z0-9.\-_~%:@!$&'()*+,;=]{0,6}){0,3}`).Draw(t, "path"))
	})
}

// FuzzPlainURLParses: on any base URL, sanitizeURL reads as url.Parse.
func FuzzPlainURLParses(f *testing.F) {
	for _, s := range []string{"https://api.openai.com/v1", "http://h:80/a~b", "https://u@h/", "h://h?x#y"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) { sameAsParsed(t, raw) })
}
