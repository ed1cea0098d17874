package ssh

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/admission"
	"github.com/occkit/occkit/drivers/drivertest"
	"github.com/occkit/occkit/internal/tiers"
)

// existingBinary is an executable that exists where the tests run, for
// ExecStart (systemd-analyze verify checks it).
func existingBinary(t testing.TB) string {
	if gateway != "" {
		return gateway
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return self
}

func levelRevision(t testing.TB, agent string, level occkit.LogLevel) *admission.Revision {
	t.Helper()
	rev, err := drivertest.NewRevision(drivertest.RevisionOptions{
		AgentID: agent, Compute: occkit.ComputeSSH, Level: level,
		Configuration: occkit.MustParseDocument(`{"agents":{"defaults":{"model":"openai/gpt-5"}}}`),
		Binding:       occkit.Binding{Method: occkit.MethodRuntime},
	})
	if err != nil {
		t.Fatal(err)
	}
	return rev
}

func unitOptions(t testing.TB) RenderOptions {
	return RenderOptions{
		Port: 18000, UnitDir: "/home/occtest/.config/systemd/user", StateDir: "/home/occtest/.local/state/occkit",
		BinaryPath: existingBinary(t),
	}
}

// verify runs systemd-analyze verify on a unit file and returns its
// output and exit error; without the tool it skips (or fails under
// sshtest.Required).
func verify(t *testing.T, u Unit) (string, error) {
	t.Helper()
	tool, err := exec.LookPath("systemd-analyze")
	if err != nil {
		tiers.SystemdVerify.Skip(t, "no systemd-analyze (run .ci/setup)")
	}
	run := tiers.SystemdVerify.Start(t)
	f := filepath.Join(t.TempDir(), u.Name)
	if err := os.WriteFile(f, u.Content, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(tool, "verify", "--recursive-errors=no", f)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	run.Done(1)
	return out.String() + errb.String(), err
}

func TestRenderedUnitsVerify(t *testing.T) {
	tests := []struct {
		name  string
		level occkit.LogLevel
		edit  func(*RenderOptions)
	}{
		{"user scope", occkit.LevelInfo, func(*RenderOptions) {}},
		{"user scope, debug, operator env file", occkit.LevelDebug, func(o *RenderOptions) { o.EnvironmentFile = "/etc/occkit/credentials.env" }},
		{"system scope", occkit.LevelWarn, func(o *RenderOptions) {
			o.Scope, o.UnitDir, o.StateDir = ScopeSystem, "/etc/systemd/system", "/var/lib/occkit"
		}},
		{"system scope, service user, args", occkit.LevelError, func(o *RenderOptions) {
			o.Scope, o.UnitDir, o.StateDir, o.ServiceUser = ScopeSystem, "/etc/systemd/system", "/var/lib/occkit", "www-data"
			o.Args = []string{"/opt/openclaw/openclaw.mjs", "gateway", "--bind=loopback"}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := unitOptions(t)
			tt.edit(&o)
			if o.ServiceUser != "" {
				if _, err := user.Lookup(o.ServiceUser); err != nil {
					tiers.SystemdVerify.Skip(t, "no user "+o.ServiceUser+" here")
				}
			}
			rev := levelRevision(t, "verify-"+sanitize(tt.name), tt.level)
			u, err := Render(rev, o)
			if err != nil {
				t.Fatal(err)
			}
			content := string(u.Content)
			for _, line := range []string{
				"Restart=always", "RestartSec=2", "TimeoutStopSec=30",
				"UnsetEnvironment=OPENCLAW_LOG_LEVEL",
				`Environment="OPENCLAW_CONFIG_PATH=` + u.ConfigPath + `"`,
				"EnvironmentFile=-" + u.AgentDir + "/env",
				"ExecStart=" + strings.Join(u.Exec, " "),
			} {
				if !strings.Contains(content, "\n"+line+"\n") {
					t.Errorf("unit lacks %q:\n%s", line, content)
				}
			}
			if o.EnvironmentFile != "" && !strings.Contains(content, "\nEnvironmentFile="+o.EnvironmentFile+"\n") {
				t.Errorf("unit lacks the operator environment file")
			}
			if got := u.Exec[len(u.Exec)-2:]; !cmp.Equal(got, []string{"--port", "18000"}) {
				t.Errorf("ExecStart ends %v", got)
			}
			if out, err := verify(t, u); out != "" || err != nil {
				t.Errorf("systemd-analyze verify (%v) printed:\n%s\nfor unit:\n%s", err, out, content)
			}
			again, _ := Render(rev, o)
			if !bytes.Equal(again.Content, u.Content) {
				t.Error("rendering is not deterministic")
			}
		})
	}
}

func TestVerifyCatchesAWrongKey(t *testing.T) {
	// The verify check can fail: an unknown key is reported on stderr.
	u, err := Render(levelRevision(t, "bad", occkit.LevelInfo), unitOptions(t))
	if err != nil {
		t.Fatal(err)
	}
	u.Content = bytes.Replace(u.Content, []byte("RestartSec=2\n"), []byte("RestartSec=2\nRestartSecs=2\n"), 1)
	if out, _ := verify(t, u); !strings.Contains(out, "RestartSecs") {
		t.Errorf("verify did not report the unknown key: %q", out)
	}
}

func TestRenderRefuses(t *testing.T) {
	rev := levelRevision(t, "refuse", occkit.LevelInfo)
	codex, err := drivertest.NewRevision(drivertest.RevisionOptions{Compute: occkit.ComputeSSH,
		Topology: occkit.Topology{Harness: occkit.HarnessCodex, Mode: occkit.ModeDedicated}})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		rev  *admission.Revision
		edit func(*RenderOptions)
		rule string
		path string
	}{
		// Issue 32: its api_key projection would plan ANTHROPIC_API_KEY
		// into the host's secrets file.
		{"admitted for kubernetes (ADM-5)", kubernetesAPIKeyRevision(t), func(*RenderOptions) {}, "ADM-5", "compute"},
		{"dedicated codex (RES-11)", codex, func(*RenderOptions) {}, "RES-11", "executionMode"},
		{"nil revision", nil, func(*RenderOptions) {}, "DRV-1", ""},
		{"port 0", rev, func(o *RenderOptions) { o.Port = 0 }, "DRV-6", "port"},
		{"relative state dir", rev, func(o *RenderOptions) { o.StateDir = "state" }, "DRV-6", "stateDir"},
		{"binary with a space", rev, func(o *RenderOptions) { o.BinaryPath = "/opt/open claw" }, "DRV-6", "binaryPath"},
		{"arg with a specifier", rev, func(o *RenderOptions) { o.Args = []string{"%n"} }, "DRV-6", "args[0]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := unitOptions(t)
			tt.edit(&o)
			_, err := Render(tt.rev, o)
			wantCode(t, err, occkit.CodeInvalidRequest, tt.rule, tt.path)
		})
	}
}

