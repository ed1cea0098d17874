package ssh

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	xssh "golang.org/x/crypto/ssh"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/drivers"
	"github.com/occkit/occkit/drivers/drivertest"
	"github.com/occkit/occkit/drivers/ssh/internal/sshtest"
)

// portBlock hands each test its own port range, so tests never race for
// the same ports.
var portBlock atomic.Int32

func testPorts() PortRange {
	base := 21000 + 20*int(portBlock.Add(1))
	return PortRange{Min: base, Max: base + 19}
}

// testConfig is a driver configuration on the test server with its own
// directories (relative to the test user's home) and port range.
func testConfig(t testing.TB, s *sshtest.Server) (Config, *procs) {
	t.Helper()
	dir := "t/" + sanitize(t.Name())
	p := newProcs(t, s)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		c, err := testConn(ctx)
		if err != nil {
			return
		}
		defer c.Close()
		_, _ = c.Run(ctx, `for pf in `+quote(p.dir)+`/*.pid; do [ -f "$pf" ] || continue; `+killScript+` done; rm -rf `+quote(dir)+` `+quote(p.dir), nil)
	})
	return Config{
		Hosts:            []Host{{Addr: s.Addr, User: sshtest.User, Signer: s.Signer, KnownHostsFile: s.KnownHosts}},
		PortRange:        testPorts(),
		UnitDir:          dir + "/units",
		StateDir:         dir + "/state",
		BinaryPath:       gateway,
		Services:         p,
		ReadinessTimeout: 15 * time.Second,
		PollInterval:     25 * time.Millisecond,
	}, p
}

