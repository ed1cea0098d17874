package compile_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/compile"
)

// preparedDocs are documents whose plans render or are refused at each
// step a plan takes: the gateway section, plugin entries, the Codex
// app-server, variables referenced, defined and bound, literals.
var preparedDocs = []string{
	`{}`,
	`{"agents":{"defaults":{"model":"anthropic/claude-sonnet-4-6"}},"channels":{"telegram":{"botToken":"${TELEGRAM_BOT_TOKEN}"}}}`,
	`{"agents":{"defaults":{"model":"openai/gpt-5"},"entries":{"main":{"workspace":"/w"}}},"channels":{"discord":{"enabled":true},"slack":{"botToken":"${SLACK}"}},"env":{"SLACK":"x"}}`,
	`{"gateway":{"mode":"remote","port":1,"auth":{"mode":"password","password":"${GW_PASSWORD}"}},"channels":{"msteams":{}}}`,
	`{"gateway":"lan"}`,
	`{"channels":{"discord":{}},"plugins":{"entries":{"discord":true}}}`,
	`{"channels":{"discord":{}},"plugins":{"entries":"x"}}`,
	`{"channels":{"slack":{}},"plugins":{"entries":{"slack":{"config":{"x":1}}},"allow":["tavily"]}}`,
	`{"channels":{"slack":{}},"plugins":{"entries":{"slack":{"enabled":true}},"deny":["discord"]}}`,
	`{"plugins":{"entries":{"codex":{"enabled":true,"config":{"appServer":{"transport":"stdio","authToken":"${AUTHOR}"}}}}}}`,
	`{"plugins":{"entries":{"codex":{"config":"x"}}}}`,
	`{"agents":{"defaults":{"model":"codex/gpt-5-codex"}},"memory":{"search":{"remote":{"apiKey":"${MEMORY_KEY}"}}},"channels":{"telegram":{"botToken":"${TELEGRAM_BOT_TOKEN}"}}}`,
	`{"models":{"providers":{"openai":{"apiKey":"${OPENAI_API_KEY}","baseUrl":"https://llm.example/v1"}}},"channels":{"telegram":{"botToken":"${TELEGRAM_BOT_TOKEN}"}},"env":{"vars":{"TELEGRAM_BOT_TOKEN":"${OTHER}"}}}`,
	`{"channels":{"telegram":{"botToken":"123:literal"}}}`,
	// Variables only some placements set: the Codex gateway's app-server
	// token, the node host's private-network setting.
	`{"agents":{"defaults":{"model":"codex/gpt-5-codex"}},"channels":{"telegram":{"botToken":"${OPENCLAW_CODEX_APP_SERVER_TOKEN}"}}}`,
	`{"agents":{"defaults":{"model":"openai/gpt-5"}},"models":{"providers":{"openai":{"apiKey":"${OPENCLAW_ALLOW_INSECURE_PRIVATE_WS}"}}}}`,
	`{"logging":{"level":"debug"}}`,
	`{"agents":[]}`,
}

// rarely draws true now and then (rapid draws the ends of a range more
// often than its middle).
func rarely(t *rapid.T, label string) bool { return rapid.IntRange(0, 7).Draw(t, label) == 5 }

// pick draws from usual, or rarely from unusual.
func pick[V any](t *rapid.T, label string, usual, unusual []V) V {
	if len(unusual) > 0 && rarely(t, label+".unusual") {
		return rapid.SampledFrom(unusual).Draw(t, label)
	}
	return rapid.SampledFrom(usual).Draw(t, label)
}

