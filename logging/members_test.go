package logging

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/occkit/occkit"
)

// TestStampedMembersMatchGet: the one scan finds what a lookup of each
// path from the root finds, whatever the root is and wherever (and however
// spelled) the members sit.
func TestStampedMembersMatchGet(t *testing.T) {
	keys := []string{`"logging"`, `"diagnostics"`, `"\u006cogging"`, `"diagnostic\u0073"`, `"agents"`, `"Logging"`, `"logging2"`, `"x"`}
	values := []string{`{"level":"info"}`, `{"otel":{"logs":false}}`, `1`, `"s"`, `[{"logging":1}]`, `{"logging":{}}`, `null`}
	rapid.Check(t, func(t *rapid.T) {
		var src string
		switch rapid.IntRange(0, 4).Draw(t, "root") {
		case 0:
			src = `[` + rapid.SampledFrom(values).Draw(t, "element") + `]`
		case 1:
			src = rapid.SampledFrom(values).Draw(t, "scalar")
		default:
			src = `{`
			for i, k := range rapid.SliceOfNDistinct(rapid.SampledFrom(keys), 0, 5, func(k string) string {
				v, _ := occkit.ParseDocument([]byte(k))
				return v.Root().String()
			}).Draw(t, "keys") {
				if i > 0 {
					src += ","
				}
				src += k + ":" + rapid.SampledFrom(values).Draw(t, "value")
			}
			src += `}`
		}
		doc, err := occkit.ParseDocument([]byte(src))
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		logging, diagnostics := stampedMembers(doc)
		if got, want := logging.Raw(), doc.Get(pathLogging).Raw(); got != want {
			t.Fatalf("%s: logging %q, want %q", src, got, want)
		}
		if got, want := diagnostics.Raw(), doc.Get(pathDiagnostics).Raw(); got != want {
			t.Fatalf("%s: diagnostics %q, want %q", src, got, want)
		}
	})
}
