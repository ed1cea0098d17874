package ssh

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/admission"
	"github.com/occkit/occkit/internal/realgateway"
	"github.com/occkit/occkit/internal/tiers"
	"github.com/occkit/occkit/logging"
)

// The end-to-end tier (issue 18): admitted revisions, rendered as systemd
// units, started on the real OpenClaw (realgateway, OCCKIT_OPENCLAW_DIR) as
// systemd would start them — ExecStart, Environment=, the operator's
// EnvironmentFile= (which holds the credential, AUTH-5), UnsetEnvironment=,
// WorkingDirectory=, the planned document Prepare uploads to the unit's
// ConfigPath, the gateway token file it generates and the secrets file it
// writes for secretBindings — in a network namespace that has only
// loopback. The user
// manager's part is emulated: PATH (node 24 first), HOME, a private
// TMPDIR, and proxies pointed at a closed loopback port.

// gatewayPool runs at most two isolated gateway starts at once.
var gatewayPool = realgateway.NewPool(2)

// gatewayJobs are what this test binary runs in its isolated children.
var gatewayJobs = realgateway.Jobs{"start": realgateway.Start}

// operatorCredential is what the operator's environment file holds.
const operatorCredential = "sk-occkit-e2e-operator-0123456789abcdef"

func TestRealGateway_SSH(t *testing.T) {
	in, run := realgateway.Open(t, tiers.GatewaySSH)
	cases := []struct {
		name, doc, credEnv string
		level              occkit.LogLevel
		bindings           []occkit.SecretBinding
		// known: what OpenClaw is known to do (realgateway.Split); a
		// gateway whose Telegram channel cannot reach Telegram overruns
		// the 30 s stop timeout after SIGTERM.
		known []string
	}{
		{"openai-info", `{"agents":{"defaults":{"model":"openai/gpt-5",` +
			`"models":{"openai/gpt-5":{"agentRuntime":{"id":"openclaw"}}}}},"tools":{"profile":"coding"}}`,
			"OPENAI_API_KEY", occkit.LevelInfo, nil, nil},
		// A channel credential from a secretBinding (AUTH-6): the token
		// reaches the gateway through the secrets file and nowhere else.
		{"anthropic-telegram-warn", `{"agents":{"defaults":{"model":"anthropic/claude-sonnet-4-5",` +
			`"models":{"anthropic/claude-sonnet-4-5":{"agentRuntime":{"id":"openclaw"}}}}},` +
			`"channels":{"telegram":{"enabled":true,"botToken":"${TELEGRAM_BOT_TOKEN}"}}}`,
			"ANTHROPIC_API_KEY", occkit.LevelWarn, []occkit.SecretBinding{{Env: "TELEGRAM_BOT_TOKEN",
				Source: occkit.SourceRef{Kind: occkit.SourceSecret, NamespaceID: "team-a", ID: "telegram-bot"}}},
			[]string{`^gateway: did not stop cleanly on SIGTERM \(signal killed`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rev := admitSSH(t, "agent-"+tc.name, tc.doc, tc.level, tc.bindings)
			root := t.TempDir()
			envFile := filepath.Join(root, "etc", "occkit", "credentials.env")
			u, err := Render(rev, RenderOptions{
				Port: 18789, UnitDir: filepath.Join(root, "units"), StateDir: filepath.Join(root, "state"),
				BinaryPath: in.Bin(), EnvironmentFile: envFile,
			})
			if err != nil {
				t.Fatalf("render: %v", err)
			}
			// What Prepare leaves on the host: the planned document at
			// ConfigPath, the unit, the gateway token file it generates, the
			// secrets file it writes from the SecretReader; and the
			// operator's credential file.
			token := secretValue("gateway-token/" + tc.name)
			files := map[string][]byte{
				u.ConfigPath:       u.Document,
				u.Path:             u.Content,
				u.GatewayTokenFile: []byte("OPENCLAW_GATEWAY_TOKEN=" + token + "\n"),
				envFile:            []byte(tc.credEnv + "=" + operatorCredential + "\n"),
			}
			secrets := []string{operatorCredential, token}
			if u.SecretsFile != "" {
				var b strings.Builder
				for _, e := range u.Secrets {
					v := secretValue(e.Source.NamespaceID + "/" + e.Source.ID)
					line, ok := envFileLine(e.Name, []byte(v))
					if !ok {
						t.Fatalf("secret %s", e.Name)
					}
					b.WriteString(line)
					secrets = append(secrets, v)
				}
				files[u.SecretsFile] = []byte(b.String())
			}
			p := unitProcess(t, in, u, files, root)
			spec := realgateway.Spec{
				Processes: []realgateway.Process{p}, LogDir: realgateway.LogDir(t),
				ReadyTimeout: 4 * time.Minute, StopTimeout: 30 * time.Second, Settle: time.Second,
			}
			ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
			defer cancel()
			var rep realgateway.Report
			if err := gatewayPool.Run(ctx, "start", spec, &rep); err != nil {
				t.Fatal(err)
			}
			for _, pr := range rep.Processes {
				t.Logf("%s: live after %d ms, ready after %d ms, ended %s, %d ms after SIGTERM; restarts %q", pr.Role, pr.LiveMs, pr.ReadyMs, pr.Exit, pr.StopMs, pr.Restarts)
			}
			unexpected, expected := realgateway.Split(realgateway.Problems(spec, rep, realgateway.Expect{Level: string(tc.level), Secrets: secrets}), tc.known)
			for _, problem := range expected {
				t.Log("known OpenClaw divergence: " + problem)
			}
			for _, problem := range unexpected {
				t.Error(problem)
			}
			run.Done(1)
		})
	}
}

