package compile_test

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/compile"
	"github.com/occkit/occkit/internal/tiers"
)

// genEnvDoc is a configuration with random env.vars (names OpenClaw
// applies and names it refuses, values plain, blank, referencing or
// escaped) and random strings referencing variables.
func genEnvDoc(t *rapid.T) map[string]any {
	names := []string{"A", "B", "C_1", "_U", "NODE_OPTIONS", "LD_PRELOAD", "HOME", "OPENCLAW_INCLUDE_ROOTS", "HTTPS_PROXY", "lower"}
	name := rapid.SampledFrom(names)
	value := rapid.SampledFrom([]string{"v", " ", "", "${A}", "$${A}", "x${B}y", "${lower}", "$A"})
	vars := map[string]any{}
	for i := rapid.IntRange(0, 4).Draw(t, "vars"); i > 0; i-- {
		k := name.Draw(t, "var")
		if rapid.Bool().Draw(t, "padded") {
			k = " " + k
		}
		vars[k] = value.Draw(t, "value")
	}
	strs := rapid.SampledFrom([]string{"${A}", "${B}", "x-${C_1}-y", "$${A}", "${_U}", "${NODE_OPTIONS}", "${HOME}",
		"${lower}", "${A", "$${B}${B}", "${A}${D}", "${HTTPS_PROXY}", "${OPENCLAW_INCLUDE_ROOTS}", "$$${A}"})
	doc := map[string]any{"env": map[string]any{"vars": vars}}
	for i := rapid.IntRange(1, 4).Draw(t, "strings"); i > 0; i-- {
		doc[rapid.SampledFrom([]string{"a", "b", "c", "d"}).Draw(t, "key")] = []any{strs.Draw(t, "s"), map[string]any{"x": strs.Draw(t, "s")}}
	}
	return doc
}

// TestDefinedEnvOracle: the variables the real OpenClaw finds missing
// when it reads a configuration with an empty environment are exactly
// those the document references and does not define (DOC-4, #32.4).
func TestDefinedEnvOracle(t *testing.T) {
	dir, run := tiers.OpenClawDir(t, tiers.EnvVarsOracle)
	var docs []map[string]any
	rapid.Check(t, func(t *rapid.T) { docs = append(docs, genEnvDoc(t)) })
	var missing [][]string
	tiers.RunOpenClawScript(t, dir, filepath.Join("testdata", "envoracle.mjs"), docs, &missing)
	if len(missing) != len(docs) {
		t.Fatalf("oracle answered %d of %d", len(missing), len(docs))
	}
	withMissing, withDefined := 0, 0
	for i, d := range docs {
		raw, _ := json.Marshal(d)
		doc := occkit.MustParseDocument(string(raw))
		defined := compile.DefinedEnv(doc, pinnedSecrets)
		var ours []string
		for _, n := range compile.ReferencedEnv(doc, pinnedSecrets) {
			if !slices.Contains(defined, n) {
				ours = append(ours, n)
			}
		}
		want := missing[i]
		if len(want) > 0 {
			withMissing++
		}
		if len(defined) > 0 {
			withDefined++
		}
		if len(want) == 0 {
			want = nil
		}
		if d := cmp.Diff(want, ours); d != "" {
			t.Errorf("%s: missing variables (-OpenClaw +occkit):\n%s", raw, d)
		}
		run.Done(1)
	}
	t.Logf("%d configurations compared with OpenClaw: %d miss a variable, %d define one", len(docs), withMissing, withDefined)
	if withMissing == 0 || withDefined == 0 {
		t.Error("the generator made no configuration that misses or defines a variable: the comparison proved little")
	}
}
