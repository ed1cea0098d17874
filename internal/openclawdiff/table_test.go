package openclawdiff

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/occkit/occkit/compile/openclawschema"
)

var update = flag.Bool("update", false, "rewrite DIVERGENCES.md")

// TestDivergenceDoc keeps DIVERGENCES.md equal to the rendered table.
func TestDivergenceDoc(t *testing.T) {
	want := RenderTable(Table) + RenderRefinements(openclawschema.UnmirroredRefinements())
	if *update {
		if err := os.WriteFile("DIVERGENCES.md", []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile("DIVERGENCES.md")
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("DIVERGENCES.md is stale: run go test ./internal/openclawdiff -run TestDivergenceDoc -update")
	}
}

func TestTableRows(t *testing.T) {
	seen := map[string]bool{}
	for _, d := range Table {
		k := string(d.Fn) + "/" + d.Class
		if seen[k] {
			t.Errorf("duplicate row %s", k)
		}
		seen[k] = true
		if d.Rule == "" || d.Reason == "" || d.Match == nil {
			t.Errorf("row %s: rule, reason and predicate are required", k)
		}
	}
}

// TestPredicates checks each row on an input its reason explains and on
// counterexamples: the same disagreement where the reason does not
// apply, or where the answers differ by more than the reason says.
func TestPredicates(t *testing.T) {
	ref := func(p, id, prof string) RefOut { return RefOut{Valid: true, Provider: p, ID: id, Profile: prof} }
	vllm := SelectInput{PolicyInput: PolicyInput{Provider: "vllm", ModelID: "m"}}
	tie := vllm
	tie.Harnesses = []HarnessSpec{{ID: "my-h", Priority: 10, SupportsProviders: []string{"*"}}, {ID: "my_h", Priority: 10, SupportsProviders: []string{"*"}}}
	noClaim := vllm
	noClaim.Harnesses = []HarnessSpec{{ID: "my-h", Priority: 10, SupportsProviders: []string{}}, {ID: "my_h", Priority: 10, SupportsProviders: []string{}}}
	unregistered := vllm
	unregistered.Override = "zeta"
	compatible := vllm
	compatible.Override = "zeta"
	compatible.Harnesses = []HarnessSpec{{ID: "zeta", SupportsProviders: []string{"vllm"}}}
	locked := vllm
	locked.LockedOwner = "codex"
	lockedAuto := vllm
	lockedAuto.LockedOwner = "auto"
	occIgnored := SelectOut{Runtime: "openclaw", Source: "implicit", OverrideIgnored: true}
	noOverride := func(o SelectOut) SelectAnswer {
		return SelectAnswer{R: SelectOut{Err: true}, Variants: map[string]SelectOut{VarNoOverride: o}}
	}
	tests := []struct {
		name string
		c    Case
		want string
	}{
		{"trailing slash", Case{Fn: FnRefStrict, Occ: RefOut{}, Claw: RefAnswer{Strict: ref("p", "m/", "")}}, "trailing-slash-invalid"},
		{"slash inside is no class", Case{Fn: FnRefStrict, Occ: RefOut{}, Claw: RefAnswer{Strict: ref("p", "m", "")}}, ""},
		{"tag run", Case{Fn: FnRefStrict, Occ: ref("vllm", "m@q8_0@8bit", ""), Claw: RefAnswer{Strict: ref("vllm", "m@q8_0", "8bit")}}, "tag-run"},
		{"tag run before a profile", Case{Fn: FnRefLenient, Occ: ref("vllm", "m@q4@20251001", "work"), Claw: RefAnswer{Lenient: ref("vllm", "m@q4", "20251001@work")}}, "tag-run"},
		{"tag run, other provider", Case{Fn: FnRefStrict, Occ: ref("vllm", "m@q8_0@8bit", ""), Claw: RefAnswer{Strict: ref("ollama", "m@q8_0", "8bit")}}, ""},
		{"no tag skipped first", Case{Fn: FnRefStrict, Occ: ref("vllm", "m@work@8bit", ""), Claw: RefAnswer{Strict: ref("vllm", "m@work", "8bit")}}, ""},
		{"a profile is no tag", Case{Fn: FnRefStrict, Occ: ref("vllm", "m@q8_0@team", ""), Claw: RefAnswer{Strict: ref("vllm", "m@q8_0", "team")}}, ""},
		{"normalization", Case{Fn: FnRefLenient, Occ: ref("anthropic", "opus", ""),
			Claw: RefAnswer{Lenient: ref("anthropic", "claude-opus-5", ""), OccNorm: ref("anthropic", "claude-opus-5", "")}}, "model-id-normalization"},
		{"normalization, providers differ", Case{Fn: FnRefLenient, Occ: ref("openai", "opus", ""),
			Claw: RefAnswer{Lenient: ref("anthropic", "claude-opus-5", ""), OccNorm: ref("anthropic", "claude-opus-5", "")}}, ""},
		{"openrouter alias", Case{Fn: FnRefLenient, Input: RefInput{Raw: "openrouter:auto", DefaultProvider: "openai"}, Occ: ref("openai", "openrouter:auto", ""),
			Claw: RefAnswer{Lenient: ref("openrouter", "openrouter/auto", "")}}, "openrouter-auto-alias"},
		{"openrouter alias, wrong default provider", Case{Fn: FnRefLenient, Input: RefInput{Raw: "openrouter:auto", DefaultProvider: "anthropic"}, Occ: ref("openai", "openrouter:auto", ""),
			Claw: RefAnswer{Lenient: ref("openrouter", "openrouter/auto", "")}}, ""},
		{"policy order", Case{Fn: FnPolicy, Occ: PolicyOut{Runtime: "b", Source: "model"},
			Claw: PolicyAnswer{R: PolicyOut{Runtime: "a", Source: "model"}, Variants: map[string]PolicyOut{VarRanked: {Runtime: "b", Source: "model"}}}}, "key-order"},
		{"policy ranked order still differs", Case{Fn: FnPolicy, Occ: PolicyOut{Runtime: "b", Source: "model"},
			Claw: PolicyAnswer{R: PolicyOut{Runtime: "a", Source: "model"}, Variants: map[string]PolicyOut{VarRanked: {Runtime: "a", Source: "model"}}}}, ""},
		{"priority tie", Case{Fn: FnSelect, Input: tie, Occ: SelectOut{Runtime: "my-h", Source: "implicit"},
			Claw: SelectAnswer{R: SelectOut{Runtime: "my_h", Source: "implicit"}, Reason: "auto_plugin"}}, "priority-tie-byte-order"},
		{"tie of harnesses that do not claim", Case{Fn: FnSelect, Input: noClaim, Occ: SelectOut{Runtime: "my-h", Source: "implicit"},
			Claw: SelectAnswer{R: SelectOut{Runtime: "my_h", Source: "implicit"}, Reason: "auto_plugin"}}, ""},
		{"override ignored", Case{Fn: FnSelect, Input: unregistered, Occ: occIgnored, Claw: noOverride(SelectOut{Runtime: "openclaw", Source: "implicit"})}, "incompatible-override-ignored"},
		{"override ignored, another answer", Case{Fn: FnSelect, Input: unregistered, Occ: occIgnored, Claw: noOverride(SelectOut{Runtime: "my-h", Source: "implicit"})}, ""},
		{"override ignored and key order", Case{Fn: FnSelect, Input: unregistered, Occ: occIgnored,
			Claw: SelectAnswer{R: SelectOut{Err: true}, Variants: map[string]SelectOut{VarNoOverride: {Err: true}, VarRanked: {Err: true},
				VarRanked + "+" + VarNoOverride: {Runtime: "openclaw", Source: "implicit"}}}}, "incompatible-override-ignored"},
		{"key order alone, where OpenClaw in ranked order answers as occkit", Case{Fn: FnSelect, Input: unregistered, Occ: occIgnored,
			Claw: SelectAnswer{R: SelectOut{Err: true}, Variants: map[string]SelectOut{VarRanked: {Runtime: "openclaw", Source: "implicit"}}}}, "key-order"},
		{"combined readings of a compatible override are no class", Case{Fn: FnSelect, Input: compatible, Occ: occIgnored,
			Claw: SelectAnswer{R: SelectOut{Err: true}, Variants: map[string]SelectOut{VarRanked + "+" + VarNoOverride: {Runtime: "openclaw", Source: "implicit"}}}}, ""},
		{"compatible override is no class", Case{Fn: FnSelect, Input: compatible, Occ: occIgnored, Claw: noOverride(SelectOut{Runtime: "openclaw", Source: "implicit"})}, ""},
		{"session source", Case{Fn: FnSelect, Input: locked, Occ: SelectOut{Runtime: "codex", Source: "session"}, Claw: SelectAnswer{R: SelectOut{Runtime: "codex", Source: "model"}}}, "session-source"},
		{"session source, runtimes differ", Case{Fn: FnSelect, Input: locked, Occ: SelectOut{Runtime: "codex", Source: "session"}, Claw: SelectAnswer{R: SelectOut{Runtime: "openclaw", Source: "model"}}}, ""},
		{"automatic locked owner decides nothing", Case{Fn: FnSelect, Input: lockedAuto, Occ: SelectOut{Runtime: "codex", Source: "session"}, Claw: SelectAnswer{R: SelectOut{Runtime: "codex", Source: "model"}}}, ""},
		{"controls filtered", Case{Fn: FnSelect, Input: vllm, Occ: SelectOut{Runtime: "codex", Source: "implicit"},
			Claw: SelectAnswer{R: SelectOut{Runtime: "openclaw", Source: "implicit"}, Variants: map[string]SelectOut{VarControlsDropped: {Runtime: "codex", Source: "implicit"}}}}, "runtime-controls-filtered"},
		{"controls dropped change nothing", Case{Fn: FnSelect, Input: vllm, Occ: SelectOut{Runtime: "codex", Source: "implicit"},
			Claw: SelectAnswer{R: SelectOut{Runtime: "openclaw", Source: "implicit"}, Variants: map[string]SelectOut{VarControlsDropped: {Runtime: "openclaw", Source: "implicit"}}}}, ""},
		{"other load error is no class", Case{Fn: FnLoad, Input: LoadInput{}, Occ: LoadOut{Err: true}, Claw: LoadAnswer{LoadOut: LoadOut{JSON: "{}"}}}, ""},
		{"duplicate key", Case{Fn: FnLoad, Input: LoadInput{Duplicate: true}, Occ: LoadOut{Err: true, Duplicate: true}, Claw: LoadAnswer{LoadOut: LoadOut{JSON: "{}"}}}, "duplicate-key-refused"},
		{"duplicate refusal without a duplicate", Case{Fn: FnLoad, Input: LoadInput{}, Occ: LoadOut{Err: true, Duplicate: true}, Claw: LoadAnswer{LoadOut: LoadOut{JSON: "{}"}}}, ""},
		{"doctor catalog", Case{Fn: FnDoctor, Occ: DoctorOut{Proj: "x"}, Claw: DoctorAnswer{DoctorOut: DoctorOut{Proj: "y"}, Explained: []string{"catalog"}}}, "catalog-retirement"},
		{"doctor unexplained", Case{Fn: FnDoctor, Occ: DoctorOut{Proj: "x"}, Claw: DoctorAnswer{DoctorOut: DoctorOut{Proj: "y"}}}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := ""
			if d := Classify(Table, tc.c); d != nil {
				got = d.Class
			}
			if got != tc.want {
				t.Errorf("class %q, want %q", got, tc.want)
			}
		})
	}
}

