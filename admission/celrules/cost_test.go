package celrules_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/admission"
	"github.com/occkit/occkit/admission/celrules"
)

// costCatalog is an OpenClaw Configuration whose selectable catalog holds
// n models, on Slack.
func costCatalog(n int) string {
	var b strings.Builder
	b.WriteString(`{agents: {defaults: {model: {primary: "anthropic/m0"}, models: {`)
	for i := range n {
		fmt.Fprintf(&b, `"anthropic/m%d": {alias: "model %d", agentRuntime: {id: "openclaw"}},`, i, i)
	}
	b.WriteString(`}}}, channels: {slack: {}}, logging: {level: "debug"}}`)
	return b.String()
}

// A rule runs without cost tracking only where its static estimate keeps
// it within the limit, and answers as it does with tracking: the same
// verdict, the same fault when the limit stops it.
func TestUntrackedAnswersAsTracked(t *testing.T) {
	exprs := []string{
		`models.all(m, m.provider == "anthropic")`,
		`channels.all(c, c == "slack")`,
		`document.agents.defaults.models.all(k, k.startsWith("anthropic/"))`,
		`document.agents.defaults.models.all(k, document.agents.defaults.models[k].alias != "")`,
		`document.agents.defaults.models.exists(k, k.endsWith("m3"))`,
		`size(document.agents.defaults.models) <= 30`,
		`document.logging.level == "debug"`,
	}
	untracked, stopped := 0, 0
	for _, n := range []int{1, 10, 100} {
		req := deployment{src: costCatalog(n)}.request(t)
		for _, limit := range []uint64{50, 500, 5_000, 0} {
			for _, e := range exprs {
				rules, err := celrules.Compile([]celrules.Spec{{Name: "company/r", Expression: e, Message: "refused"}}, celrules.Options{CostLimit: limit})
				if err != nil {
					t.Fatalf("%+v", err)
				}
				r := rules[0]
				var ran bool
				capture := admission.RuleFunc("company/capture", func(_ context.Context, v *admission.View) error {
					ran = celrules.RunsUntracked(r, v)
					return nil
				})
				_, got := admitter(t, []admission.Rule{capture, r}).Admit(context.Background(), req)
				_, want := admitter(t, []admission.Rule{celrules.Tracked(r)}).Admit(context.Background(), req)
				if diff := codes(got, want); diff != "" {
					t.Errorf("models=%d limit=%d %s: %s", n, limit, e, diff)
				}
				if ran {
					untracked++
				}
				if occkit.First(want) != nil && occkit.First(want).Code == occkit.CodeInternal {
					stopped++
				}
			}
		}
	}
	if untracked == 0 || stopped == 0 {
		t.Errorf("%d evaluations untracked, %d stopped by the limit: the cases do not exercise both", untracked, stopped)
	}
}

// codes compares two admissions' outcomes by code, rule and path.
func codes(got, want error) string {
	g, w := occkit.First(got), occkit.First(want)
	if (g == nil) != (w == nil) {
		return fmt.Sprintf("got %v, want %v", got, want)
	}
	if g != nil && (g.Code != w.Code || g.Rule != w.Rule || g.Path.String() != w.Path.String()) {
		return fmt.Sprintf("got %v, want %v", got, want)
	}
	return ""
}
