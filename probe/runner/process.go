package runner

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/occkit/occkit/probe"
)

// Clock is the time source of [Codex] and [OpenClaw]; tests inject one to
// control delays. A nil Clock is the real one.
type Clock interface {
	Now() time.Time
	After(d time.Duration) <-chan time.Time
}

type realClock struct{}

func (realClock) Now() time.Time                         { return time.Now() }
func (realClock) After(d time.Duration) <-chan time.Time { return time.After(d) }

// DefaultMaxOutput caps what a probe may print on each stream; more stops
// the process with ENOBUFS, as the reference runtime's buffer limit does.
const DefaultMaxOutput = 256 << 10

// pipeDrain bounds how long output is awaited after the process group is
// gone (a descendant that left the group may hold a pipe open).
const pipeDrain = 50 * time.Millisecond

// process is one probe command to run.
type process struct {
	path    string
	args    []string
	env     []string
	dir     string
	timeout time.Duration
	max     int
}

// finished is how a process run ended.
type finished struct {
	stdout, stderr []byte
	exit           probe.Exit
	timedOut       bool
	elapsed        time.Duration
}

// capped collects output up to a limit and reports the overflow once.
type capped struct {
	mu       sync.Mutex
	buf      []byte
	max      int
	overflow chan struct{}
	once     *sync.Once
}

func (c *capped) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	room := c.max - len(c.buf)
	if len(p) > room {
		c.buf = append(c.buf, p[:max(room, 0)]...)
		c.once.Do(func() { close(c.overflow) })
		return len(p), nil
	}
	c.buf = append(c.buf, p...)
	return len(p), nil
}

func (c *capped) bytes() []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]byte(nil), c.buf...)
}

// execute starts p in its own process group, waits for it within its timeout,
// and kills the whole group on timeout, overflow or cancellation — and once
// the leader exits, so no descendant outlives the probe. A cancelled
// context returns ctx.Err() at once.
func execute(ctx context.Context, clock Clock, p process) (finished, error) {
	if p.max <= 0 {
		p.max = DefaultMaxOutput
	}
	var f finished
	cmd := exec.Command(p.path, p.args...)
	if cmd.Err != nil {
		f.exit = probe.Exit{Code: -1, Err: errnoOf(cmd.Err)}
		return f, nil
	}
	cmd.Env, cmd.Dir = p.env, p.dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	overflow, once := make(chan struct{}), &sync.Once{}
	stdout := &capped{max: p.max, overflow: overflow, once: once}
	stderr := &capped{max: p.max, overflow: overflow, once: once}
	outR, outW, err := os.Pipe()
	if err != nil {
		f.exit = probe.Exit{Code: -1, Err: errnoOf(err)}
		return f, nil
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		outR.Close()
		outW.Close()
		f.exit = probe.Exit{Code: -1, Err: errnoOf(err)}
		return f, nil
	}
	cmd.Stdout, cmd.Stderr = outW, errW
	started := clock.Now()
	err = cmd.Start()
	outW.Close()
	errW.Close()
	if err != nil {
		outR.Close()
		errR.Close()
		f.exit = probe.Exit{Code: -1, Err: errnoOf(err)}
		return f, nil
	}
	pgid := cmd.Process.Pid
	var readers sync.WaitGroup
	for _, c := range []struct {
		r *os.File
		w io.Writer
	}{{outR, stdout}, {errR, stderr}} {
		readers.Add(1)
		go func(r *os.File, w io.Writer) {
			defer readers.Done()
			_, _ = io.Copy(w, r)
		}(c.r, c.w)
	}
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	kill := func() { _ = syscall.Kill(-pgid, syscall.SIGKILL) }

	var cancelled, overflowed bool
	select {
	case <-waited:
	case <-clock.After(p.timeout):
		f.timedOut = true
		kill()
		<-waited
	case <-overflow:
		overflowed = true
		kill()
		<-waited
	case <-ctx.Done():
		cancelled = true
		kill()
		<-waited
	}
	f.elapsed = clock.Now().Sub(started)
	kill() // descendants left behind by a leader that exited on its own
	drained := make(chan struct{})
	go func() { readers.Wait(); close(drained) }()
	select {
	case <-drained:
	case <-time.After(pipeDrain):
		outR.Close()
		errR.Close()
		<-drained
	}
	outR.Close()
	errR.Close()
	if cancelled {
		return finished{}, ctx.Err()
	}
	f.stdout, f.stderr = stdout.bytes(), stderr.bytes()
	f.exit = exitOf(cmd.ProcessState)
	switch {
	case f.timedOut:
		f.exit.Err = "ETIMEDOUT"
	case overflowed:
		f.exit.Err = "ENOBUFS"
	}
	return f, nil
}

