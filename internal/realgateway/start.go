package realgateway

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// File is one file a process needs before it starts.
type File struct {
	Path string
	Data []byte
	Mode os.FileMode
}

// Process is one OpenClaw process as a render describes it, mapped onto
// this machine: its argv (the binary first), its complete environment and
// working directory, the files it reads, and the port of its HTTP
// endpoints (/healthz, /readyz), 0 for a process that serves none.
type Process struct {
	Role  string
	Argv  []string
	Env   []string
	Dir   string
	Files []File
	Port  int
	// StopExits are the ends after SIGTERM that count as a clean stop;
	// empty means "exit 0" only. A program whose documented SIGTERM
	// handler exits 143 (128+15), or whose launcher re-raises the
	// signal, lists those ends here, with its evidence.
	StopExits []string
	// OutsideLogger matches the console lines the program writes with
	// plain writes that bypass its logger (a regular expression); such
	// lines are reported apart from other non-JSON lines, so a tier can
	// accept exactly them and nothing else.
	OutsideLogger string
	// Mounts and Hosts are the process's container filesystem: it runs
	// in a mount namespace of its own where each Mount is bound at its
	// Target (read-only when asked: writes fail with EROFS, as on a
	// read-only volume) and /etc/hosts maps each host name of Hosts to
	// its address, so the names a render uses resolve as a cluster's DNS
	// would. A Target that does not exist is created first (an empty
	// directory, or an empty file when Source is a file).
	Mounts []Mount
	Hosts  map[string]string
	// TCPReady: the process serves no HTTP endpoints; it is ready once
	// Port accepts a connection (a TCP readiness probe).
	TCPReady bool
	// Connected, when set, is a regular expression one line of the
	// process's output must match: its positive signal that it reached
	// what it depends on (the node host's "gateway connected").
	Connected string
	// Writes are the host directories the process writes (its volumes);
	// the leak check reads every file in them.
	Writes []string
	// StopTimeout, when set, replaces [Spec].StopTimeout for this
	// process: its grace period as rendered.
	StopTimeout time.Duration
	// Unready, when set, is a regular expression for a /readyz answer
	// that settles the outcome: once a non-200 answer's body matches it,
	// the wait for readiness ends (a revision known never to become
	// ready, such as one whose channel lacks its variable, need not hold
	// the tier for the whole ReadyTimeout).
	Unready string
	// Init are the process's init steps (a pod's init containers), run
	// in order to their end before any process of the [Spec] starts; each
	// must exit 0 within [Spec].InitTimeout, or no process starts. Their
	// Port, Init and readiness fields are ignored.
	Init []Process
}

// Mount is one bind mount of a [Process]'s container filesystem.
type Mount struct {
	Source, Target string
	ReadOnly       bool
}

// Spec is what the "start" job ([Start]) runs: every process of one
// revision at once, in one network namespace.
type Spec struct {
	Processes []Process
	// LogDir receives each process's stdout and stderr
	// (<role>.stdout, <role>.stderr).
	LogDir string
	// ReadyTimeout bounds the wait for every served process's /readyz.
	ReadyTimeout time.Duration
	// StopTimeout bounds each process's shutdown after SIGTERM.
	StopTimeout time.Duration
	// Settle is how long a process without HTTP endpoints must keep
	// running once the served ones are ready.
	Settle time.Duration
	// InitTimeout bounds each init step ([Process].Init).
	InitTimeout time.Duration
	// Registry, when set, is an npm registry served inside the namespace
	// while the processes run ([Mirror], read-only): the one network
	// service an init step's plugin install reaches.
	Registry *Registry
}

// Registry is where [Start] serves a [Mirror] directory: 127.0.0.1:Port.
type Registry struct {
	Dir  string
	Port int
}

// StepReport is what became of one init step.
type StepReport struct {
	Role string
	// Exit is how it ended ("exit 0" when it succeeded), or "killed after
	// N ms" when it overran [Spec].InitTimeout, or "not run" when an
	// earlier step failed.
	Exit string
	Ms   int64
}

