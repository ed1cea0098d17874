package openclawdiff

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"

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

func TestPredicates(t *testing.T) {
	tests := []struct {
		name string
		c    Case
		want string
	}{
		{"trailing slash", Case{Fn: FnRefStrict, Occ: RefOut{}, Claw: RefAnswer{Strict: RefOut{Valid: true, Provider: "p", ID: "m/"}}}, "trailing-slash-invalid"},
		{"slash inside is no class", Case{Fn: FnRefStrict, Occ: RefOut{}, Claw: RefAnswer{Strict: RefOut{Valid: true, Provider: "p", ID: "m"}}}, ""},
		{"normalization", Case{Fn: FnRefLenient, Occ: RefOut{Valid: true, Provider: "anthropic", ID: "opus"},
			Claw: RefAnswer{Lenient: RefOut{Valid: true, Provider: "anthropic", ID: "claude-opus-5"}, OccNorm: RefOut{Valid: true, Provider: "anthropic", ID: "claude-opus-5"}}}, "model-id-normalization"},
		{"policy order", Case{Fn: FnPolicy, Occ: PolicyOut{Runtime: "b", Source: "model"},
			Claw: PolicyAnswer{R: PolicyOut{Runtime: "a", Source: "model"}, Asc: PolicyOut{Runtime: "b", Source: "model"}, Desc: PolicyOut{Runtime: "a", Source: "model"}}}, "key-order"},
		{"policy stable is no class", Case{Fn: FnPolicy, Occ: PolicyOut{Runtime: "b", Source: "model"},
			Claw: PolicyAnswer{R: PolicyOut{Runtime: "a", Source: "model"}, Asc: PolicyOut{Runtime: "a", Source: "model"}, Desc: PolicyOut{Runtime: "a", Source: "model"}}}, ""},
		{"priority tie", Case{Fn: FnSelect, Input: SelectInput{Harnesses: []HarnessSpec{{ID: "my-h", Priority: 10}, {ID: "my_h", Priority: 10}}},
			Occ: SelectOut{Runtime: "my-h"}, Claw: SelectAnswer{R: SelectOut{Runtime: "my_h"}, Asc: SelectOut{Runtime: "my_h"}, Desc: SelectOut{Runtime: "my_h"}}}, "priority-tie-byte-order"},
		{"no tie at different priorities", Case{Fn: FnSelect, Input: SelectInput{Harnesses: []HarnessSpec{{ID: "my-h", Priority: 10}, {ID: "my_h", Priority: 20}}},
			Occ: SelectOut{Runtime: "my-h"}, Claw: SelectAnswer{R: SelectOut{Runtime: "my_h"}, Asc: SelectOut{Runtime: "my_h"}, Desc: SelectOut{Runtime: "my_h"}}}, ""},
		{"override ignored", Case{Fn: FnSelect, Input: SelectInput{Override: "x"}, Occ: SelectOut{Runtime: "openclaw", OverrideIgnored: true},
			Claw: SelectAnswer{R: SelectOut{Err: true}, Asc: SelectOut{Err: true}, Desc: SelectOut{Err: true}}}, "incompatible-override-ignored"},
		{"missing variable", Case{Fn: FnLoad, Occ: LoadOut{Err: true, MissingVar: true}, Claw: LoadAnswer{LoadOut: LoadOut{JSON: "{}"}, Missing: []string{"X"}}}, "missing-variable-is-an-error"},
		{"other load error is no class", Case{Fn: FnLoad, Occ: LoadOut{Err: true}, Claw: LoadAnswer{LoadOut: LoadOut{JSON: "{}"}}}, ""},
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

func TestGeneratorsAreDeterministic(t *testing.T) {
	a, b := NewGen(7), NewGen(7)
	for i := 0; i < 200; i++ {
		if x, y := fmt.Sprint(a.RefCase()), fmt.Sprint(b.RefCase()); x != y {
			t.Fatalf("refs differ: %s vs %s", x, y)
		}
		if x, y := fmt.Sprint(a.SelectCase()), fmt.Sprint(b.SelectCase()); x != y {
			t.Fatalf("selection inputs differ")
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
	out := RenderTable([]Divergence{{Fn: FnRefStrict, Class: "trailing-slash-invalid", Rule: "REF-3", Reason: "a ref ending with / is invalid"}})
	fmt.Println(out[strings.LastIndex(out, "| ref.strict"):])
	// Output: | ref.strict | trailing-slash-invalid | REF-3 | a ref ending with / is invalid |
}