// exitOf reads a process state into an [probe.Exit].
func exitOf(s *os.ProcessState) probe.Exit {
	if s == nil {
		return probe.Exit{Code: -1}
	}
	if ws, ok := s.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return probe.Exit{Code: -1, Signal: signalNames[ws.Signal()]}
	}
	return probe.Exit{Code: s.ExitCode()}
}

var signalNames = map[syscall.Signal]string{
	syscall.SIGABRT: "SIGABRT", syscall.SIGALRM: "SIGALRM", syscall.SIGBUS: "SIGBUS",
	syscall.SIGFPE: "SIGFPE", syscall.SIGHUP: "SIGHUP", syscall.SIGILL: "SIGILL",
	syscall.SIGINT: "SIGINT", syscall.SIGKILL: "SIGKILL", syscall.SIGPIPE: "SIGPIPE",
	syscall.SIGQUIT: "SIGQUIT", syscall.SIGSEGV: "SIGSEGV", syscall.SIGTERM: "SIGTERM",
	syscall.SIGTRAP: "SIGTRAP", syscall.SIGUSR1: "SIGUSR1", syscall.SIGUSR2: "SIGUSR2",
	syscall.SIGXCPU: "SIGXCPU", syscall.SIGXFSZ: "SIGXFSZ", syscall.SIGSYS: "SIGSYS",
}

var errnoNames = map[syscall.Errno]string{
	syscall.ENOENT: "ENOENT", syscall.EACCES: "EACCES", syscall.ENOEXEC: "ENOEXEC",
	syscall.E2BIG: "E2BIG", syscall.ENOMEM: "ENOMEM", syscall.EPERM: "EPERM",
	syscall.ENOTDIR: "ENOTDIR", syscall.EISDIR: "EISDIR", syscall.EMFILE: "EMFILE",
	syscall.ENFILE: "ENFILE", syscall.ETXTBSY: "ETXTBSY", syscall.ELOOP: "ELOOP",
	syscall.ENAMETOOLONG: "ENAMETOOLONG", syscall.EAGAIN: "EAGAIN", syscall.ENOBUFS: "ENOBUFS",
	syscall.ETIMEDOUT: "ETIMEDOUT", syscall.EIO: "EIO", syscall.ENOSPC: "ENOSPC",
}

// errnoOf names the errno behind a spawn error, "" when there is none.
func errnoOf(err error) string {
	if errors.Is(err, exec.ErrNotFound) {
		return "ENOENT"
	}
	var errno syscall.Errno
	if errors.As(err, &errno) {
		return errnoNames[errno]
	}
	return ""
}

// environ returns the named variables of source that are set and
// non-empty, then the overrides; nothing else reaches a probe (PRB-7).
func environ(source []string, keep []string, overrides map[string]string) []string {
	have := map[string]string{}
	for _, kv := range source {
		if k, v, ok := strings.Cut(kv, "="); ok {
			have[k] = v
		}
	}
	var env []string
	seen := map[string]bool{}
	for _, k := range keep {
		if _, over := overrides[k]; over || seen[k] {
			continue
		}
		if v := have[k]; v != "" {
			env = append(env, k+"="+v)
			seen[k] = true
		}
	}
	keys := make([]string, 0, len(overrides))
	for k := range overrides {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		env = append(env, k+"="+overrides[k])
	}
	return env
}

// wrapperError is the outcome of a probe the runner could not set up: no
// directory, no configuration file (PRB-6).
var wrapperError = probe.Outcome{Code: probe.ModelProbeFailed, Cause: probe.Cause{Kind: probe.CauseWrapperError}}

// emit sends a record to the logger and the callback.
func emit(ctx context.Context, logger *slog.Logger, callback func(probe.Record), r probe.Record) {
	if logger != nil {
		r.Log(ctx, logger)
	}
	if callback != nil {
		callback(r)
	}
}