// ProcessReport is what became of one process.
type ProcessReport struct {
	Role string
	// LiveMs and ReadyMs are the times from start to /healthz answering
	// {"ok":true,"status":"live"} and to /readyz answering 200; -1 when
	// that never happened.
	LiveMs, ReadyMs int64
	// Readyz is the last /readyz answer (status and body, bounded).
	Readyz string
	// ExitedEarly reports that the process ended before it was stopped.
	ExitedEarly bool
	// Exit is how it ended: "exit N" or "signal NAME".
	Exit string
	// StopMs is the time from SIGTERM to exit; -1 when it was not stopped
	// by SIGTERM (ended early, or killed after StopTimeout).
	StopMs int64
	// Restarts are how the earlier runs of a served process ended. A
	// served process that ends before it is ready is started again once,
	// and only when that run failed by OpenClaw's state lease startup
	// timeout ([LeaseTimeout], a 5 s timer that a loaded machine can miss);
	// any other early end is the outcome, never retried.
	Restarts []string
	// Unready, when set, is a regular expression for a /readyz answer
	// that settles the outcome: once a non-200 answer's body matches it,
	// the wait for readiness ends (a revision known never to become
	// ready, such as one whose channel lacks its variable, need not hold
	// the tier for the whole ReadyTimeout).
	Unready string
	// ConnectedMs is the time from start to the process's connected
	// signal ([Process].Connected); -1 when it never showed it, or has
	// none.
	ConnectedMs int64
	// Init are the process's init steps, in order.
	Init []StepReport
	// NotStarted: an init step failed, so no process was started.
	NotStarted bool
}

// Report is what the "start" job found.
type Report struct {
	Processes []ProcessReport
	// Leftover lists the descendants ("pid command") still alive after
	// every process ended (and a grace period); they were then killed.
	Leftover []string
}

// Start is the "start" job: it starts every process of a [Spec] at once,
// waits until each served process answers /healthz live and /readyz 200
// (or until ReadyTimeout passes; a served process that ends first by
// OpenClaw's lease startup timeout is started once more, see
// [ProcessReport].Restarts), waits for each connected signal
// ([Process].Connected, as long again), keeps the others under watch for
// Settle, then stops them in reverse order with SIGTERM and looks for
// descendants that outlived them. It runs inside [Pool.Run]'s network
// namespace.
func Start(ctx context.Context, raw json.RawMessage) (any, error) {
	var s Spec
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, err
	}
	if len(s.Processes) == 0 {
		return nil, errors.New("no process to start")
	}
	for _, p := range s.Processes {
		for _, f := range p.Files {
			if err := os.MkdirAll(filepath.Dir(f.Path), 0o755); err != nil {
				return nil, err
			}
			if err := os.WriteFile(f.Path, f.Data, f.Mode); err != nil {
				return nil, err
			}
		}
	}
	if s.Registry != nil {
		stop, err := serveRegistry(*s.Registry)
		if err != nil {
			return nil, err
		}
		defer stop()
	}
	inits, ok := runInits(ctx, s)
	if !ok {
		return inits, ctx.Err()
	}
	runs := make([]*run, len(s.Processes))
	defer func() {
		for _, r := range runs {
			if r != nil && !r.exited() {
				_ = syscall.Kill(-r.cmd.Process.Pid, syscall.SIGKILL)
				<-r.done
			}
		}
	}()
	for i, p := range s.Processes {
		r, err := startOne(p, s.LogDir)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", p.Role, err)
		}
		runs[i] = r
	}
	deadline := time.Now().Add(s.ReadyTimeout)
	for _, r := range runs {
		if r.p.Port > 0 {
			r.awaitReady(ctx, deadline)
		}
	}
	// A process with a connected signal keeps its dependants waiting
	// until it shows it (a node host backs off between attempts while
	// its gateway starts), with a deadline of its own as generous as the
	// readiness wait.
	connected := time.Now().Add(s.ReadyTimeout)
	for _, r := range runs {
		if r.p.Connected != "" {
			r.awaitConnected(ctx, connected)
		}
	}
	settle := time.NewTimer(s.Settle)
	select {
	case <-settle.C:
	case <-ctx.Done():
		settle.Stop()
	}
	rep := Report{}
	for i := len(runs) - 1; i >= 0; i-- {
		timeout := s.StopTimeout
		if runs[i].p.StopTimeout > 0 {
			timeout = runs[i].p.StopTimeout
		}
		runs[i].stop(timeout)
	}
	for i, r := range runs {
		r.rep.Init = inits.Processes[i].Init
		rep.Processes = append(rep.Processes, r.rep)
	}
	rep.Leftover = leftovers(2 * time.Second)
	return rep, ctx.Err()
}