// preparedOptions draws a placement: defaults and each valid choice,
// now and then a value PlanOptions refuses.
func preparedOptions(t *rapid.T, label string) compile.PlanOptions {
	if rarely(t, label+".zero") {
		return compile.PlanOptions{}
	}
	str := func(name string, usual []string, unusual ...string) string {
		return pick(t, label+"."+name, usual, unusual)
	}
	return compile.PlanOptions{
		Bind:               str("bind", []string{"", compile.BindLoopback, compile.BindLAN}, "public"),
		GatewayPort:        pick(t, label+".gatewayPort", []int{0, 18789}, []int{70000}),
		GatewayHost:        str("gatewayHost", []string{"", "127.0.0.1", "gw.tenant.svc"}, "bad host"),
		AppServerHost:      str("appServerHost", []string{"", "app.tenant.svc"}),
		AppServerPort:      pick(t, label+".appServerPort", []int{0, 4500}, nil),
		AppServerListen:    str("appServerListen", []string{"", "0.0.0.0"}),
		AppServerTokenFile: str("appServerTokenFile", []string{"", "/run/token"}, "run/token"),
		Namespace:          str("namespace", []string{"", "ns"}, "other"),
	}
}

// planOutcome is a plan or its refusal, as cmp compares them.
type planOutcome struct {
	Plan     compile.Plan
	Refusal  string
	Matchers []occkit.ErrorMatcher
}

func outcome(p compile.Plan, err error) planOutcome {
	if err != nil {
		return planOutcome{Refusal: fmt.Sprint(err), Matchers: occkit.MatchersOf(err)}
	}
	return planOutcome{Plan: p}
}

// scribble writes over every part of p a caller could write.
func scribble(p compile.Plan) {
	for i := range p.Processes {
		q := &p.Processes[i]
		for j := range q.Files {
			for k := range q.Files[j].Data {
				q.Files[j].Data[k] = 'x'
			}
			q.Files[j].Name = "scribbled"
		}
		for j := range q.Env {
			q.Env[j] = compile.Env{Name: "SCRIBBLED"}
		}
		for j := range q.Args {
			q.Args[j] = "scribbled"
		}
		for j := range q.Unset {
			q.Unset[j] = "SCRIBBLED"
		}
		for j := range q.Plugins {
			q.Plugins[j] = compile.Plugin{ID: "scribbled"}
		}
		q.Role = "scribbled"
	}
	p.Processes = append(p.Processes[:0], compile.ProcessPlan{Role: "scribbled"})
}

