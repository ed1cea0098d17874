package compile_test

import (
	"fmt"
	"runtime"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/compile"
	"github.com/occkit/occkit/logging"
)

func stamped(t testing.TB, src string) occkit.Document {
	t.Helper()
	doc, err := logging.Stamp(occkit.MustParseDocument(src), occkit.LevelInfo, occkit.OwnedByPlatform)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

var (
	planKey     = occkit.SourceRef{Kind: occkit.SourceSecret, NamespaceID: "ns", ID: "model-key"}
	planBinding = occkit.SecretBinding{Env: "TELEGRAM_BOT_TOKEN", Source: occkit.SourceRef{Kind: occkit.SourceSecret, NamespaceID: "ns", ID: "tg"}}
)

func envNames(p compile.ProcessPlan) []string {
	var out []string
	for _, e := range p.Env {
		out = append(out, e.Name)
	}
	sort.Strings(out)
	return out
}

// CMP-4 AUTH-2 AUTH-6: what each process of each topology receives.
func TestBuildPlan(t *testing.T) {
	tests := []struct {
		name    string
		in      compile.PlanInput
		opts    compile.PlanOptions
		env     map[occkit.Process][]string
		program map[occkit.Process]compile.Program
		bind    string
	}{
		{
			name: "embedded openclaw on kubernetes",
			in: compile.PlanInput{Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeEmbedded, Compute: occkit.ComputeKubernetes,
				Document:    stamped(t, `{"agents":{"defaults":{"model":"anthropic/claude-sonnet-4-6"}},"channels":{"telegram":{"botToken":"${TELEGRAM_BOT_TOKEN}"}}}`),
				Credentials: occkit.Projection{Harness: []occkit.EnvVar{{Name: "ANTHROPIC_API_KEY", From: planKey}}}},
			env:     map[occkit.Process][]string{occkit.ProcessGateway: {"ANTHROPIC_API_KEY", "OPENCLAW_GATEWAY_TOKEN", "TELEGRAM_BOT_TOKEN"}},
			program: map[occkit.Process]compile.Program{occkit.ProcessGateway: compile.ProgramOpenClaw},
			bind:    "lan",
		},
		{
			name: "embedded openclaw on ssh",
			in: compile.PlanInput{Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeEmbedded, Compute: occkit.ComputeSSH,
				Document: stamped(t, `{"agents":{"defaults":{"model":"openai/gpt-5"}},"channels":{"telegram":{"botToken":"${TELEGRAM_BOT_TOKEN}"}}}`), Credentials: occkit.Projection{HostManaged: true}},
			env:     map[occkit.Process][]string{occkit.ProcessGateway: {"OPENCLAW_GATEWAY_TOKEN", "TELEGRAM_BOT_TOKEN"}},
			program: map[occkit.Process]compile.Program{occkit.ProcessGateway: compile.ProgramOpenClaw},
			bind:    "loopback",
		},
		{
			name: "dedicated codex",
			in: compile.PlanInput{Harness: occkit.HarnessCodex, Mode: occkit.ModeDedicated, Compute: occkit.ComputeKubernetes,
				Document: stamped(t, `{"agents":{"defaults":{"model":"codex/gpt-5-codex"}},"channels":{"telegram":{"botToken":"${TELEGRAM_BOT_TOKEN}"}}}`),
				Credentials: occkit.Projection{StdinLogin: true, Harness: []occkit.EnvVar{
					{Name: "OPENAI_API_KEY", From: planKey}, {Name: "CODEX_LOGIN_MODE", Value: "api_key"}}}},
			env: map[occkit.Process][]string{
				occkit.ProcessGateway: {"OPENCLAW_GATEWAY_TOKEN", "TELEGRAM_BOT_TOKEN"},
				occkit.ProcessHarness: {"CODEX_LOGIN_MODE", "LOG_FORMAT", "OPENAI_API_KEY", "RUST_LOG"},
			},
			program: map[occkit.Process]compile.Program{occkit.ProcessGateway: compile.ProgramOpenClaw, occkit.ProcessHarness: compile.ProgramCodex},
			bind:    "lan",
		},
		{
			name: "dedicated openclaw",
			in: compile.PlanInput{Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeDedicated, Compute: occkit.ComputeKubernetes,
				Document:    stamped(t, `{"agents":{"defaults":{"model":"openai/gpt-5"}},"channels":{"telegram":{"botToken":"${TELEGRAM_BOT_TOKEN}"}}}`),
				Credentials: occkit.Projection{Harness: []occkit.EnvVar{{Name: "OPENAI_API_KEY", Placeholder: true}}, EgressProxy: true}},
			opts: compile.PlanOptions{Bind: compile.BindLoopback},
			env: map[occkit.Process][]string{
				occkit.ProcessGateway: {"OPENCLAW_GATEWAY_TOKEN", "TELEGRAM_BOT_TOKEN"},
				// The node host enrols with its gateway's token.
				occkit.ProcessHarness: {"OPENAI_API_KEY", "OPENCLAW_GATEWAY_TOKEN"},
			},
			program: map[occkit.Process]compile.Program{occkit.ProcessGateway: compile.ProgramOpenClaw, occkit.ProcessHarness: compile.ProgramOpenClaw},
			bind:    "loopback",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.in.SecretBindings = []occkit.SecretBinding{planBinding}
			tt.in.Level = occkit.LevelInfo
			tt.opts.Namespace = "ns"
			plan, err := compile.BuildPlan(tt.in, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if err := compile.CheckPlan(tt.in, tt.opts); err != nil {
				t.Fatalf("CheckPlan refuses what BuildPlan renders: %v", err)
			}
			if len(plan.Processes) != len(tt.env) {
				t.Fatalf("%d processes, want %d", len(plan.Processes), len(tt.env))
			}
			for _, p := range plan.Processes {
				if d := cmp.Diff(tt.env[p.Role], envNames(p)); d != "" {
					t.Errorf("%s env (-want +got):\n%s", p.Role, d)
				}
				if p.Program != tt.program[p.Role] {
					t.Errorf("%s program = %s", p.Role, p.Program)
				}
				if p.Inference != (p.Role == occkit.ProcessHarness || tt.in.Mode == occkit.ModeEmbedded) {
					t.Errorf("%s inference = %v", p.Role, p.Inference)
				}
			}
			gw, _ := plan.Process(occkit.ProcessGateway)
			doc, ok := gw.File(compile.FileNativeDocument)
			if !ok || doc.PathEnv != "OPENCLAW_CONFIG_PATH" {
				t.Fatalf("gateway file = %+v", doc)
			}
			want := fmt.Sprintf(`{"mode":"local","bind":%q,"auth":{"mode":"token","token":"${OPENCLAW_GATEWAY_TOKEN}"}}`, tt.bind)
			if got := occkit.MustParseDocument(string(doc.Data)).Get(occkit.NewPath("gateway")).Raw(); got != want {
				t.Errorf("gateway section = %s, want %s", got, want)
			}
			if gw.Readiness.HTTPPath != "/readyz" || gw.Port != compile.DefaultGatewayPort {
				t.Errorf("gateway readiness %+v port %d", gw.Readiness, gw.Port)
			}
			if e, _ := gw.Lookup("OPENCLAW_GATEWAY_TOKEN"); !e.GatewayToken || !e.Secret.IsZero() || e.Value != "" {
				t.Errorf("gateway token = %+v", e)
			}
		})
	}
}

// A dedicated Codex app-server listening beyond loopback authenticates its
// WebSocket clients with the Agent's app-server token: the app-server reads
// the file the Compute names, the gateway's codex plugin presents the same
// token from a variable, and the document holds only the reference. On
// loopback neither needs it.
func TestBuildPlanAppServerToken(t *testing.T) {
	in := compile.PlanInput{Harness: occkit.HarnessCodex, Mode: occkit.ModeDedicated, Compute: occkit.ComputeKubernetes,
		Document: stamped(t, `{"agents":{"defaults":{"model":"codex/gpt-5-codex"}},`+
			`"plugins":{"entries":{"codex":{"config":{"appServer":{"authToken":"author-token"}}}}}}`), Level: occkit.LevelInfo}
	const file = "/var/run/occkit/app-server/token"
	tests := []struct {
		name      string
		opts      compile.PlanOptions
		wantFile  string
		wantArgs  []string
		wantToken string
	}{
		{"beyond loopback", compile.PlanOptions{AppServerListen: "0.0.0.0", AppServerTokenFile: file}, file,
			[]string{"app-server", "--listen", "ws://0.0.0.0:4500", "--ws-auth", "capability-token", "--ws-token-file", file},
			`"${OPENCLAW_CODEX_APP_SERVER_TOKEN}"`},
		// The author's token stays where no Compute token replaces it:
		// admission refuses literal secrets, not this stage.
		{"loopback", compile.PlanOptions{AppServerTokenFile: file}, "",
			[]string{"app-server", "--listen", "ws://127.0.0.1:4500"}, `"author-token"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			plan, err := compile.BuildPlan(in, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			gw, _ := plan.Process(occkit.ProcessGateway)
			h, _ := plan.Process(occkit.ProcessHarness)
			if h.TokenFile != tt.wantFile {
				t.Errorf("token file = %q, want %q", h.TokenFile, tt.wantFile)
			}
			args := h.Args[len(h.Args)-len(tt.wantArgs):]
			if d := cmp.Diff(tt.wantArgs, args); d != "" {
				t.Errorf("app-server args (-want +got):\n%s", d)
			}
			e, ok := gw.Lookup("OPENCLAW_CODEX_APP_SERVER_TOKEN")
			if ok != (tt.wantFile != "") || ok && (!e.AppServerToken || e.Value != "" || !e.Secret.IsZero()) {
				t.Errorf("gateway app-server token variable = %+v, %v", e, ok)
			}
			if _, ok := h.Lookup("OPENCLAW_CODEX_APP_SERVER_TOKEN"); ok {
				t.Error("the app-server reads its token from the file, not a variable")
			}
			doc, _ := gw.File(compile.FileNativeDocument)
			got := occkit.MustParseDocument(string(doc.Data)).Get(occkit.NewPath("plugins", "entries", "codex", "config", "appServer", "authToken")).Raw()
			if got != tt.wantToken {
				t.Errorf("appServer.authToken = %s, want %s", got, tt.wantToken)
			}
		})
	}
}

// The stage refuses what no Compute may run (AUTH-2, AUTH-6, LOG-2).
func TestBuildPlanRefuses(t *testing.T) {
	ok := compile.PlanInput{Harness: occkit.HarnessCodex, Mode: occkit.ModeDedicated,
		Document: stamped(t, `{"agents":{"defaults":{"model":"codex/gpt-5-codex"}},"channels":{"telegram":{"botToken":"${TELEGRAM_BOT_TOKEN}"}},"memory":{"search":{"remote":{"apiKey":"${MEMORY_KEY}"}}}}`), Level: occkit.LevelInfo}
	with := func(f func(*compile.PlanInput)) compile.PlanInput { in := ok; f(&in); return in }
	// bound binds every variable ok's document references (DOC-4), for
	// refusals the plan reaches only past that check.
	bound := with(func(in *compile.PlanInput) {
		in.SecretBindings = []occkit.SecretBinding{planBinding, {Env: "MEMORY_KEY", Source: occkit.SourceRef{Kind: occkit.SourceSecret, NamespaceID: "ns", ID: "memory"}}}
	})
	tests := []struct {
		name string
		in   compile.PlanInput
		opts compile.PlanOptions
		want occkit.ErrorMatcher
	}{
		{"AUTH-6 gateway credential", with(func(in *compile.PlanInput) {
			in.Credentials.Gateway = []occkit.EnvVar{{Name: "OPENAI_API_KEY", From: planKey}}
		}), compile.PlanOptions{}, occkit.ErrorMatcher{Code: occkit.CodeResourceConflict, Path: "projection.gateway[0]", Rule: "AUTH-6"}},
		{"AUTH-2 namespace", with(func(in *compile.PlanInput) {
			in.Credentials.Harness = []occkit.EnvVar{{Name: "OPENAI_API_KEY", From: planKey}}
		}), compile.PlanOptions{Namespace: "other"}, occkit.ErrorMatcher{Code: occkit.CodeResourceConflict, Path: "harnessAuth.source.namespaceId", Rule: "AUTH-2"}},
		{"AUTH-2 admitted for another namespace", with(func(in *compile.PlanInput) { in.Namespace = "ns" }),
			compile.PlanOptions{Namespace: "other"}, occkit.ErrorMatcher{Code: occkit.CodeResourceConflict, Path: "namespace", Rule: "AUTH-2"}},
		{"AUTH-6 inference variable as a secretBinding", with(func(in *compile.PlanInput) {
			in.SecretBindings = []occkit.SecretBinding{{Env: "OPENAI_API_KEY", Source: planBinding.Source}}
		}), compile.PlanOptions{}, occkit.ErrorMatcher{Code: occkit.CodeInvalidRequest, Path: "secretBindings[0].env", Rule: "AUTH-6"}},
		{"AUTH-6 reserved variable", with(func(in *compile.PlanInput) {
			in.SecretBindings = []occkit.SecretBinding{{Env: "OPENCLAW_GATEWAY_TOKEN", Source: planBinding.Source}}
		}), compile.PlanOptions{}, occkit.ErrorMatcher{Code: occkit.CodeInvalidRequest, Path: "secretBindings[0].env", Rule: "AUTH-6"}},
		{"AUTH-6 the Harness Secret", with(func(in *compile.PlanInput) {
			in.Credentials.Harness = []occkit.EnvVar{{Name: "OPENAI_API_KEY", From: planKey}}
			in.SecretBindings = []occkit.SecretBinding{{Env: "MEMORY_KEY", Source: planKey}}
		}), compile.PlanOptions{}, occkit.ErrorMatcher{Code: occkit.CodeInvalidRequest, Path: "secretBindings[0].source", Rule: "AUTH-6"}},
		{"AUTH-6 twice", with(func(in *compile.PlanInput) {
			in.SecretBindings = []occkit.SecretBinding{planBinding, planBinding}
		}), compile.PlanOptions{}, occkit.ErrorMatcher{Code: occkit.CodeInvalidRequest, Path: "secretBindings[1].env", Rule: "AUTH-6"}},
		{"LOG-2 level", with(func(in *compile.PlanInput) { in.Level = occkit.LevelDebug }),
			compile.PlanOptions{}, occkit.ErrorMatcher{Code: occkit.CodeResourceConflict, Path: "logging.level", Rule: "LOG-2"}},
		{"placement", ok, compile.PlanOptions{Bind: "public"}, occkit.ErrorMatcher{Code: occkit.CodeResourceConflict, Path: "placement.bind", Rule: "CMP-4"}},
		{"app-server beyond loopback without a token file", bound, compile.PlanOptions{AppServerListen: "0.0.0.0"},
			occkit.ErrorMatcher{Code: occkit.CodeResourceConflict, Path: "placement.appServerTokenFile", Rule: "CMP-4"}},
		{"relative token file", bound, compile.PlanOptions{AppServerListen: "0.0.0.0", AppServerTokenFile: "run/token"},
			occkit.ErrorMatcher{Code: occkit.CodeResourceConflict, Path: "placement.appServerTokenFile", Rule: "CMP-4"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := compile.BuildPlan(tt.in, tt.opts)
			wantError(t, err, tt.want.Code, tt.want.Path, tt.want.Rule)
			if cerr := compile.CheckPlan(tt.in, tt.opts); fmt.Sprint(cerr) != fmt.Sprint(err) {
				t.Errorf("CheckPlan = %v, BuildPlan = %v", cerr, err)
			}
		})
	}
}

// CheckPlan refuses exactly what BuildPlan refuses, for every topology,
// on documents whose sections render or cannot.
func TestCheckPlanAgrees(t *testing.T) {
	docs := []string{
		`{}`,
		`{"gateway":{"mode":"remote","auth":{"mode":"password","password":"x"},"port":1}}`,
		`{"gateway":"lan"}`,
		`{"gateway":null}`,
		`{"gateway":[]}`,
		`{"plugins":{"entries":{"codex":{"config":{"appServer":{"transport":"stdio"}}}}}}`,
		`{"plugins":{"entries":{"codex":{"config":"x"}}}}`,
		`{"plugins":"x"}`,
		`{"agents":{"entries":{"main":{"workspace":"/w"}}},"channels":{"slack":{"botToken":"${SLACK}"}},"env":{"SLACK":"x"}}`,
		`{"agents":[]}`,
		`{"logging":{"level":"debug"}}`,
	}
	topologies := []occkit.Topology{
		{Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeEmbedded},
		{Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeDedicated},
		{Harness: occkit.HarnessCodex, Mode: occkit.ModeDedicated},
		{Harness: occkit.HarnessCodex, Mode: occkit.ModeEmbedded},
	}
	for _, src := range docs {
		for _, top := range topologies {
			for _, driver := range []bool{false, true} {
				doc := occkit.MustParseDocument(src)
				if !driver {
					doc = stamped(t, src)
				}
				in := compile.PlanInput{Document: doc, Harness: top.Harness, Mode: top.Mode, DriverLogging: driver}
				_, err := compile.BuildPlan(in, compile.PlanOptions{})
				if cerr := compile.CheckPlan(in, compile.PlanOptions{}); fmt.Sprint(cerr) != fmt.Sprint(err) {
					t.Errorf("%s %v driver=%v: CheckPlan = %v, BuildPlan = %v", src, top, driver, cerr, err)
				}
			}
		}
	}
}

func ExampleBuildPlan() {
	doc, _ := logging.Stamp(occkit.MustParseDocument(`{"agents":{"defaults":{"model":"codex/gpt-5-codex"}},
		"models":{"providers":{"codex":{"apiKey":"${OPENAI_API_KEY}","baseUrl":"https://llm.example/v1?key=${OPENAI_API_KEY}"}}},
		"channels":{"telegram":{"botToken":"${TELEGRAM_BOT_TOKEN}"}}}`), occkit.LevelInfo, occkit.OwnedByPlatform)
	plan, err := compile.BuildPlan(compile.PlanInput{
		Document: doc, Harness: occkit.HarnessCodex, Mode: occkit.ModeDedicated, Level: occkit.LevelInfo,
		Credentials: occkit.Projection{StdinLogin: true, Harness: []occkit.EnvVar{
			{Name: "OPENAI_API_KEY", From: occkit.SourceRef{Kind: occkit.SourceSecret, NamespaceID: "ns", ID: "key"}},
			{Name: "CODEX_LOGIN_MODE", Value: "api_key"},
		}},
		SecretBindings: []occkit.SecretBinding{{Env: "TELEGRAM_BOT_TOKEN",
			Source: occkit.SourceRef{Kind: occkit.SourceSecret, NamespaceID: "ns", ID: "telegram"}}},
	}, compile.PlanOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range plan.Processes {
		var env []string
		for _, e := range p.Env {
			switch {
			case e.GatewayToken:
				env = append(env, e.Name+"<-gateway_token")
			case !e.Secret.IsZero():
				env = append(env, e.Name+"<-"+string(e.Secret.Kind))
			default:
				env = append(env, e.Name+"="+e.Value)
			}
		}
		fmt.Println(p.Role, p.Program, strings.Join(env, " "))
	}
	gw, _ := plan.Process(occkit.ProcessGateway)
	f, _ := gw.File(compile.FileNativeDocument)
	d := occkit.MustParseDocument(string(f.Data))
	fmt.Println(d.Get(occkit.NewPath("models", "providers")).Raw())
	fmt.Println(d.Get(occkit.NewPath("gateway", "auth")).Raw())
	// Output:
	// gateway openclaw OPENCLAW_GATEWAY_TOKEN<-gateway_token TELEGRAM_BOT_TOKEN<-secret
	// harness codex LOG_FORMAT=json RUST_LOG=info,codex_otel=off OPENAI_API_KEY<-secret CODEX_LOGIN_MODE=api_key
	// {"codex":{"baseUrl":"https://llm.example"}}
	// {"mode":"token","token":"${OPENCLAW_GATEWAY_TOKEN}"}
}

// ADM-7 DOC-4: a plan reads the scan it is given only when it is the
// scan of its own document under its release's policy; any other scan is
// ignored, and the plan refuses and binds exactly as without one. Its own
// scan spares the plan the walk.
func TestPlanSecretScan(t *testing.T) {
	clean := stamped(t, `{"agents":{"defaults":{"model":"anthropic/claude-sonnet-4-6"}},"channels":{"telegram":{"botToken":"${TELEGRAM_BOT_TOKEN}"}}}`)
	literal := stamped(t, `{"agents":{"defaults":{"model":"anthropic/claude-sonnet-4-6"}},"channels":{"telegram":{"botToken":"123:literal"}}}`)
	pol := compile.SecretPolicyFor("")
	input := func(doc occkit.Document, scan *compile.SecretScan) compile.PlanInput {
		return compile.PlanInput{Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeEmbedded, Compute: occkit.ComputeKubernetes,
			Document: doc, Secrets: scan, SecretBindings: []occkit.SecretBinding{planBinding},
			Credentials: occkit.Projection{Harness: []occkit.EnvVar{{Name: "ANTHROPIC_API_KEY", From: planKey}}}}
	}
	for _, c := range []struct {
		name   string
		doc    occkit.Document
		scan   *compile.SecretScan
		refuse bool
	}{
		{"own scan", clean, compile.ScanSecrets(clean, pol), false},
		{"no scan", clean, nil, false},
		{"a literal document's scan", clean, compile.ScanSecrets(literal, pol), false},
		{"a clean document's scan", literal, compile.ScanSecrets(clean, pol), true},
		{"a scan under another policy", literal, compile.ScanSecrets(literal, compile.SecretPolicy{Sensitive: pol.Sensitive, Env: pol.Env}), true},
		{"literal, no scan", literal, nil, true},
	} {
		_, err := compile.BuildPlan(input(c.doc, c.scan), compile.PlanOptions{Namespace: "ns"})
		if got := err != nil; got != c.refuse {
			t.Errorf("%s: refused = %v (%v), want %v", c.name, got, err, c.refuse)
			continue
		}
		want := occkit.ErrorMatcher{Code: occkit.CodeInvalidRequest, Path: "channels.telegram.botToken", Rule: compile.RuleSecretBytes}
		if c.refuse {
			if d := cmp.Diff([]occkit.ErrorMatcher{want}, occkit.MatchersOf(err)); d != "" {
				t.Errorf("%s: refusal (-want +got):\n%s", c.name, d)
			}
		}
	}
	own := compile.ScanSecrets(clean, pol)
	with := testing.AllocsPerRun(20, func() { _, _ = compile.BuildPlan(input(clean, own), compile.PlanOptions{Namespace: "ns"}) })
	without := testing.AllocsPerRun(20, func() { _, _ = compile.BuildPlan(input(clean, nil), compile.PlanOptions{Namespace: "ns"}) })
	if with >= without {
		t.Errorf("a plan with its own scan allocates %v times, without %v: the scan was not read", with, without)
	}
}

// The plugins a Compute installs for the release are enabled explicitly
// in the native document, as OpenClaw's own installer would record them
// (it loads an installed external plugin only with that trust); an
// author's entry keeps its settings, and an entry that is not an object
// is refused by BuildPlan and CheckPlan alike.
func TestBuildPlanEnablesProvidedPlugins(t *testing.T) {
	base := compile.PlanInput{Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeEmbedded, Compute: occkit.ComputeKubernetes,
		Level: occkit.LevelInfo, HarnessVersion: "2026.9.6"}
	tests := []struct {
		name, doc, release string
		want               string // plugins.entries as rendered
	}{
		{"channel", `{"channels":{"discord":{"enabled":true}}}`, "2026.9.6", `{"discord":{"enabled":true}}`},
		{"author's entry kept", `{"channels":{"slack":{}},"plugins":{"entries":{"slack":{"config":{"x":1}}}}}`, "2026.9.6",
			`{"slack":{"config":{"x":1},"enabled":true}}`},
		{"bundled channel", `{"channels":{"telegram":{}}}`, "2026.9.6", ``},
		{"release without the table", `{"channels":{"discord":{}}}`, "1999.1.1", ``},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := base
			in.Document, in.HarnessVersion = stamped(t, tt.doc), tt.release
			plan, err := compile.BuildPlan(in, compile.PlanOptions{})
			if err != nil {
				t.Fatal(err)
			}
			gw, _ := plan.Process(occkit.ProcessGateway)
			f, _ := gw.File(compile.FileNativeDocument)
			if got := occkit.MustParseDocument(string(f.Data)).Get(occkit.NewPath("plugins", "entries")).Raw(); got != tt.want {
				t.Errorf("plugins.entries = %s, want %s", got, tt.want)
			}
		})
	}
	in := base
	in.Document = stamped(t, `{"channels":{"discord":{}},"plugins":{"entries":{"discord":true}}}`)
	_, err := compile.BuildPlan(in, compile.PlanOptions{})
	wantError(t, err, occkit.CodeInvalidRequest, "plugins.entries.discord", "CMP-4")
	if cerr := compile.CheckPlan(in, compile.PlanOptions{}); fmt.Sprint(cerr) != fmt.Sprint(err) {
		t.Errorf("CheckPlan = %v, BuildPlan = %v", cerr, err)
	}
}

// A plan with its document's scan lists the plugins the plan without a
// scan lists, for each release the scan is asked about (the scan works
// the list out once, for the first release asked), and a caller that
// edits one plan's list does not edit the next plan's.
func TestPlanScanPlugins(t *testing.T) {
	doc := stamped(t, `{"channels":{"discord":{},"msteams":{}},"plugins":{"allow":["tavily"]}}`)
	scan := compile.ScanSecrets(doc, compile.SecretPolicyFor(""))
	plugins := func(release string, scan *compile.SecretScan) []compile.Plugin {
		t.Helper()
		plan, err := compile.BuildPlan(compile.PlanInput{Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeEmbedded,
			Compute: occkit.ComputeKubernetes, Level: occkit.LevelInfo, HarnessVersion: release, Document: doc, Secrets: scan},
			compile.PlanOptions{})
		if err != nil {
			t.Fatal(err)
		}
		gw, _ := plan.Process(occkit.ProcessGateway)
		return gw.Plugins
	}
	for _, release := range []string{"2026.9.6", "2026.8.2", "2026.9.6"} {
		want := compile.RequiredPlugins(doc, release)
		if len(want) < 2 {
			t.Fatalf("%s: the document needs plugins for this test: %v", release, want)
		}
		if d := cmp.Diff(want, plugins(release, nil)); d != "" {
			t.Errorf("%s without a scan (-want +got):\n%s", release, d)
		}
		got := plugins(release, scan)
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("%s with the scan (-want +got):\n%s", release, d)
		}
		got[0].ID, got[1].Version = "edited", "0.0.0"
		if d := cmp.Diff(want, plugins(release, scan)); d != "" {
			t.Errorf("%s after an edit of the last plan's list (-want +got):\n%s", release, d)
		}
	}
}

// The gateway's native document is the plan's own: a caller that writes
// a planned File's Data changes neither the admitted document nor the
// next plan's, and the plan makes one copy of a large document (the
// edited one it hands over), not two.
func TestPlanFileOwnsItsBytes(t *testing.T) {
	var models strings.Builder
	for i := range 2000 {
		fmt.Fprintf(&models, `,"p/m%d":{"alias":"model number %d"}`, i, i)
	}
	doc := stamped(t, `{"agents":{"defaults":{"model":"anthropic/claude-sonnet-4-6","models":{"a/b":{}`+models.String()+`}}}}`)
	before := doc.String()
	in := compile.PlanInput{Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeEmbedded, Compute: occkit.ComputeKubernetes,
		Document: doc, Secrets: compile.ScanSecrets(doc, compile.SecretPolicyFor("")),
		Credentials: occkit.Projection{Harness: []occkit.EnvVar{{Name: "ANTHROPIC_API_KEY", From: planKey}}}}
	native := func() []byte {
		t.Helper()
		p, err := compile.BuildPlan(in, compile.PlanOptions{Namespace: "ns"})
		if err != nil {
			t.Fatal(err)
		}
		gw, _ := p.Process(occkit.ProcessGateway)
		f, ok := gw.File(compile.FileNativeDocument)
		if !ok {
			t.Fatal("no native document")
		}
		return f.Data
	}
	first := native()
	want := string(first)
	for i := range first {
		first[i] = 'x'
	}
	if got := string(native()); got != want {
		t.Errorf("a written File changed the next plan's")
	}
	if doc.String() != before {
		t.Errorf("a written File changed the admitted document")
	}
	var m0, m1 runtime.MemStats
	const runs = 20
	runtime.ReadMemStats(&m0)
	for range runs {
		native()
	}
	runtime.ReadMemStats(&m1)
	if per := (m1.TotalAlloc - m0.TotalAlloc) / runs; per > uint64(len(before))*3/2 {
		t.Errorf("a plan of a %d-byte document allocates %d bytes: the native document is copied more than once", len(before), per)
	}
}