// serveRegistry serves reg's mirror on loopback until stop is called.
func serveRegistry(reg Registry) (stop func(), err error) {
	l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(reg.Port))
	if err != nil {
		return nil, err
	}
	srv := &http.Server{Handler: Mirror{Dir: reg.Dir}, ReadHeaderTimeout: 30 * time.Second}
	go func() { _ = srv.Serve(l) }()
	return func() { _ = srv.Close() }, nil
}

// runInits runs every process's init steps in order ([Process].Init). It
// returns the report so far and false when one failed: then no process
// starts.
func runInits(ctx context.Context, s Spec) (Report, bool) {
	rep := Report{}
	failed := false
	for _, p := range s.Processes {
		pr := ProcessReport{Role: p.Role, LiveMs: -1, ReadyMs: -1, StopMs: -1, ConnectedMs: -1}
		for _, step := range p.Init {
			sr := StepReport{Role: step.Role, Exit: "not run"}
			if !failed {
				sr = runStep(ctx, step, s.LogDir, s.InitTimeout)
				failed = sr.Exit != "exit 0"
			}
			pr.Init = append(pr.Init, sr)
		}
		rep.Processes = append(rep.Processes, pr)
	}
	if failed {
		for i := range rep.Processes {
			rep.Processes[i].NotStarted = true
		}
		rep.Leftover = leftovers(2 * time.Second)
	}
	return rep, !failed
}

// runStep runs one init step to its end, killing it (and its group) after
// timeout.
func runStep(ctx context.Context, step Process, logDir string, timeout time.Duration) StepReport {
	r, err := startOne(step, logDir)
	if err != nil {
		return StepReport{Role: step.Role, Exit: "not started: " + err.Error()}
	}
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case <-r.done:
		return StepReport{Role: step.Role, Exit: describe(r.cmd.ProcessState), Ms: time.Since(r.started).Milliseconds()}
	case <-t.C:
	case <-ctx.Done():
	}
	_ = syscall.Kill(-r.cmd.Process.Pid, syscall.SIGKILL)
	<-r.done
	ms := time.Since(r.started).Milliseconds()
	return StepReport{Role: step.Role, Exit: "killed after " + strconv.FormatInt(ms, 10) + " ms", Ms: ms}
}

// run is one started process.
type run struct {
	p       Process
	logDir  string
	cmd     *exec.Cmd
	started time.Time
	done    chan struct{}
	rep     ProcessReport
	// logStart are the sizes of the output files when the current run
	// was spawned (stdout, stderr).
	logStart [2]int64
}

func startOne(p Process, logDir string) (*run, error) {
	if len(p.Argv) == 0 {
		return nil, errors.New("no argv")
	}
	r := &run{p: p, logDir: logDir, rep: ProcessReport{Role: p.Role, LiveMs: -1, ReadyMs: -1, StopMs: -1, ConnectedMs: -1}}
	r.started = time.Now()
	return r, r.spawn()
}

