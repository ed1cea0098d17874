package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files")

func runCheck(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(context.Background(), args, &out, &errOut)
	return out.String(), errOut.String(), code
}

// The examples' own Configurations pass on every Compute they are shown
// on.
func TestExamplesClean(t *testing.T) {
	for _, args := range [][]string{
		{"../quickstart/agent.json5"},
		{"-compute", "ssh", "../quickstart/agent.json5"},
	} {
		out, errOut, code := runCheck(t, args...)
		if code != 0 || out != "" || errOut != "" {
			t.Errorf("occcheck %v: exit %d\nstdout: %s\nstderr: %s", args, code, out, errOut)
		}
	}
}

// Misspelt, mistyped and malformed Configurations are refused with a file
// position, the path and the rule, as the golden files record.
func TestGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/bad/*")
	private, _ := filepath.Glob("testdata/private/*.json*")
	files = append(append(files, private...), "testdata/inc/main.json5")
	if err != nil || len(files) == 0 {
		t.Fatalf("no test files: %v", err)
	}
	for _, tc := range []struct {
		golden string
		args   []string
	}{
		{"testdata/text.golden", nil},
		{"testdata/json.golden", []string{"-json"}},
		{"testdata/snippet.golden", []string{"-snippet"}},
	} {
		out, errOut, code := runCheck(t, append(tc.args, files...)...)
		if code != 1 || errOut != "" {
			t.Fatalf("exit %d, stderr %q; want 1 and nothing", code, errOut)
		}
		if *update {
			if err := os.WriteFile(tc.golden, []byte(out), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(tc.golden)
		if err != nil {
			t.Fatal(err)
		}
		if out != string(want) {
			t.Errorf("%s differs:\ngot:\n%s\nwant:\n%s", tc.golden, out, want)
		}
	}
	// Every refusal names a position in its file and the rule.
	out, _, _ := runCheck(t, append([]string{"-json"}, files...)...)
	dec := json.NewDecoder(strings.NewReader(out))
	n := 0
	for dec.More() {
		var f Finding
		if err := dec.Decode(&f); err != nil {
			t.Fatal(err)
		}
		n++
		if (f.Line == 0) != strings.HasPrefix(f.Path, "harnessAuth") || f.Rule == "" || f.Path == "" {
			t.Errorf("finding without position, rule or path: %+v", f)
		}
	}
	if n != len(files) {
		t.Errorf("%d findings for %d files", n, len(files))
	}
}

// A flag typo is named with what was meant.
func TestFlagSuggestions(t *testing.T) {
	for args, want := range map[string]string{
		"-compute kubernets": `-compute must be kubernetes or ssh, not "kubernets"; did you mean kubernetes?`,
		"-mode dedicatd":     `-mode must be embedded or dedicated, not "dedicatd"; did you mean dedicated?`,
	} {
		_, errOut, code := runCheck(t, append(strings.Fields(args), "x.json")...)
		if code != 2 || !strings.Contains(errOut, want) {
			t.Errorf("%s: exit %d, %q", args, code, errOut)
		}
	}
}

func TestExitCodes(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
	}{
		{nil, 2},
		{[]string{"-compute", "docker", "x.json"}, 2},
		{[]string{"-mode", "sideways", "x.json"}, 2},
		{[]string{"-binding", "{", "x.json"}, 2},
		{[]string{"-nope"}, 2},
		{[]string{"testdata/missing.json"}, 1},
		{[]string{"-mode", "dedicated", "../quickstart/agent.json5"}, 1},
	} {
		if _, _, code := runCheck(t, tc.args...); code != tc.code {
			t.Errorf("occcheck %v: exit %d, want %d", tc.args, code, tc.code)
		}
	}
}

// A private set of misspelt, mistyped and malformed Configurations (typos
// at several depths, wrong types, values outside an enum, a typo and a
// syntax error inside included files): each refusal names the file that
// holds the fault (the included one, too), its line and column, the rule,
// what was expected and, for a misspelling, the right suggestion.
func TestPrivateSet(t *testing.T) {
	for _, tc := range []struct {
		file string
		pos  string // file:line:col of the finding
		rule string
		want []string
	}{
		{"toplevel.json5", "toplevel.json5:3:3", "DOC-5", []string{"did you mean models?"}},
		{"entrytypo.json5", "entrytypo.json5:6:9", "DOC-5", []string{"did you mean agents.entries.main.model?"}},
		{"fallback.json5", "fallback.json5:7:9", "DOC-5", []string{"did you mean agents.defaults.model.fallbacks?"}},
		{"included.json5", "parts/team.json5:6:7", "DOC-5", []string{"did you mean agents.defaults.model.fallbacks?"}},
		{"brokeninclude.json5", "parts/broken.json5:4:5", "DOC-1", []string{"expected ',' or '}'"}},
		{"enum.json5", "enum.json5:5:7", "DOC-5", []string{`did you mean "medium"?`, `accepted: "adaptive", "high", "low"`}},
		{"providerapi.json5", "providerapi.json5:7:9", "DOC-5", []string{`did you mean "anthropic-messages"?`}},
		{"runtime.json5", "runtime.json5:6:56", "RES-1", []string{`must be "openclaw" or "codex"; did you mean openclaw?`}},
		{"arraytype.json", "arraytype.json:6:9", "RES-3", []string{"must be an array of provider/model refs"}},
		{"minimum.json5", "minimum.json5:5:7", "DOC-5", []string{"the schema wants at least 1"}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			out, errOut, code := runCheck(t, "-json", "-snippet", "testdata/private/"+tc.file)
			if code != 1 || errOut != "" {
				t.Fatalf("exit %d, stderr %q", code, errOut)
			}
			var f Finding
			if err := json.Unmarshal([]byte(out), &f); err != nil {
				t.Fatalf("%v: %s", err, out)
			}
			if got := fmt.Sprintf("%s:%d:%d", f.File, f.Line, f.Column); got != "testdata/private/"+tc.pos {
				t.Errorf("at %s, want %s", got, tc.pos)
			}
			if f.Rule != tc.rule {
				t.Errorf("rule %s, want %s", f.Rule, tc.rule)
			}
			for _, w := range tc.want {
				if !strings.Contains(f.Message, w) {
					t.Errorf("%q lacks %q", f.Message, w)
				}
			}
			if !strings.Contains(f.Snippet, "^") {
				t.Errorf("no snippet: %q", f.Snippet)
			}
		})
	}
}

// -rules reports a team's own rules beside occkit's, with the rule's
// name, the path and the position, from the Agent and tenant the flags
// describe; a rule file that does not compile stops occcheck where it is
// broken.
func TestTeamRules(t *testing.T) {
	const rules = "../companyrules/rules.yaml"
	const coder = "../companyrules/configs/coder.json5"
	out, errOut, code := runCheck(t, "-rules", rules, "-mode", "dedicated", "-namespace", "ns_prod_eu", "-tenant-label", "plan=enterprise", coder)
	want := coder + ":5:7: agents.defaults.model: Codex does not run in production namespaces [company/no-codex-in-prod]\n" +
		coder + ":5:7: agents.defaults.model: only anthropic and google models are approved [company/only-anthropic-and-google]\n"
	if code != 1 || out != want || errOut != "" {
		t.Errorf("exit %d\nstdout: %s\nwant:   %s\nstderr: %s", code, out, want, errOut)
	}
	out, _, code = runCheck(t, "-rules", rules, "-json", "-compute", "ssh", "-tenant", "tnt_acme", "../companyrules/configs/chatty.json5")
	var stages []string
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var f Finding
		if err := json.Unmarshal([]byte(line), &f); err != nil {
			t.Fatal(err)
		}
		stages = append(stages, f.Stage+" "+f.Rule)
	}
	if code != 1 || strings.Join(stages, ",") != "rules company/at-most-three-fallbacks,rules company/acme-slack-only" {
		t.Errorf("exit %d, findings %v", code, stages)
	}
	// Without -rules the same file is clean, and so it is with rules that hold.
	for _, args := range [][]string{
		{"-compute", "ssh", "-tenant", "tnt_acme", "../companyrules/configs/chatty.json5"},
		{"-rules", rules, "-label", "env=production", "-tenant", "tnt_acme", "../companyrules/configs/assistant.json5"},
	} {
		if out, errOut, code := runCheck(t, args...); code != 0 || out != "" || errOut != "" {
			t.Errorf("occcheck %v: exit %d\n%s%s", args, code, out, errOut)
		}
	}
	bad := filepath.Join(t.TempDir(), "rules.yaml")
	if err := os.WriteFile(bad, []byte("rules:\n  - name: company/x\n    expression: harnes == \"codex\"\n    message: m\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out, errOut, code = runCheck(t, "-rules", bad, coder)
	want = bad + `:3:17: rules[0].expression: undeclared reference to "harnes"; did you mean harness? [company/x]` + "\n"
	if code != 2 || out != "" || errOut != want {
		t.Errorf("exit %d\nstdout: %s\nstderr: %s\nwant:   %s", code, out, errOut, want)
	}
	if _, errOut, code := runCheck(t, "-label", "noequals", coder); code != 2 || !strings.Contains(errOut, "key=value") {
		t.Errorf("a bad -label: exit %d, %s", code, errOut)
	}
}