// TestLoadPredicates checks the load rows on real trees: occkit's load
// is recomputed as the row's reason reads the input.
func TestLoadPredicates(t *testing.T) {
	tests := []struct {
		name, main string
		claw       LoadAnswer
		want       string
	}{
		{"missing variable", `{"a":"${X}","b":1}`, LoadAnswer{LoadOut: LoadOut{JSON: `{"a":"${X}","b":1}`}, Missing: []string{"X"}}, "missing-variable-is-an-error"},
		{"missing variable, another one reported", `{"a":"${X}","b":1}`, LoadAnswer{LoadOut: LoadOut{JSON: `{"a":"${X}","b":1}`}, Missing: []string{"Y"}}, ""},
		{"missing variable, the rest differs", `{"a":"${X}","b":1}`, LoadAnswer{LoadOut: LoadOut{JSON: `{"a":"${X}","b":2}`}, Missing: []string{"X"}}, ""},
		{"proto kept", `{"__proto__":{"x":1},"a":1}`, LoadAnswer{LoadOut: LoadOut{JSON: `{"a":1}`}}, "proto-key-kept"},
		{"proto kept, more differs", `{"__proto__":{"x":1},"a":1}`, LoadAnswer{LoadOut: LoadOut{JSON: `{"a":2}`}}, ""},
		{"a missing variable inside proto OpenClaw drops", `{"__proto__":{"x":"${M}"},"a":1}`, LoadAnswer{LoadOut: LoadOut{JSON: `{"a":1}`}}, "missing-variable-is-an-error"},
		{"an empty variable is missing", `{"a":"${EMPTY}"}`, LoadAnswer{LoadOut: LoadOut{JSON: `{"a":"${EMPTY}"}`}, Missing: []string{"EMPTY"}}, "missing-variable-is-an-error"},
		// OpenClaw 2026.9.6 fills ZAI_API_KEY from the legacy spelling,
		// never the other way: a missing Z_AI_API_KEY stays literal and
		// fills nothing, while env.vars sets ZAI_API_KEY.
		{"a missing Z_AI_API_KEY beside a defined ZAI_API_KEY", `{"t":"x-${Z_AI_API_KEY}","g":"${ZAI_API_KEY}","env":{"vars":{"ZAI_API_KEY":"v1"}}}`, LoadAnswer{LoadOut: LoadOut{JSON: `{"env":{"vars":{"ZAI_API_KEY":"v1"}},"g":"v1","t":"x-${Z_AI_API_KEY}"}`}, Missing: []string{"Z_AI_API_KEY"}}, "missing-variable-is-an-error"},
		{"a missing Z_AI_API_KEY, the pair differs", `{"t":"x-${Z_AI_API_KEY}","g":"${ZAI_API_KEY}","env":{"vars":{"ZAI_API_KEY":"v1"}}}`, LoadAnswer{LoadOut: LoadOut{JSON: `{"env":{"vars":{"ZAI_API_KEY":"v1"}},"g":"${Z_AI_API_KEY}","t":"x-${Z_AI_API_KEY}"}`}, Missing: []string{"Z_AI_API_KEY"}}, ""},
		{"a missing variable outside proto OpenClaw did not report", `{"__proto__":{},"a":"${M}"}`, LoadAnswer{LoadOut: LoadOut{JSON: `{"a":"${M}"}`}}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			in := LoadInput{Dir: dir, Main: dir + "/main.json", Env: map[string]string{"EMPTY": ""}}
			if err := os.WriteFile(in.Main, []byte(tc.main), 0o644); err != nil {
				t.Fatal(err)
			}
			_, occ := LoadItem(in)
			got := ""
			if d := Classify(Table, Case{Fn: FnLoad, Input: in, Occ: occ, Claw: tc.claw}); d != nil {
				got = d.Class
			}
			if got != tc.want {
				t.Errorf("class %q, want %q (occkit %+v)", got, tc.want, occ)
			}
		})
	}
}

