package celrules_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/admission"
	"github.com/occkit/occkit/admission/celrules"
	"github.com/occkit/occkit/compile"
)

const (
	anthropic = `{agents: {defaults: {model: {primary: "anthropic/claude-sonnet-4-6", fallbacks: ["anthropic/claude-haiku-4-5"]}}}, channels: {slack: {enabled: true}}}`
	codex     = `{
  agents: {
    defaults: {model: "openai/gpt-5", models: {"openai/gpt-5": {agentRuntime: {id: "codex"}}}},
    entries: {main: {}},
  },
  plugins: {entries: {codex: {enabled: true, config: {appServer: {transport: "websocket"}}}}},
}`
)

var apiKey = occkit.Binding{Method: occkit.MethodAPIKey, Source: occkit.SourceRef{Kind: occkit.SourceSecret, NamespaceID: "ns_1", ID: "sec_1"}}

func admitter(t testing.TB, rules []admission.Rule) *admission.Admitter {
	t.Helper()
	a, err := admission.New(admission.Options{
		Authorizer:      admission.AuthorizerFunc(func(context.Context, admission.AuthorizeRequest) error { return nil }),
		HarnessVersions: map[occkit.Harness]string{occkit.HarnessOpenClaw: "2026.9.6", occkit.HarnessCodex: "0.171.0"},
		Rules:           rules,
	})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

type deployment struct {
	src     string
	mode    occkit.Mode
	ns      string
	labels  map[string]string
	tenant  admission.Tenant
	binding occkit.Binding
}

func (d deployment) request(t testing.TB) admission.Request {
	t.Helper()
	doc, err := compile.Load([]byte(d.src), compile.LoadOptions{Filename: "agent.json5"})
	if err != nil {
		t.Fatal(err)
	}
	b := d.binding
	if b.IsZero() {
		b = apiKey
	}
	if d.ns != "" {
		b.Source.NamespaceID = d.ns
	}
	return admission.Request{
		Agent: admission.Agent{ID: "main", ConfigurationID: "cfg", ExecutionMode: d.mode, HarnessAuth: b,
			NamespaceID: d.ns, Labels: d.labels},
		Tenant:        d.tenant,
		Configuration: admission.StaticConfiguration{ID: "cfg", Generation: 1, Document: doc},
		Compute:       admission.ComputeInfo{Kind: occkit.ComputeKubernetes},
	}
}

// The five rules of the issue, written in the rule file format, decide as
// a platform team means them.
func TestCompanyRules(t *testing.T) {
	rules, err := celrules.Load("testdata/company.yaml", celrules.Options{})
	if err != nil {
		t.Fatalf("%+v", err)
	}
	a := admitter(t, rules)
	many := `{agents: {defaults: {model: {primary: "anthropic/a", fallbacks: ["anthropic/b", "anthropic/c", "anthropic/d", "anthropic/e"]}}}}`
	type refusal struct{ Rule, Path, Pos string }
	for _, tc := range []struct {
		name string
		d    deployment
		want []refusal
	}{
		{"anthropic and google in production", deployment{src: anthropic, ns: "ns_prod_eu", labels: map[string]string{"env": "production"}}, nil},
		{"codex in a production namespace", deployment{src: codex, mode: occkit.ModeDedicated, ns: "ns_prod_eu"},
			[]refusal{{"company/dedicated-needs-enterprise", "", ""}, {"company/no-codex-in-prod", "agents.defaults.model", "agent.json5:3:16"},
				{"company/only-anthropic-and-google", "agents.defaults.model", "agent.json5:3:16"}}},
		{"codex labelled production", deployment{src: codex, mode: occkit.ModeDedicated, ns: "ns_dev", labels: map[string]string{"env": "production"},
			tenant: admission.Tenant{Labels: map[string]string{"plan": "enterprise"}}},
			[]refusal{{"company/no-codex-in-prod", "agents.defaults.model", "agent.json5:3:16"},
				{"company/only-anthropic-and-google", "agents.defaults.model", "agent.json5:3:16"}}},
		{"dedicated without the enterprise plan", deployment{src: codex, mode: occkit.ModeDedicated, ns: "ns_dev",
			tenant: admission.Tenant{ID: "tnt_1", Labels: map[string]string{"plan": "team"}}},
			[]refusal{{"company/dedicated-needs-enterprise", "", ""},
				{"company/only-anthropic-and-google", "agents.defaults.model", "agent.json5:3:16"}}},
		{"a second channel for the Slack-only tenant", deployment{src: `{agents: {defaults: {model: "anthropic/a"}},
  channels: {slack: {enabled: true}, telegram: {enabled: true}}}`, tenant: admission.Tenant{ID: "tnt_acme"}},
			[]refusal{{"company/acme-slack-only", "channels", "agent.json5:2:3"}}},
		{"a disabled channel for the Slack-only tenant", deployment{src: `{agents: {defaults: {model: "anthropic/a"}},
  channels: {slack: {enabled: true}, telegram: {enabled: false}}}`, tenant: admission.Tenant{ID: "tnt_acme"}}, nil},
		{"four fallbacks", deployment{src: many},
			[]refusal{{"company/at-most-three-fallbacks", "agents.defaults.model.fallbacks", "agent.json5:1:54"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := a.Admit(context.Background(), tc.d.request(t))
			var got []refusal
			for _, e := range occkit.Errors(err) {
				if e.Code != occkit.CodeInvalidRequest {
					t.Errorf("code %s: %v", e.Code, e)
				}
				got = append(got, refusal{e.Rule, e.Path.String(), e.Position.String()})
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("refusals (-want +got):\n%s", diff)
			}
		})
	}
}

func compileOne(t *testing.T, expr string) admission.Rule {
	t.Helper()
	rules, err := celrules.Compile([]celrules.Spec{{Name: "company/r", Expression: expr, Message: "refused", Path: "agents"}}, celrules.Options{})
	if err != nil {
		t.Fatalf("%s: %+v", expr, err)
	}
	return rules[0]
}

// The document is read where the expression reaches, with JSON's types;
// the other variables are those of the view.
func TestVariables(t *testing.T) {
	d := deployment{
		src: `{agents: {defaults: {model: {primary: "anthropic/claude-sonnet-4-6@work", fallbacks: ["anthropic/b"]}, maxConcurrent: 4,
  models: {"anthropic/claude-sonnet-4-6": {alias: "sonnet", agentRuntime: {id: "openclaw"}}, "anthropic/b": {agentRuntime: {id: "openclaw"}}}}}, channels: {slack: {}, discord: {enabled: false}}}`,
		ns: "ns_1", labels: map[string]string{"team": "a"}, tenant: admission.Tenant{ID: "tnt_1", Labels: map[string]string{"plan": "pro"}},
	}
	for _, expr := range []string{
		`agent.id == "main" && agent.configurationId == "cfg" && agent.namespaceId == "ns_1" && agent.labels == {"team": "a"}`,
		`tenant.id == "tnt_1" && tenant.labels.plan == "pro" && principal == ""`,
		`harness == "openclaw" && mode == "embedded" && compute.kind == "kubernetes" && compute.id == ""`,
		`primary.ref == "anthropic/claude-sonnet-4-6@work" && primary.provider == "anthropic" && primary.id == "claude-sonnet-4-6" && primary.profile == "work"`,
		`primary.runtime == "openclaw" && primary.path == "agents.defaults.model.primary"`,
		`fallbacks.map(f, f.path) == ["agents.defaults.model.fallbacks[0]"] && size(models) == 2 && models[1].id == "b"`,
		`channels == ["slack"] && secretBindings == []`,
		`release.harness == "openclaw" && release.version == "2026.9.6" && release.openclawSchema != ""`,
		`document.agents.defaults.maxConcurrent == 4 && document.agents.defaults.maxConcurrent < 8.5`,
		`has(document.agents.defaults.models) && "anthropic/b" in document.agents.defaults.models && !has(document.gateway)`,
		`document.agents.defaults.models.exists(k, document.agents.defaults.models[k].?alias.orValue("") == "sonnet")`,
		`document.agents.defaults.models.all(k, document.agents.defaults.models[k].agentRuntime.id == harness) && !document.agents.defaults.models.all(k, has(document.agents.defaults.models[k].alias))`,
		`document.agents.defaults.models["anthropic/b"] == {"agentRuntime": {"id": "openclaw"}} && size(document.agents.defaults.models) == 2 && document.agents.defaults.models.map(k, k) == ["anthropic/claude-sonnet-4-6", "anthropic/b"]`,
		`size(document.agents.defaults.model.fallbacks) == 1 && document.agents.defaults.model.fallbacks[0] == "anthropic/b"`,
		`document.logging.level == "info" && document.?missing.orValue("none") == "none"`,
		`document.channels == {"slack": {}, "discord": {"enabled": false}}`,
		`type(document) == map && type(document.agents.defaults.model.fallbacks) == list && dyn(document.channels) == document.channels`,
		`document.agents.defaults.model.fallbacks + ["x"] == ["anthropic/b", "x"] && "anthropic/b" in document.agents.defaults.model.fallbacks`,
	} {
		t.Run(expr, func(t *testing.T) {
			_, err := admitter(t, []admission.Rule{compileOne(t, expr)}).Admit(context.Background(), d.request(t))
			if err != nil {
				t.Errorf("%v", err)
			}
		})
	}
}

// An expression that fails to evaluate, or costs more than its limit, is
// the rule's fault: 500 naming the rule, none of CEL's text.
func TestEvaluationFaults(t *testing.T) {
	d := deployment{src: anthropic}
	costly := []celrules.Spec{{Name: "company/costly", Message: "m",
		Expression: `[1,2,3,4,5,6,7,8,9,10].all(a, [1,2,3,4,5,6,7,8,9,10].all(b, [1,2,3,4,5,6,7,8,9,10].all(c, a + b + c > 0)))`}}
	tight, err := celrules.Compile(costly, celrules.Options{CostLimit: 100})
	if err != nil {
		t.Fatal(err)
	}
	loose, err := celrules.Compile(costly, celrules.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := admitter(t, loose).Admit(context.Background(), d.request(t)); err != nil {
		t.Errorf("within the default limit: %v", err)
	}
	for name, rule := range map[string]admission.Rule{
		"missing key":   compileOne(t, `agent.labels.env == "production"`),
		"missing field": compileOne(t, `document.gateway.port == 1`),
		"cost limit":    tight[0],
	} {
		t.Run(name, func(t *testing.T) {
			_, err := admitter(t, []admission.Rule{rule}).Admit(context.Background(), d.request(t))
			want := occkit.ErrorMatcher{Code: occkit.CodeInternal, Rule: rule.Name()}
			if err := want.Check(err); err != nil {
				t.Error(err)
			}
			if msg := fmt.Sprint(err); strings.Contains(msg, "env") || strings.Contains(msg, "gateway") || strings.Contains(msg, "limit") {
				t.Errorf("the refusal repeats CEL's text: %s", msg)
			}
		})
	}
}

// Compile errors name the rule and the member, and are placed at the
// fault inside the expression, in the rule file.
func TestCompileErrorPositions(t *testing.T) {
	type problem struct{ Rule, Path, Pos string }
	for _, tc := range []struct {
		name, src string
		want      []problem
		mentions  string
	}{
		{"plain scalar", "rules:\n  - name: company/a\n    expression: harnes == \"codex\"\n    message: m\n",
			[]problem{{"company/a", "rules[0].expression", "r.yaml:3:17"}}, `did you mean harness?`},
		{"quoted scalar", "rules:\n  - name: company/a\n    expression: 'mode == \"x\" && primary.provder == \"a\"'\n    message: m\n",
			[]problem{{"company/a", "rules[0].expression", "r.yaml:3:40"}}, "provder"},
		{"literal block", "rules:\n  - name: company/a\n    expression: |\n      mode == \"dedicated\" &&\n        size(fallbacks) > \"3\"\n    message: m\n",
			[]problem{{"company/a", "rules[0].expression", "r.yaml:5:25"}}, "no matching overload"},
		{"JSON", `{"rules": [{"name": "company/a", "message": "m", "expression": "models.all(m, m.provider ==)"}]}`,
			[]problem{{"company/a", "rules[0].expression", "r.yaml:1:92"}}, "Syntax error"},
		{"not a bool", "rules:\n  - name: company/a\n    expression: size(models)\n    message: m\n",
			[]problem{{"company/a", "rules[0].expression", "r.yaml:3:17"}}, "must be a bool"},
		{"escaped scalar", "rules:\n  - name: company/a\n    expression: \"mode == \\\"x\\\" && nope\"\n    message: m\n",
			[]problem{{"company/a", "rules[0].expression", "r.yaml:3:17"}}, "nope"},
		{"bad name, message and path", "rules:\n  - name: RES-7\n    expression: 'true'\n    message: ' '\n    path: 'a..b'\n",
			[]problem{{"", "rules[0].message", "r.yaml:4:14"}, {"", "rules[0].name", "r.yaml:2:11"}, {"", "rules[0].path", "r.yaml:5:11"}}, "namespace/name"},
		{"twice", "rules:\n  - {name: company/a, expression: 'true', message: m}\n  - {name: company/a, expression: 'true', message: m}\n",
			[]problem{{"company/a", "rules[1].name", "r.yaml:3:12"}}, "twice"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			specs, err := celrules.Parse("r.yaml", []byte(tc.src))
			if err != nil {
				t.Fatalf("%+v", err)
			}
			_, err = celrules.Compile(specs, celrules.Options{})
			var got []problem
			for _, e := range occkit.Errors(err) {
				if e.Code != occkit.CodeInvalidRequest {
					t.Errorf("code %s", e.Code)
				}
				got = append(got, problem{e.Rule, e.Path.String(), e.Position.String()})
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
			if !strings.Contains(fmt.Sprint(err), tc.mentions) {
				t.Errorf("message %q lacks %q", err, tc.mentions)
			}
		})
	}
}

func TestParseRefusals(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		path, pos string
		mentions  string
	}{
		{"empty", "", "", "r.yaml", "empty"},
		{"syntax", "rules: [", "", "r.yaml", "not YAML"},
		{"list at the top", "- name: company/a\n", "", "r.yaml:1:1", "mapping"},
		{"misspelt top key", "rulez: []\n", "rulez", "r.yaml:1:1", "did you mean rules?"},
		{"misspelt member", "rules:\n  - name: company/a\n    expresion: 'true'\n    message: m\n", "rules[0].expresion", "r.yaml:3:5", "did you mean expression?"},
		{"missing expression", "rules:\n  - name: company/a\n    message: m\n", "rules[0]", "r.yaml:2:5", "lacks expression"},
		{"not a string", "rules:\n  - name: company/a\n    expression: true\n    message: m\n", "rules[0].expression", "r.yaml:3:17", "must be a string"},
		{"repeated key", "rules:\n  - name: company/a\n    name: company/b\n    expression: 'true'\n    message: m\n", "rules[0].name", "r.yaml:3:5", "twice"},
		{"alias", "x: &a 'true'\nrules:\n  - {name: company/a, expression: *a, message: m}\n", "", "r.yaml:1:4", "aliases"},
		{"two documents", "rules: []\n---\nrules: []\n", "", "r.yaml", "more than one"},
		{"rules not a list", "rules: {}\n", "rules", "r.yaml:1:8", "must be a list"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := celrules.Parse("r.yaml", []byte(tc.src))
			e := occkit.First(err)
			if e == nil {
				t.Fatal("parsed")
			}
			if e.Code != occkit.CodeInvalidRequest || e.Path.String() != tc.path || e.Position.String() != tc.pos {
				t.Errorf("got %s at %q %s, want %q %s", e.Code, e.Path, e.Position, tc.path, tc.pos)
			}
			if !strings.Contains(fmt.Sprint(err), tc.mentions) {
				t.Errorf("message %q lacks %q", err, tc.mentions)
			}
		})
	}
	if _, err := celrules.Load("testdata/none.yaml", celrules.Options{}); occkit.First(err) == nil || occkit.First(err).Code != occkit.CodeInvalidRequest {
		t.Errorf("a missing file: %v", err)
	}
	big := "rules:\n" + strings.Repeat("# pad\n", celrules.MaxFileBytes/6+1)
	if _, err := celrules.Parse("r.yaml", []byte(big)); err == nil {
		t.Error("a file past the limit was parsed")
	}
	long := []celrules.Spec{{Name: "company/a", Message: "m", Expression: strings.Repeat(" ", celrules.MaxExpressionBytes) + "true"}}
	if _, err := celrules.Compile(long, celrules.Options{}); err == nil {
		t.Error("an expression past the limit was compiled")
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte("rules:\n  - name: company/a\n    expression: |\n      size(models) > 0\n    message: m\n"))
	f.Add([]byte(`{"rules": [{"name": "company/a", "message": "m", "expression": "harness == \"codex\"", "path": "/agents"}]}`))
	f.Add([]byte("rules: [{name: a/b, expression: '\\u00e9 ==', message: m}]"))
	f.Fuzz(func(t *testing.T, src []byte) {
		specs, err := celrules.Parse("f.yaml", src)
		if err != nil {
			for _, e := range occkit.Errors(err) {
				if e.Code != occkit.CodeInvalidRequest {
					t.Fatalf("code %s: %v", e.Code, e)
				}
			}
			return
		}
		if _, err := celrules.Compile(specs, celrules.Options{}); err != nil {
			for _, e := range occkit.Errors(err) {
				if e.Code != occkit.CodeInvalidRequest || e.Path.IsRoot() {
					t.Fatalf("compile: %s at %q: %v", e.Code, e.Path, e)
				}
			}
		}
	})
}