// kubernetesAPIKeyRevision is an embedded OpenClaw revision admitted for
// the kubernetes Compute with an api_key harnessAuth binding.
func kubernetesAPIKeyRevision(t testing.TB) *admission.Revision {
	t.Helper()
	adm, err := admission.New(admission.Options{
		Authorizer:      admission.AuthorizerFunc(func(context.Context, admission.AuthorizeRequest) error { return nil }),
		HarnessVersions: map[occkit.Harness]string{occkit.HarnessOpenClaw: "2026.9.6"},
	})
	if err != nil {
		t.Fatal(err)
	}
	rev, err := adm.Admit(context.Background(), admission.Request{
		Principal: "operator",
		Agent: admission.Agent{
			ID: "k8s-agent", ConfigurationID: "k8s-config",
			HarnessAuth: occkit.Binding{Method: occkit.MethodAPIKey,
				Source: occkit.SourceRef{Kind: occkit.SourceSecret, NamespaceID: "team-a", ID: "anthropic"}},
		},
		Configuration: admission.StaticConfiguration{ID: "k8s-config", Generation: 1,
			Document: occkit.MustParseDocument(`{"agents":{"defaults":{"model":"anthropic/claude-sonnet-4-5"}}}`)},
		Compute: admission.ComputeInfo{Kind: occkit.ComputeKubernetes, ID: "k8s"},
		Level:   occkit.LevelInfo,
	})
	if err != nil {
		t.Fatalf("admit: %v", err)
	}
	return rev
}

