package logging

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/occkit/occkit"
)

// TestStampedMembersMatchGet: the lookups from the root-member index find
// what one scan of the root found, whatever the root is and wherever (and however
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
		checkStampedMembers(t, doc)
		checkStampedMembers(t, genConfig(t))
	})
}

// stampedMembersScan is how stampedMembers read the root before it used
// the root-member index, kept as the oracle: one ForEach over the root
// that stops once it has met both names.
func stampedMembersScan(doc occkit.Document) (logging, diagnostics occkit.Value) {
	found := 0
	doc.Root().ForEach(func(k, v occkit.Value) bool {
		switch k.String() {
		case "logging":
			logging = v
			found++
		case "diagnostics":
			diagnostics = v
			found++
		}
		return found < 2
	})
	return logging, diagnostics
}

// checkStampedMembers fails when stampedMembers and the scan disagree on
// doc.
func checkStampedMembers(t interface{ Fatalf(string, ...any) }, doc occkit.Document) {
	logging, diagnostics := stampedMembers(doc)
	wantLogging, wantDiagnostics := stampedMembersScan(doc)
	for _, c := range []struct {
		name      string
		got, want occkit.Value
	}{{"logging", logging, wantLogging}, {"diagnostics", diagnostics, wantDiagnostics}} {
		if c.got.Raw() != c.want.Raw() || c.got.Kind() != c.want.Kind() || c.got.Exists() != c.want.Exists() || c.got.String() != c.want.String() {
			t.Fatalf("%s: %s %q, the scan finds %q", doc, c.name, c.got.Raw(), c.want.Raw())
		}
	}
}

// FuzzStampedMembers compares stampedMembers with the scan on any
// document.
func FuzzStampedMembers(f *testing.F) {
	f.Add(`{"agents":{},"diagnostics":{"otel":1},"\u006cogging":{"level":"info"}}`)
	f.Add(`[{"logging":1}]`)
	f.Fuzz(func(t *testing.T, src string) {
		if doc, err := occkit.ParseDocument([]byte(src)); err == nil {
			checkStampedMembers(t, doc)
		}
	})
}
