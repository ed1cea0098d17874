package kubernetes

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/occkit/occkit"

	"github.com/google/go-cmp/cmp"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"

	"github.com/occkit/occkit/drivers/kubernetes/render"
	"github.com/occkit/occkit/internal/realgateway"
	"github.com/occkit/occkit/internal/tiers"
)

// The end-to-end tier (issues 18, 30, 32): admitted revisions, rendered
// for this Compute, started on the real OpenClaw of the release their
// image names (realgateway; OCCKIT_OPENCLAW_DIR, and
// OCCKIT_OPENCLAW_DIR_PREV for a 2026.8.x release) and the real Codex
// (OCCKIT_CODEX), exactly as the Deployments say: each container runs in
// a mount namespace of its own that binds its volumes where the render
// mounts them (the data claim and its subPaths writable, the ConfigMaps
// read-only: a write fails with EROFS as on the cluster), its
// environment with every secretKeyRef resolved from a test Secret store,
// its arguments as rendered. Every pod of a revision shares one network
// namespace that has only loopback, and each container's /etc/hosts
// resolves the rendered Service names to it, as cluster DNS would resolve
// them to the pods: no name is rewritten. The container runtime's part is
// emulated: PATH is the image's (node 24 first), the processes run as
// root (the pod's user and fsGroup are not), and the proxies point at a
// closed loopback port. The image entrypoint's Codex login is not run.

// Known divergences of openclaw@2026.9.6 that the tier measured (issue 18
// report): a gateway with a Telegram channel that cannot reach Telegram
// does not end its drain after SIGTERM; its own force-exit timer ends it
// after 325 s (measured: exit 1 at 326 s, SIGKILL at 328 s), inside the
// rendered grace period (330 s, compile.GatewayStopGrace), where a 30 s
// one killed it.
var knownTelegramStop = []string{`^gateway: did not stop cleanly on SIGTERM \((exit 1|signal killed), 32[5-9]\d{3} ms\)`}

// The native node host (`openclaw node run`, the dedicated OpenClaw
// Harness) as openclaw@2026.9.6 is written (read in its dist code and
// measured):
//   - its logger honours logging.consoleStyle from the native document
//     (OPENCLAW_CONFIG_PATH; its records are JSON), but the runner writes
//     its gateway connection status ("node host gateway connected: <url>",
//     "node host gateway connect failed…", reconnect pauses) with plain
//     process.stderr writes that no file, variable or flag routes through
//     the logger: those lines, and only those, are accepted;
//   - its SIGTERM handler stops the gateway client and MCP runtime and
//     exits 143 (SIGINT: 130); the `openclaw` launcher that respawned it
//     then ends by the same signal, in 1–4 s with no descendant left. No
//     other signal or command ends it with 0, so a SIGTERM end is its clean
//     stop (systemd counts the stop signal's death as clean; kubelet
//     ignores the status), and the render keeps SIGTERM.
//
// Its positive connected signal is the "node host gateway connected:"
// line naming the gateway's Service as rendered: a node host that never
// reaches its gateway (plaintext ws:// refused, a token it lacks) fails.
const nodeHostOutsideLogger = `^node host `

var nodeHostStopExits = []string{"exit 0", "exit 143", "signal terminated"}

var knownNodeHost = []string{`^harness: \d+ console lines written outside its logger, first "node host `}

// gatewayPool runs at most two isolated gateway starts at once.
var gatewayPool = realgateway.NewPool(2)

// gatewayJobs are what this test binary runs in its isolated children.
var gatewayJobs = realgateway.Jobs{"start": realgateway.Start}

// secretValue is the test Secret store: every Secret key a Deployment
// references holds a distinct value derived from its name and key.
func secretValue(name, key string) string {
	sum := sha256.Sum256([]byte(name + "/" + key))
	return "occkit-e2e-secret-" + hex.EncodeToString(sum[:12])
}

// closedPort returns a loopback port nothing listens on (in the child's
// namespace nothing listens at all).
func closedPort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	return port
}

// images are the programs the tier runs for an image reference: the
// OpenClaw install of each release, by image tag, and the Codex binary.
type images struct {
	openclaw map[string]realgateway.Install
	codex    string
}