func mustNew(t testing.TB, cfg Config) *Driver {
	t.Helper()
	d, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func revision(t testing.TB, agent string, n int) drivers.Revision {
	t.Helper()
	doc := occkit.MustParseDocument(`{"agents":{"defaults":{"model":"openai/gpt-5"}},"logging":{"level":"info","consoleLevel":"info","consoleStyle":"json"},"diagnostics":{"otel":{"logs":false}}}`)
	doc, err := doc.Set(occkit.NewPath("test", "n"), n)
	if err != nil {
		t.Fatal(err)
	}
	rev, err := drivertest.NewRevision(drivertest.RevisionOptions{
		AgentID: agent, Compute: occkit.ComputeSSH, Configuration: doc,
		Binding:    occkit.Binding{Method: occkit.MethodRuntime},
		Generation: int64(n + 1),
	})
	if err != nil {
		t.Fatal(err)
	}
	return rev
}

func ctxT(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// remote runs a script on the test server as the test user.
func remote(t testing.TB, script string) string {
	t.Helper()
	ctx := ctxT(t)
	c, err := testConn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	out, err := c.Run(ctx, script, nil)
	if err != nil {
		var re *RunError
		if errors.As(err, &re) {
			t.Fatalf("remote %q: %v: %s", script, err, re.Stderr)
		}
		t.Fatalf("remote %q: %v", script, err)
	}
	return string(out)
}

func wantCode(t testing.TB, err error, code occkit.Code, rule, path string) {
	t.Helper()
	if err := (occkit.ErrorMatcher{Code: code, Path: path, Rule: rule}).Check(err); err != nil {
		t.Fatal(err)
	}
}

func TestNewRefusesBadConfig(t *testing.T) {
	_, key, _ := ed25519.GenerateKey(rand.Reader)
	signer, _ := xssh.NewSignerFromKey(key)
	kh := filepath.Join(t.TempDir(), "known_hosts")
	if err := os.WriteFile(kh, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	good := func() Config {
		return Config{Hosts: []Host{{Addr: "127.0.0.1:22", User: "u", Signer: signer, KnownHostsFile: kh}}, BinaryPath: "/usr/bin/openclaw"}
	}
	tests := []struct {
		name  string
		edit  func(*Config)
		paths []string
	}{
		{"no known_hosts (DRV-6: never skipped)", func(c *Config) { c.Hosts[0].KnownHostsFile = "" }, []string{"hosts[0].knownHostsFile"}},
		{"unreadable known_hosts", func(c *Config) { c.Hosts[0].KnownHostsFile = kh + ".missing" }, []string{"hosts[0].knownHostsFile"}},
		{"no hosts", func(c *Config) { c.Hosts = nil }, []string{"hosts"}},
		{"no credentials", func(c *Config) { c.Hosts[0].Signer = nil }, []string{"hosts[0].signer"}},
		{"bad key file", func(c *Config) { c.Hosts[0].Signer, c.Hosts[0].KeyFile = nil, kh }, []string{"hosts[0].keyFile"}},
		{"no user and addr", func(c *Config) { c.Hosts[0].User, c.Hosts[0].Addr = "", "" }, []string{"hosts[0].addr", "hosts[0].user"}},
		{"duplicate host", func(c *Config) { c.Hosts = append(c.Hosts, c.Hosts[0]) }, []string{"hosts[1].addr"}},
		{"no binary", func(c *Config) { c.BinaryPath = "" }, []string{"binaryPath"}},
		{"relative binary", func(c *Config) { c.BinaryPath = "bin/openclaw" }, []string{"binaryPath"}},
		{"binary with a specifier", func(c *Config) { c.BinaryPath = "/opt/%h/openclaw" }, []string{"binaryPath"}},
		{"ports below 1024", func(c *Config) { c.PortRange = PortRange{80, 90} }, []string{"portRange"}},
		{"ports reversed", func(c *Config) { c.PortRange = PortRange{2000, 1999} }, []string{"portRange"}},
		{"unknown scope", func(c *Config) { c.Scope = "session" }, []string{"scope"}},
		{"arg with a variable", func(c *Config) { c.Args = []string{"gateway", "$HOME"} }, []string{"args[1]"}},
		{"arg sets the port", func(c *Config) { c.Args = []string{"--port=1"} }, []string{"args[0]"}},
		{"state dir escapes", func(c *Config) { c.StateDir = "../x" }, []string{"stateDir"}},
		{"relative env file", func(c *Config) { c.EnvironmentFile = "env" }, []string{"environmentFile"}},
		{"relative plugin cache", func(c *Config) { c.PluginCache = "npm-cache" }, []string{"pluginCache"}},
		{"CLI arg with a variable", func(c *Config) { c.CLIArgs = []string{"$HOME/openclaw.mjs"} }, []string{"cliArgs[0]"}},
		{"root service user", func(c *Config) { c.ServiceUser = "root" }, []string{"serviceUser"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := good()
			tt.edit(&cfg)
			_, err := New(cfg)
			var got []string
			for _, e := range occkit.Errors(err) {
				if e.Code != occkit.CodeInvalidRequest || e.Rule != "DRV-6" {
					t.Errorf("got %s %s, want INVALID_REQUEST DRV-6", e.Code, e.Rule)
				}
				got = append(got, e.Path.String())
			}
			if diff := cmp.Diff(tt.paths, got); diff != "" {
				t.Errorf("paths (-want +got):\n%s", diff)
			}
		})
	}
	if _, err := New(good()); err != nil {
		t.Fatalf("good config refused: %v", err)
	}
}

func TestHarnessAuthRuntimeOnly(t *testing.T) {
	d := mustNew(t, Config{Hosts: []Host{{Addr: "127.0.0.1", User: "u", Signer: testSigner(t), KnownHostsFile: emptyKnownHosts(t)}}, BinaryPath: "/bin/true"})
	embedded := occkit.Topology{Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeEmbedded}
	secret := occkit.SourceRef{Kind: occkit.SourceSecret, NamespaceID: "n", ID: "s"}
	tests := []struct {
		name    string
		top     occkit.Topology
		b       occkit.Binding
		code    occkit.Code // "" accepts
		gateway bool
	}{
		{"runtime (AUTH-5)", embedded, occkit.Binding{Method: occkit.MethodRuntime}, "", false},
		{"runtime with extra keys", embedded, occkit.Binding{Method: occkit.MethodRuntime, Source: secret}, occkit.CodeInvalidRequest, false},
		{"api_key (AUTH-4)", embedded, occkit.Binding{Method: occkit.MethodAPIKey, Source: secret}, occkit.CodeResourceConflict, false},
		{"codex_pat", embedded, occkit.Binding{Method: occkit.MethodCodexPAT, Source: secret}, occkit.CodeResourceConflict, false},
		{"credential_source", embedded, occkit.Binding{Method: occkit.MethodCredentialSource, SourceID: "x", SourceType: occkit.SourceTypeAPIKey}, occkit.CodeResourceConflict, true},
		{"no binding (AUTH-1)", embedded, occkit.Binding{}, occkit.CodeResourceConflict, false},
		{"dedicated codex (RES-11 first)", occkit.Topology{Harness: occkit.HarnessCodex, Mode: occkit.ModeDedicated}, occkit.Binding{Method: occkit.MethodRuntime}, occkit.CodeInvalidRequest, false},
		{"dedicated openclaw", occkit.Topology{Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeDedicated}, occkit.Binding{Method: occkit.MethodAPIKey, Source: secret}, occkit.CodeInvalidRequest, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := d.ValidateHarnessAuth(context.Background(), drivers.AuthFacts{
				Compute: "whatever", Harness: tt.top.Harness, Mode: tt.top.Mode, Binding: tt.b,
				Model: "openai/gpt-5", CredentialGateway: tt.gateway,
			})
			if tt.code == "" {
				if err != nil {
					t.Fatal(err)
				}
				if !p.HostManaged || len(p.Harness) != 0 || len(p.Gateway) != 0 {
					t.Errorf("projection %+v, want host-managed with no variables", p)
				}
				return
			}
			if oe := occkit.First(err); oe == nil || oe.Code != tt.code {
				t.Fatalf("got %v, want %s", err, tt.code)
			}
		})
	}
}

func testSigner(t testing.TB) xssh.Signer {
	_, key, _ := ed25519.GenerateKey(rand.Reader)
	s, err := xssh.NewSignerFromKey(key)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func emptyKnownHosts(t testing.TB) string {
	kh := filepath.Join(t.TempDir(), "known_hosts")
	if err := os.WriteFile(kh, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	return kh
}

func TestHostKeys(t *testing.T) {
	s := needSSH(t)
	other := testSigner(t)
	dir := t.TempDir()
	unknown := filepath.Join(dir, "unknown")
	changed := filepath.Join(dir, "changed")
	_, port, _ := net.SplitHostPort(s.Addr)
	if err := os.WriteFile(unknown, []byte("[127.0.0.1]:1 "+string(xssh.MarshalAuthorizedKey(s.HostKey))), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(changed, []byte("[127.0.0.1]:"+port+" "+string(xssh.MarshalAuthorizedKey(other.PublicKey()))), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name  string
		file  string
		want  HostKeyProblem
		write bool
	}{
		{"unknown host key", unknown, HostKeyUnknown, false},
		{"changed host key", changed, HostKeyChanged, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cfg, _ := testConfig(t, s)
			cfg.Hosts[0].KnownHostsFile = tt.file
			d := mustNew(t, cfg)
			for what, err := range map[string]error{
				"Preflight":       d.Preflight(ctxT(t)),
				"EnsureNamespace": d.EnsureNamespace(ctxT(t), drivers.Namespace{ID: "ns"}),
				"Prepare":         d.Prepare(ctxT(t), revision(t, "hostkey", 0)),
			} {
				var hke *HostKeyError
				if !errors.As(err, &hke) || hke.Problem != tt.want || hke.Host != 0 {
					t.Fatalf("%s: got %v, want a %s host key error", what, err, tt.want)
				}
				wantCode(t, err, occkit.CodeDependencyUnavailable, "DRV-6", "hosts[0]")
			}
		})
	}
	// The right known_hosts file connects.
	cfg, _ := testConfig(t, s)
	if err := mustNew(t, cfg).Preflight(ctxT(t)); err != nil {
		t.Fatal(err)
	}
}

func TestUploadAtomicAndIdempotent(t *testing.T) {
	needSSH(t)
	ctx := ctxT(t)
	c, err := testConn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	dir := "t/upload"
	t.Cleanup(func() { remote(t, "rm -rf "+dir) })
	path := dir + "/sub/file.json"
	a := []byte(strings.Repeat("a", 256<<10))
	b := []byte(strings.Repeat("b", 256<<10))
	for i, step := range []struct {
		content []byte
		mode    os.FileMode
		changed bool
	}{
		{a, 0o600, true},
		{a, 0o600, false},
		{a, 0o644, false}, // same bytes: only the mode is re-applied
		{b, 0o600, true},
	} {
		changed, err := c.upload(ctx, path, step.mode, step.content)
		if err != nil {
			t.Fatal(err)
		}
		if changed != step.changed {
			t.Errorf("step %d: changed = %v, want %v", i, changed, step.changed)
		}
		got := remote(t, "stat -c '%a %s' "+path)
		if want := fmt.Sprintf("%o %d\n", step.mode, len(step.content)); got != want {
			t.Errorf("step %d: stat = %q, want %q", i, got, want)
		}
	}
	// Readers racing uploads see one whole version, never a mix or a part.
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; ; i++ {
			select {
			case <-done:
				return
			default:
			}
			content := a
			if i%2 == 1 {
				content = b
			}
			if _, err := c.upload(ctx, path, 0o600, content); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	seen := map[string]bool{}
	for i := 0; i < 20; i++ {
		out, err := c.Run(ctx, "cat "+path+" | md5sum | cut -c1-8", nil)
		if err != nil {
			t.Fatal(err)
		}
		seen[string(out)] = true
	}
	close(done)
	wg.Wait()
	if len(seen) > 2 {
		t.Errorf("readers saw %d distinct versions, want at most 2: %v", len(seen), seen)
	}
	if left := remote(t, "ls -A "+dir+"/sub"); left != "file.json\n" {
		t.Errorf("temporary files left behind: %q", left)
	}
}

// readyz asks the gateway of port on the test host (loopback).
func readyz(port int) int {
	resp, err := http.Get("http://127.0.0.1:" + strconv.Itoa(port) + "/readyz")
	if err != nil {
		return 0
	}
	resp.Body.Close()
	return resp.StatusCode
}

func gatewayEnv(t testing.TB, port int) map[string]string {
	t.Helper()
	resp, err := http.Get("http://127.0.0.1:" + strconv.Itoa(port) + "/env")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	env := map[string]string{}
	if err := json.NewDecoder(resp.Body).Decode(&env); err != nil {
		t.Fatal(err)
	}
	return env
}

func TestPrepareServesAndRetires(t *testing.T) {
	s := needSSH(t)
	cfg, p := testConfig(t, s)
	d := mustNew(t, cfg)
	ctx := ctxT(t)
	rev := revision(t, "serve", 0)
	if err := d.Prepare(ctx, rev); err != nil {
		t.Fatal(err)
	}
	port := cfg.PortRange.Min
	if got := readyz(port); got != http.StatusOK {
		t.Fatalf("readyz on %d = %d", port, got)
	}
	u, err := Render(rev, d.renderOptions(s.Home, port))
	if err != nil {
		t.Fatal(err)
	}
	env := gatewayEnv(t, port)
	if env["OPENCLAW_CONFIG_PATH"] != u.ConfigPath || env["OPENCLAW_GATEWAY_PORT"] != strconv.Itoa(port) || env["cwd"] != u.WorkingDirectory {
		t.Errorf("gateway env %v does not match the unit", env)
	}
	// The planned document is on the host, read-only, byte for byte,
	// and so is the gateway token file (its bytes never leave the host).
	sum := sha256.Sum256(u.Document)
	if got := remote(t, "stat -c %a "+u.ConfigPath+"; sha256sum < "+u.ConfigPath+" | cut -c1-64"); got != "400\n"+hex.EncodeToString(sum[:])+"\n" {
		t.Errorf("document on host: %q", got)
	}
	if got := remote(t, "stat -c %a "+u.GatewayTokenFile+"; grep -c '^OPENCLAW_GATEWAY_TOKEN=[0-9a-f]\\{64\\}$' "+u.GatewayTokenFile); got != "400\n1\n" {
		t.Errorf("gateway token file on host: %q", got)
	}
	if got := remote(t, "stat -c %a "+u.Path+"; cat "+u.MarkerPath); !strings.HasPrefix(got, "644\n") || !strings.Contains(got, rev.Digest()) {
		t.Errorf("unit mode / marker: %q", got)
	}
	// The unit the driver wrote passes systemd-analyze verify (its
	// ExecStart exists: the host is this machine).
	onHost := u
	onHost.Content = []byte(remote(t, "cat "+u.Path))
	if !bytes.Equal(onHost.Content, u.Content) {
		t.Errorf("unit on host differs from Render:\n%s", onHost.Content)
	}
	if out, err := verify(t, onHost); out != "" || err != nil {
		t.Errorf("systemd-analyze verify (%v): %s", err, out)
	}
	// Preparing a served revision again changes nothing and restarts nothing.
	if err := d.Prepare(ctx, rev); err != nil {
		t.Fatal(err)
	}
	if p.starts != 1 {
		t.Errorf("started %d times, want 1", p.starts)
	}
	if err := d.Retire(ctx, rev.AgentID(), rev.Digest()); err != nil {
		t.Fatal(err)
	}
	if got := readyz(port); got != 0 {
		t.Errorf("gateway still answers after Retire: %d", got)
	}
	if got := remote(t, "ls "+cfg.UnitDir+"; ls "+u.RevisionDir+" 2>&1 >/dev/null | wc -l; ls -d "+u.WorkingDirectory); got != "1\n"+u.WorkingDirectory+"\n" {
		t.Errorf("after Retire (no unit, no revision dir, state kept): %q", got)
	}
	if err := d.Retire(ctx, rev.AgentID(), rev.Digest()); err != nil {
		t.Fatal(err)
	}
}

func TestLockSerializesPrepares(t *testing.T) {
	s := needSSH(t)
	cfg, p := testConfig(t, s)
	p.delay = 300 * time.Millisecond
	// Two drivers (two control-plane replicas) share nothing but the host.
	d1, d2 := mustNew(t, cfg), mustNew(t, cfg)
	ctx := ctxT(t)
	revs := []drivers.Revision{revision(t, "lock-a", 0), revision(t, "lock-b", 1)}
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i, d := range []*Driver{d1, d2} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = d.Prepare(ctx, revs[i])
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if m := p.maxInStart.Load(); m != 1 {
		t.Errorf("%d Prepare calls were inside the lock at once, want 1", m)
	}
	// Serialized, they took two different ports: the lowest two.
	got := remote(t, "cat "+cfg.UnitDir+"/*.service | sed -n 's/^# occkit-port: //p' | sort")
	if want := fmt.Sprintf("%d\n%d\n", cfg.PortRange.Min, cfg.PortRange.Min+1); got != want {
		t.Errorf("ports %q, want %q", got, want)
	}
}

func TestLockWaitIsBounded(t *testing.T) {
	s := needSSH(t)
	cfg, _ := testConfig(t, s)
	cfg.LockWait = 300 * time.Millisecond
	d := mustNew(t, cfg)
	ctx := ctxT(t)
	c, err := testConn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	release, err := c.lock(ctx, d.lockPath(), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	// The lock stays held until Prepare returns, and ctx allows a minute:
	// only the 300 ms lock bound can end the wait with this error (issue
	// 30: no test asserts wall-clock time).
	err = d.Prepare(ctx, revision(t, "locked", 0))
	wantCode(t, err, occkit.CodeDependencyUnavailable, "DRV-6", "lockWait")
	release()
	// Released, the lock is free again (no stale state).
	if err := d.Prepare(ctx, revision(t, "locked", 0)); err != nil {
		t.Fatal(err)
	}
}

func TestPortLowestFree(t *testing.T) {
	s := needSSH(t)
	cfg, _ := testConfig(t, s)
	d := mustNew(t, cfg)
	ctx := ctxT(t)
	min := cfg.PortRange.Min
	// Something else listens on the lowest port of the range.
	l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(min))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	a, b, c := revision(t, "port-a", 0), revision(t, "port-b", 1), revision(t, "port-c", 2)
	steps := []struct {
		do   func() error
		rev  drivers.Revision
		port int
	}{
		{func() error { return d.Prepare(ctx, a) }, a, min + 1},
		{func() error { return d.Prepare(ctx, b) }, b, min + 2},
		{func() error { return d.Prepare(ctx, a) }, a, min + 1}, // its own port again
		{func() error { return d.Retire(ctx, a.AgentID(), a.Digest()) }, nil, 0},
		{func() error { return d.Prepare(ctx, c) }, c, min + 1}, // the freed port
	}
	for i, st := range steps {
		if err := st.do(); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		if st.rev == nil {
			continue
		}
		got := remote(t, "sed -n 's/^# occkit-port: //p' "+cfg.UnitDir+"/"+UnitName(st.rev.AgentID(), st.rev.Digest()))
		if got != strconv.Itoa(st.port)+"\n" {
			t.Errorf("step %d: port %q, want %d", i, got, st.port)
		}
		if readyz(st.port) != http.StatusOK {
			t.Errorf("step %d: gateway not serving on %d", i, st.port)
		}
	}
	// An exhausted range is a structured 409.
	cfg.PortRange = PortRange{Min: min, Max: min}
	err = mustNew(t, cfg).Prepare(ctx, revision(t, "port-d", 3))
	wantCode(t, err, occkit.CodeResourceConflict, "DRV-6", "portRange")
}

func TestMarkerOnlyAfterReadiness(t *testing.T) {
	s := needSSH(t)
	cfg, _ := testConfig(t, s)
	gate := "t/" + sanitize(t.Name()) + "/gate"
	cfg.Args = []string{"gateway", "--ready-file=" + s.Home + "/" + gate}
	d := mustNew(t, cfg)
	ctx := ctxT(t)
	rev := revision(t, "gated", 0)
	u, err := Render(rev, d.renderOptions(s.Home, cfg.PortRange.Min))
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- d.Prepare(ctx, rev) }()
	// The gateway runs but answers 503: Prepare waits and writes no marker.
	deadline := time.Now().Add(20 * time.Second)
	for readyz(u.Port) != http.StatusServiceUnavailable {
		if time.Now().After(deadline) {
			t.Fatal("the gateway never started")
		}
		time.Sleep(20 * time.Millisecond)
	}
	time.Sleep(300 * time.Millisecond)
	select {
	case err := <-done:
		t.Fatalf("Prepare returned before the gateway was ready: %v", err)
	default:
	}
	if got := remote(t, "[ -e "+u.MarkerPath+" ] && echo marker; exit 0"); got != "" {
		t.Fatal("the served marker exists before readiness")
	}
	remote(t, "touch "+gate)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if got := remote(t, "cat "+u.MarkerPath); !strings.Contains(got, rev.Digest()) {
		t.Errorf("marker %q", got)
	}
}

func TestReadinessTimeout(t *testing.T) {
	s := needSSH(t)
	cfg, _ := testConfig(t, s)
	cfg.Args = []string{"gateway", "--never-ready"}
	cfg.ReadinessTimeout = 700 * time.Millisecond
	d := mustNew(t, cfg)
	rev := revision(t, "never", 0)
	// The gateway never becomes ready and ctx allows a minute: only the
	// readiness bound ends Prepare with this error.
	err := d.Prepare(ctxT(t), rev)
	wantCode(t, err, occkit.CodeDependencyUnavailable, "DRV-6", "readinessTimeout")
	u, _ := Render(rev, d.renderOptions(s.Home, cfg.PortRange.Min))
	if got := remote(t, "[ -e "+u.MarkerPath+" ] && echo marker; exit 0"); got != "" {
		t.Error("a never-ready gateway got a served marker")
	}
	// The operation bound is structured too.
	cfg.ReadinessTimeout, cfg.OperationTimeout = time.Minute, 900*time.Millisecond
	err = mustNew(t, cfg).Prepare(ctxT(t), rev)
	wantCode(t, err, occkit.CodeDependencyUnavailable, "DRV-6", "operationTimeout")
	// The caller's own deadline passes through as a context error.
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	if err := d.Prepare(ctx, rev); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("caller deadline: got %v", err)
	}
}

func TestConformance(t *testing.T) {
	s := needSSH(t)
	cfg, _ := testConfig(t, s)
	// Every call crosses a real SSH connection and the concurrency contract
	// serializes eight Prepares on one host lock: allow a loaded machine
	// more than the suite's 10 s default per call.
	drivertest.RunWith(t, func() drivers.ComputeDriver { return mustNew(t, cfg) }, drivertest.Options{Timeout: time.Minute})
}

func TestPreflight(t *testing.T) {
	s := needSSH(t)
	cfg, _ := testConfig(t, s)
	if err := mustNew(t, cfg).Preflight(ctxT(t)); err != nil {
		t.Fatal(err)
	}
	for name, edit := range map[string]func(*Config){
		"missing binary":           func(c *Config) { c.BinaryPath = "/nonexistent/openclaw" },
		"missing environment file": func(c *Config) { c.EnvironmentFile = "/nonexistent/credentials.env" },
		"missing plugin cache":     func(c *Config) { c.PluginCache = "/nonexistent/npm-cache" },
	} {
		t.Run(name, func(t *testing.T) {
			cfg, _ := testConfig(t, s)
			edit(&cfg)
			wantCode(t, mustNew(t, cfg).Preflight(ctxT(t)), occkit.CodeDependencyUnavailable, "DRV-6", "hosts[0]")
		})
	}
}

// A served revision whose gateway died is started again by Prepare.
func TestPrepareRestartsADeadServedGateway(t *testing.T) {
	s := needSSH(t)
	cfg, p := testConfig(t, s)
	d := mustNew(t, cfg)
	ctx := ctxT(t)
	rev := revision(t, "dead", 0)
	if err := d.Prepare(ctx, rev); err != nil {
		t.Fatal(err)
	}
	if err := p.Stop(ctx, mustConn(t), UnitName(rev.AgentID(), rev.Digest())); err != nil {
		t.Fatal(err)
	}
	if readyz(cfg.PortRange.Min) != 0 {
		t.Fatal("gateway still up")
	}
	if err := d.Prepare(ctx, rev); err != nil {
		t.Fatal(err)
	}
	if readyz(cfg.PortRange.Min) != http.StatusOK || p.starts != 2 {
		t.Errorf("not restarted (starts %d)", p.starts)
	}
}

func mustConn(t testing.TB) *conn {
	t.Helper()
	c, err := testConn(ctxT(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}