// TestSelectExplained checks that two reasons explain a difference only
// together, and only where each applies.
func TestSelectExplained(t *testing.T) {
	tie := SelectInput{PolicyInput: PolicyInput{Provider: "vllm", ModelID: "m"}, Override: "zeta",
		Harnesses: []HarnessSpec{{ID: "my-h", Priority: 10, SupportsProviders: []string{"*"}}, {ID: "my_h", Priority: 10, SupportsProviders: []string{"*"}}}}
	occ := SelectOut{Runtime: "my-h", Source: "implicit", OverrideIgnored: true}
	claw := func(v SelectOut, reason string) SelectAnswer {
		return SelectAnswer{R: SelectOut{Err: true}, Variants: map[string]SelectOut{VarNoOverride: v}, VariantReasons: map[string]string{VarNoOverride: reason}}
	}
	tests := []struct {
		name string
		a    SelectAnswer
		want []string
	}{
		{"ignored override, then a priority tie", claw(SelectOut{Runtime: "my_h", Source: "implicit"}, "auto_plugin"), []string{VarNoOverride, RelTie}},
		{"a pick that is no top claimant", claw(SelectOut{Runtime: "zeta", Source: "implicit"}, "auto_plugin"), nil},
		{"a tie OpenClaw did not reach by auto selection", claw(SelectOut{Runtime: "my_h", Source: "implicit"}, "forced_plugin"), nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := SelectExplained(Case{Fn: FnSelect, Input: tie, Occ: occ, Claw: tc.a})
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("explained (-want +got):\n%s", diff)
			}
		})
	}
}

