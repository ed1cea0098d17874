package main

import (
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The README shows Example_readme's body and output verbatim; this keeps
// the two from drifting apart.
func TestReadmeShowsExample(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatalf("no README.md at the repository root, beside the examples module: %v", err)
	}
	src, err := os.ReadFile("example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(readme), "## Using the library")
	if !ok {
		t.Fatal("README has no \"Using the library\" section")
	}
	code := between(t, section, "```go\n", "```\n")
	output := between(t, section, "prints\n\n```\n", "```\n")

	_, body, _ := strings.Cut(string(src), "func Example_readme() {\n")
	body, wantOut, _ := strings.Cut(body, "\t// Output:\n")
	var example, out strings.Builder
	for _, line := range strings.SplitAfter(body, "\n") {
		example.WriteString(strings.TrimPrefix(line, "\t"))
	}
	for _, line := range strings.SplitAfter(strings.TrimSuffix(wantOut, "}\n"), "\n") {
		out.WriteString(strings.TrimPrefix(line, "\t// "))
	}
	if diff := cmp.Diff(example.String(), code); diff != "" {
		t.Errorf("README code sample differs from Example_readme (-example +README):\n%s", diff)
	}
	if diff := cmp.Diff(out.String(), output); diff != "" {
		t.Errorf("README output differs from Example_readme's (-example +README):\n%s", diff)
	}
}

func between(t *testing.T, s, start, end string) string {
	t.Helper()
	_, rest, ok := strings.Cut(s, start)
	if !ok {
		t.Fatalf("README section lacks %q", start)
	}
	in, _, ok := strings.Cut(rest, end)
	if !ok {
		t.Fatalf("README block after %q is not closed", start)
	}
	return in
}

// The README's excerpt of the quickstart output is the real output: its
// lines, apart from the "[…]" cuts, are the golden file's lines in order.
func TestReadmeShowsQuickstartOutput(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatalf("no README.md at the repository root, beside the examples module: %v", err)
	}
	golden, err := os.ReadFile("testdata/quickstart.golden")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(readme), "## The quickstart")
	if !ok {
		t.Fatal("README has no \"The quickstart\" section")
	}
	excerpt := between(t, section, "```\n", "```\n")
	lines := strings.Split(string(golden), "\n")
	next := 0
	for _, want := range strings.Split(strings.TrimSuffix(excerpt, "\n"), "\n") {
		if want == "[…]" {
			continue
		}
		for next < len(lines) && lines[next] != want {
			next++
		}
		if next == len(lines) {
			t.Fatalf("README quickstart line %q is not in the golden output (in order)", want)
		}
		next++
	}
}
