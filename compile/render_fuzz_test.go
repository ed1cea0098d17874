package compile_test

import (
	"strings"
	"testing"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/compile"
)

// FuzzStripInference: any document strips without a panic, stripping is
// idempotent, and no URL in the providers keeps user info or a query.
func FuzzStripInference(f *testing.F) {
	for _, s := range []string{
		`{"models":{"providers":{"p":{"apiKey":"k","baseUrl":"https://u:k@h/v1?key=k","models":[{"id":"m","headers":{"A":"k"}}]}}}}`,
		`{"models":{"providers":{"p":{"baseUrl":"svc:k@h/v1"}}},"env":{"vars":{"P_API_KEY":"k"}}}`,
		`{"models":{"providers":"x"},"env":"y"}`,
		`{"agents":{"defaults":{"models":{"p/m":{"params":{"token":"k"}}}}}}`,
		`{"models":{"providers":{"p":{"localService":{"command":"/s","args":["--key","${K}"],"env":{"A":"k"}}}}},"env":{"vars":{"K":"k"}}}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		doc, err := occkit.ParseDocument([]byte(s))
		if err != nil {
			return
		}
		once, err := compile.StripInference(doc)
		if err != nil {
			return
		}
		twice, err := compile.StripInference(once)
		if err != nil || !twice.Equal(once) {
			t.Fatalf("not idempotent: %s -> %s -> %s (%v)", s, once, twice, err)
		}
		if u, ok := keptURL(once.Get(occkit.NewPath("models", "providers"))); ok {
			t.Fatalf("a provider URL kept user info or a query: %q in %s", u, once)
		}
	})
}

// keptURL finds a URL-like string value (one holding "://") at any depth
// of v that still holds user info or a query. A key is no URL, and a
// provider's other strings may hold '@' or '?' (the fuzzer once put "@?"
// beside a key "://", which the first form of this check, on the whole
// provider's text, took for a URL).
func keptURL(v occkit.Value) (string, bool) {
	if v.IsString() {
		s := v.String()
		return s, strings.Contains(s, "://") && strings.ContainsAny(s, "@?")
	}
	var u string
	kept := false
	v.ForEach(func(_, e occkit.Value) bool {
		u, kept = keptURL(e)
		return !kept
	})
	return u, kept
}

func FuzzOrigin(f *testing.F) {
	for _, s := range []string{"https://u:p@h:1/x?y#z", "svc:KEY@host/v1", "h", "://", "a:b@c@d/e"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		o := compile.Origin(s)
		if compile.Origin(o) != o {
			t.Fatalf("Origin(%q) = %q is not stable", s, o)
		}
		_, host, _ := strings.Cut(o, "://")
		if strings.ContainsAny(o, "?#@") || strings.Contains(host, "/") {
			t.Fatalf("Origin(%q) = %q keeps a path, query or fragment", s, o)
		}
	})
}
