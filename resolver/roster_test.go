package resolver

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/occkit/occkit"
)

var (
	rosterSave   = RosterRequest{Stage: StageSave}
	rosterK8s    = RosterRequest{Stage: StageDeploy, Compute: occkit.ComputeKubernetes, Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeEmbedded}
	rosterK8sDed = RosterRequest{Stage: StageDeploy, Compute: occkit.ComputeKubernetes, Harness: occkit.HarnessCodex, Mode: occkit.ModeDedicated}
	rosterSSH    = RosterRequest{Stage: StageDeploy, Compute: occkit.ComputeSSH, Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeEmbedded}
)

func TestCheckRosterAccepts(t *testing.T) {
	tests := []struct {
		name string
		doc  string
		req  RosterRequest
	}{
		{"RES-10 empty configuration", `{}`, rosterSave},
		{"RES-10 zero request is a save", `{"agents":{"entries":{"main":{}}}}`, RosterRequest{}},
		{"RES-10 empty list", `{"agents":{"list":[]}}`, rosterSave},
		{"RES-10 empty list beside entries", `{"agents":{"list":[],"entries":{"main":{}}}}`, rosterK8s},
		{"RES-10 one entry without ownership", `{"agents":{"entries":{"main":{}}}}`, rosterK8s},
		{"RES-10 explicit single entry", `{"agents":{"ownership":"explicit","entries":{"main":{}}}}`, rosterSave},
		{"RES-10 explicit two entries", `{"agents":{"ownership":"explicit","entries":{"main":{},"helper":{}}}}`, rosterSave},
		{"RES-10 id pattern is case-insensitive", `{"agents":{"entries":{"Main_Agent-2":{}}}}`, rosterSave},
		{"RES-10 id of 64 characters", `{"agents":{"entries":{"a123456789012345678901234567890123456789012345678901234567890123":{}}}}`, rosterSave},
		{"RES-10 SSH deployment skips roster rules", `{"agents":{"list":[{"id":"main"}],"entries":{"main":{"default":true},"helper":{}}}}`, rosterSSH},
		{"RES-10 main rules wait for deployment", `{"agents":{"entries":{"helper":{}}}}`, RosterRequest{Stage: StageSave, Mode: occkit.ModeDedicated}},
		{"RES-10 dedicated serves main", `{"agents":{"ownership":"explicit","entries":{"main":{},"helper":{}},"defaults":{"sessionStore":{"agentId":"main"},"systemAgent":{"agentId":" Main "}}}}`, rosterK8sDed},
		{"RES-10 dedicated with the implicit main", `{"agents":{"defaults":{"model":"anthropic/a"}}}`, rosterK8sDed},
		{"RES-10 embedded may name another system agent", `{"agents":{"ownership":"explicit","entries":{"main":{},"ops":{}},"defaults":{"systemAgent":{"agentId":"ops"}}}}`, rosterK8s},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := checkRosterBoth(t, tt.doc, tt.req); err != nil {
				t.Errorf("CheckRoster: %v", err)
			}
		})
	}
}

