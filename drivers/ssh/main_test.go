package ssh

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"github.com/occkit/occkit/compile/openclawschema"
	"io"
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

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/drivers/ssh/internal/sshtest"
	"github.com/occkit/occkit/internal/tiers"
)

// The real tier: one OpenSSH server per test package (TestMain), logging
// into the plain user sshtest.User. The gateway the units start is this
// test binary itself, re-executed with "gateway" as its first argument
// (fakeGateway), copied where the test user can run it.
var (
	srv     *sshtest.Server
	srvErr  error
	gateway string // the fake gateway executable, runnable by the test user
	shared  string // a local directory the test user can read
)

func TestMain(m *testing.M) {
	if code, ok := gatewayJobs.Child(); ok {
		os.Exit(code)
	}
	if len(os.Args) > 1 && os.Args[1] == "gateway" {
		os.Exit(fakeGateway(os.Args[2:]))
	}
	if len(os.Args) == 2 && os.Args[1] == "--version" {
		os.Exit(fakeVersion(os.Args[0]))
	}
	if len(os.Args) > 1 && os.Args[1] == "plugins" {
		os.Exit(fakePluginsInstall(os.Args[2:]))
	}
	flag.Parse()
	os.Exit(run(m))
}

// fuzzWorker reports whether this process is a fuzzing worker: it runs only
// the fuzz target, which needs no server, so it starts none (otherwise every
// worker would start an sshd of its own).
func fuzzWorker() bool {
	f := flag.Lookup("test.fuzzworker")
	return f != nil && f.Value.String() == "true"
}

func run(m *testing.M) int {
	if fuzzWorker() {
		srvErr = fmt.Errorf("%w: no sshd in a fuzzing worker", sshtest.ErrUnavailable)
		return m.Run()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	srv, srvErr = sshtest.Start(ctx)
	if srvErr == nil {
		defer srv.Stop()
		var err error
		if shared, err = os.MkdirTemp("", "occkit-ssh-test-"); err == nil {
			defer os.RemoveAll(shared)
			err = os.Chmod(shared, 0o755)
		}
		if err == nil {
			gateway = filepath.Join(shared, "openclaw")
			err = copyExecutable(gateway)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "sshtest setup:", err)
			return 1
		}
		defer killFakeGateways()
	}
	return m.Run()
}

func copyExecutable(dst string) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	in, err := os.Open(self)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// needSSH skips (or, under sshtest.Required, fails) without a server; a
// test that has one is one check of the sshd tier.
func needSSH(t testing.TB) *sshtest.Server {
	t.Helper()
	if srvErr != nil {
		if errors.Is(srvErr, sshtest.ErrUnavailable) {
			tiers.SSHD.Skip(t, srvErr.Error()+" (run .ci/setup as root)")
		}
		t.Fatal(srvErr)
	}
	tiers.SSHD.Start(t).Done(1)
	return srv
}

// fakeGateway is the stand-in OpenClaw gateway: `gateway [run] [flags] --port N`.
// It answers /readyz with 200 once ready (at once, when --ready-file
// exists, or never), and /env with what it was started with.
func fakeGateway(args []string) int {
	fs := flag.NewFlagSet("gateway", flag.ContinueOnError)
	port := fs.Int("port", 0, "listen port")
	readyFile := fs.String("ready-file", "", "ready only once this file exists")
	never := fs.Bool("never-ready", false, "never ready")
	life := fs.Duration("max-life", 5*time.Minute, "exit after this long")
	if len(args) > 0 && args[0] == "run" {
		args = args[1:]
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(*port))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	time.AfterFunc(*life, func() { os.Exit(0) })
	mux := http.NewServeMux()
	mux.HandleFunc("/readyz", func(w http.ResponseWriter, r *http.Request) {
		ready := !*never
		if *readyFile != "" {
			_, err := os.Stat(*readyFile)
			ready = ready && err == nil
		}
		if !ready {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		w.WriteHeader(http.StatusOK)
	})
	mux.HandleFunc("/env", func(w http.ResponseWriter, r *http.Request) {
		env := map[string]string{}
		for _, kv := range os.Environ() {
			k, v, _ := strings.Cut(kv, "=")
			if strings.HasPrefix(k, "OPENCLAW_") || strings.HasPrefix(k, "TEST_") {
				env[k] = v
			}
		}
		wd, _ := os.Getwd()
		env["cwd"] = wd
		_ = json.NewEncoder(w).Encode(env)
	})
	_ = http.Serve(l, mux)
	return 0
}

// fakeRelease is the release the fake gateway reports unless a file
// beside it says otherwise: the release drivertest's fixture revisions
// approve (they are admitted with the pinned one).
var fakeRelease = openclawschema.Release()

// fakeVersion answers `openclaw --version` as OpenClaw 2026.9.6 does
// ("OpenClaw 2026.9.6 (eb377ac)"), with the release in the file
// self+".version" when there is one (a test links the fake under another
// name to give it another release), else fakeRelease.
func fakeVersion(self string) int {
	release := fakeRelease
	if b, err := os.ReadFile(self + ".version"); err == nil {
		release = strings.TrimSpace(string(b))
	}
	fmt.Printf("OpenClaw %s (0000000)\n", release)
	return 0
}

// fakePluginsInstall answers `openclaw plugins install <spec>` as
// the driver runs it: offline (npm_config_offline=true), from the npm
// cache npm_config_cache, where the fake's "package" of an npm spec is a
// file named fakePackageFile(spec); it copies that file to
// $OPENCLAW_STATE_DIR/npm/ and appends the spec to
// $OPENCLAW_STATE_DIR/npm/installs, so a test sees every install.
func fakePluginsInstall(args []string) int {
	if len(args) != 2 || args[0] != "install" || os.Getenv("npm_config_offline") != "true" {
		fmt.Fprintln(os.Stderr, "unexpected plugins command", args)
		return 2
	}
	spec, state := args[1], os.Getenv("OPENCLAW_STATE_DIR")
	if _, err := os.Stat(os.Getenv("OPENCLAW_CONFIG_PATH")); err != nil || state == "" {
		fmt.Fprintln(os.Stderr, "no configuration or state directory")
		return 2
	}
	name := fakePackageFile(spec)
	pkg, err := os.ReadFile(filepath.Join(os.Getenv("npm_config_cache"), name))
	if err != nil {
		fmt.Fprintln(os.Stderr, "not in the cache:", spec)
		return 1
	}
	dir := filepath.Join(state, "npm")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return 1
	}
	if err := os.WriteFile(filepath.Join(dir, name), pkg, 0o600); err != nil {
		return 1
	}
	f, err := os.OpenFile(filepath.Join(dir, "installs"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return 1
	}
	fmt.Fprintln(f, spec)
	return fakeExit(f.Close())
}

// fakePackageFile is the file name of an npm spec's package in the fake
// cache ("/" as "%2f").
func fakePackageFile(spec string) string { return strings.ReplaceAll(spec, "/", "%2f") }

func fakeExit(err error) int {
	if err != nil {
		return 1
	}
	return 0
}

// procs is the test ServiceManager: it runs the unit's ExecStart as a
// detached process over SSH (the test host runs no systemd), with the
// unit's environment, environment files and working directory. Restart=
// is not emulated.
type procs struct {
	dir string // absolute, on the host

	mu     sync.Mutex
	starts int
	// inStart counts concurrent Start calls (the lock test wants 1).
	inStart, maxInStart atomic.Int32
	delay               time.Duration
}

func newProcs(t testing.TB, s *sshtest.Server) *procs {
	return &procs{dir: filepath.Join(s.Home, "procs", sanitize(t.Name()))}
}

func sanitize(name string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' {
			return r
		}
		return '-'
	}, name)
}

