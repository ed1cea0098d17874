package ssh

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	xssh "golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/knownhosts"

	"github.com/occkit/occkit"
)

// Runner runs shell scripts on one host over its SSH connection. A
// [ServiceManager] receives one.
type Runner interface {
	// Run runs script with sh on the host, feeding it stdin, and returns
	// its standard output. A non-zero exit is a *[RunError]; a done ctx
	// ends the script and returns ctx's error.
	Run(ctx context.Context, script string, stdin []byte) ([]byte, error)
}

// RunError is a script that exited non-zero. Its Error names the exit
// status only; Stderr is kept for the caller to inspect, never to show
// (it may quote host data).
type RunError struct {
	Status int
	Stderr []byte
}

func (e *RunError) Error() string {
	return "ssh: remote script exited with status " + strconv.Itoa(e.Status)
}

// quote is POSIX single-quoting.
func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// conn is one authenticated SSH connection to a host.
type conn struct {
	h host
	c *xssh.Client
}

// dial connects to h within timeout (and ctx), verifying the host key
// against h's known_hosts file.
func dial(ctx context.Context, h host, timeout time.Duration) (*conn, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	dctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	nc, err := (&net.Dialer{}).DialContext(dctx, "tcp", h.addr)
	if err != nil {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		return nil, unavailable(h, "cannot connect to the SSH server")
	}
	cfg := *h.cfg
	cfg.HostKeyCallback = h.check
	cfg.HostKeyAlgorithms = knownAlgorithms(h, nc.RemoteAddr())
	// The handshake honours ctx: a done ctx closes the socket.
	stop := context.AfterFunc(dctx, func() { nc.Close() })
	sc, chans, reqs, err := xssh.NewClientConn(nc, h.addr, &cfg)
	if !stop() {
		if err == nil {
			sc.Close()
		}
		nc.Close()
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		return nil, unavailable(h, "the SSH handshake timed out")
	}
	if err != nil {
		nc.Close()
		if ke := hostKeyError(h, err); ke != nil {
			return nil, ke
		}
		return nil, unavailable(h, "the SSH handshake or authentication failed")
	}
	return &conn{h: h, c: xssh.NewClient(sc, chans, reqs)}, nil
}

// knownAlgorithms restricts the negotiated host-key algorithms to the
// types known_hosts holds for the host, so a host with several keys is
// checked against the one on file instead of failing as "changed".
func knownAlgorithms(h host, remote net.Addr) []string {
	err := h.check(knownhosts.Normalize(h.addr), remote, probeKey{})
	var ke *knownhosts.KeyError
	if !errors.As(err, &ke) || len(ke.Want) == 0 {
		return nil
	}
	var algos []string
	seen := map[string]bool{}
	for _, k := range ke.Want {
		t := k.Key.Type()
		names := []string{t}
		if t == xssh.KeyAlgoRSA {
			names = []string{xssh.KeyAlgoRSASHA512, xssh.KeyAlgoRSASHA256, xssh.KeyAlgoRSA}
		}
		for _, n := range names {
			if !seen[n] {
				seen[n] = true
				algos = append(algos, n)
			}
		}
	}
	return algos
}

// probeKey is a key no known_hosts line matches: checking it lists the
// host's known keys.
type probeKey struct{}

func (probeKey) Type() string                         { return "occkit-probe" }
func (probeKey) Marshal() []byte                      { return []byte("occkit-probe") }
func (probeKey) Verify([]byte, *xssh.Signature) error { return errors.New("probe key") }

func (c *conn) Close() error { return c.c.Close() }

// Run implements [Runner].
func (c *conn) Run(ctx context.Context, script string, stdin []byte) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s, err := c.c.NewSession()
	if err != nil {
		return nil, unavailable(c.h, "cannot open an SSH session")
	}
	defer s.Close()
	var out, errb bytes.Buffer
	s.Stdout, s.Stderr = &out, &errb
	if stdin != nil {
		s.Stdin = bytes.NewReader(stdin)
	}
	if err := s.Start("exec sh -c " + quote(script)); err != nil {
		return nil, unavailable(c.h, "cannot start a remote command")
	}
	done := make(chan error, 1)
	go func() { done <- s.Wait() }()
	select {
	case err = <-done:
	case <-ctx.Done():
		_ = s.Signal(xssh.SIGKILL)
		s.Close()
		<-done
		return nil, ctx.Err()
	}
	var ee *xssh.ExitError
	switch {
	case err == nil:
		return out.Bytes(), nil
	case errors.As(err, &ee):
		return out.Bytes(), &RunError{Status: ee.ExitStatus(), Stderr: errb.Bytes()}
	default:
		return nil, unavailable(c.h, "the SSH session ended without an exit status")
	}
}