// spawn starts (or restarts) the process, appending to its output files.
func (r *run) spawn() error {
	open := func(name string) (*os.File, error) {
		return os.OpenFile(filepath.Join(r.logDir, r.p.Role+name), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	}
	stdout, err := open(".stdout")
	if err != nil {
		return err
	}
	r.logStart = [2]int64{size(stdout), 0}
	stderr, err := open(".stderr")
	if err != nil {
		stdout.Close()
		return err
	}
	r.logStart[1] = size(stderr)
	argv, contained, err := r.argv()
	if err != nil {
		stdout.Close()
		stderr.Close()
		return err
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env, cmd.Stdout, cmd.Stderr = r.p.Env, stdout, stderr
	if !contained {
		cmd.Dir = r.p.Dir
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		stdout.Close()
		stderr.Close()
		return err
	}
	done := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		stdout.Close()
		stderr.Close()
		close(done)
	}()
	r.cmd, r.done = cmd, done
	return nil
}

// argv is the process's argv, run through a private mount namespace that
// binds its [Mount]s and /etc/hosts when it has any: unshare (without
// --fork) and the shell both exec, so the program keeps the PID and gets
// the signals. contained reports the wrapper (which enters Dir itself).
func (r *run) argv() (argv []string, contained bool, err error) {
	if len(r.p.Mounts) == 0 && len(r.p.Hosts) == 0 {
		return r.p.Argv, false, nil
	}
	mounts := append([]Mount(nil), r.p.Mounts...)
	if len(r.p.Hosts) > 0 {
		names := make([]string, 0, len(r.p.Hosts))
		for n := range r.p.Hosts {
			names = append(names, n)
		}
		sort.Strings(names)
		hosts := "127.0.0.1 localhost\n::1 localhost\n"
		for _, n := range names {
			hosts += r.p.Hosts[n] + " " + n + "\n"
		}
		path := filepath.Join(r.logDir, r.p.Role+".hosts")
		if err := os.WriteFile(path, []byte(hosts), 0o644); err != nil {
			return nil, false, err
		}
		mounts = append(mounts, Mount{Source: path, Target: "/etc/hosts", ReadOnly: true})
	}
	// A mount whose target holds another mount's source (the pod's /tmp
	// over the host's, where the test keeps its files) comes after the
	// others, so every source is still reachable when it is bound.
	hides := func(m Mount) bool {
		for _, o := range mounts {
			if o != m && strings.HasPrefix(o.Source+"/", strings.TrimSuffix(m.Target, "/")+"/") {
				return true
			}
		}
		return false
	}
	sort.SliceStable(mounts, func(i, j int) bool { return !hides(mounts[i]) && hides(mounts[j]) })
	script := "set -e\n"
	overlays, err := r.privateRoots(mounts)
	if err != nil {
		return nil, false, err
	}
	for _, o := range overlays {
		script += "mkdir -p " + shellQuote(o.upper) + " " + shellQuote(o.work) + "\n"
		script += "mount -t overlay overlay -o " + shellQuote("lowerdir="+o.dir+",upperdir="+o.upper+",workdir="+o.work) + " " + shellQuote(o.dir) + "\n"
	}
	for _, m := range mounts {
		fi, err := os.Stat(m.Source)
		if err != nil {
			return nil, false, err
		}
		if fi.IsDir() {
			script += "mkdir -p " + shellQuote(m.Target) + "\n"
		} else {
			script += "mkdir -p " + shellQuote(filepath.Dir(m.Target)) + "; [ -e " + shellQuote(m.Target) + " ] || : > " + shellQuote(m.Target) + "\n"
		}
		script += "mount --bind " + shellQuote(m.Source) + " " + shellQuote(m.Target) + "\n"
		if m.ReadOnly {
			script += "mount -o remount,bind,ro " + shellQuote(m.Target) + "\n"
		}
	}
	if r.p.Dir != "" {
		// The working directory is a container path: enter it once
		// the mounts are in place.
		script += "cd " + shellQuote(r.p.Dir) + "\n"
	}
	script += `exec "$@"` + "\n"
	return append([]string{"unshare", "--mount", "--propagation", "private", "--", "/bin/sh", "-c", script, "sh"}, r.p.Argv...), true, nil
}

// overlay is a private, writable layer over a host directory, seen only
// in the process's mount namespace.
type overlay struct{ dir, upper, work string }

// privateRoots returns the overlays a process's mounts need so that no
// mount point is created on the host: a target missing on the host (the
// pod's /etc/openclaw, /home/node) is created inside an overlay of its
// deepest existing ancestor, whose writes go to a directory beside the
// process's output. A target inside another mount's target needs none
// (it is created in that mount's source, the test's own directory).
func (r *run) privateRoots(mounts []Mount) ([]overlay, error) {
	inMount := func(p string) bool {
		for _, m := range mounts {
			if p != m.Target && strings.HasPrefix(p, strings.TrimSuffix(m.Target, "/")+"/") {
				return true
			}
		}
		return false
	}
	seen := map[string]bool{}
	var out []overlay
	for _, m := range mounts {
		dir := m.Target
		if fi, err := os.Stat(m.Source); err == nil && !fi.IsDir() {
			dir = filepath.Dir(dir)
		}
		if _, err := os.Stat(dir); err == nil || inMount(dir) {
			continue
		}
		anc := filepath.Dir(dir)
		for {
			if _, err := os.Stat(anc); err == nil {
				break
			}
			anc = filepath.Dir(anc)
		}
		real, err := filepath.EvalSymlinks(anc)
		if err != nil {
			return nil, err
		}
		if real == "/" || strings.ContainsAny(real, ",:\\") {
			return nil, fmt.Errorf("no private root for mount target %s", m.Target)
		}
		if seen[real] {
			continue
		}
		seen[real] = true
		base := filepath.Join(r.logDir, r.p.Role+".root", strconv.Itoa(len(out)))
		out = append(out, overlay{dir: real, upper: filepath.Join(base, "upper"), work: filepath.Join(base, "work")})
	}
	// Outer directories first: an inner overlay's lower layer is then
	// the outer one's view.
	sort.SliceStable(out, func(i, j int) bool { return len(out[i].dir) < len(out[j].dir) })
	return out, nil
}

// shellQuote quotes s for sh.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// LeaseTimeout starts the message OpenClaw 2026.9.6 logs when its state
// lease heartbeat misses its 5 s startup timer (not configurable); the
// only failure a start retries.
const LeaseTimeout = "state lease heartbeat did not become ready"

// restart starts the process again after it ended, once, when the run
// failed by [LeaseTimeout] (found in its output); it reports whether it
// did.
func (r *run) restart() bool {
	if len(r.rep.Restarts) >= maxRestarts || !r.leaseTimedOut() {
		return false
	}
	r.rep.Restarts = append(r.rep.Restarts, describe(r.cmd.ProcessState)+" after "+LeaseTimeout)
	time.Sleep(restartDelay)
	return r.spawn() == nil
}

// leaseTimedOut reports whether the run that just ended named
// [LeaseTimeout] in its output (what it wrote after it was spawned).
func (r *run) leaseTimedOut() bool {
	for i, name := range []string{".stdout", ".stderr"} {
		b := readLog(filepath.Join(r.logDir, r.p.Role+name))
		if int64(len(b)) > r.logStart[i] && strings.Contains(string(b[r.logStart[i]:]), LeaseTimeout) {
			return true
		}
	}
	return false
}

// maxRestarts and restartDelay bound the lease-timeout retry: once, after
// systemd's RestartSec=2.
const (
	maxRestarts  = 1
	restartDelay = 2 * time.Second
)

func size(f *os.File) int64 {
	if fi, err := f.Stat(); err == nil {
		return fi.Size()
	}
	return 0
}

func (r *run) exited() bool {
	select {
	case <-r.done:
		return true
	default:
		return false
	}
}

// awaitReady polls /healthz and /readyz until both answer ready, the
// process ends, or the deadline passes.
func (r *run) awaitReady(ctx context.Context, deadline time.Time) {
	client := &http.Client{Timeout: 5 * time.Second}
	base := "http://127.0.0.1:" + strconv.Itoa(r.p.Port)
	for {
		if r.p.TCPReady {
			if c, err := net.DialTimeout("tcp", "127.0.0.1:"+strconv.Itoa(r.p.Port), 2*time.Second); err == nil {
				c.Close()
				r.rep.LiveMs = time.Since(r.started).Milliseconds()
				r.rep.ReadyMs = r.rep.LiveMs
				return
			}
		} else if r.rep.LiveMs < 0 {
			if code, body := get(ctx, client, base+"/healthz"); code == http.StatusOK && live(body) {
				r.rep.LiveMs = time.Since(r.started).Milliseconds()
			}
		}
		if r.rep.LiveMs >= 0 && !r.p.TCPReady {
			code, body := get(ctx, client, base+"/readyz")
			r.rep.Readyz = fmt.Sprintf("%d %s", code, body)
			if code == http.StatusOK {
				r.rep.ReadyMs = time.Since(r.started).Milliseconds()
				return
			}
			if r.p.Unready != "" && code != 0 && regexp.MustCompile(r.p.Unready).MatchString(body) {
				return
			}
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return
		}
		if r.exited() && !r.restart() {
			return
		}
		select {
		case <-time.After(500 * time.Millisecond):
		case <-r.done:
		case <-ctx.Done():
		}
	}
}

// awaitConnected polls the process's output for its connected signal
// ([Process].Connected) until it appears, the process ends, or the
// deadline passes; ConnectedMs records when it appeared.
func (r *run) awaitConnected(ctx context.Context, deadline time.Time) {
	re := regexp.MustCompile(`(?m)` + r.p.Connected)
	for {
		for _, name := range []string{".stdout", ".stderr"} {
			if re.Match(readLog(filepath.Join(r.logDir, r.p.Role+name))) {
				r.rep.ConnectedMs = time.Since(r.started).Milliseconds()
				return
			}
		}
		if r.exited() || time.Now().After(deadline) || ctx.Err() != nil {
			return
		}
		select {
		case <-time.After(500 * time.Millisecond):
		case <-r.done:
		case <-ctx.Done():
		}
	}
}

// maxBody bounds an endpoint answer kept in a report.
const maxBody = 2 << 10

func get(ctx context.Context, c *http.Client, url string) (int, string) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return 0, err.Error()
	}
	resp, err := c.Do(req)
	if err != nil {
		return 0, ""
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, maxBody))
	return resp.StatusCode, string(b)
}