// program returns the binary that runs the image ref's args[0] and the
// PATH of that image.
func (im images) program(t *testing.T, ref string, args []string) (string, string) {
	t.Helper()
	i := strings.LastIndexByte(ref, ':')
	if i < 0 || strings.Contains(ref, "@") {
		t.Fatalf("image %q is not pinned to a release tag", ref)
	}
	repo, tag := ref[:i], ref[i+1:]
	switch {
	case repo == render.DefaultOpenClawImage && len(args) > 0 && args[0] == "openclaw":
		in, ok := im.openclaw[tag]
		if !ok {
			t.Fatalf("no OpenClaw %s installed for image %s", tag, ref)
		}
		return in.Bin(), in.Path()
	case repo == render.DefaultCodexImage && len(args) > 0 && args[0] == "codex":
		if im.codex == "" {
			t.Fatalf("no Codex binary (OCCKIT_CODEX) for image %s", ref)
		}
		return im.codex, "/usr/local/bin:/usr/bin:/bin"
	}
	t.Fatalf("image %s does not run %q", ref, args)
	return "", ""
}

// podProcess maps one rendered Deployment onto this machine under root.
// It returns the process and the Secret values it was given.
func podProcess(t *testing.T, im images, objs render.Objects, dep *appsv1.Deployment, root string, proxyPort int) (realgateway.Process, []string) {
	t.Helper()
	pod := dep.Spec.Template.Spec
	if len(pod.Containers) != 1 {
		t.Fatalf("%s: %d containers", dep.Name, len(pod.Containers))
	}
	c := pod.Containers[0]
	p, secrets := containerProcess(t, im, objs, dep, c, root, proxyPort)
	for _, ic := range pod.InitContainers {
		step, s := containerProcess(t, im, objs, dep, ic, root, proxyPort)
		step.Role = p.Role + "-" + ic.Name
		p.Init = append(p.Init, step)
		secrets = append(secrets, s...)
	}
	probe := c.ReadinessProbe
	gateway := len(c.Args) >= 3 && c.Args[1] == "gateway" && c.Args[2] == "run"
	switch {
	case probe != nil && probe.HTTPGet != nil:
		if probe.HTTPGet.Path != "/readyz" {
			t.Errorf("%s: readiness is %s, want /readyz", dep.Name, probe.HTTPGet.Path)
		}
		p.Port = containerPort(t, dep.Name, c, probe.HTTPGet.Port.String())
	case probe != nil && probe.TCPSocket != nil:
		p.Port, p.TCPReady = containerPort(t, dep.Name, c, probe.TCPSocket.Port.String()), true
	}
	if gateway && (probe == nil || probe.HTTPGet == nil) {
		t.Errorf("%s: the gateway container has no /readyz readiness probe", dep.Name)
	}
	if g := pod.TerminationGracePeriodSeconds; g != nil {
		p.StopTimeout = time.Duration(*g) * time.Second
	}
	if len(c.Args) > 0 && c.Args[0] == "codex" && slices.Contains(c.Args, "app-server") {
		p.OutsideLogger = codexOutsideLogger
	}
	if len(c.Args) >= 3 && c.Args[1] == "node" && c.Args[2] == "run" {
		host := ""
		for i, a := range c.Args {
			if a == "--host" && i+1 < len(c.Args) {
				host = c.Args[i+1]
			}
		}
		p.StopExits, p.OutsideLogger = nodeHostStopExits, nodeHostOutsideLogger
		p.Connected = `^node host gateway connected: wss?://` + regexp.QuoteMeta(host) + `:`
	}
	return p, secrets
}