// CMP-4 AUTH-2 AUTH-6 DOC-4: a PreparedPlan refuses exactly what
// CheckPlan refuses, and builds for every placement what BuildPlan builds
// of the same input, the same plan or the same refusal, however the
// earlier plans of either were written over.
func TestPreparedPlanIsBuildPlan(t *testing.T) {
	type doc struct{ stamped, unstamped occkit.Document }
	docs := make([]doc, len(preparedDocs))
	for i, src := range preparedDocs {
		docs[i] = doc{stamped(t, src), occkit.MustParseDocument(src)}
	}
	key := func(ns string) occkit.SourceRef {
		return occkit.SourceRef{Kind: occkit.SourceSecret, NamespaceID: ns, ID: "model-key"}
	}
	bindings := []occkit.SecretBinding{
		planBinding,
		{Env: "MEMORY_KEY", Source: occkit.SourceRef{Kind: occkit.SourceSecret, NamespaceID: "ns", ID: "memory"}},
		{Env: "SLACK", Source: occkit.SourceRef{Kind: occkit.SourceSecret, NamespaceID: "other", ID: "slack"}},
		{Env: "OPENAI_API_KEY", Source: occkit.SourceRef{Kind: occkit.SourceSecret, NamespaceID: "ns", ID: "k"}},
	}
	rapid.Check(t, func(t *rapid.T) {
		i := rapid.IntRange(0, len(docs)-1).Draw(t, "doc")
		d := docs[i]
		top := pick(t, "topology", []occkit.Topology{
			{Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeEmbedded},
			{Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeDedicated},
			{Harness: occkit.HarnessCodex, Mode: occkit.ModeDedicated},
		}, []occkit.Topology{{Harness: occkit.HarnessCodex, Mode: occkit.ModeEmbedded}})
		in := compile.PlanInput{
			Harness: top.Harness, Mode: top.Mode,
			Compute:         rapid.SampledFrom([]occkit.Compute{occkit.ComputeKubernetes, occkit.ComputeSSH, ""}).Draw(t, "compute"),
			DriverLogging:   rapid.Bool().Draw(t, "driverLogging"),
			Level:           pick(t, "level", []occkit.LogLevel{"", occkit.LevelInfo}, []occkit.LogLevel{occkit.LevelDebug}),
			Namespace:       pick(t, "namespace", []string{"", "ns"}, []string{"other"}),
			HarnessVersion:  rapid.SampledFrom([]string{"", "2026.9.6", "2026.8.2"}).Draw(t, "harnessVersion"),
			OpenClawRelease: rapid.SampledFrom([]string{"", "2026.9.6"}).Draw(t, "openclawRelease"),
		}
		in.Document = d.stamped
		if in.DriverLogging {
			in.Document = d.unstamped
		}
		if rapid.Bool().Draw(t, "scan") {
			in.Secrets = compile.ScanSecrets(in.Document, compile.SecretPolicyFor(in.OpenClawRelease))
		}
		switch pick(t, "credentials", []int{0, 1, 3}, []int{2}) {
		case 1:
			in.Credentials.Harness = []occkit.EnvVar{{Name: "OPENAI_API_KEY", From: key("ns")}, {Name: "CODEX_LOGIN_MODE", Value: "api_key"}}
		case 2:
			in.Credentials.Harness = []occkit.EnvVar{{Name: "OPENAI_API_KEY", From: key("other")}}
			in.Credentials.Gateway = []occkit.EnvVar{{Name: "GATEWAY_FLAG", Value: "1"}}
		case 3:
			in.Credentials = occkit.Projection{HostManaged: true, EgressProxy: true,
				Harness: []occkit.EnvVar{{Name: "OPENAI_API_KEY", Placeholder: true}}}
		}
		for j, b := range bindings {
			// Mostly a binding for a variable the document names.
			if strings.Contains(preparedDocs[i], b.Env) != rarely(t, fmt.Sprintf("binding%d", j)) {
				in.SecretBindings = append(in.SecretBindings, b)
			}
		}
		// Admission's placement, the zero one, or another.
		var first compile.PlanOptions
		if rapid.Bool().Draw(t, "prepare.drawn") {
			first = preparedOptions(t, "prepare")
		}
		k, err := compile.PreparePlan(in, first)
		if d := cmp.Diff(outcome(compile.Plan{}, compile.CheckPlan(in, first)), outcome(compile.Plan{}, err)); d != "" {
			t.Fatalf("PreparePlan refuses otherwise than CheckPlan (-CheckPlan +PreparePlan):\n%s", d)
		}
		if (k == nil) != (err != nil) {
			t.Fatalf("PreparePlan = %v, %v", k, err)
		}
		if k == nil {
			return
		}
		for i := range rapid.IntRange(1, 3).Draw(t, "plans") {
			opts := preparedOptions(t, fmt.Sprintf("plan%d", i))
			for range 2 {
				got, gerr := k.Plan(opts)
				want, werr := compile.BuildPlan(in, opts)
				if d := cmp.Diff(outcome(want, werr), outcome(got, gerr)); d != "" {
					t.Fatalf("PreparedPlan.Plan(%+v) (-BuildPlan +PreparedPlan):\n%s", opts, d)
				}
				if in.Secrets != nil {
					// The plan of the input without its scan, which
					// shares nothing with the plans written over.
					plain := in
					plain.Secrets = nil
					if d := cmp.Diff(outcome(compile.BuildPlan(plain, opts)), outcome(want, werr)); d != "" {
						t.Fatalf("BuildPlan(%+v) with a scan (-without +with):\n%s", opts, d)
					}
				}
				// Neither plan holds what the next reads (the scan's
				// plugins, the shared edits).
				scribble(got)
				scribble(want)
			}
		}
	})
}