// step runs script and turns a failure into the driver's 503 naming
// what was being done.
func (c *conn) step(ctx context.Context, what, script string, stdin []byte) ([]byte, error) {
	out, err := c.Run(ctx, script, stdin)
	var re *RunError
	switch {
	case err == nil:
		return out, nil
	case errors.As(err, &re):
		return nil, unavailable(c.h, "%s failed (exit status %d)", what, re.Status)
	}
	return nil, err
}

// upload writes content to path atomically: into a temporary file in the
// same directory, then renamed over path with mv -f, so a reader sees the
// old bytes or the new ones, never a part. Uploading identical bytes only
// re-applies the mode. It reports whether path changed.
func (c *conn) upload(ctx context.Context, path string, mode os.FileMode, content []byte) (bool, error) {
	script := fmt.Sprintf(`set -e
umask 077
f=%s
d=$(dirname -- "$f")
mkdir -p -- "$d"
t=$(mktemp "$d/.occkit-upload.XXXXXXXX")
trap 'rm -f -- "$t"' EXIT
cat > "$t"
if [ -f "$f" ] && cmp -s -- "$t" "$f"; then chmod %04o -- "$f"; echo same; exit 0; fi
chmod %04o -- "$t"
mv -f -- "$t" "$f"
echo changed
`, quote(path), mode.Perm(), mode.Perm())
	out, err := c.step(ctx, "uploading "+baseName(path), script, content)
	if err != nil {
		return false, err
	}
	return strings.TrimSpace(string(out)) == "changed", nil
}

func baseName(p string) string { return p[strings.LastIndexByte(p, '/')+1:] }

// lock takes the per-host lock: an flock(1) on path held by a remote
// process that lives as long as this session's stdin stays open. Closing
// stdin (release), dropping the connection or killing the driver all end
// that process, and the kernel releases the lock: there is no stale lock
// to detect or break. It waits at most wait, and less when ctx ends first.
func (c *conn) lock(ctx context.Context, path string, wait time.Duration) (release func(), err error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s, err := c.c.NewSession()
	if err != nil {
		return nil, unavailable(c.h, "cannot open an SSH session")
	}
	stdin, err1 := s.StdinPipe()
	stdout, err2 := s.StdoutPipe()
	if err1 != nil || err2 != nil {
		s.Close()
		return nil, unavailable(c.h, "cannot open an SSH session")
	}
	script := fmt.Sprintf(`f=%s; mkdir -p -- "$(dirname -- "$f")" && exec flock -w %.3f -- "$f" sh -c 'echo locked; exec cat >/dev/null'`,
		quote(path), wait.Seconds())
	if err := s.Start("exec sh -c " + quote(script)); err != nil {
		s.Close()
		return nil, unavailable(c.h, "cannot start the host lock")
	}
	got := make(chan bool, 1)
	go func() {
		line, _ := bufio.NewReader(stdout).ReadString('\n')
		got <- line == "locked\n"
	}()
	var ok bool
	select {
	case ok = <-got:
	case <-ctx.Done():
		s.Close()
		return nil, ctx.Err()
	}
	if !ok {
		err := s.Wait()
		s.Close()
		var ee *xssh.ExitError
		if errors.As(err, &ee) && ee.ExitStatus() == 1 {
			return nil, occkit.New(occkit.CodeDependencyUnavailable, "DRV-6", occkit.InstallationPath("lockWait"),
				"%s: the host lock was not acquired within %s", c.h, wait)
		}
		return nil, unavailable(c.h, "the host lock could not be taken (is flock installed?)")
	}
	return func() {
		stdin.Close()
		done := make(chan struct{})
		go func() { _ = s.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
		}
		s.Close()
	}, nil
}

// ready probes the gateway's /readyz on the host's loopback through a
// direct-tcpip channel of this connection: 200 is ready.
func (c *conn) ready(ctx context.Context, port int, timeout time.Duration) bool {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	client := &http.Client{
		Transport: &http.Transport{
			DialContext: func(ctx context.Context, _, addr string) (net.Conn, error) {
				return c.c.DialContext(ctx, "tcp", addr)
			},
			DisableKeepAlives: true,
		},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://127.0.0.1:"+strconv.Itoa(port)+"/readyz", nil)
	if err != nil {
		return false
	}
	resp, err := client.Do(req)
	if err != nil {
		return false
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
	resp.Body.Close()
	return resp.StatusCode == http.StatusOK
}