// Whatever the Agent ID, the unit has the same lines (an ID cannot inject
// a directive) and its header round-trips the ID.
func TestRenderAgentIDCannotInject(t *testing.T) {
	o := unitOptions(t)
	base, err := Render(levelRevision(t, "a", occkit.LevelInfo), o)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.Count(base.Content, []byte("\n"))
	rapid.Check(t, func(rt *rapid.T) {
		id := rapid.StringMatching(`[a-z0-9_\-\n\r%$"\\\[\]= ]{1,40}`).Draw(rt, "agent")
		rev := levelRevision(t, id, occkit.LevelInfo)
		u, err := Render(rev, o)
		if err != nil {
			rt.Fatal(err)
		}
		if n := bytes.Count(u.Content, []byte("\n")); n != lines {
			rt.Fatalf("agent %q: %d lines, want %d:\n%s", id, n, lines, u.Content)
		}
		header, _, _ := strings.Cut(strings.SplitN(string(u.Content), "\n", 3)[1], "\n")
		var got string
		if err := json.Unmarshal([]byte(strings.TrimPrefix(header, "# occkit-agent: ")), &got); err != nil || got != id {
			rt.Fatalf("header %q does not round-trip %q", header, id)
		}
	})
}

func FuzzRenderAgentID(f *testing.F) {
	for _, s := range []string{"main", "a\nExecStart=/bin/sh", "%h$HOME", `"quoted"`} {
		f.Add(s)
	}
	o := unitOptions(f)
	f.Fuzz(func(t *testing.T, id string) {
		if id == "" {
			return
		}
		rev, err := drivertest.NewRevision(drivertest.RevisionOptions{AgentID: id, Compute: occkit.ComputeSSH})
		if err != nil {
			return
		}
		u, err := Render(rev, o)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(u.Content), "\n") {
			if strings.HasPrefix(line, "ExecStart=") && line != "ExecStart="+strings.Join(u.Exec, " ") {
				t.Fatalf("agent %q changed ExecStart: %q", id, line)
			}
		}
		if strings.Count(string(u.Content), "\nExecStart=") != 1 {
			t.Fatalf("agent %q added an ExecStart", id)
		}
	})
}

func TestUnitName(t *testing.T) {
	d := strings.Repeat("ab", 32)
	got := UnitName("main", d)
	if want := UnitPrefix + hash12("main") + "-abababababab.service"; got != want {
		t.Errorf("UnitName = %q, want %q", got, want)
	}
	if !unitNameRE.MatchString(got) {
		t.Errorf("%q is not a valid unit name", got)
	}
}

func TestClosedSets(t *testing.T) {
	if diff := cmp.Diff([]Scope{ScopeUser, ScopeSystem}, AllScopes()); diff != "" {
		t.Error(diff)
	}
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range AllScopes() {
		if _, err := Render(levelRevision(t, "scope", occkit.LevelInfo), RenderOptions{Port: 1, Scope: s, UnitDir: "/u", StateDir: "/s", BinaryPath: "/b"}); err != nil {
			t.Errorf("scope %s does not render: %v", s, err)
		}
	}
	for _, name := range []string{"ScopeUser", "ScopeSystem"} {
		if !bytes.Contains(doc, []byte("["+name+"]")) {
			t.Errorf("doc.go does not document %s", name)
		}
	}
	seen := map[HostKeyProblem]bool{}
	for _, p := range AllHostKeyProblems() {
		if p == "" || seen[p] {
			t.Errorf("bad or repeated problem %q", p)
		}
		seen[p] = true
	}
	if len(seen) != 3 {
		t.Errorf("%d host-key problems", len(seen))
	}
}

