package openclawdiff

import (
	"fmt"
	"sort"
	"strings"

	"github.com/occkit/occkit/compile/openclawschema"
)

// Function names one compared function.
type Function string

// The compared functions.
const (
	FnRefStrict  Function = "ref.strict"
	FnRefLenient Function = "ref.lenient"
	FnPolicy     Function = "runtime.policy"
	FnSelect     Function = "harness.select"
	FnLoad       Function = "config.load"
	FnDoctor     Function = "doctor.repair"
)

// Functions lists every compared function in report order.
func Functions() []Function {
	return []Function{FnRefStrict, FnRefLenient, FnPolicy, FnSelect, FnLoad, FnDoctor}
}

// Case is one compared input with both answers, as the divergence
// predicates see it. Input, Occ and Claw are the function's own types.
type Case struct {
	Fn    Function
	Input any
	Occ   any
	Claw  any
}

// Divergence is one deliberate, documented difference from OpenClaw.
type Divergence struct {
	Fn     Function
	Class  string // short stable name
	Rule   string // SPEC rule ID that decides
	Wins   string // what decides against OpenClaw: WinsSPEC or WinsDeterminism
	Reason string // why occkit differs, and what the predicate checks
	// Rests cites the SPEC or seed sentence and the OpenClaw behaviour
	// the row rests on.
	Rests string
	// Bound is the largest share of a function's inputs the row may
	// absorb on the tier's generators (a row growing past it explains
	// more than its reason: the tier fails).
	Bound float64
	// Match recognises the class from one disagreeing case: the reason
	// applies and the answers differ only as it says.
	Match func(c Case) bool
}

// Classify returns the first divergence of the table that recognises c,
// or nil.
func Classify(table []Divergence, c Case) *Divergence {
	for i := range table {
		if table[i].Fn == c.Fn && table[i].Match(c) {
			return &table[i]
		}
	}
	return nil
}

// Tally counts outcomes per function.
type Tally struct {
	N, Agree  int
	Classes   map[string]int
	Unlisted  int
	Examples  []string // first unlisted disagreements
	MaxSample int
}

// Add records one case; d is its divergence class when it disagrees and a
// class matched.
func (t *Tally) Add(agree bool, d *Divergence, example func() string) {
	t.N++
	switch {
	case agree:
		t.Agree++
	case d != nil:
		if t.Classes == nil {
			t.Classes = map[string]int{}
		}
		t.Classes[d.Class]++
	default:
		t.Unlisted++
		if len(t.Examples) < t.MaxSample {
			t.Examples = append(t.Examples, example())
		}
	}
}

// String renders N, agreement (raw and outside the table) and the classes.
func (t *Tally) String() string {
	var b strings.Builder
	outside := t.N
	for _, n := range t.Classes {
		outside -= n
	}
	fmt.Fprintf(&b, "N=%d agree=%d (%.2f%%); outside the table %d/%d agree (%.3f%%); unlisted=%d",
		t.N, t.Agree, pct(t.Agree, t.N), t.Agree, outside, pct(t.Agree, outside), t.Unlisted)
	names := make([]string, 0, len(t.Classes))
	for k := range t.Classes {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		fmt.Fprintf(&b, "\n    %-34s %d", k, t.Classes[k])
	}
	return b.String()
}

func pct(a, n int) float64 {
	if n == 0 {
		return 100
	}
	return 100 * float64(a) / float64(n)
}

// RenderTable renders the divergence table as the Markdown section kept
// in DIVERGENCES.md.
func RenderTable(table []Divergence) string {
	var b strings.Builder
	b.WriteString("# Deliberate divergences from OpenClaw\n\n")
	b.WriteString("Generated from `internal/openclawdiff/divergences.go` by\n")
	b.WriteString("`go test ./internal/openclawdiff -run TestDivergenceDoc -update`.\n")
	b.WriteString("The differential tier fails on any disagreement with the real OpenClaw\n")
	b.WriteString("that no row below recognises. The SPEC wins where it and OpenClaw differ;\n")
	b.WriteString("determinism wins where OpenClaw's answer depends on key order.\n\n")
	b.WriteString("Each row's predicate holds only where its reason applies and the two\n")
	b.WriteString("answers differ only as the reason says; `bound` is the largest share of\n")
	b.WriteString("a function's generated inputs the row may absorb. Where the readings of\n")
	b.WriteString("two rows apply at once (harness.select, doctor.repair), OpenClaw is asked\n")
	b.WriteString("on the input read both ways, and the disagreement counts under the first\n")
	b.WriteString("of its rows.\n\n")
	b.WriteString("| function | class | rule | wins | reason | rests on | bound |\n|---|---|---|---|---|---|---|\n")
	esc := func(s string) string { return strings.ReplaceAll(s, "|", "\\|") }
	for _, d := range table {
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %g%% |\n", d.Fn, d.Class, d.Rule, d.Wins, esc(d.Reason), esc(d.Rests), 100*d.Bound)
	}
	return b.String()
}

// RenderRefinements renders the section of DIVERGENCES.md that lists
// OpenClaw's validation refinements admission does not mirror
// (openclawschema.UnmirroredRefinements); the mirrored ones are
// openclawschema.Refinements.
func RenderRefinements(rows []openclawschema.Unmirrored) string {
	var b strings.Builder
	b.WriteString("\n## config.validate: refinements admission does not mirror\n\n")
	b.WriteString("OpenClaw's validator refuses some documents through refinements its\n")
	b.WriteString("JSON Schema does not carry. Admission mirrors those a document alone\n")
	b.WriteString("decides (`openclawschema.Refinements`); these it admits, and the schema\n")
	b.WriteString("and refinement differentials recognise OpenClaw's refusal only by a row here.\n\n")
	b.WriteString("| class | settings | reason |\n|---|---|---|\n")
	for _, u := range rows {
		fmt.Fprintf(&b, "| %s | `%s` | %s |\n", u.Class, strings.Join(u.Paths, "`, `"), strings.ReplaceAll(u.Reason, "|", "\\|"))
	}
	return b.String()
}