// A PreparedPlan is never written once made: plans built from one in
// parallel (run with -race) are each BuildPlan's.
func TestPreparedPlanConcurrent(t *testing.T) {
	in := compile.PlanInput{Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeDedicated, Compute: occkit.ComputeKubernetes,
		Document:       stamped(t, `{"agents":{"defaults":{"model":"openai/gpt-5"}},"channels":{"telegram":{"botToken":"${TELEGRAM_BOT_TOKEN}"},"discord":{}}}`),
		HarnessVersion: "2026.9.6", SecretBindings: []occkit.SecretBinding{planBinding},
		Credentials: occkit.Projection{Harness: []occkit.EnvVar{{Name: "OPENAI_API_KEY", Placeholder: true}}, EgressProxy: true}}
	k, err := compile.PreparePlan(in, compile.PlanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	opts := compile.PlanOptions{GatewayHost: "gw.tenant.svc", Namespace: "ns"}
	want, err := compile.BuildPlan(in, opts)
	if err != nil {
		t.Fatal(err)
	}
	if gw, _ := want.Process(occkit.ProcessGateway); len(gw.Plugins) == 0 {
		t.Fatalf("the document needs a plugin for this test")
	}
	var wg sync.WaitGroup
	got := make([]compile.Plan, 4)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p, err := k.Plan(opts)
			if err != nil {
				t.Error(err)
				return
			}
			got[i] = p
			scribble(p)
		}()
	}
	wg.Wait()
	if p, _ := k.Plan(opts); !cmp.Equal(want, p) {
		t.Errorf("a plan after parallel plans differs from BuildPlan's:\n%s", cmp.Diff(want, p))
	}
}

// DOC-4: a variable only some placements set is bound in the plans of
// those placements, whichever placement the plan was prepared for.
func TestPreparedPlanPlacementBinds(t *testing.T) {
	codex := compile.PlanInput{Harness: occkit.HarnessCodex, Mode: occkit.ModeDedicated, Compute: occkit.ComputeKubernetes,
		Document: stamped(t, `{"agents":{"defaults":{"model":"codex/gpt-5-codex"}},"channels":{"telegram":{"botToken":"${OPENCLAW_CODEX_APP_SERVER_TOKEN}"}}}`)}
	node := compile.PlanInput{Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeDedicated, Compute: occkit.ComputeKubernetes,
		Document: stamped(t, `{"agents":{"defaults":{"model":"openai/gpt-5"}},"models":{"providers":{"openai":{"apiKey":"${OPENCLAW_ALLOW_INSECURE_PRIVATE_WS}"}}}}`)}
	pod := compile.PlanOptions{AppServerListen: "0.0.0.0", AppServerTokenFile: "/run/token", GatewayHost: "gw.tenant.svc"}
	host := compile.PlanOptions{}
	for _, tt := range []struct {
		name          string
		in            compile.PlanInput
		prepare, plan compile.PlanOptions
		want          []occkit.ErrorMatcher
	}{
		{"codex gateway, pod then host", codex, pod, host,
			[]occkit.ErrorMatcher{{Code: occkit.CodeInvalidRequest, Path: "channels.telegram.botToken", Rule: "DOC-4"}}},
		{"codex gateway, pod then pod", codex, pod, pod, nil},
		{"node host, pod then host", node, pod, host,
			[]occkit.ErrorMatcher{{Code: occkit.CodeInvalidRequest, Path: "models.providers.openai.apiKey", Rule: "DOC-4"}}},
		{"node host, pod then pod", node, pod, pod, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			k, err := compile.PreparePlan(tt.in, tt.prepare)
			if err != nil {
				t.Fatal(err)
			}
			got, gerr := k.Plan(tt.plan)
			want, werr := compile.BuildPlan(tt.in, tt.plan)
			if d := cmp.Diff(outcome(want, werr), outcome(got, gerr)); d != "" {
				t.Errorf("(-BuildPlan +PreparedPlan):\n%s", d)
			}
			if d := cmp.Diff(tt.want, occkit.MatchersOf(gerr)); d != "" {
				t.Errorf("refusal (-want +got):\n%s", d)
			}
		})
	}
}