// secretValue is the test Secret store: a distinct value per name.
func secretValue(name string) string {
	sum := sha256.Sum256([]byte(name))
	return "occkit-e2e-secret-" + hex.EncodeToString(sum[:12])
}

func admitSSH(t *testing.T, agent, doc string, level occkit.LogLevel, bindings []occkit.SecretBinding) *admission.Revision {
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
			ID: agent, ConfigurationID: agent + "-config",
			HarnessAuth: occkit.Binding{Method: occkit.MethodRuntime},
		},
		Configuration:  admission.StaticConfiguration{ID: agent + "-config", Generation: 1, Document: occkit.MustParseDocument(doc)},
		Compute:        admission.ComputeInfo{Kind: occkit.ComputeSSH, ID: "ssh"},
		Level:          level,
		SecretBindings: bindings,
	})
	if err != nil {
		t.Fatalf("admit: %v", err)
	}
	return rev
}

// unquoteEnv reads an EnvironmentFile= value as systemd does for the
// forms the driver and operators write: bare, or double-quoted with
// backslash escapes.
func unquoteEnv(v string) string {
	if len(v) < 2 || v[0] != '"' || v[len(v)-1] != '"' {
		return v
	}
	var b strings.Builder
	for i := 1; i < len(v)-1; i++ {
		if v[i] == '\\' && i+1 < len(v)-1 {
			i++
		}
		b.WriteByte(v[i])
	}
	return b.String()
}

// unitProcess maps a rendered unit onto this machine as the user manager
// would run it.
func unitProcess(t *testing.T, in realgateway.Install, u Unit, files map[string][]byte, root string) realgateway.Process {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	proxy := "http://127.0.0.1:" + strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
	l.Close()
	home := filepath.Join(root, "home")
	for _, dir := range []string{home, filepath.Join(root, "tmp"), u.WorkingDirectory} {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	env := map[string]string{
		"PATH": in.Path(), "HOME": home, "TMPDIR": filepath.Join(root, "tmp"),
		"HTTP_PROXY": proxy, "HTTPS_PROXY": proxy, "ALL_PROXY": proxy,
		"http_proxy": proxy, "https_proxy": proxy, "all_proxy": proxy,
		"NO_PROXY": "127.0.0.1,localhost", "no_proxy": "127.0.0.1,localhost",
		// The user manager passes the level down; the unit must unset it.
		logging.EnvOpenClawLogLevel: "debug",
	}
	for _, e := range u.Env {
		env[e.Name] = e.Value
	}
	// EnvironmentFile= assignments override Environment= ones.
	for _, f := range u.EnvironmentFiles {
		data, ok := files[f.Path]
		if !ok {
			if !f.Optional {
				t.Fatalf("the unit needs %s, which nobody provides", f.Path)
			}
			continue
		}
		sc := bufio.NewScanner(bytes.NewReader(data))
		for sc.Scan() {
			line := strings.TrimSpace(sc.Text())
			if k, v, ok := strings.Cut(line, "="); ok && line[0] != '#' {
				env[k] = unquoteEnv(v)
			}
		}
	}
	for _, name := range u.Unset {
		delete(env, name)
	}
	p := realgateway.Process{Role: "gateway", Argv: u.Exec, Dir: u.WorkingDirectory, Port: u.Port}
	for k, v := range env {
		p.Env = append(p.Env, k+"="+v)
	}
	for path, data := range files {
		p.Files = append(p.Files, realgateway.File{Path: path, Data: data, Mode: 0o400})
	}
	return p
}