// containerProcess maps one container of dep's pod onto this machine
// under root (the pod's volumes, shared by its containers). It returns
// the process and the Secret values it was given.
func containerProcess(t *testing.T, im images, objs render.Objects, dep *appsv1.Deployment, c corev1.Container, root string, proxyPort int) (realgateway.Process, []string) {
	t.Helper()
	pod := dep.Spec.Template.Spec
	var secrets []string
	volumes := map[string]corev1.Volume{}
	for _, v := range pod.Volumes {
		volumes[v.Name] = v
	}
	configMaps := map[string]*corev1.ConfigMap{}
	for _, cm := range objs.ConfigMaps {
		configMaps[cm.Name] = cm
	}
	mkdir := func(dir string) string {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	p := realgateway.Process{Role: string(dep.Labels[render.LabelComponent]), Hosts: map[string]string{}}
	for _, m := range c.VolumeMounts {
		v, ok := volumes[m.Name]
		if !ok {
			t.Fatalf("%s mounts volume %s, which its pod does not have", dep.Name, m.Name)
		}
		switch {
		case v.PersistentVolumeClaim != nil, v.EmptyDir != nil:
			src := filepath.Join(root, "volumes", m.Name)
			if m.SubPath != "" {
				src = filepath.Join(src, m.SubPath)
			}
			p.Mounts = append(p.Mounts, realgateway.Mount{Source: mkdir(src), Target: m.MountPath, ReadOnly: m.ReadOnly})
			if !m.ReadOnly {
				p.Writes = append(p.Writes, src)
			}
		case v.ConfigMap != nil:
			cm := configMaps[v.ConfigMap.Name]
			if cm == nil {
				t.Fatalf("%s mounts ConfigMap %s, which the render did not produce", dep.Name, v.ConfigMap.Name)
			}
			dir := mkdir(filepath.Join(root, "configmaps", cm.Name))
			for key, data := range cm.Data {
				if err := os.WriteFile(filepath.Join(dir, key), []byte(data), 0o444); err != nil {
					t.Fatal(err)
				}
			}
			src := dir
			if m.SubPath != "" {
				src = filepath.Join(dir, m.SubPath)
			}
			if !m.ReadOnly {
				t.Errorf("%s mounts ConfigMap %s writable", dep.Name, cm.Name)
			}
			p.Mounts = append(p.Mounts, realgateway.Mount{Source: src, Target: m.MountPath, ReadOnly: true})
		case v.Secret != nil:
			// A Secret volume: each item holds the test Secret store's
			// value of its key, read-only.
			dir := mkdir(filepath.Join(root, "secrets", v.Secret.SecretName))
			if len(v.Secret.Items) == 0 || m.SubPath != "" {
				t.Fatalf("%s: Secret volume %s without items, or mounted by subPath", dep.Name, v.Name)
			}
			for _, it := range v.Secret.Items {
				val := secretValue(v.Secret.SecretName, it.Key)
				if err := os.WriteFile(filepath.Join(dir, it.Path), []byte(val), 0o440); err != nil {
					t.Fatal(err)
				}
				secrets = append(secrets, val)
			}
			if !m.ReadOnly {
				t.Errorf("%s mounts Secret %s writable", dep.Name, v.Secret.SecretName)
			}
			p.Mounts = append(p.Mounts, realgateway.Mount{Source: dir, Target: m.MountPath, ReadOnly: true})
		default:
			t.Fatalf("%s: volume %s has a source the tier cannot supply", dep.Name, m.Name)
		}
	}
	bin, path := im.program(t, c.Image, c.Args)
	proxy := "http://127.0.0.1:" + strconv.Itoa(proxyPort)
	// Egress is a closed proxy; the cluster's npm mirror is the one
	// service outside the pods they reach.
	noProxy := "127.0.0.1,localhost," + mirrorHost
	env := map[string]string{
		"PATH":       path,
		"HTTP_PROXY": proxy, "HTTPS_PROXY": proxy, "ALL_PROXY": proxy,
		"http_proxy": proxy, "https_proxy": proxy, "all_proxy": proxy,
		"NO_PROXY": noProxy, "no_proxy": noProxy,
	}
	for _, e := range c.Env {
		switch {
		case e.ValueFrom == nil:
			env[e.Name] = e.Value
		case e.ValueFrom.SecretKeyRef != nil:
			ref := e.ValueFrom.SecretKeyRef
			v := secretValue(ref.Name, ref.Key)
			env[e.Name] = v
			secrets = append(secrets, v)
		default:
			t.Fatalf("%s: variable %s has a source the tier cannot supply", dep.Name, e.Name)
		}
	}
	for k, v := range env {
		p.Env = append(p.Env, k+"="+v)
	}
	sort.Strings(p.Env)
	// Service names resolve to the pods, all on loopback here, under
	// every name cluster DNS answers for the namespace.
	for _, s := range objs.Services {
		for _, n := range []string{s.Name, s.Name + "." + objs.Namespace, s.Name + "." + objs.Namespace + ".svc",
			s.Name + "." + objs.Namespace + ".svc.cluster.local"} {
			p.Hosts[n] = "127.0.0.1"
		}
	}
	p.Hosts[mirrorHost] = "127.0.0.1"
	p.Argv = append([]string{bin}, c.Args[1:]...)
	if env["HOME"] == "" {
		t.Fatalf("%s sets no HOME", dep.Name)
	}
	p.Dir = env["HOME"]
	return p, secrets
}

// mirror is the tier's npm mirror for an init step installing args'
// package: it must hold what the step installs (.ci/plugins.sh records
// it), or the tier cannot run the step without a network.
func mirror(t *testing.T, args []string) *realgateway.Registry {
	t.Helper()
	dir := os.Getenv(realgateway.EnvMirror)
	spec := args[len(args)-1]
	i := strings.LastIndexByte(spec, '@')
	if dir == "" || i <= 0 || !(realgateway.Mirror{Dir: dir}).Has(spec[:i], spec[i+1:]) {
		tiers.GatewayKubernetes.Skip(t, fmt.Sprintf("the npm mirror %s=%q does not hold %s: run .ci/plugins.sh", realgateway.EnvMirror, dir, spec))
	}
	return &realgateway.Registry{Dir: dir, Port: mirrorPort}
}

// containerPort is the number of c's port named name.
func containerPort(t *testing.T, dep string, c corev1.Container, name string) int {
	t.Helper()
	for _, port := range c.Ports {
		if port.Name == name {
			return int(port.ContainerPort)
		}
	}
	t.Fatalf("%s: the readiness port %s is not a container port", dep, name)
	return 0
}

// e2eCase is one realistic Configuration, how it is admitted and on
// which release.
type e2eCase struct {
	name  string
	c     topologyCase
	level occkit.LogLevel
	// release is the approved OpenClaw release (the image tag); prev
	// selects the 2026.8.x install.
	release string
	prev    bool
	// unbound starts the revision without its telegram token's binding:
	// the render refuses that revision (DOC-4), so the tier starts the
	// bound one with the variable removed, as a render without the check
	// would have; it must fail on the real gateway.
	unbound bool
	// known are what the real OpenClaw is known to do that the tier's
	// checks name (realgateway.Split): logged, not failed.
	known []string
}

// The Codex CLI version the tier's Codex revisions are approved for
// (.ci/codex.sh).
const tierCodexVersion = "0.171.0"

// discordNode is dedicated OpenClaw with a Discord channel, whose plugin
// openclaw@2026.9.6 does not bundle: its init step installs it from the
// mirror before the gateway starts.
var discordNode = topologyCase{
	name: "dedicated-openclaw-discord", mode: occkit.ModeDedicated, harness: occkit.HarnessOpenClaw,
	auth: dedicatedOpenClaw.auth,
	doc: `{"agents":{"defaults":{"model":"openai/gpt-5","models":{"openai/gpt-5":{"agentRuntime":{"id":"openclaw"}}}},"entries":{"main":{}}},` +
		`"channels":{"discord":{"enabled":true,"token":"${DISCORD_BOT_TOKEN}"}}}`,
	bindings: []occkit.SecretBinding{{Env: "DISCORD_BOT_TOKEN",
		Source: occkit.SourceRef{Kind: occkit.SourceSecret, NamespaceID: "team-a", ID: "discord-bot"}}},
}

// tierSandbox is testSandbox with a harness home under /home: the tier
// makes a mount point the host lacks inside a private overlay of its
// nearest existing directory, which cannot be the host's root.
func tierSandbox() *render.Sandbox {
	sb := testSandbox()
	sb.HarnessHome = "/home/sandbox"
	return sb
}

// The Codex app-server (codex-cli 0.171.0) writes its JSON records
// (LOG_FORMAT=json) to stderr, and before them, with plain writes that no
// setting routes through its logger, a five-line banner naming its
// listener: those lines, and only those, are accepted (knownCodexBanner).
const codexOutsideLogger = `^(codex app-server \(WebSockets\)|listening on: ws://|readyz: http://|healthz: http://|note: websocket auth is required for non-localhost listeners)`

var knownCodexBanner = `^harness: 5 console lines written outside its logger, first "codex app-server \(WebSockets\)"`

// knownCodexRefresh: openclaw@2026.9.6 binds its codex plugin to its own
// release (versionBoundToOpenClaw) and counts an installed codex older
// than itself as stale, but npm publishes no @openclaw/codex@2026.9.6
// (the newest is 2026.9.5, which the init step installs and the gateway
// loads: "codex app-server remote WebSocket connection is healthy"). So
// at every start its release step tries to refresh the plugin to
// @openclaw/codex@2026.9.6 (npm, then ClawHub), fails, and prints the
// failure as one boxed "Doctor warnings" note outside its JSON logger
// (codexRefreshBox checks that the box says exactly that). OpenClaw's own
// divergence for that release; the gateway is ready all the same.
var knownCodexRefresh = `^gateway: \d+ console lines are not JSON records, first "│"`

// codexRefreshBox checks that the non-JSON console lines of a dedicated
// Codex gateway are one boxed "Doctor warnings" note whose only item is the
// failed refresh of the codex plugin.
func codexRefreshBox(logDir string) error {
	var out []byte
	for _, f := range []string{"gateway.stdout", "gateway.stderr"} {
		b, _ := os.ReadFile(filepath.Join(logDir, f))
		out = append(out, b...)
	}
	_, stray := realgateway.Console(out)
	text := strings.Join(stray, "\n")
	items := regexp.MustCompile(`(?m)^│  - `).FindAllStringIndex(text, -1)
	switch {
	case len(stray) == 0:
		return nil
	case !strings.HasPrefix(stray[0], "│") || !strings.Contains(text, "◇  Doctor warnings"):
		return fmt.Errorf("the gateway's non-JSON lines are not a Doctor warnings box: %q", stray[0])
	case strings.Count(text, "Doctor warnings") != 1 || len(items) != 1 ||
		!strings.Contains(text, `│  - Failed to install missing configured plugin "codex" from`):
		return fmt.Errorf("the gateway's Doctor warnings are not only the codex refresh: %q", text)
	}
	for _, l := range stray {
		if !strings.HasPrefix(l, "│") && !strings.HasPrefix(l, "◇") && !strings.HasPrefix(l, "├") {
			return fmt.Errorf("a non-JSON gateway line outside the box: %q", l)
		}
	}
	return nil
}

// pluginsLoaded checks that the gateway loaded every plugin its init
// steps installed, as trusted: its "http server listening (N plugins: …)"
// record (info level) names each, and no record says a plugin was refused
// its trusted APIs.
func pluginsLoaded(logDir string, ids []string, level occkit.LogLevel) error {
	var out []byte
	for _, f := range []string{"gateway.stdout", "gateway.stderr"} {
		b, _ := os.ReadFile(filepath.Join(logDir, f))
		out = append(out, b...)
	}
	records, _ := realgateway.Console(out)
	if r, refused := realgateway.Find(records, "only available for trusted plugins"); refused {
		return fmt.Errorf("a plugin was refused its trusted APIs: %q", r.Message)
	}
	if level != occkit.LevelInfo && level != occkit.LevelDebug {
		return nil
	}
	r, ok := realgateway.Find(records, "http server listening (")
	if !ok {
		return fmt.Errorf("no %q record", "http server listening")
	}
	m := regexp.MustCompile(`\(\d+ plugins: ([^)]*)\)`).FindStringSubmatch(r.Message)
	if m == nil {
		return fmt.Errorf("the listening record names no plugins: %q", r.Message)
	}
	loaded := strings.Split(m[1], ", ")
	for _, id := range ids {
		if !slices.Contains(loaded, id) {
			return fmt.Errorf("plugin %s was installed but not loaded (loaded: %s)", id, m[1])
		}
	}
	return nil
}

// The tier's npm mirror: a registry mirror Service of the platform, as
// the render's Options name it; here served inside each revision's
// network namespace from the directory .ci/plugins.sh recorded
// (realgateway.EnvMirror).
const (
	mirrorHost = "npm-mirror.occkit-system.svc"
	mirrorPort = 4873
)

var mirrorURL = "http://" + mirrorHost + ":" + strconv.Itoa(mirrorPort) + "/"

func TestRealGateway_Kubernetes(t *testing.T) {
	in, run := realgateway.Open(t, tiers.GatewayKubernetes)
	current, err := in.Version()
	if err != nil {
		t.Fatal(err)
	}
	im := images{openclaw: map[string]realgateway.Install{current: in}, codex: os.Getenv("OCCKIT_CODEX")}
	prev := ""
	if p, err := realgateway.FromEnvVar(realgateway.EnvDirPrev); err == nil {
		if prev, err = p.Version(); err != nil {
			t.Fatal(err)
		}
		im.openclaw[prev] = p
	} else if realgateway.Required() {
		t.Fatalf("the tier starts revisions of two releases: %s is required: %v", realgateway.EnvDirPrev, err)
	}
	if im.codex == "" && realgateway.Required() {
		t.Fatal("the tier starts dedicated Codex: OCCKIT_CODEX is required")
	}
	telegram := topologyCase{
		name: "embedded-anthropic", mode: occkit.ModeEmbedded, harness: occkit.HarnessOpenClaw,
		auth: `{"method":"api_key","source":{"kind":"secret","namespaceId":"team-a","id":"anthropic-key"}}`,
		doc: `{"agents":{"defaults":{"model":"anthropic/claude-sonnet-4-5",` +
			`"models":{"anthropic/claude-sonnet-4-5":{"agentRuntime":{"id":"openclaw"}}}}},"tools":{"profile":"messaging"},` +
			`"channels":{"telegram":{"enabled":true,"botToken":"${TELEGRAM_BOT_TOKEN}"}}}`,
		bindings: []occkit.SecretBinding{{Env: "TELEGRAM_BOT_TOKEN",
			Source: occkit.SourceRef{Kind: occkit.SourceSecret, NamespaceID: "team-a", ID: "telegram-bot"}}},
	}
	embedded := topologyCase{
		name: "embedded-openai", mode: occkit.ModeEmbedded, harness: occkit.HarnessOpenClaw,
		auth: `{"method":"api_key","source":{"kind":"secret","namespaceId":"team-a","id":"openai-key"}}`,
		doc: `{"agents":{"defaults":{"model":"openai/gpt-5","models":{"openai/gpt-5":{"agentRuntime":{"id":"openclaw"}}},` +
			`"timeoutSeconds":600}},"tools":{"profile":"coding"}}`,
	}
	cases := []e2eCase{
		{name: "embedded-openai-info", c: embedded, level: occkit.LevelInfo, release: current},
		// A channel credential from a secretBinding (AUTH-6): the bot token
		// reaches the gateway as a Secret reference and appears nowhere.
		{name: "embedded-anthropic-telegram-warn", c: telegram, level: occkit.LevelWarn, release: current, known: knownTelegramStop},
		{name: "dedicated-openclaw-discord-info", c: discordNode, level: occkit.LevelInfo, release: current, known: knownNodeHost},
		{name: "dedicated-codex-info", c: dedicatedCodex, level: occkit.LevelInfo, release: current, known: []string{knownCodexRefresh, knownCodexBanner}},
		{name: "unbound-variable", c: telegram, level: occkit.LevelInfo, release: current, unbound: true},
	}
	if prev != "" {
		cases = append(cases, e2eCase{name: "embedded-openai-info-" + prev, c: embedded, level: occkit.LevelInfo, release: prev, prev: true})
	}
	var checked atomic.Int32
	start := time.Now()
	t.Cleanup(func() {
		// Measured, never asserted: what the tier costs CI.
		t.Logf("the tier ran %d cases in %s", checked.Load(), time.Since(start).Round(time.Second))
	})
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			d := testDriver(t)
			rev := admitLevel(t, d, "agent-"+tc.name, tc.c, tc.level)
			harness := tc.release
			if tc.c.harness == occkit.HarnessCodex {
				harness = tierCodexVersion
			}
			rev = record(t, rev, withVersions(harness, tc.release))
			opts := render.Options{Namespace: tenant, Sandbox: tierSandbox(), Plugins: render.Plugins{Registry: mirrorURL}}
			objs, err := render.Render(rev, opts)
			if err != nil {
				t.Fatalf("render: %v", err)
			}
			if tc.unbound {
				// Without its binding the revision is refused, here as
				// at admission: nothing would supply the token.
				unbound := record(t, rev, func(m map[string]any) { delete(m, "secretBindings") })
				_, err := render.Render(unbound, opts)
				want := occkit.ErrorMatcher{Code: occkit.CodeInvalidRequest, Rule: "DOC-4", Path: "channels.telegram.botToken"}
				if diff := cmp.Diff(want, keyOf(err)); diff != "" {
					t.Fatalf("the unbound revision's render (-want +got):\n%s\n%v", diff, err)
				}
				// Started anyway: the variable is missing from the
				// gateway's environment.
				c := &objs.Deployments[0].Spec.Template.Spec.Containers[0]
				c.Env = slices.DeleteFunc(c.Env, func(e corev1.EnvVar) bool { return e.Name == "TELEGRAM_BOT_TOKEN" })
			}
			unready := ""
			if tc.unbound {
				// The answer that settles it: telegram failing. Nothing
				// can supply the variable later.
				unready = `"failing":\["telegram"\]`
			}
			rep, problems, logDir := startRevision(t, im, objs, string(rev.Level()), unready)
			checked.Add(1)
			run.Done(1)
			if tc.unbound {
				// openclaw@2026.9.6 loads a document whose ${VAR} is unset
				// with a warning and leaves the feature using it
				// unavailable: the gateway is live, never ready.
				gw := rep.Processes[0]
				var out []byte
				for _, f := range []string{"gateway.stdout", "gateway.stderr"} {
					b, _ := os.ReadFile(filepath.Join(logDir, f))
					out = append(out, b...)
				}
				records, _ := realgateway.Console(out)
				warning, warned := realgateway.Find(records, `Missing env var "TELEGRAM_BOT_TOKEN"`)
				switch {
				case gw.ReadyMs >= 0:
					t.Errorf("a revision whose ${TELEGRAM_BOT_TOKEN} has no binding became ready on the real gateway")
				case gw.LiveMs < 0 || !strings.Contains(gw.Readyz, `"failing":["telegram"]`):
					t.Errorf("not ready, but not for its telegram channel: live %d ms, last /readyz %q, %s", gw.LiveMs, gw.Readyz, gw.Exit)
				case !warned:
					t.Errorf("the gateway never named the missing TELEGRAM_BOT_TOKEN")
				default:
					t.Logf("unbound ${TELEGRAM_BOT_TOKEN}: live, never ready (/readyz %.60q…); %s record: %q", gw.Readyz, warning.Level, warning.Message)
				}
				return
			}
			var installed []string
			for _, ic := range objs.Deployments[0].Spec.Template.Spec.InitContainers {
				installed = append(installed, strings.TrimPrefix(ic.Name, "plugin-"))
			}
			if err := pluginsLoaded(logDir, installed, tc.level); err != nil {
				t.Error(err)
			}
			if tc.c.harness == occkit.HarnessCodex && tc.release == "2026.9.6" {
				if err := codexRefreshBox(logDir); err != nil {
					t.Error(err)
				}
			}
			unexpected, expected := realgateway.Split(problems, tc.known)
			for _, problem := range expected {
				t.Log("known OpenClaw divergence: " + problem)
			}
			for _, problem := range unexpected {
				t.Error(problem)
			}
		})
	}
}