func TestCheckRosterRefuses(t *testing.T) {
	tests := []struct {
		name string
		doc  string
		req  RosterRequest
		want []occkit.ErrorMatcher
	}{
		{"RES-10 non-empty list at save", `{"agents":{"list":[{"id":"main"}]}}`, rosterSave, []occkit.ErrorMatcher{inv("RES-10", "agents.list")}},
		{"RES-10 non-empty list at Kubernetes deployment", `{"agents":{"list":[{"id":"main"}]}}`, rosterK8s, []occkit.ErrorMatcher{inv("RES-10", "agents.list")}},
		{"RES-10 list object", `{"agents":{"list":{}}}`, rosterSave, []occkit.ErrorMatcher{inv("RES-10", "agents.list")}},
		{"RES-10 list null", `{"agents":{"list":null}}`, rosterSave, []occkit.ErrorMatcher{inv("RES-10", "agents.list")}},
		{"RES-2 agents not an object", `{"agents":"x"}`, rosterSave, []occkit.ErrorMatcher{inv("RES-2", "agents")}},
		{"RES-2 entries not an object", `{"agents":{"entries":[]}}`, rosterSave, []occkit.ErrorMatcher{inv("RES-2", "agents.entries")}},
		{"RES-2 entry not an object", `{"agents":{"entries":{"main":"x"}}}`, rosterSave, []occkit.ErrorMatcher{inv("RES-2", "agents.entries.main")}},
		{"RES-10 id with a dot", `{"agents":{"entries":{"a.b":{}}}}`, rosterSave, []occkit.ErrorMatcher{inv("RES-10", `agents.entries["a.b"]`)}},
		{"RES-10 id starting with a dash", `{"agents":{"entries":{"-a":{}}}}`, rosterSave, []occkit.ErrorMatcher{inv("RES-10", "agents.entries.-a")}},
		{"RES-10 id too long", `{"agents":{"entries":{"a1234567890123456789012345678901234567890123456789012345678901234":{}}}}`, rosterSave,
			[]occkit.ErrorMatcher{inv("RES-10", "agents.entries.a1234567890123456789012345678901234567890123456789012345678901234")}},
		{"RES-10 ids equal after lower-casing", `{"agents":{"ownership":"explicit","entries":{"main":{},"MAIN":{}}}}`, rosterSave, []occkit.ErrorMatcher{inv("RES-10", "agents.entries.MAIN"), inv("RES-10", "agents.entries.main")}},
		{"RES-10 three colliding ids are each refused", `{"agents":{"ownership":"explicit","entries":{"Ops":{},"ops":{},"OPS":{},"main":{}}}}`, rosterSave,
			[]occkit.ErrorMatcher{inv("RES-10", "agents.entries.OPS"), inv("RES-10", "agents.entries.Ops"), inv("RES-10", "agents.entries.ops")}},
		{"RES-10 underscore ids drop trailing dashes", `{"agents":{"ownership":"explicit","entries":{"_ops":{},"_ops--":{}}}}`, rosterSave, []occkit.ErrorMatcher{inv("RES-10", "agents.entries._ops"), inv("RES-10", "agents.entries._ops--")}},
		{"RES-10 default marker", `{"agents":{"entries":{"main":{"default":true}}}}`, rosterSave, []occkit.ErrorMatcher{inv("RES-10", "agents.entries.main.default")}},
		{"RES-10 ownership other than explicit", `{"agents":{"ownership":"implicit","entries":{"main":{}}}}`, rosterK8s, []occkit.ErrorMatcher{inv("RES-10", "agents.ownership")}},
		{"RES-10 ownership required for two entries", `{"agents":{"entries":{"main":{},"helper":{}}}}`, rosterSave, []occkit.ErrorMatcher{inv("RES-10", "agents.ownership")}},
		{"RES-10 explicit with zero entries", `{"agents":{"ownership":"explicit"}}`, rosterSave, []occkit.ErrorMatcher{inv("RES-10", "agents.ownership")}},
		{"RES-10 Docker deployment applies the rules", `{"agents":{"list":[1]}}`, RosterRequest{Stage: StageDeploy, Compute: occkit.ComputeDocker}, []occkit.ErrorMatcher{inv("RES-10", "agents.list")}},
		{"RES-10 dedicated needs main", `{"agents":{"ownership":"explicit","entries":{"ops":{},"helper":{}}}}`, rosterK8sDed, []occkit.ErrorMatcher{inv("RES-10", "agents.entries")}},
		{"RES-10 __proto__ is reserved", `{"agents":{"entries":{"__proto__":{}}}}`, rosterK8s,
			[]occkit.ErrorMatcher{inv("RES-10", "agents.entries.__proto__")}},
		{"RES-10 Constructor is reserved", `{"agents":{"ownership":"explicit","entries":{"main":{},"Constructor":{}}}}`, rosterK8s,
			[]occkit.ErrorMatcher{inv("RES-10", "agents.entries.Constructor")}},
		{"RES-10 dedicated top-level session store names another Agent", `{"agents":{"entries":{"main":{}}},"sessionStore":{"agentId":"ops"}}`, rosterK8sDed,
			[]occkit.ErrorMatcher{inv("RES-10", "sessionStore.agentId")}},
		{"RES-10 dedicated top-level system agent names another Agent", `{"agents":{"entries":{"main":{}}},"systemAgent":{"agentId":"ops"}}`, rosterK8sDed,
			[]occkit.ErrorMatcher{inv("RES-10", "systemAgent.agentId")}},
		{"RES-10 dedicated session store names another Agent", `{"agents":{"entries":{"main":{}},"defaults":{"sessionStore":{"agentId":"ops"}}}}`, rosterK8sDed,
			[]occkit.ErrorMatcher{inv("RES-10", "agents.defaults.sessionStore.agentId")}},
		{"RES-10 dedicated system agent names another Agent", `{"agents":{"defaults":{"systemAgent":{"agentId":7}}}}`, rosterK8sDed,
			[]occkit.ErrorMatcher{inv("RES-10", "agents.defaults.systemAgent.agentId")}},
		{"RES-10 unknown stage", `{}`, RosterRequest{Stage: "publish"}, []occkit.ErrorMatcher{inv("RES-10", "")}},
		{"RES-10 every problem at once", `{"agents":{"list":[{}],"entries":{"a.b":{"default":1},"x":{}}}}`, rosterSave,
			[]occkit.ErrorMatcher{inv("RES-10", "agents.list"), inv("RES-10", "agents.ownership"), inv("RES-10", `agents.entries["a.b"]`), inv("RES-10", `agents.entries["a.b"].default`)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := checkRosterBoth(t, tt.doc, tt.req)
			if err == nil {
				t.Fatalf("CheckRoster accepted, want %v", tt.want)
			}
			want := occkit.MatchersOf(occkit.Join(wantErrs(tt.want)...))
			if d := cmp.Diff(want, occkit.MatchersOf(err)); d != "" {
				t.Errorf("problems (-want +got):\n%s\n%v", d, err)
			}
		})
	}
}