func live(body string) bool {
	var v struct {
		OK     bool   `json:"ok"`
		Status string `json:"status"`
	}
	return json.Unmarshal([]byte(body), &v) == nil && v.OK && v.Status == "live"
}

// stop sends SIGTERM to the process (not its group: it must stop its own
// children) and waits up to timeout; then it kills the group.
func (r *run) stop(timeout time.Duration) {
	if r.exited() {
		r.rep.ExitedEarly = true
		r.rep.Exit = describe(r.cmd.ProcessState)
		return
	}
	sent := time.Now()
	_ = r.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-r.done:
		r.rep.StopMs = time.Since(sent).Milliseconds()
	case <-time.After(timeout):
		_ = syscall.Kill(-r.cmd.Process.Pid, syscall.SIGKILL)
		<-r.done
	}
	r.rep.Exit = describe(r.cmd.ProcessState)
}

func describe(ps *os.ProcessState) string {
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return "signal " + ws.Signal().String()
	}
	return "exit " + strconv.Itoa(ps.ExitCode())
}

// leftovers waits up to grace for this process's descendants to end, then
// names and kills those still alive and reaps them.
func leftovers(grace time.Duration) []string {
	end := time.Now().Add(grace)
	var alive []proc
	for {
		reap()
		alive = descendants(os.Getpid())
		if len(alive) == 0 || time.Now().After(end) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	var out []string
	for _, p := range alive {
		out = append(out, strconv.Itoa(p.pid)+" "+p.cmd)
		_ = syscall.Kill(p.pid, syscall.SIGKILL)
	}
	time.Sleep(100 * time.Millisecond)
	reap()
	return out
}

// reap collects exited orphans re-parented to this process.
func reap() {
	for {
		var ws syscall.WaitStatus
		pid, err := syscall.Wait4(-1, &ws, syscall.WNOHANG, nil)
		if pid <= 0 || err != nil {
			return
		}
	}
}

type proc struct {
	pid, ppid int
	state     string
	cmd       string
}

// descendants lists the live (not zombie) descendants of root from /proc.
func descendants(root int) []proc {
	entries, _ := os.ReadDir("/proc")
	byParent := map[int][]proc{}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		p, ok := readProc(pid)
		if ok {
			byParent[p.ppid] = append(byParent[p.ppid], p)
		}
	}
	var out []proc
	queue := []int{root}
	for len(queue) > 0 {
		next := queue[0]
		queue = queue[1:]
		for _, c := range byParent[next] {
			queue = append(queue, c.pid)
			if c.state != "Z" {
				out = append(out, c)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].pid < out[j].pid })
	return out
}

func readProc(pid int) (proc, bool) {
	stat, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return proc{}, false
	}
	// pid (comm) state ppid …; comm may hold spaces and parentheses.
	s := string(stat)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return proc{}, false
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 2 {
		return proc{}, false
	}
	ppid, err := strconv.Atoi(f[1])
	if err != nil {
		return proc{}, false
	}
	cmdline, _ := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "cmdline"))
	cmd := strings.TrimSpace(strings.ReplaceAll(string(cmdline), "\x00", " "))
	if len(cmd) > 200 {
		cmd = cmd[:200]
	}
	return proc{pid: pid, ppid: ppid, state: f[0], cmd: cmd}, true
}