// The gateway's native document is what occkit's Set makes of each
// setting the plan writes, one after another: the gateway section, for
// each bind, with a gateway section or without; on a dedicated Codex
// revision the app-server's settings, with its token or without; then
// the plugins' trust.
func TestGatewaySectionEdits(t *testing.T) {
	openclaw := []string{
		`{}`,
		`{"gateway":{"port":1,"auth":{"mode":"password"}}}`,
		`{"gateway":{}}`,
		`{"channels":{"discord":{}}}`,
		`{"channels":{"slack":{},"discord":{"enabled":true}},"plugins":{"entries":{"slack":{"config":{"x":1}},"discord":{"enabled":true}}},"gateway":{"bind":"x"}}`,
	}
	codex := []string{
		`{"agents":{"defaults":{"model":"codex/gpt-5-codex"}}}`,
		`{"agents":{"defaults":{"model":"codex/gpt-5-codex"}},"channels":{"discord":{}},"gateway":{"mode":"remote"}}`,
		`{"agents":{"defaults":{"model":"codex/gpt-5-codex"}},"plugins":{"entries":{"codex":{"enabled":true,"config":{"appServer":{"transport":"stdio","authToken":"x","url":"y"}}}}}}`,
		`{"agents":{"defaults":{"model":"codex/gpt-5-codex"}},"plugins":{"allow":["codex"],"entries":{"codex":{"config":{}}}}}`,
	}
	type c struct {
		src  string
		h    occkit.Harness
		m    occkit.Mode
		opts compile.PlanOptions
	}
	var cases []c
	for _, bind := range []string{compile.BindLoopback, compile.BindLAN} {
		for _, src := range openclaw {
			cases = append(cases, c{src, occkit.HarnessOpenClaw, occkit.ModeEmbedded, compile.PlanOptions{Bind: bind}})
		}
		for _, src := range codex {
			cases = append(cases, c{src, occkit.HarnessCodex, occkit.ModeDedicated, compile.PlanOptions{Bind: bind}},
				c{src, occkit.HarnessCodex, occkit.ModeDedicated, compile.PlanOptions{Bind: bind, AppServerHost: "app.tenant.svc",
					AppServerListen: "0.0.0.0", AppServerTokenFile: "/run/token"}})
		}
	}
	for _, tt := range cases {
		in := compile.PlanInput{Harness: tt.h, Mode: tt.m, Compute: occkit.ComputeKubernetes,
			Document: stamped(t, tt.src), HarnessVersion: "2026.9.6"}
		plan, err := compile.BuildPlan(in, tt.opts)
		if err != nil {
			t.Fatal(err)
		}
		gw, _ := plan.Process(occkit.ProcessGateway)
		f, _ := gw.File(compile.FileNativeDocument)
		want, err := gatewayBySet(in, tt.opts, gw.Plugins)
		if err != nil {
			t.Fatal(err)
		}
		if got := string(f.Data); got != want {
			t.Errorf("%s %s %+v: native document\n%s\nwant\n%s", tt.src, tt.h, tt.opts, got, want)
		}
	}
}

// gatewayBySet is the gateway's native document the plan of in and opts
// writes, made by occkit's Set one setting after another: the gateway
// section; on a dedicated Codex revision the app-server's settings, with
// its token or without; then the trust of each of plugins.
func gatewayBySet(in compile.PlanInput, opts compile.PlanOptions, plugins []compile.Plugin) (string, error) {
	want, err := compile.GatewayDocument(in.Document, in.Harness, in.Mode)
	if err != nil {
		return "", err
	}
	set := func(p occkit.Path, v any) {
		if err == nil {
			want, err = want.Set(p, v)
		}
	}
	bind := opts.Bind
	if bind == "" {
		bind = compile.BindLoopback
		if in.Compute == occkit.ComputeKubernetes || in.Compute == "" {
			bind = compile.BindLAN
		}
	}
	set(occkit.NewPath("gateway", "mode"), "local")
	set(occkit.NewPath("gateway", "bind"), bind)
	set(occkit.NewPath("gateway", "auth"), map[string]any{"mode": "token", "token": "${" + compile.EnvGatewayToken + "}"})
	if in.Harness == occkit.HarnessCodex {
		server := occkit.NewPath("plugins", "entries", "codex", "config", "appServer")
		host := opts.AppServerHost
		if host == "" {
			host = "127.0.0.1"
		}
		set(server.Key("transport"), "websocket")
		set(server.Key("url"), "ws://"+host+":4500")
		if opts.AppServerListen != "" {
			set(server.Key("authToken"), "${"+compile.EnvAppServerToken+"}")
		}
	}
	before := want
	for _, p := range plugins {
		at := occkit.NewPath("plugins", "entries", p.ID, "enabled")
		if v := before.Get(at); !v.IsBool() || !v.Bool() {
			set(at, true)
		}
	}
	if err != nil {
		return "", err
	}
	return want.String(), nil
}