// TestDoctorExplanation checks that a doctor difference is explained only
// where doctor, asked again on the input as occkit reads it (a variant),
// gives occkit's answer.
func TestDoctorExplanation(t *testing.T) {
	codex := map[string]any{"agentRuntime": map[string]any{"id": "codex"}}
	cfg := func(keys map[string]any) map[string]any {
		return map[string]any{"agents": map[string]any{"defaults": map[string]any{"models": keys}}}
	}
	answer := func(full map[string]any, variants map[string]map[string]any) json.RawMessage {
		vs := map[string]any{}
		for k, v := range variants {
			vs[k] = map[string]any{"ok": true, "config": v}
		}
		b, _ := json.Marshal(map[string]any{"ok": true, "config": full, "variants": vs})
		return b
	}
	renamed := cfg(map[string]any{"openai/gpt-5.5": codex})
	authored := cfg(map[string]any{"openai/gpt-5": codex})
	tests := []struct {
		name     string
		claw     map[string]any
		variants map[string]map[string]any
		want     []string
	}{
		{"retired id renamed", renamed, map[string]map[string]any{VarSyntaxOnly: authored, VarCanonicalFirst: renamed, VarCanonicalFirstSyntax: authored}, []string{"catalog"}},
		{"the syntax-only variant still differs", renamed, map[string]map[string]any{VarSyntaxOnly: renamed, VarCanonicalFirst: renamed, VarCanonicalFirstSyntax: renamed}, nil},
		{"runtime differs beyond the rename", renamed, map[string]map[string]any{VarSyntaxOnly: cfg(map[string]any{"openai/gpt-5": nil}),
			VarCanonicalFirst: renamed, VarCanonicalFirstSyntax: cfg(map[string]any{"openai/gpt-5": nil})}, nil},
		{"key order", cfg(map[string]any{"openai/gpt-5": nil}), map[string]map[string]any{VarSyntaxOnly: cfg(map[string]any{"openai/gpt-5": nil}),
			VarCanonicalFirst: authored, VarCanonicalFirstSyntax: authored}, []string{"key-order"}},
		{"no variants asked", renamed, nil, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := DoctorInput{Config: Obj{{"agents", Obj{{"defaults", Obj{{"models", Obj{{"openai/gpt-5", Obj{{"agentRuntime", Obj{{"id", "codex"}}}}}}}}}}}}}
			_, occ, err := DoctorItem(in)
			if err != nil {
				t.Fatal(err)
			}
			raw := answer(tc.claw, tc.variants)
			if tc.variants == nil {
				raw, _ = json.Marshal(map[string]any{"ok": true, "config": tc.claw})
			}
			a, err := DecodeDoctor(raw, in, occ)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, a.Explained); diff != "" {
				t.Errorf("explained (-want +got):\n%s", diff)
			}
		})
	}
}