// startRevision starts every Deployment of objs at once and returns the
// report, what realgateway.Problems finds and the processes' output
// directory. A non-empty unready is the gateway's settling /readyz answer
// (realgateway.Process.Unready).
func startRevision(t *testing.T, im images, objs render.Objects, level, unready string) (realgateway.Report, []string, string) {
	t.Helper()
	root := t.TempDir()
	proxyPort := closedPort(t)
	// Generous deadlines: a loaded two-core machine starts a gateway in
	// minutes, and an init step's install takes as long.
	spec := realgateway.Spec{LogDir: realgateway.LogDir(t), ReadyTimeout: 6 * time.Minute, StopTimeout: 30 * time.Second,
		Settle: 5 * time.Second, InitTimeout: 10 * time.Minute}
	var secrets []string
	for _, dep := range objs.Deployments {
		p, s := podProcess(t, im, objs, dep, filepath.Join(root, dep.Name), proxyPort)
		spec.Processes = append(spec.Processes, p)
		secrets = append(secrets, s...)
		for _, ic := range dep.Spec.Template.Spec.InitContainers {
			spec.Registry = mirror(t, ic.Args)
		}
	}
	spec.Processes[0].Unready = unready
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	var rep realgateway.Report
	if err := gatewayPool.Run(ctx, "start", spec, &rep); err != nil {
		t.Fatal(err)
	}
	for _, p := range rep.Processes {
		for _, st := range p.Init {
			t.Logf("%s: init step %s ended %s after %d ms", p.Role, st.Role, st.Exit, st.Ms)
		}
		t.Logf("%s: live after %d ms, ready after %d ms, connected after %d ms, ended %s, %d ms after SIGTERM; restarts %q",
			p.Role, p.LiveMs, p.ReadyMs, p.ConnectedMs, p.Exit, p.StopMs, p.Restarts)
	}
	return rep, realgateway.Problems(spec, rep, realgateway.Expect{Level: level, Secrets: secrets}), spec.LogDir
}