// checkRosterBoth is CheckRoster of doc, checked to be what the prepared
// form (Prepared.CheckRoster) returns.
func checkRosterBoth(t *testing.T, doc string, req RosterRequest) error {
	t.Helper()
	d := occkit.MustParseDocument(doc)
	err := CheckRoster(d, req)
	if perr := Prepare(d).CheckRoster(req); fmt.Sprint(perr) != fmt.Sprint(err) {
		t.Errorf("%s %+v: Prepared.CheckRoster = %v, CheckRoster = %v", doc, req, perr, err)
	}
	return err
}

// Prepared.CheckRoster agrees with CheckRoster on roots and agents of
// every kind, at every stage.
func TestPreparedCheckRoster(t *testing.T) {
	docs := []string{`[]`, `"x"`, `null`, `1`, `{}`, `{"agents":null}`, `{"agents":[]}`, `{"agents":{"defaults":1}}`,
		`{"agents":{"defaults":{},"entries":{"main":1},"list":[1],"ownership":"x"},"agents2":{}}`,
		`{"logging":{"level":"debug"},"agents":{"ownership":"explicit","entries":{"main":{},"ops":{}}},"systemAgent":{"agentId":"ops"}}`}
	reqs := []RosterRequest{{}, rosterSave, rosterK8s, rosterK8sDed, rosterSSH, {Stage: "publish"}, {Stage: StageDeploy, Compute: occkit.ComputeDocker, Mode: occkit.ModeDedicated}}
	for _, doc := range docs {
		for _, req := range reqs {
			checkRosterBoth(t, doc, req)
		}
	}
}

func TestAllStages(t *testing.T) {
	for _, s := range AllStages() {
		if err := CheckRoster(occkit.MustParseDocument(`{}`), RosterRequest{Stage: s}); err != nil {
			t.Errorf("stage %s: %v", s, err)
		}
	}
}