// TestDoctorProfiledPolicy checks the profiled-policy-key reason: only a
// legacy runtime's policy keyed by a ref with a profile moves, and only
// where the model's own key has no concrete pin.
func TestDoctorProfiledPolicy(t *testing.T) {
	in := DoctorInput{Config: Obj{{"agents", Obj{{"defaults", Obj{{"model", "codex-cli/gpt-5.4@work"}}}}}}}
	_, occ, err := DoctorItem(in)
	if err != nil {
		t.Fatal(err)
	}
	claw := func(models map[string]any) json.RawMessage {
		b, _ := json.Marshal(map[string]any{"ok": true, "config": map[string]any{"agents": map[string]any{"defaults": map[string]any{
			"model": "openai/gpt-5.4@work", "models": models}}}, "variants": map[string]any{}})
		return b
	}
	pin := func(id string) map[string]any { return map[string]any{"agentRuntime": map[string]any{"id": id}} }
	tests := []struct {
		name   string
		models map[string]any
		want   []string
	}{
		{"policy under the profiled key", map[string]any{"openai/gpt-5.4@work": pin("codex")}, []string{DoctorProfiledPolicy}},
		{"a profiled key with another runtime", map[string]any{"openai/gpt-5.4@work": pin("openclaw")}, nil},
		{"the model's key keeps its concrete pin", map[string]any{"openai/gpt-5.4@work": pin("codex"), "openai/gpt-5.4": pin("openclaw")}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a, err := DecodeDoctor(claw(tc.models), in, occ)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, a.Explained); diff != "" {
				t.Errorf("explained (-want +got):\n%s", diff)
			}
		})
	}
}

