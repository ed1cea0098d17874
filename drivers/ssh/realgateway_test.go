package ssh

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
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

// gatewayJobs are what this test binary runs in its isolated children:
// a start, and a shell script (the plugin install Prepare runs on a host,
// offline).
var gatewayJobs = realgateway.Jobs{"start": realgateway.Start, "sh": runScript}

// operatorCredential is what the operator's environment file holds.
const operatorCredential = "sk-occkit-e2e-operator-0123456789abcdef"

// envPluginCache names the npm cache .ci/plugins.sh fills for the
// pinned release (discord, slack).
const envPluginCache = "OCCKIT_OPENCLAW_PLUGIN_CACHE"

// script is the "sh" job's argument.
type script struct {
	Script string
	Env    []string
}

// runScript is the "sh" job: it runs a shell script inside the network
// namespace and returns its output.
func runScript(ctx context.Context, raw json.RawMessage) (any, error) {
	var s script
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, "sh", "-c", s.Script)
	cmd.Env = s.Env
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("%v: %s", err, errb.Bytes())
	}
	return out.String(), nil
}

// noSystemdStop is the stop a gateway with channels overruns here: no
// systemd runs the tier, so OpenClaw 2026.9.6 cannot read the unit's
// TimeoutStopUSec (from 2026.9.5 it budgets its shutdown to 5 s less) and
// keeps its 330 s stop policy; 2026.8.x always does. A channel that cannot
// reach its service outlives 30 s; under systemd, the SIGKILL at
// TimeoutStopSec ends it.
const noSystemdStop = `^gateway: did not stop cleanly on SIGTERM \(signal killed`

