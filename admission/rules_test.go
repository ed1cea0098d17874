package admission_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/admission"
	"github.com/occkit/occkit/compile"
)

func ruleAdmitter(t testing.TB, timeout time.Duration, rules ...admission.Rule) *admission.Admitter {
	t.Helper()
	a, err := admission.New(admission.Options{Authorizer: allow(), Rules: rules, RuleTimeout: timeout,
		HarnessVersions: map[occkit.Harness]string{occkit.HarnessOpenClaw: "2026.9.6", occkit.HarnessCodex: "0.171.0"}})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestNewRefusesBadRules(t *testing.T) {
	ok := func(context.Context, *admission.View) error { return nil }
	for _, tc := range []struct {
		name  string
		rules []admission.Rule
		at    string
	}{
		{"nil rule", []admission.Rule{nil}, "rules[0]"},
		{"no namespace", []admission.Rule{admission.RuleFunc("no-codex", ok)}, "rules[0]"},
		{"upper case", []admission.Rule{admission.RuleFunc("Company/no-codex", ok)}, "rules[0]"},
		{"SPEC-like ID", []admission.Rule{admission.RuleFunc("RES-7", ok)}, "rules[0]"},
		{"two slashes", []admission.Rule{admission.RuleFunc("a/b/c", ok)}, "rules[0]"},
		{"empty name", []admission.Rule{admission.RuleFunc("company/", ok)}, "rules[0]"},
		{"trailing dash", []admission.Rule{admission.RuleFunc("company/x-", ok)}, "rules[0]"},
		{"space", []admission.Rule{admission.RuleFunc("company/no codex", ok)}, "rules[0]"},
		{"occkit's namespace", []admission.Rule{admission.RuleFunc("occkit/res-7", ok)}, "rules[0]"},
		{"too long", []admission.Rule{admission.RuleFunc("company/"+strings.Repeat("a", admission.MaxRuleNameBytes), ok)}, "rules[0]"},
		{"twice", []admission.Rule{admission.RuleFunc("company/a", ok), admission.RuleFunc("company/a", ok)}, "rules[1]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := admission.New(admission.Options{Rules: tc.rules})
			want := occkit.ErrorMatcher{Code: occkit.CodeInvalidRequest, Rule: "ADM-1", Path: tc.at}
			if err := want.Check(err); err != nil {
				t.Error(err)
			}
		})
	}
	for _, name := range []string{"company/no-codex-in-prod", "example.com/only_anthropic.v2", "a/b", "team-1/x9"} {
		if err := admission.CheckRuleName(name); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// A rule sees what admission decided: identity and labels from the
// request, the Harness, mode, Compute, models with their paths, channels,
// bindings by reference, the approved release and the admitted document.
func TestRuleSeesTheDecision(t *testing.T) {
	type seen struct {
		Agent     admission.Agent
		Tenant    admission.Tenant
		Principal string
		Harness   occkit.Harness
		Mode      occkit.Mode
		Compute   admission.ComputeIdentity
		Models    []string
		Paths     []string
		Runtimes  []occkit.Harness
		Fallbacks int
		Channels  []string
		Bindings  []occkit.SecretBinding
		Release   admission.Release
		Level     string
	}
	var got seen
	a := ruleAdmitter(t, 0, admission.RuleFunc("company/look", func(_ context.Context, v *admission.View) error {
		got = seen{Agent: v.Agent(), Tenant: v.Tenant(), Principal: v.Principal(), Harness: v.Harness(), Mode: v.Mode(),
			Compute: v.Compute(), Fallbacks: len(v.Fallbacks()), Release: v.Release(),
			Level: v.Document().Get(occkit.NewPath("logging", "level")).String(), Bindings: v.SecretBindings()}
		for _, m := range v.Models() {
			got.Models = append(got.Models, m.Provider+" "+m.ID)
			got.Paths = append(got.Paths, m.Path.String())
			got.Runtimes = append(got.Runtimes, m.Runtime)
		}
		for _, c := range v.Channels() {
			got.Channels = append(got.Channels, c.ID+"@"+c.Path.String())
		}
		return nil
	}))
	req := embeddedRequest(`{"agents":{"defaults":{"model":{"primary":"Anthropic/claude-sonnet-4-6","fallbacks":["anthropic/claude-haiku-4-5"]}}},
	  "channels":{"defaults":{"groupPolicy":"open"},"slack":{"enabled":true,"botToken":"${SLACK_BOT_TOKEN}"},"telegram":{"enabled":false},"discord":{}}}`)
	req.Agent.NamespaceID = "ns_prod"
	req.Agent.HarnessAuth.Source.NamespaceID = "ns_prod"
	req.Agent.Labels = map[string]string{"env": "production"}
	req.Tenant = admission.Tenant{ID: "tnt_1", Labels: map[string]string{"plan": "enterprise"}}
	req.SecretBindings = []occkit.SecretBinding{{Env: "SLACK_BOT_TOKEN", Source: occkit.SourceRef{Kind: occkit.SourceSecret, NamespaceID: "ns_prod", ID: "sec_slack"}}}
	if _, err := a.Admit(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	want := seen{
		Agent: admission.Agent{ID: "agt_1", ConfigurationID: "cfg_1", ExecutionMode: occkit.ModeEmbedded,
			HarnessAuth: req.Agent.HarnessAuth, NamespaceID: "ns_prod", Labels: map[string]string{"env": "production"}},
		Tenant:    admission.Tenant{ID: "tnt_1", Labels: map[string]string{"plan": "enterprise"}},
		Principal: "user_1", Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeEmbedded,
		Compute:   admission.ComputeIdentity{Kind: occkit.ComputeKubernetes, ID: "k8s"},
		Models:    []string{"anthropic claude-sonnet-4-6", "anthropic claude-haiku-4-5"},
		Paths:     []string{"agents.defaults.model.primary", "agents.defaults.model.fallbacks[0]"},
		Runtimes:  []occkit.Harness{occkit.HarnessOpenClaw, occkit.HarnessOpenClaw},
		Fallbacks: 1,
		Channels:  []string{"slack@channels.slack", "discord@channels.discord"},
		Bindings:  req.SecretBindings,
		Release:   admission.Release{Harness: occkit.HarnessOpenClaw, Version: "2026.9.6", OpenClawSchema: got.Release.OpenClawSchema},
		Level:     "warn", // the stamped document
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("view (-want +got):\n%s", diff)
	}
	if got.Release.OpenClawSchema == "" {
		t.Error("the view names no OpenClaw schema release")
	}
}

// A rule cannot change what another rule or the revision sees.
func TestRuleViewIsReadOnly(t *testing.T) {
	mutate := admission.RuleFunc("company/mutate", func(_ context.Context, v *admission.View) error {
		v.Agent().Labels["env"] = "dev"
		v.Tenant().Labels["plan"] = "free"
		ms := v.Models()
		ms[0].Provider = "google"
		bs := v.SecretBindings()
		bs[0].Env = "X"
		return nil
	})
	var after []string
	check := admission.RuleFunc("company/check", func(_ context.Context, v *admission.View) error {
		after = []string{v.Agent().Labels["env"], v.Tenant().Labels["plan"], v.Primary().Provider, v.SecretBindings()[0].Env}
		return nil
	})
	req := embeddedRequest(`{"agents":{"defaults":{"model":"anthropic/claude-sonnet-4-6"}},"channels":{"slack":{"botToken":"${SLACK}"}}}`)
	req.Agent.Labels = map[string]string{"env": "production"}
	req.Tenant.Labels = map[string]string{"plan": "enterprise"}
	req.SecretBindings = []occkit.SecretBinding{{Env: "SLACK", Source: secretRef}}
	rev, err := ruleAdmitter(t, 0, mutate, check).Admit(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"production", "enterprise", "anthropic", "SLACK"}, after); diff != "" {
		t.Error(diff)
	}
	if req.Agent.Labels["env"] != "production" || rev.SecretBindings()[0].Env != "SLACK" {
		t.Error("a rule changed the request or the revision")
	}
}

// A refusal carries the rule's name, its path and the position in the file
// the Configuration was loaded from; every rule runs and the refusals come
// back together; the rules that held are in Explain.
func TestRuleRefusal(t *testing.T) {
	src := "{\n  agents: {\n    defaults: {\n      model: {\n        primary: 'anthropic/claude-sonnet-4-6',\n        fallbacks: ['anthropic/a', 'anthropic/b'],\n      },\n    },\n  },\n}\n"
	doc, err := compile.Load([]byte(src), compile.LoadOptions{Filename: "agent.json5"})
	if err != nil {
		t.Fatal(err)
	}
	onlyGoogle := admission.RuleFunc("company/only-google", func(_ context.Context, v *admission.View) error {
		for _, m := range v.Models() {
			if m.Provider != "google" {
				return occkit.Invalid("", m.Path, "only google models")
			}
		}
		return nil
	})
	atMostOne := admission.RuleFunc("company/one-fallback", func(_ context.Context, v *admission.View) error {
		if n := len(v.Fallbacks()); n > 1 {
			// A rule may not speak for occkit: its own name replaces the rule it gives.
			return &occkit.Error{Code: occkit.CodeResourceConflict, Rule: "RES-7",
				Path: occkit.NewPath("agents", "defaults", "model", "fallbacks"), Detail: "at most one fallback"}
		}
		return nil
	})
	embeddedOnly := admission.RuleFunc("company/embedded", func(_ context.Context, v *admission.View) error {
		if v.Mode() != occkit.ModeEmbedded {
			return occkit.Invalid("", occkit.Root(), "embedded only")
		}
		return nil
	})
	a := ruleAdmitter(t, 0, onlyGoogle, atMostOne, embeddedOnly)
	req := embeddedRequest(embeddedConfig)
	req.Configuration = admission.StaticConfiguration{ID: "cfg_1", Generation: 1, Document: doc}
	_, err = a.Admit(context.Background(), req)
	type got struct{ Code, Rule, Path, Pos string }
	var gots []got
	for _, e := range occkit.Errors(err) {
		gots = append(gots, got{string(e.Code), e.Rule, e.Path.String(), e.Position.String()})
	}
	want := []got{
		// occkit.Errors' order: by path.
		{"RESOURCE_CONFLICT", "company/one-fallback", "agents.defaults.model.fallbacks", "agent.json5:6:9"},
		{"INVALID_REQUEST", "company/only-google", "agents.defaults.model.primary", "agent.json5:5:9"},
	}
	if diff := cmp.Diff(want, gots); diff != "" {
		t.Errorf("refusals (-want +got):\n%s", diff)
	}

	a = ruleAdmitter(t, 0, embeddedOnly, admission.RuleFunc("company/anything", func(context.Context, *admission.View) error { return nil }))
	rev, err := a.Admit(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := rev.Explain(&b); err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{"  company/embedded (request): held\n", "  company/anything (request): held\n", "  RES-3 agents.defaults.model.primary"} {
		if !strings.Contains(b.String(), line) {
			t.Errorf("Explain lacks %q:\n%s", line, b.String())
		}
	}
}

// bounded makes a rule a SelfBoundedRule: admission runs it in its own
// goroutine.
type bounded struct{ admission.Rule }

func (bounded) SelfBounded() bool { return true }

// A rule that panics, returns a plain error, overruns its budget or ignores
// its context is a fault of the rule, named, with none of its text; it never
// takes admission down. So too for a SelfBoundedRule, which admission runs
// itself: its overrun is found when it returns.
func TestRuleContained(t *testing.T) {
	const secretText = "sk-live-do-not-show"
	block := make(chan struct{})
	defer close(block)
	var started atomic.Int32
	for _, tc := range []struct {
		name string
		rule func(context.Context, *admission.View) error
		want occkit.ErrorMatcher
		// selfBounded also runs the case as a SelfBoundedRule.
		selfBounded bool
	}{
		{"panic", func(context.Context, *admission.View) error { panic(secretText) },
			occkit.ErrorMatcher{Code: occkit.CodeInternal, Rule: "company/r"}, true},
		{"plain error", func(context.Context, *admission.View) error { return errors.New(secretText) },
			occkit.ErrorMatcher{Code: occkit.CodeInternal, Rule: "company/r"}, true},
		{"wrapped plain error", func(context.Context, *admission.View) error {
			return occkit.Join(errors.New(secretText), occkit.Invalid("", occkit.NewPath("agents"), "no"))
		}, occkit.ErrorMatcher{Code: occkit.CodeInternal, Rule: "company/r"}, true},
		{"deadline honoured", func(ctx context.Context, _ *admission.View) error { <-ctx.Done(); return ctx.Err() },
			occkit.ErrorMatcher{Code: occkit.CodeDependencyUnavailable, Rule: "company/r"}, true},
		{"deadline polled", func(ctx context.Context, _ *admission.View) error {
			for ctx.Err() == nil {
				time.Sleep(time.Millisecond)
			}
			return ctx.Err()
		}, occkit.ErrorMatcher{Code: occkit.CodeDependencyUnavailable, Rule: "company/r"}, true},
		{"overran, then admitted", func(context.Context, *admission.View) error { time.Sleep(40 * time.Millisecond); return nil },
			occkit.ErrorMatcher{Code: occkit.CodeDependencyUnavailable, Rule: "company/r"}, true},
		{"deadline ignored", func(context.Context, *admission.View) error { started.Add(1); <-block; return nil },
			occkit.ErrorMatcher{Code: occkit.CodeDependencyUnavailable, Rule: "company/r"}, false},
	} {
		kinds := []string{"goroutine"}
		if tc.selfBounded {
			kinds = append(kinds, "self-bounded")
		}
		for _, kind := range kinds {
			t.Run(tc.name+"/"+kind, func(t *testing.T) {
				rule := admission.RuleFunc("company/r", tc.rule)
				if kind == "self-bounded" {
					rule = bounded{rule}
				}
				var after atomic.Int32
				next := admission.RuleFunc("company/after", func(context.Context, *admission.View) error { after.Add(1); return nil })
				rev, err := ruleAdmitter(t, 20*time.Millisecond, rule, next).Admit(context.Background(), embeddedRequest(embeddedConfig))
				if rev != nil {
					t.Fatal("a revision despite a faulty rule")
				}
				if err := tc.want.Check(err); err != nil {
					t.Error(err)
				}
				if strings.Contains(fmt.Sprint(err), secretText) || !strings.Contains(fmt.Sprint(err), "company/r") {
					t.Errorf("message %q", err)
				}
				if tc.want.Code == occkit.CodeInternal && occkit.First(err).Unwrap() == nil {
					t.Error("the cause is not reachable")
				}
				if overran := tc.want.Code == occkit.CodeDependencyUnavailable; overran != (after.Load() == 0) {
					t.Errorf("the rule after it ran %d times", after.Load())
				}
			})
		}
	}
	if started.Load() != 1 {
		t.Errorf("the stuck rule started %d times", started.Load())
	}
}

// Rules run in registration order whichever way admission runs them, and
// their refusals and held reasons come back in that order.
func TestRulesMixedOrder(t *testing.T) {
	var order []string
	rule := func(name string, refuse, selfBounded bool) admission.Rule {
		r := admission.RuleFunc(name, func(context.Context, *admission.View) error {
			order = append(order, name)
			if refuse {
				return occkit.Invalid("", occkit.Root(), "no")
			}
			return nil
		})
		if selfBounded {
			return bounded{r}
		}
		return r
	}
	rules := []admission.Rule{
		rule("company/a", true, true), rule("company/b", false, false), rule("company/c", true, false),
		rule("company/d", false, true), rule("company/e", true, true), rule("company/f", false, false),
	}
	_, err := ruleAdmitter(t, 0, rules...).Admit(context.Background(), embeddedRequest(embeddedConfig))
	var refused []string
	for _, e := range occkit.Errors(err) {
		refused = append(refused, e.Rule)
	}
	if diff := cmp.Diff([]string{"company/a", "company/c", "company/e"}, refused); diff != "" {
		t.Errorf("refusals (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"company/a", "company/b", "company/c", "company/d", "company/e", "company/f"}, order); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
	order = nil
	rev, err := ruleAdmitter(t, 0, rule("company/a", false, true), rule("company/b", false, false), rule("company/c", false, true)).
		Admit(context.Background(), embeddedRequest(embeddedConfig))
	if err != nil {
		t.Fatal(err)
	}
	var held []string
	for _, r := range rev.Reasons() {
		if strings.HasPrefix(r.Rule, "company/") {
			held = append(held, r.Rule)
		}
	}
	if diff := cmp.Diff([]string{"company/a", "company/b", "company/c"}, held); diff != "" {
		t.Errorf("held (-want +got):\n%s", diff)
	}
}

// A rule's context carries its deadline, within RuleTimeout, and is done
// once the rule has returned, for a context derived from it too.
func TestRuleContext(t *testing.T) {
	for _, selfBounded := range []bool{false, true} {
		t.Run(fmt.Sprintf("selfBounded=%v", selfBounded), func(t *testing.T) {
			var kept, derived context.Context
			cancel := func() {}
			defer func() { cancel() }()
			var deadline time.Time
			var hasDeadline bool
			var during error
			start := time.Now()
			var rule admission.Rule = admission.RuleFunc("company/ctx", func(ctx context.Context, _ *admission.View) error {
				kept, during = ctx, ctx.Err()
				deadline, hasDeadline = ctx.Deadline()
				derived, cancel = context.WithCancel(ctx)
				return nil
			})
			var untouched context.Context // asked nothing while the rule ran
			var keep admission.Rule = admission.RuleFunc("company/keep", func(ctx context.Context, _ *admission.View) error {
				untouched = ctx
				return nil
			})
			if selfBounded {
				rule, keep = bounded{rule}, bounded{keep}
			}
			if _, err := ruleAdmitter(t, time.Hour, rule, keep).Admit(context.Background(), embeddedRequest(embeddedConfig)); err != nil {
				t.Fatal(err)
			}
			returned(t, untouched)
			if during != nil {
				t.Errorf("Err during the rule: %v", during)
			}
			if !hasDeadline || deadline.Before(start.Add(time.Hour)) || deadline.After(time.Now().Add(time.Hour)) {
				t.Errorf("deadline %v (%v), want an hour from the rule's start", deadline, hasDeadline)
			}
			returned(t, kept)
			select {
			case <-derived.Done():
			case <-time.After(10 * time.Second):
				t.Error("a context derived from the rule's is not done after it returned")
			}
		})
	}
}

// returned checks that ctx, a rule's context, is done once the rule has
// returned: Err first, then Done.
func returned(t *testing.T, ctx context.Context) {
	t.Helper()
	if ctx.Err() == nil {
		t.Error("Err is nil after the rule returned")
	}
	select {
	case <-ctx.Done():
	default:
		t.Error("the rule's context is not done after it returned")
	}
}

// Memo builds once per admission, for every rule of it, whichever
// goroutine runs the rule, and anew for the next admission.
func TestViewMemo(t *testing.T) {
	type key struct{}
	var builds atomic.Int32
	var seen []any
	memo := func(_ context.Context, v *admission.View) error {
		seen = append(seen, v.Memo(key{}, func() any { builds.Add(1); return new(int) }))
		return nil
	}
	a := ruleAdmitter(t, 0, admission.RuleFunc("company/a", memo), bounded{admission.RuleFunc("company/b", memo)},
		admission.RuleFunc("company/c", memo))
	for range 2 {
		if _, err := a.Admit(context.Background(), embeddedRequest(embeddedConfig)); err != nil {
			t.Fatal(err)
		}
	}
	if builds.Load() != 2 || len(seen) != 6 || seen[0] != seen[1] || seen[1] != seen[2] || seen[2] == seen[3] || seen[3] != seen[5] {
		t.Errorf("%d builds, values %v", builds.Load(), seen)
	}
	var view *admission.View
	capture := admission.RuleFunc("company/capture", func(_ context.Context, v *admission.View) error { view = v; return nil })
	if _, err := ruleAdmitter(t, 0, capture).Admit(context.Background(), embeddedRequest(embeddedConfig)); err != nil {
		t.Fatal(err)
	}
	builds.Store(0)
	got := make([]any, 8)
	var wg sync.WaitGroup
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i] = view.Memo(key{}, func() any { builds.Add(1); return new(int) })
		}()
	}
	wg.Wait()
	for _, g := range got {
		if g != got[0] {
			t.Fatalf("concurrent Memo calls returned different values: %v", got)
		}
	}
	if n := builds.Load(); n < 1 || n > int32(len(got)) {
		t.Errorf("%d builds", n)
	}
}

// A cancelled admission is 503 ADM-1, whatever the rule says.
func TestRuleCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	a := ruleAdmitter(t, time.Minute, admission.RuleFunc("company/r", func(rctx context.Context, _ *admission.View) error {
		cancel()
		<-rctx.Done()
		return occkit.Invalid("", occkit.Root(), "refused")
	}))
	_, err := a.Admit(ctx, embeddedRequest(embeddedConfig))
	if err := (occkit.ErrorMatcher{Code: occkit.CodeDependencyUnavailable, Rule: "ADM-1"}).Check(err); err != nil {
		t.Error(err)
	}
}

// Rules run only for a deployment occkit itself admits: a Configuration
// occkit refuses never reaches them.
func TestRulesRunAfterOccKit(t *testing.T) {
	ran := 0
	a := ruleAdmitter(t, 0, admission.RuleFunc("company/count", func(context.Context, *admission.View) error { ran++; return nil }))
	if _, err := a.Admit(context.Background(), embeddedRequest(`{"agents":{"defaults":{"model":"openai/gpt-5"}}}`)); err == nil {
		t.Fatal("admitted openai without policy (RES-6)")
	}
	req := embeddedRequest(embeddedConfig)
	req.Agent.HarnessAuth = occkit.Binding{Method: occkit.MethodRuntime}
	if _, err := a.Admit(context.Background(), req); err == nil {
		t.Fatal("admitted runtime auth on Kubernetes (AUTH-4)")
	}
	if ran != 0 {
		t.Errorf("the rule ran %d times for refused deployments", ran)
	}
}

// Rules do not change the revision: its digest is the one admitted without
// them.
func TestRulesKeepTheDigest(t *testing.T) {
	req := embeddedRequest(embeddedConfig)
	plain, err := newAdmitter(t, allow()).Admit(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	ruled, err := ruleAdmitter(t, 0, admission.RuleFunc("company/ok", func(context.Context, *admission.View) error { return nil })).
		Admit(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if plain.Digest() != ruled.Digest() {
		t.Error("a rule that held changed the digest")
	}
}