func TestGeneratorsAreDeterministic(t *testing.T) {
	for name, mk := range map[string]func() Generator{"gen": func() Generator { return NewGen(7) }, "gen2": func() Generator { return NewGen2(7) }} {
		a, b := mk(), mk()
		for i := 0; i < 200; i++ {
			if x, y := fmt.Sprint(a.RefCase()), fmt.Sprint(b.RefCase()); x != y {
				t.Fatalf("%s: refs differ: %s vs %s", name, x, y)
			}
			x, _ := json.Marshal(a.SelectCase())
			y, _ := json.Marshal(b.SelectCase())
			if string(x) != string(y) {
				t.Fatalf("%s: selection inputs differ", name)
			}
			x, _ = json.Marshal(a.DoctorCase())
			y, _ = json.Marshal(b.DoctorCase())
			if string(x) != string(y) {
				t.Fatalf("%s: doctor inputs differ", name)
			}
		}
	}
}

// TestAuthoredOrderIsNotSorted checks that the generators really write
// unsorted key orders: key order is an input, not an artefact of
// encoding/json.
func TestAuthoredOrderIsNotSorted(t *testing.T) {
	for name, g := range map[string]Generator{"gen": NewGen(11), "gen2": NewGen2(11)} {
		unsorted := 0
		for i := 0; i < 300; i++ {
			Walk(g.PolicyCase().Config, func(_ Path, o Obj) {
				if !slices.IsSorted(o.Keys()) {
					unsorted++
				}
			})
		}
		if unsorted < 30 {
			t.Errorf("%s: %d unsorted objects in 300 configurations", name, unsorted)
		}
	}
}

func TestLoadCaseWritesATree(t *testing.T) {
	g := NewGen(3)
	dir := t.TempDir()
	in, err := g.LoadCase(dir)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(in.Main)
	if err != nil || len(b) == 0 {
		t.Fatalf("main file: %v", err)
	}
	if !strings.HasPrefix(in.Main, dir) {
		t.Errorf("main %s outside %s", in.Main, dir)
	}
}

func ExampleRenderTable() {
	out := RenderTable([]Divergence{{Fn: FnRefStrict, Class: "trailing-slash-invalid", Rule: "REF-3", Wins: WinsSPEC,
		Reason: "a ref ending with / is invalid", Rests: "SPEC REF-3", Bound: 0.05}})
	fmt.Println(out[strings.LastIndex(out, "| ref.strict"):])
	// Output: | ref.strict | trailing-slash-invalid | REF-3 | SPEC | a ref ending with / is invalid | SPEC REF-3 | 5% |
}

