package openclawschema

import (
	"bytes"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"
	"pgregory.net/rapid"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/compile/internal/schemacheck"
	"github.com/occkit/occkit/internal/jsonwalk"
)

// docSchema is the walker's form of occkit's own DOC-5 schema (package
// compile's fast check), the schema admission walks beside OpenClaw's.
func docSchema(t testing.TB) *jsonwalk.Node {
	const id = "https://occkit.dev/schema/openclaw-config.schema.json"
	raw, err := os.ReadFile("../schema/openclaw-config.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2020
	if err := c.AddResource(id, bytes.NewReader(raw)); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(id)
	if err != nil {
		t.Fatal(err)
	}
	_, vacuous, err := schemacheck.Project(s)
	if err != nil {
		t.Fatal(err)
	}
	checker := schemacheck.NewChecker(s, vacuous)
	if checker == nil {
		t.Fatal("the DOC-5 schema has no fast check")
	}
	return checker.Node()
}

// docEdits are settings the DOC-5 schema types, each with a value it
// accepts and values it refuses (where OpenClaw's schema may agree or
// not).
var docEdits = []settingEdit{
	{occkit.NewPath("agents", "defaults", "maxConcurrent"), []any{2, 0, 1.5, "two"}},
	{occkit.NewPath("models", "providers", "p", "api"), []any{"openai-completions", 3}},
	{occkit.NewPath("models", "providers", "p", "baseUrl"), []any{"https://p.example", false}},
	{occkit.NewPath("agents", "defaults", "models", "p/m", "alias"), []any{"m", []any{}}},
}

// pluginEdit is one DOC-5 refuses where OpenClaw, which leaves a
// plugin's configuration to the plugin, accepts.
var pluginEdit = []settingEdit{{occkit.NewPath("plugins", "entries", "codex", "config", "appServer", "transport"), []any{"websocket", 3}}}

// TestValidBesideIsBoth: ValidBeside accepts exactly the documents that
// v accepts and the other schema's own walk (read as jsonwalk.Exact)
// accepts, for the DOC-5 schema, OpenClaw's own schema read exactly, and
// none; on generated documents (accepted and refused by each), edited
// where specView rewrites, with keys spelled with escapes, as written
// and in canonical form (what admission checks).
func TestValidBesideIsBoth(t *testing.T) {
	v, err := New()
	if err != nil {
		t.Fatal(err)
	}
	others := map[string]*jsonwalk.Node{"DOC-5": docSchema(t), "OpenClaw": v.root.w, "none": nil}
	verdicts := map[string]map[[2]bool]int{}
	check := func(t *rapid.T) {
		generated, err := occkit.ParseDocument(genDocument(t, v, 29))
		if err != nil {
			t.Skip(err)
		}
		rng := rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "edits"), 5))
		doc := edited(edited(edited(generated, viewEdits, rng, 4), docEdits, rng, 6), pluginEdit, rng, 4)
		if rng.IntN(4) == 0 {
			doc = escapedKeys(doc)
		}
		for _, d := range []occkit.Document{doc, occkit.CanonicalDocument(doc)} {
			for name, other := range others {
				walks, valid := jsonwalk.Valid(jsonwalk.Exact{}, other, d.String()), v.Valid(d)
				if got := v.ValidBeside(d, other); got != (walks && valid) {
					t.Fatalf("%s beside %s: ValidBeside %v, the walk %v, Valid %v", d, name, got, walks, valid)
				}
				// Valid and ValidBeside read in a scratch;
				// Validate, in rooms of its own.
				if err := v.Validate(d); valid != (err == nil) {
					t.Fatalf("%s: Valid %v, Validate %v", d, valid, err)
				}
				if verdicts[name] == nil {
					verdicts[name] = map[[2]bool]int{}
				}
				verdicts[name][[2]bool{walks, valid}]++
			}
		}
	}
	covered := func() bool {
		for _, name := range []string{"DOC-5", "OpenClaw"} {
			for _, both := range [][2]bool{{true, true}, {true, false}, {false, true}} {
				if verdicts[name][both] == 0 {
					return false
				}
			}
		}
		return true
	}
	// Rounds of draws (at most ten) until each verdict has come: a
	// property of the generator, not of one seed.
	for round := 0; round < 10 && (round < 3 || !covered()); round++ {
		rapid.Check(t, check)
	}
	t.Logf("verdicts (walk, Valid): %v", verdicts)
	if !covered() {
		t.Error("want documents both accept and documents each refuses alone")
	}
}
