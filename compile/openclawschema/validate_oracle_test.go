package openclawschema

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/internal/jsonwalk"
)

// walkBeforeOmit is the schema walk as it was before it learned to omit
// logging.redactSensitive (see Validator.walk): the document's text
// first, then, when the outline shows specView may rewrite it, the view
// taken and walked. It is the oracle of TestValidateMatchesOracle.
func (v *Validator) walkBeforeOmit(doc occkit.Document) reading {
	r := v.walkText(doc.String())
	if r.ok && !mayRewrite(r.src, r.outline) {
		return r
	}
	if view := specView(doc).String(); len(view) != len(r.src) {
		r = v.walkText(view)
	}
	return r
}

// mayRewrite reports whether specView could rewrite the document src:
// false when the outline shows neither agents.list nor
// logging.redactSensitive.
func mayRewrite(src string, out *jsonwalk.Outline) bool {
	root, ok := out.Members(len(src) - len(strings.TrimLeft(src, " \t\r\n")))
	if !ok {
		return true
	}
	for _, m := range root {
		key := map[string]string{"agents": "list", "logging": "redactSensitive"}[m.Key]
		if key == "" || src[m.Start] != '{' {
			continue
		}
		members, ok := out.Members(int(m.Start))
		if !ok {
			return true
		}
		for _, c := range members {
			if c.Key == key {
				return true
			}
		}
	}
	return false
}

// settingEdit is a setting a test may set, and the values it draws
// from.
type settingEdit = struct {
	path  occkit.Path
	value []any
}

// edited is doc with each of edits made at odds of one in n, its value
// drawn by rng.
func edited(doc occkit.Document, edits []settingEdit, rng *rand.Rand, n int) occkit.Document {
	for _, e := range edits {
		if rng.IntN(n) == 0 {
			if out, err := doc.Set(e.path, e.value[rng.IntN(len(e.value))]); err == nil {
				doc = out
			}
		}
	}
	return doc
}

// escapedKeys is doc with the keys specView reads spelled with escapes.
func escapedKeys(doc occkit.Document) occkit.Document {
	escaped := strings.NewReplacer(`"redactSensitive"`, `"redact\u0053ensitive"`, `"list"`, `"\u006cist"`,
		`"logging"`, `"\u006cogging"`, `"agents"`, `"\u0061gents"`).Replace(doc.String())
	if out, err := occkit.ParseDocument([]byte(escaped)); err == nil {
		return out
	}
	return doc
}

// validateBeforeOmit is Validate over walkBeforeOmit.
func (v *Validator) validateBeforeOmit(doc occkit.Document) error {
	return v.refusal(v.walkBeforeOmit(doc))
}

// refusal is one refusal as the tests compare it: everything but the
// wording's arguments is the contract, and the wording is compared too.
type refusal struct {
	Code       occkit.Code
	Rule, Path string
	Detail     string
	Status     int
}

func refusals(err error) []refusal {
	var out []refusal
	for _, e := range occkit.Errors(err) {
		out = append(out, refusal{e.Code, e.Rule, e.Path.String(), e.Detail, e.HTTPStatus()})
	}
	return out
}

// viewEdits are the edits TestValidateMatchesOracle draws on a generated
// document: the settings specView rewrites, in each form it treats
// differently, and a SecretRef and a tool policy, which send the
// refinements down the shape walk.
var viewEdits = []settingEdit{
	{occkit.NewPath("logging", "redactSensitive"), []any{"off", "tools", 3, "", map[string]any{},
		map[string]any{"source": "file", "provider": "p", "id": "rel"}, []any{"x"}}},
	{occkit.NewPath("logging"), []any{map[string]any{"redactSensitive": "off"}, "x",
		map[string]any{"redactSensitive": "off", "level": 7}, map[string]any{"level": "debug"}}},
	{occkit.NewPath("agents", "list"), []any{[]any{}, []any{map[string]any{"id": "ops"}}, "list", map[string]any{"id": "x"}}},
	{occkit.NewPath("agents", "entries"), []any{map[string]any{}, map[string]any{"ops": map[string]any{}}}},
	{occkit.NewPath("talk", "list"), []any{true}},
	{occkit.NewPath("gateway", "remote", "url"), []any{"ws://h\\x", `a"b`}},
	{occkit.NewPath("models", "providers", "p", "apiKey"), []any{map[string]any{"source": "exec", "provider": "p", "id": "../x"}}},
	{occkit.NewPath("tools"), []any{map[string]any{"allow": []any{"a"}, "alsoAllow": []any{"b"}}}},
}

// TestValidateMatchesOracle: Validate refuses exactly what the check did
// before the walk omitted logging.redactSensitive (validateBeforeOmit):
// the same refusals, in the same order, with the same paths, rules and
// wording, on generated documents (accepted and refused) edited where
// specView rewrites.
func TestValidateMatchesOracle(t *testing.T) {
	v, err := New()
	if err != nil {
		t.Fatal(err)
	}
	var accepted, refused, omitted int
	rapid.Check(t, func(t *rapid.T) {
		generated, err := occkit.ParseDocument(genDocument(t, v, 13))
		if err != nil {
			t.Skip(err)
		}
		rng := rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "edits"), 3))
		for range 4 {
			doc := edited(generated, viewEdits, rng, 3)
			if rng.IntN(4) == 0 {
				doc = escapedKeys(doc)
			}
			got, want := v.Validate(doc), v.validateBeforeOmit(doc)
			if d := cmp.Diff(refusals(want), refusals(got)); d != "" {
				t.Fatalf("%s: refusals (-before +now):\n%s", doc.String(), d)
			}
			if got == nil {
				accepted++
			} else {
				refused++
			}
			if w := v.walk(doc); w.src != specView(doc).String() {
				omitted++
			}
		}
	})
	t.Logf("%d accepted, %d refused, %d read omitting", accepted, refused, omitted)
	if accepted == 0 || refused == 0 || omitted == 0 {
		t.Errorf("want documents of each kind: %d accepted, %d refused, %d read omitting", accepted, refused, omitted)
	}
}
