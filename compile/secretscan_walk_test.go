package compile

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tidwall/gjson"
	"pgregory.net/rapid"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/internal/docjson"
)

// referenceProviderKeyNames is providerKeyNames as checkLiterals read it
// through gjson: a ForEach of models.providers.
func referenceProviderKeyNames(doc occkit.Document) map[string]bool {
	out := map[string]bool{}
	docjson.Get(doc, occkit.NewPath("models", "providers")).ForEach(func(k, _ gjson.Result) bool {
		out[envKeyName(k.String())] = true
		return true
	})
	return out
}

func oneProviderKeyNames(doc occkit.Document) map[string]bool {
	out := map[string]bool{}
	providerKeyNames(doc, out)
	return out
}

// genModelsJSON draws a document whose models section takes every shape
// the provider keys are read from: providers an object (keys escaped now
// and then), an array, empty or not, a scalar, or absent, beside other
// members, and models itself no object.
func genModelsJSON(t *rapid.T) string {
	providers := rapid.SampledFrom([]string{
		`{}`, `{"openai":{"models":[{"id":"a"}]},"a\u006ethropic":{},"my-llm":null," x ":[1]}`, `{"q\"x":{"k":"}"}}`,
		`[]`, `[{}]`, `["openai"]`, `null`, `"openai"`, `0`, `false`,
	}).Draw(t, "providers")
	members := []string{`"providers":` + providers, `"mode":"merge"`, `"pro\u0076iders2":{"z":1}`}
	perm := rapid.Permutation(members).Draw(t, "order")
	n := rapid.IntRange(0, len(perm)).Draw(t, "members")
	models := "{" + strings.Join(perm[:n], ",") + "}"
	if rapid.IntRange(0, 5).Draw(t, "odd-models") == 0 {
		models = rapid.SampledFrom([]string{`[]`, `["providers"]`, `"providers"`, `null`}).Draw(t, "models")
	}
	if rapid.IntRange(0, 5).Draw(t, "escaped-providers") == 0 {
		models = strings.Replace(models, `"providers":`, `"provid\u0065rs":`, 1)
	}
	return `{"agents":{"defaults":{}},"models":` + models + `,"env":{"vars":{"OPENAI_API_KEY":"x"}}}`
}

// TestProviderKeyNamesMatchesGJSON: the provider keys read in one pass
// are those a gjson ForEach reads, in every shape of models.providers.
func TestProviderKeyNamesMatchesGJSON(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		src := genModelsJSON(t)
		doc, err := occkit.ParseDocument([]byte(src))
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		if d := cmp.Diff(referenceProviderKeyNames(doc), oneProviderKeyNames(doc)); d != "" {
			t.Fatalf("%s: provider keys differ (-gjson +one pass):\n%s", src, d)
		}
	})
}

// FuzzProviderKeyNames: on any document, the provider keys read in one
// pass are those a gjson ForEach reads.
func FuzzProviderKeyNames(f *testing.F) {
	for _, s := range []string{`{}`, `{"models":{"providers":{"a":1,"b\u0041":{}}}}`, `{"models":{"providers":[1,{}]}}`,
		`{"models":{"providers":"x"}}`, `{"models":[{"providers":{}}]}`, `{"models":{"x":{"providers":{"a":1}},"providers":null}}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		doc, err := occkit.ParseDocument([]byte(s))
		if err != nil {
			return
		}
		if d := cmp.Diff(referenceProviderKeyNames(doc), oneProviderKeyNames(doc)); d != "" {
			t.Fatalf("%s: provider keys differ (-gjson +one pass):\n%s", s, d)
		}
	})
}