func TestRealGateway_SSH(t *testing.T) {
	installs, run := realInstalls(t, tiers.GatewaySSH)
	cur, prev := installs[0], installs[1]
	type gatewayCase struct {
		name, doc, credEnv string
		in                 realgateway.Install
		level              occkit.LogLevel
		bindings           []occkit.SecretBinding
		// known: what OpenClaw is known to do (realgateway.Split).
		known []string
	}
	secret := func(env, id string) occkit.SecretBinding {
		return occkit.SecretBinding{Env: env, Source: occkit.SourceRef{Kind: occkit.SourceSecret, NamespaceID: "team-a", ID: id}}
	}
	telegramDoc := `{"agents":{"defaults":{"model":"anthropic/claude-sonnet-4-5",` +
		`"models":{"anthropic/claude-sonnet-4-5":{"agentRuntime":{"id":"openclaw"}}}}},` +
		`"channels":{"telegram":{"enabled":true,"botToken":"${TELEGRAM_BOT_TOKEN}"}}}`
	cases := []gatewayCase{
		{"openai-info", `{"agents":{"defaults":{"model":"openai/gpt-5",` +
			`"models":{"openai/gpt-5":{"agentRuntime":{"id":"openclaw"}}}}},"tools":{"profile":"coding"}}`,
			"OPENAI_API_KEY", cur, occkit.LevelInfo, nil, nil},
		// A channel credential from a secretBinding (AUTH-6): the token
		// reaches the gateway through the secrets file and nowhere else.
		{"anthropic-telegram-warn", telegramDoc, "ANTHROPIC_API_KEY", cur, occkit.LevelWarn,
			[]occkit.SecretBinding{secret("TELEGRAM_BOT_TOKEN", "telegram-bot")}, []string{noSystemdStop}},
		// Three channels, two of them plugins the release does not bundle
		// (issue 32): installed from the operator's cache before the start,
		// never fetched by the gateway.
		{"three-channels", `{"agents":{"defaults":{"model":"anthropic/claude-sonnet-4-5"}},` +
			`"channels":{"telegram":{"enabled":true,"botToken":"${TELEGRAM_BOT_TOKEN}"},` +
			`"discord":{"enabled":true,"token":"${DISCORD_BOT_TOKEN}"},` +
			`"slack":{"enabled":true,"botToken":"${SLACK_BOT_TOKEN}","appToken":"${SLACK_APP_TOKEN}"}}}`,
			"ANTHROPIC_API_KEY", cur, occkit.LevelInfo, []occkit.SecretBinding{
				secret("TELEGRAM_BOT_TOKEN", "telegram-bot"), secret("DISCORD_BOT_TOKEN", "discord-bot"),
				secret("SLACK_BOT_TOKEN", "slack-bot"), secret("SLACK_APP_TOKEN", "slack-app")}, []string{noSystemdStop}},
		// The earlier release, approved and run as such. Before 2026.9.5
		// OpenClaw does not ask systemd for the stop timeout and keeps a
		// 325 s force-exit timer: systemd's SIGKILL at 30 s is what ends
		// a gateway whose channel cannot reach its service.
		{"prev-telegram-info", telegramDoc, "ANTHROPIC_API_KEY", prev, occkit.LevelInfo,
			[]occkit.SecretBinding{secret("TELEGRAM_BOT_TOKEN", "telegram-bot")}, []string{noSystemdStop}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			release := installedRelease(t, tc.in)
			rev := admitSSH(t, "agent-"+tc.name, release, tc.doc, tc.level, tc.bindings)
			root := t.TempDir()
			envFile := filepath.Join(root, "etc", "occkit", "credentials.env")
			u, err := Render(rev, RenderOptions{
				Port: 18789, UnitDir: filepath.Join(root, "units"), StateDir: filepath.Join(root, "state"),
				BinaryPath: tc.in.Bin(), EnvironmentFile: envFile,
			})
			if err != nil {
				t.Fatalf("render: %v", err)
			}
			// What Prepare leaves on the host: the planned document at
			// ConfigPath, the unit, the gateway token file it generates, the
			// secrets file it writes from the SecretReader, the plugins it
			// installs; and the operator's credential file.
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
			p, npmLogs := unitProcess(t, tc.in, u, files, root)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
			defer cancel()
			installPluginsLocally(ctx, t, tc.in, u, p)
			spec := realgateway.Spec{
				Processes: []realgateway.Process{p}, LogDir: realgateway.LogDir(t),
				ReadyTimeout: 4 * time.Minute, StopTimeout: unitStopTimeout(t, u), Settle: time.Second,
			}
			var rep realgateway.Report
			if err := gatewayPool.Run(ctx, "start", spec, &rep); err != nil {
				t.Fatal(err)
			}
			for _, pr := range rep.Processes {
				t.Logf("OpenClaw %s %s: live after %d ms, ready after %d ms (the driver waits %s), ended %s, %d ms after SIGTERM (TimeoutStopSec %s); restarts %q",
					release, pr.Role, pr.LiveMs, pr.ReadyMs, DefaultReadinessTimeout, pr.Exit, pr.StopMs, spec.StopTimeout, pr.Restarts)
			}
			problems := realgateway.Problems(spec, rep, realgateway.Expect{Level: string(tc.level), Secrets: secrets})
			// The plugins Prepare installed are the only ones: the gateway
			// fetched nothing with npm (issue 32: never fetched at start). OpenClaw runs
			// the npm of its node, not PATH's: npm's own log directory under
			// the gateway's HOME tells.
			for _, cmd := range npmFetches(npmLogs) {
				problems = append(problems, "gateway: ran "+cmd+" at start")
			}
			unexpected, expected := realgateway.Split(problems, tc.known)
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

// installPluginsLocally runs, in a network namespace with only loopback,
// the script Prepare runs on a host to install u's plugins from the
// operator's npm cache (envPluginCache), with the unit's environment.
// npmFetches returns the npm commands logged in dir (its "verbose argv"
// lines) that can reach a registry: OpenClaw asks `npm root --global`
// at start to find globally installed plugins, a local question; any
// other command (view, install, pack, …) is a fetch.
func npmFetches(dir string) []string {
	logs, _ := filepath.Glob(filepath.Join(dir, "*.log"))
	var out []string
	for _, l := range logs {
		b, err := os.ReadFile(l)
		if err != nil {
			out = append(out, l+": "+err.Error())
			continue
		}
		for _, line := range strings.Split(string(b), "\n") {
			argv, ok := strings.CutPrefix(line[strings.Index(line, " ")+1:], "verbose argv ")
			if !ok {
				continue
			}
			if cmd, _, _ := strings.Cut(argv, " "); cmd != `"root"` && cmd != `"prefix"` {
				out = append(out, "npm "+argv)
			}
		}
	}
	return out
}

func installPluginsLocally(ctx context.Context, t *testing.T, in realgateway.Install, u Unit, p realgateway.Process) {
	t.Helper()
	if len(u.Plugins) == 0 {
		return
	}
	cache := os.Getenv(envPluginCache)
	if _, err := os.Stat(cache); cache == "" || err != nil {
		if realgateway.Required() {
			t.Fatalf("%s must name the npm cache .ci/plugins.sh fills (OCCKIT_REQUIRE_INTEGRATION=1)", envPluginCache)
		}
		t.Skipf("skipping: %s names no npm cache (.ci/plugins.sh)", envPluginCache)
	}
	if err := os.MkdirAll(u.RevisionDir, 0o700); err != nil {
		t.Fatal(err)
	}
	sh := pluginInstallScript(u, cache, func(spec string) string {
		return cliCommand(in.Bin(), nil, "plugins", "install", spec)
	})
	// What an SSH session has: the login's PATH (node 24 first here),
	// a HOME and TMPDIR, and no credential (a channel token in the
	// environment would make the CLI's own start-up pass install that
	// channel's plugin first).
	// Its own HOME, so that npm's logs there are the installer's and
	// the gateway's HOME shows whether the gateway ran npm.
	home := filepath.Join(filepath.Dir(u.AgentDir), "install-home")
	if err := os.MkdirAll(home, 0o700); err != nil {
		t.Fatal(err)
	}
	env := []string{"PATH=" + in.Path(), "HOME=" + home}
	for _, kv := range p.Env {
		if k, _, _ := strings.Cut(kv, "="); k == "TMPDIR" {
			env = append(env, kv)
		}
	}
	var out string
	if err := gatewayPool.Run(ctx, "sh", script{Script: sh, Env: env}, &out); err != nil {
		t.Fatalf("installing %v: %v", u.Plugins, err)
	}
	if failed := strings.Fields(out); len(failed) > 0 {
		logs, _ := exec.Command("sh", "-c", "tail -n 20 "+quote(u.WorkingDirectory)+"/.occkit-plugins/*.log").CombinedOutput()
		t.Fatalf("could not install %v offline from %s:\n%s", failed, cache, logs)
	}
}

// unitStopTimeout is the unit's TimeoutStopSec.
func unitStopTimeout(t *testing.T, u Unit) time.Duration {
	t.Helper()
	for _, line := range strings.Split(string(u.Content), "\n") {
		if v, ok := strings.CutPrefix(line, "TimeoutStopSec="); ok {
			d, err := time.ParseDuration(v + "s")
			if err != nil {
				t.Fatal(err)
			}
			return d
		}
	}
	t.Fatal("the unit has no TimeoutStopSec")
	return 0
}

// secretValue is the test Secret store: a distinct value per name.
func secretValue(name string) string {
	sum := sha256.Sum256([]byte(name))
	return "occkit-e2e-secret-" + hex.EncodeToString(sum[:12])
}

// admitSSH admits doc for the ssh Compute with OpenClaw release approved.
func admitSSH(t testing.TB, agent, release, doc string, level occkit.LogLevel, bindings []occkit.SecretBinding) *admission.Revision {
	t.Helper()
	adm, err := admission.New(admission.Options{
		Authorizer:      admission.AuthorizerFunc(func(context.Context, admission.AuthorizeRequest) error { return nil }),
		HarnessVersions: map[occkit.Harness]string{occkit.HarnessOpenClaw: release},
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
// would run it, and returns where npm would log if the gateway ran it.
func unitProcess(t *testing.T, in realgateway.Install, u Unit, files map[string][]byte, root string) (realgateway.Process, string) {
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
	return p, filepath.Join(home, ".npm", "_logs")
}

func TestNPMFetches(t *testing.T) {
	dir := t.TempDir()
	log := "0 verbose cli /node/bin/node /node/bin/npm\n1 info using npm@11.6.2\n2 verbose argv \"root\" \"--global\"\n"
	if err := os.WriteFile(filepath.Join(dir, "a-debug-0.log"), []byte(log), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := npmFetches(dir); len(got) != 0 {
		t.Errorf("npm root --global is a fetch: %q", got)
	}
	log2 := "0 verbose cli /node/bin/node /node/bin/npm\n2 verbose argv \"view\" \"@openclaw/discord@2026.9.6\" \"version\"\n"
	if err := os.WriteFile(filepath.Join(dir, "b-debug-0.log"), []byte(log2), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := npmFetches(dir); len(got) != 1 || !strings.Contains(got[0], "@openclaw/discord") {
		t.Errorf("npm view is not reported: %q", got)
	}
}