func BenchmarkRender(b *testing.B) {
	rev := levelRevision(b, "bench", occkit.LevelInfo)
	o := unitOptions(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Render(rev, o); err != nil {
			b.Fatal(err)
		}
	}
}

// AUTH-6: secretBindings reach the gateway through the revision's
// owner-only secrets file, named in the unit by reference only; the
// gateway token comes from its own file and never appears in the unit.
func TestRenderSecretBindings(t *testing.T) {
	src := occkit.SourceRef{Kind: occkit.SourceSecret, NamespaceID: "ns", ID: "telegram"}
	rev, err := drivertest.NewRevision(drivertest.RevisionOptions{
		AgentID: "a", Compute: occkit.ComputeSSH,
		Configuration:  occkit.MustParseDocument(`{"agents":{"defaults":{"model":"openai/gpt-5"}},"channels":{"telegram":{"botToken":"${TELEGRAM_BOT_TOKEN}"}}}`),
		Binding:        occkit.Binding{Method: occkit.MethodRuntime},
		SecretBindings: []occkit.SecretBinding{{Env: "TELEGRAM_BOT_TOKEN", Source: src}},
	})
	if err != nil {
		t.Fatal(err)
	}
	u, err := Render(rev, unitOptions(t))
	if err != nil {
		t.Fatal(err)
	}
	if want := []SecretEnv{{Name: "TELEGRAM_BOT_TOKEN", Source: src}}; !cmp.Equal(u.Secrets, want) {
		t.Errorf("secrets = %v", u.Secrets)
	}
	if u.SecretsFile == "" || !strings.Contains(string(u.Content), "EnvironmentFile="+u.SecretsFile+"\n") ||
		!strings.Contains(string(u.Content), "EnvironmentFile="+u.GatewayTokenFile+"\n") {
		t.Errorf("unit does not load the credential files:\n%s", u.Content)
	}
	if strings.Contains(string(u.Content), "TOKEN=") {
		t.Errorf("unit sets a credential variable itself:\n%s", u.Content)
	}
	doc := occkit.MustParseDocument(string(u.Document))
	if got := doc.Get(occkit.NewPath("gateway")).Raw(); got != `{"mode":"local","bind":"loopback","auth":{"mode":"token","token":"${OPENCLAW_GATEWAY_TOKEN}"}}` {
		t.Errorf("gateway section = %s", got)
	}
}

func TestEnvFileLine(t *testing.T) {
	tests := []struct {
		in   string
		want string
		ok   bool
	}{
		{"plain", "V=\"plain\"\n", true},
		{`a"b\c$d`, "V=\"a\\\"b\\\\c\\$d\"\n", true},
		{"two\nlines", "", false},
		{"tab\t", "", false},
	}
	for _, tt := range tests {
		got, ok := envFileLine("V", []byte(tt.in))
		if got != tt.want || ok != tt.ok {
			t.Errorf("envFileLine(%q) = %q, %v", tt.in, got, ok)
		}
	}
}

// Prepare refuses a revision admitted for another Compute before it
// connects to any host (the only host here refuses connections).
func TestPrepareRefusesAnotherCompute(t *testing.T) {
	d := mustNew(t, Config{Hosts: []Host{{Addr: "127.0.0.1:1", User: "u", Signer: testSigner(t), KnownHostsFile: emptyKnownHosts(t)}}, BinaryPath: "/bin/true"})
	err := d.Prepare(context.Background(), kubernetesAPIKeyRevision(t))
	wantCode(t, err, occkit.CodeInvalidRequest, "ADM-5", "compute")
}