// CMP-4: the gateway's native document is gatewayBySet's for documents
// drawn member by member: with a gateway section or without (its key
// written plainly or escaped), with channels whose plugins need their
// trust written or not, with plugin settings or without, empty; for each bind, on each OpenClaw topology,
// from BuildPlan and from a PreparedPlan.
func TestGatewayDocumentIsSet(t *testing.T) {
	members := []string{
		`"agents":{"defaults":{"model":"anthropic/claude-sonnet-4-6","workspace":"/w"}}`,
		`"channels":{"slack":{"enabled":true}}`,
		`"channels":{"discord":{}}`,
		`"channels":{"msteams":{},"discord":{"enabled":true},"slack":{}}`,
		`"plugins":{"entries":{"msteams":{"enabled":true}}}`,
		`"plugins":{"entries":{"slack":{"config":{}}},"allow":["slack","discord","msteams"]}`,
		`"plugins":{"enabled":true}`,
		`"gateway":{"port":1}`,
		`"gateway":{}`,
		`"gateway":{"mode":"remote","port":1,"auth":{"mode":"password","password":"${GW_PASSWORD}"}}`,
		`"gateway":{"auth":{},"bind":"x","controlUi":{"enabled":false},"mode":"local"}`,
		`"gateway":{"port":2,"bind":"loopback"}`,
		`"gateway":{"port":1,"b\u0069nd":"x","auth":{"mode":"token"}}`,
		`"gatew\u0061y":{"mode":"remote"}`,
		`"models":{"providers":{"anthropic":{"baseUrl":"https://api.anthropic.com"}}}`,
		`"ui":{"seamColor":"#ffffff"}`,
	}
	rapid.Check(t, func(t *rapid.T) {
		picked := rapid.SliceOfNDistinct(rapid.IntRange(0, len(members)-1), 0, 4, rapid.ID).Draw(t, "members")
		var parts []string
		keys := map[string]bool{}
		for _, i := range picked {
			k := members[i][:strings.Index(members[i], ":")]
			if k == `"gatew\u0061y"` {
				k = `"gateway"`
			}
			if keys[k] {
				continue
			}
			keys[k] = true
			parts = append(parts, members[i])
		}
		src := "{" + strings.Join(parts, ",") + "}"
		doc, err := occkit.ParseDocument([]byte(src))
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		top := rapid.SampledFrom([]occkit.Topology{
			{Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeEmbedded},
			{Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeDedicated},
		}).Draw(t, "topology")
		in := compile.PlanInput{Document: doc, Harness: top.Harness, Mode: top.Mode, DriverLogging: true,
			Compute: rapid.SampledFrom([]occkit.Compute{occkit.ComputeKubernetes, occkit.ComputeSSH}).Draw(t, "compute"), HarnessVersion: "2026.9.6"}
		opts := compile.PlanOptions{Bind: rapid.SampledFrom([]string{"", compile.BindLoopback, compile.BindLAN}).Draw(t, "bind")}
		plan, err := compile.BuildPlan(in, opts)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		k, err := compile.PreparePlan(in, compile.PlanOptions{})
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		prepared, err := k.Plan(opts)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		gw, _ := plan.Process(occkit.ProcessGateway)
		want, err := gatewayBySet(in, opts, gw.Plugins)
		if err != nil {
			t.Fatal(err)
		}
		for name, p := range map[string]compile.Plan{"BuildPlan": plan, "PreparedPlan.Plan": prepared} {
			gw, _ := p.Process(occkit.ProcessGateway)
			f, _ := gw.File(compile.FileNativeDocument)
			if got := string(f.Data); got != want {
				t.Fatalf("%s of %s %+v: native document\n%s\nwant\n%s", name, src, opts, got, want)
			}
		}
	})
}