const killScript = `if [ -f "$pf" ]; then
	p=$(cat "$pf")
	kill "$p" 2>/dev/null || true
	# Gone, or a zombie its new parent has not reaped yet.
	i=0; while st=$(ps -o stat= -p "$p" 2>/dev/null) && [ "${st#Z}" = "$st" ] && [ $i -lt 100 ]; do sleep 0.02; i=$((i+1)); done
	rm -f "$pf"
fi
`

func (p *procs) Start(ctx context.Context, r Runner, u Unit) error {
	n := p.inStart.Add(1)
	defer p.inStart.Add(-1)
	for {
		m := p.maxInStart.Load()
		if n <= m || p.maxInStart.CompareAndSwap(m, n) {
			break
		}
	}
	p.mu.Lock()
	p.starts++
	p.mu.Unlock()
	if p.delay > 0 {
		time.Sleep(p.delay)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "set -e\nmkdir -p %s\npf=%s\n%s", quote(p.dir), quote(p.dir+"/"+u.Name+".pid"), killScript)
	fmt.Fprintf(&b, "cd %s\n(\nset -a\n", quote(u.WorkingDirectory))
	for _, f := range u.EnvironmentFiles {
		if f.Optional {
			fmt.Fprintf(&b, "[ ! -f %s ] || . %s\n", quote(f.Path), quote(f.Path))
		} else {
			fmt.Fprintf(&b, ". %s\n", quote(f.Path))
		}
	}
	b.WriteString("set +a\n")
	for _, e := range u.Env {
		fmt.Fprintf(&b, "export %s=%s\n", e.Name, quote(e.Value))
	}
	for _, n := range u.Unset {
		fmt.Fprintf(&b, "unset %s\n", n)
	}
	args := make([]string, len(u.Exec))
	for i, a := range u.Exec {
		args[i] = quote(a)
	}
	fmt.Fprintf(&b, "exec setsid %s >%s 2>&1 </dev/null\n) &\necho $! > \"$pf\"\n", strings.Join(args, " "), quote(p.dir+"/"+u.Name+".log"))
	_, err := r.Run(ctx, b.String(), nil)
	return err
}

func (p *procs) Stop(ctx context.Context, r Runner, name string) error {
	_, err := r.Run(ctx, "pf="+quote(p.dir+"/"+name+".pid")+"\n"+killScript, nil)
	return err
}

func (p *procs) Forget(context.Context, Runner) error { return nil }

// killFakeGateways ends every fake gateway the tests left running.
func killFakeGateways() {
	if srv == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c, err := testConn(ctx)
	if err != nil {
		return
	}
	defer c.Close()
	_, _ = c.Run(ctx, `for pf in `+quote(srv.Home)+`/procs/*/*.pid; do [ -f "$pf" ] || continue; `+killScript+` done`, nil)
}

// testConn is a driver connection to the test server.
func testConn(ctx context.Context) (*conn, error) {
	h, err := prepareHost(occkit.NewPath("hosts").Index(0), 0, Host{Addr: srv.Addr, User: sshtest.User, Signer: srv.Signer, KnownHostsFile: srv.KnownHosts}, 5*time.Second)
	if err != nil {
		return nil, err
	}
	return dial(ctx, h, 5*time.Second)
}