// TestCanonicalFirst checks the order the doctor key-order variant
// writes: canonical keys, then legacy keys with a concrete pin, then the
// rest, each in authored order, in every models map.
func TestCanonicalFirst(t *testing.T) {
	pin := func(id string) Obj { return Obj{{"agentRuntime", Obj{{"id", id}}}} }
	models := Obj{{"codex-cli/g", Obj{}}, {"codex/g", pin("claude-cli")}, {"openai/g", Obj{}}, {"codex/h", pin("auto")}, {"claude-cli/x", pin("default")}}
	in := Obj{{"agents", Obj{{"defaults", Obj{{"models", models}}}, {"list", []any{Obj{{"models", Clone(models)}}}}}}}
	out := CanonicalFirst(in)
	want := []string{"openai/g", "codex/g", "claude-cli/x", "codex-cli/g", "codex/h"}
	if diff := cmp.Diff(want, out.Obj("agents").Obj("defaults").Obj("models").Keys()); diff != "" {
		t.Errorf("defaults (-want +got):\n%s", diff)
	}
	list, _ := out.Obj("agents").Get("list")
	if diff := cmp.Diff(want, list.([]any)[0].(Obj).Obj("models").Keys()); diff != "" {
		t.Errorf("list item (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"codex-cli/g", "codex/g", "openai/g", "codex/h", "claude-cli/x"}, models.Keys()); diff != "" {
		t.Errorf("input changed (-want +got):\n%s", diff)
	}
}

// TestDoctorProfiledPin checks the fold of a whole-agent CLI pin's policy
// doctor keyed by a profiled ref: it wins over what legacy keys merged
// into the model's key, not over an authored concrete pin.
func TestDoctorProfiledPin(t *testing.T) {
	pin := func(id string) Obj { return Obj{{"agentRuntime", Obj{{"id", id}}}} }
	claw := func(models map[string]any) json.RawMessage {
		b, _ := json.Marshal(map[string]any{"ok": true, "config": map[string]any{"agents": map[string]any{"defaults": map[string]any{
			"model": "anthropic/x@w", "models": models}}}, "variants": map[string]any{}})
		return b
	}
	doctor := func(rt string) map[string]any {
		return map[string]any{"anthropic/x@w": map[string]any{"agentRuntime": map[string]any{"id": "claude-cli"}},
			"anthropic/x": map[string]any{"agentRuntime": map[string]any{"id": rt}}}
	}
	tests := []struct {
		name, key, clawRuntime string
		want                   []string
	}{
		{"over a legacy key's pin", "claude-cli/x", "openclaw", []string{DoctorProfiledPolicy}},
		{"not over an authored canonical pin", "anthropic/x", "openclaw", []string{DoctorProfiledPolicy}},
		{"the model's key must otherwise agree", "anthropic/x", "codex", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := DoctorInput{Config: Obj{{"agents", Obj{{"defaults", Obj{{"agentRuntime", Obj{{"id", "claude-cli"}}},
				{"model", "anthropic/x@w"}, {"models", Obj{{tc.key, pin("openclaw")}}}}}}}}}
			_, occ, err := DoctorItem(in)
			if err != nil {
				t.Fatal(err)
			}
			a, err := DecodeDoctor(claw(doctor(tc.clawRuntime)), in, occ)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, a.Explained); diff != "" {
				t.Errorf("explained (-want +got), occkit %s:\n%s", occ.Proj, diff)
			}
		})
	}
}

// TestDoctorProfiledAllow checks that a profiled ref of modelPolicy.allow
// keeps its own legacy runtime: the scope's whole-agent pin does not make
// it win over a merged legacy key (a generated case OpenClaw 2026.9.6
// answered so).
func TestDoctorProfiledAllow(t *testing.T) {
	in := DoctorInput{Config: Obj{{"agents", Obj{{"defaults", Obj{
		{"model", "anthropic/claude-sonnet-4-6"},
		{"models", Obj{{"anthropic-cli/claude-opus-4-6", Obj{{"agentRuntime", Obj{{"id", "codex-cli"}}}}}}},
		{"modelPolicy", Obj{{"allow", []any{"anthropic-cli/claude-opus-4-6", "anthropic-cli/claude-opus-4-6 @v3"}}}},
		{"agentRuntime", Obj{{"id", "claude-cli"}}}}}}}}}
	_, occ, err := DoctorItem(in)
	if err != nil {
		t.Fatal(err)
	}
	pin := func(id string) map[string]any { return map[string]any{"agentRuntime": map[string]any{"id": id}} }
	b, _ := json.Marshal(map[string]any{"ok": true, "variants": map[string]any{}, "config": map[string]any{"agents": map[string]any{"defaults": map[string]any{
		"model":       "anthropic/claude-sonnet-4-6",
		"modelPolicy": map[string]any{"allow": []any{"anthropic/claude-opus-4-6", "anthropic/claude-opus-4-6@v3"}},
		"models": map[string]any{"anthropic/claude-opus-4-6": pin("codex"), "anthropic/claude-opus-4-6@v3": pin("claude-cli"),
			"anthropic/claude-sonnet-4-6": pin("claude-cli")}}}}})
	a, err := DecodeDoctor(b, in, occ)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{DoctorProfiledPolicy}, a.Explained); diff != "" {
		t.Errorf("explained (-want +got), occkit %s, openclaw %s:\n%s", occ.Proj, a.Proj, diff)
	}
}
