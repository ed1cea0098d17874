package policytest_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/admission"
	"github.com/occkit/occkit/admission/policytest"
)

// teamRules are a team's own rules, as a Runner takes them.
func teamRules() []admission.Rule {
	return []admission.Rule{
		admission.RuleFunc("team/one-fallback", func(_ context.Context, v *admission.View) error {
			if len(v.Fallbacks()) > 1 {
				return occkit.Invalid("", occkit.NewPath("agents", "defaults", "model", "fallbacks"), "at most one fallback")
			}
			return nil
		}),
		admission.RuleFunc("team/no-fallbacks-for-small", func(_ context.Context, v *admission.View) error {
			if v.Tenant().ID == "tnt_small" && len(v.Fallbacks()) > 0 {
				return occkit.Invalid("", v.Fallbacks()[0].Path.Parent(), "small tenants have no fallbacks")
			}
			return nil
		}),
	}
}

// A team's JSON5 and JSON cases, with configurations in files beside them,
// run with the team's rules.
func TestRunnerWithRules(t *testing.T) {
	cases, err := policytest.Load("testdata/team/cases")
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) != 4 {
		t.Fatalf("loaded %d cases, want 4", len(cases))
	}
	r := policytest.Runner{Rules: teamRules()}
	for _, c := range cases {
		t.Run(c.File+"/"+c.Name, func(t *testing.T) {
			if failure := r.Run(c); failure != "" {
				t.Error(failure)
			}
		})
	}
	// Without the team's rules the refusal case fails: it expects one.
	for _, c := range cases {
		if c.File == "refusals.json" && policytest.Run(c) == "" {
			t.Error("the refusal case passes without the rule that refuses")
		}
	}
}

// The runner refuses what it would otherwise ignore: a misspelt input key
// (with the key it meant), a configuration given twice, a file path that
// is not relative.
func TestRunnerRefusesUnknownInput(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name, input, mentions string
	}{
		{"misspelt configuration", `{"configuraton": {"agents": {}}}`, `"configuraton" is not an input of harness.resolve; did you mean configuration?`},
		{"misspelt agent key", `{"configuration": {}, "agent": {"namespaceID": "ns"}}`, `agent."namespaceID" is not an input of admission.admit; did you mean namespaceId?`},
		{"both configurations", `{"configuration": {}, "configurationFile": "a.json"}`, "both given"},
		{"absolute file", `{"configurationFile": "/etc/openclaw.json"}`, "relative"},
		{"file for an op without a configuration", `{"ref": "a/b", "configurationFile": "a.json"}`, `"configurationFile" is not an input of ref.parse`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			op := "harness.resolve"
			switch {
			case strings.Contains(tc.input, `"agent"`):
				op = "admission.admit"
			case strings.Contains(tc.input, `"ref"`):
				op = "ref.parse"
			}
			c := policytest.Case{Dir: dir, File: "x.json", Op: op, Name: tc.name, Input: json.RawMessage(tc.input),
				Expect: json.RawMessage(`{"error": {"status": 400}}`)}
			failure := policytest.Run(c)
			if !strings.Contains(failure, tc.mentions) {
				t.Errorf("failure %q lacks %q", failure, tc.mentions)
			}
		})
	}
}

// A .json5 case file is JSON5; a key written twice is refused in it too.
func TestLoadJSON5(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.json5"), []byte("// c\n[{op: 'ref.parse', name: 'x', input: {ref: 'a/b',}, expect: {provider: 'a'}},]"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "b.json5"), []byte("[{op: 'ref.parse', op: 'ref.match'}]"), 0o600); err != nil {
		t.Fatal(err)
	}
	cases, err := policytest.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) != 2 || cases[0].Err != "" || policytest.Run(cases[0]) != "" || cases[1].Err == "" {
		t.Fatalf("cases %+v", cases)
	}
}

func TestMatchError(t *testing.T) {
	err := occkit.Join(occkit.Invalid("RES-7", occkit.NewPath("agents", "defaults"), "needs codex"),
		occkit.Conflict("AUTH-2", occkit.NewPath("harnessAuth"), "outside the namespace"))
	for want, ok := range map[string]bool{
		`"INVALID_REQUEST"`: true,
		`{"status": 409, "rule": "AUTH-2", "path": "harnessAuth"}`: true,
		`{"rule": "RES-7", "path": "/agents/defaults"}`:            true,
		`{"rule": "RES-7", "mentions": ["codex"]}`:                 true,
		`{"rule": "RES-7", "status": 409}`:                         false,
		`{"neverMentions": ["namespace"]}`:                         false,
		`{"position": "a.json5:1:1"}`:                              false,
		`{"rule": "RES-7", "colour": "red"}`:                       false,
	} {
		if got := policytest.MatchError(json.RawMessage(want), err) == ""; got != ok {
			t.Errorf("MatchError(%s) matched %v, want %v", want, got, ok)
		}
	}
	if policytest.MatchError(json.RawMessage(`"INVALID_REQUEST"`), nil) == "" {
		t.Error("no error matched an expected one")
	}
}
