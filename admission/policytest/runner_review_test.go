package policytest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/tidwall/gjson"
)

// TestRunnerRejects holds expectations the runner must refuse to pass: the
// case format cannot say "this case must fail", so these live here rather
// than under testdata/extra. Each has a passing twin, so a check that
// fails everything does not pass either.
func TestRunnerRejects(t *testing.T) {
	const (
		listSave = `"input":{"configuration":{"agents":{"list":[{"id":"main"}]}},"stage":"save"}`
		codexPAT = `"input":{"compute":"kubernetes","harness":"codex","executionMode":"dedicated",` +
			`"binding":{"method":"codex_pat","source":{"kind":"service_account","namespaceId":"ns_1","id":"sa_1"}},"model":"codex/gpt-5"}`
		bigNumber   = `"input":{"text":"{\"n\":9007199254740993,\"f\":0.1}"}`
		upfront401  = `"input":{"provider":"openai","status":401,"headers":{"cf-ray":"a"},"body":""}`
		lateRetry   = `"input":{"attempts":[{"code":"MODEL_PROBE_TIMEOUT","elapsedMs":59700},{"code":"READY","elapsedMs":100}]}`
		noMarker401 = `"input":{"provider":"openai","status":401,"headers":{},"body":""}`
	)
	for _, tc := range []struct {
		name     string
		op, body string
		fail     bool
	}{
		// expect.error.rule is compared with the refusing rule.
		{"error rule matches", "roster.check", listSave + `,"expect":{"error":{"code":"INVALID_REQUEST","rule":"RES-10"}}`, false},
		{"error rule differs", "roster.check", listSave + `,"expect":{"error":{"code":"INVALID_REQUEST","rule":"RES-11"}}`, true},
		// "error": "CODE" names the code.
		{"error code as a string", "roster.check", listSave + `,"expect":{"error":"INVALID_REQUEST"}`, false},
		{"error code as a string differs", "roster.check", listSave + `,"expect":{"error":"RESOURCE_CONFLICT"}`, true},
		{"error code as a string on success", "roster.check",
			`"input":{"configuration":{},"stage":"save"},"expect":{"error":"INVALID_REQUEST"}`, true},
		// An error member the runner does not know is not skipped.
		{"unknown error member", "roster.check", listSave + `,"expect":{"error":{"code":"INVALID_REQUEST","message":"anything"}}`, true},
		{"misspelt error member", "roster.check", listSave + `,"expect":{"error":{"code":"INVALID_REQUEST","pth":"agents.nope"}}`, true},
		// A case the runner cannot express is not a library refusal.
		{"unknown built-in harness", "runtime.select",
			`"input":{"provider":"openai","model":"gpt-5","harnesses":["bogus"]},"expect":{"error":{"status":400,"code":"INVALID_REQUEST"}}`, true},
		{"harness entry neither name nor object", "runtime.select",
			`"input":{"provider":"openai","model":"gpt-5","harnesses":[42]},"expect":{"error":{"status":400,"code":"INVALID_REQUEST"}}`, true},
		// env names processes; a process that does not exist is not skipped,
		// and a null env expects no variable anywhere.
		{"env of the harness", "auth.validate", codexPAT + `,"expect":{"env":{"harness":["CODEX_ACCESS_TOKEN","CODEX_LOGIN_MODE"]}}`, false},
		{"env of an unknown process", "auth.validate", codexPAT + `,"expect":{"env":{"codex":["CODEX_ACCESS_TOKEN"]}}`, true},
		{"null env with variables projected", "auth.validate", codexPAT + `,"expect":{"env":null}`, true},
		// Numbers compare numerically and exactly.
		{"same numbers spelt differently", "compile.load", bigNumber + `,"expect":{"configuration":{"n":9007199254740993,"f":1e-1}}`, false},
		// A number means its double (RFC 8785): 2^53+1 is read as 2^53.
		{"integers that round to one double", "compile.load", bigNumber + `,"expect":{"configuration":{"n":9007199254740992,"f":0.1}}`, false},
		{"paths with integers that round to one double", "compile.load", bigNumber + `,"expect":{"paths":{"n":9007199254740992}}`, false},
		{"integers of two doubles", "compile.load", bigNumber + `,"expect":{"configuration":{"n":9007199254740994,"f":0.1}}`, true},
		{"paths with integers of two doubles", "compile.load", bigNumber + `,"expect":{"paths":{"n":9007199254740994}}`, true},
		// A header-marker expectation that is neither a list nor a string
		// is not "no marker".
		{"marker as a list", "probe.upfront", upfront401 + `,"expect":{"responseHeaderMarker":["cf-ray"]}`, false},
		{"no marker as an empty list", "probe.upfront", noMarker401 + `,"expect":{"responseHeaderMarker":[]}`, false},
		{"no marker as a boolean", "probe.upfront", noMarker401 + `,"expect":{"responseHeaderMarker":false}`, true},
		// A success key the op does not have is not "absent" by default.
		{"null for a known key", "ref.parse", `"input":{"ref":"openai/gpt-5"},"expect":{"id":"gpt-5","profile":null}`, false},
		{"null for a misspelt key", "ref.parse", `"input":{"ref":"openai/gpt-5"},"expect":{"id":"gpt-5","profle":null}`, true},
		{"null for another op's key", "probe.cap", `"input":{"cpuMax":"max"},"expect":{"capMs":65000,"cause":null}`, true},
		// probe.retry: runs, final, caps and delay must all come from one
		// trace of the jittered policy (59.7 s spent: jitter 0 leaves
		// 300 ms for a second attempt, jitter 1 none).
		{"retry at jitter 0", "probe.retry", lateRetry + `,"expect":{"runs":2,"final":"READY","attemptTimeoutsMs":[30000,300],"delayMs":[1000,1500]}`, false},
		{"retry at jitter 1", "probe.retry", lateRetry + `,"expect":{"runs":1,"final":"MODEL_PROBE_TIMEOUT","attemptTimeoutsMs":[30000],"delayMs":null}`, false},
		{"retry runs of one end, final of the other", "probe.retry", lateRetry + `,"expect":{"runs":1,"final":"READY"}`, true},
		{"retry final of one end, runs of the other", "probe.retry", lateRetry + `,"expect":{"final":"MODEL_PROBE_TIMEOUT","runs":2}`, true},
		{"retry caps of one end, final of the other", "probe.retry", lateRetry + `,"expect":{"attemptTimeoutsMs":[30000],"final":"READY"}`, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			text := `{"op":"` + tc.op + `","name":"x",` + tc.body + `}`
			if !gjson.Valid(text) {
				t.Fatalf("bad case JSON: %s", text)
			}
			c := gjson.Parse(text)
			got := Run(Case{File: "inline", Op: tc.op, Name: tc.name, Input: raw(c.Get("input")), Expect: raw(c.Get("expect"))})
			if tc.fail && got == "" {
				t.Errorf("case passed, want it to fail: %s", text)
			}
			if !tc.fail && got != "" {
				t.Errorf("case failed, want it to pass: %s\n%s", text, got)
			}
		})
	}
}

// TestLoadKeepsGoingPastABadFile: one unreadable case file fails as a case
// of its own; the other files still run.
func TestLoadKeepsGoingPastABadFile(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"a.json": `[{"op":"ref.parse","name":"cut short","input":{"ref":"openai/gpt-5"}`,
		"b.json": `[{"op":"ref.parse","name":"good","input":{"ref":"openai/gpt-5"},"expect":{"provider":"openai","id":"gpt-5"}}, 7]`,
		"c.json": `{"op":"ref.parse","name":"single","input":{"ref":"openai/gpt-5"},"expect":{"id":"gpt-5"}}`,
		"d.json": `"not cases"`,
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	cases, err := Load(dir)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	want := map[string]bool{ // file/name -> passes
		"a.json/(case file)": false,
		"b.json/good":        true,
		"b.json/case 1":      false,
		"c.json/single":      true,
		"d.json/(case file)": false,
	}
	if len(cases) != len(want) {
		t.Fatalf("got %d cases, want %d", len(cases), len(want))
	}
	for _, c := range cases {
		pass, ok := want[c.File+"/"+c.Name]
		if !ok {
			t.Errorf("unexpected case %s/%s", c.File, c.Name)
			continue
		}
		if got := Run(c) == ""; got != pass {
			t.Errorf("%s/%s: passes %t, want %t (%s)", c.File, c.Name, got, pass, Run(c))
		}
	}
}

// TestEveryOpListsItsExpectations keeps expectKeys in step with opTable.
func TestEveryOpListsItsExpectations(t *testing.T) {
	for op := range opTable() {
		if len(expectKeys[op]) == 0 {
			t.Errorf("op %s has no expectKeys entry", op)
		}
	}
	for op := range expectKeys {
		if _, ok := opTable()[op]; !ok {
			t.Errorf("expectKeys lists %s, which is no op", op)
		}
	}
}
