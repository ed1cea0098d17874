package realgateway

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"
)

// Job runs inside an isolated child: it reads its argument and returns its
// result, both JSON.
type Job func(ctx context.Context, arg json.RawMessage) (any, error)

// Jobs are the jobs a test binary offers its isolated children, by name.
type Jobs map[string]Job

// The child finds its job and its exchange directory in these variables.
const (
	envJob = "OCCKIT_REALGATEWAY_JOB"
	envIO  = "OCCKIT_REALGATEWAY_IO"
)

// Child runs the job the environment names when this process is an
// isolated child started by [Pool.Run], and returns its exit code and
// true; otherwise it returns false at once. It is the first statement of
// a TestMain:
//
//	if code, ok := realgateway.Jobs{"start": realgateway.Start}.Child(); ok {
//		os.Exit(code)
//	}
func (j Jobs) Child() (int, bool) {
	name, dir := os.Getenv(envJob), os.Getenv(envIO)
	if name == "" {
		return 0, false
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	res := j.child(ctx, name, dir)
	b, err := json.Marshal(res)
	if err == nil {
		err = os.WriteFile(filepath.Join(dir, "result.json"), b, 0o600)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "realgateway child:", err)
		return 2, true
	}
	return 0, true
}

// outcome is what a child writes back.
type outcome struct {
	Error  string          `json:"error,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
}

func (j Jobs) child(ctx context.Context, name, dir string) outcome {
	job := j[name]
	if job == nil {
		return outcome{Error: "no job " + name}
	}
	if err := isolated(ctx); err != nil {
		return outcome{Error: err.Error()}
	}
	// Orphans of the processes a job starts are re-parented here, so a
	// job can see what outlived its parent.
	if err := subreaper(); err != nil {
		return outcome{Error: "subreaper: " + err.Error()}
	}
	arg, err := os.ReadFile(filepath.Join(dir, "arg.json"))
	if err != nil {
		return outcome{Error: err.Error()}
	}
	res, err := job(ctx, arg)
	if err != nil {
		return outcome{Error: err.Error()}
	}
	b, err := json.Marshal(res)
	if err != nil {
		return outcome{Error: err.Error()}
	}
	return outcome{Result: b}
}

// isolated brings the namespace's loopback up and checks that it is the
// only interface: the child reaches nothing but itself by construction.
func isolated(ctx context.Context) error {
	if out, err := exec.CommandContext(ctx, "ip", "link", "set", "lo", "up").CombinedOutput(); err != nil {
		return fmt.Errorf("ip link set lo up: %v: %s", err, bytes.TrimSpace(out))
	}
	ifs, err := net.Interfaces()
	if err != nil {
		return err
	}
	for _, i := range ifs {
		if i.Flags&net.FlagLoopback == 0 {
			return fmt.Errorf("the child's network namespace has interface %q besides loopback", i.Name)
		}
	}
	return nil
}

// Pool runs isolated children, at most cap(p) at a time in this process.
// Gateway starts (the "start" job, [Start]) are also bounded machine-wide
// to [MachineSlots] at a time: the real tiers' test binaries (go test runs
// packages in parallel) each take one of the machine's slots, a lock file
// under the temporary directory, so that concurrent gateway starts do not
// starve OpenClaw's 5 s state lease timer. Other jobs (the model probe,
// which starts no gateway) take no machine slot, so the tiers' total time
// does not grow by serializing them.
type Pool chan struct{}

// MachineSlots bounds the gateway starts that run at once on the machine,
// across test binaries.
const MachineSlots = 2

// machineBound are the jobs that take a machine slot.
var machineBound = map[string]bool{"start": true}

// machineSlot takes one of the machine's slots, waiting for one to free
// up; release gives it back.
func machineSlot(ctx context.Context) (release func(), err error) {
	dir := filepath.Join(os.TempDir(), "occkit-openclaw-slots")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	for {
		for i := 0; i < MachineSlots; i++ {
			f, err := os.OpenFile(filepath.Join(dir, fmt.Sprintf("slot-%d", i)), os.O_CREATE|os.O_RDWR, 0o644)
			if err != nil {
				return nil, err
			}
			if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil {
				return func() { _ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN); f.Close() }, nil
			}
			f.Close()
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(250 * time.Millisecond):
		}
	}
}

// NewPool returns a pool of n slots.
func NewPool(n int) Pool { return make(Pool, n) }

// maxChildOutput bounds what a child's own stdout and stderr keep for an
// error message.
const maxChildOutput = 64 << 10

// Run runs the named job with arg in a new network namespace that has only
// a loopback interface: this test binary re-executes itself under
// `unshare --net`, and its TestMain ([Jobs.Child]) runs the job there. The
// job's result is decoded into result. Cancelling ctx kills the child.
func (p Pool) Run(ctx context.Context, job string, arg, result any) error {
	return p.RunThen(ctx, job, arg, result, nil)
}

// RunThen is [Pool.Run] that calls started (when not nil) once the job
// holds its slot, or once it gives up waiting for one, so that callers can
// hand out the slots in an order of their own.
func (p Pool) RunThen(ctx context.Context, job string, arg, result any, started func()) error {
	if started == nil {
		started = func() {}
	}
	select {
	case p <- struct{}{}:
		defer func() { <-p }()
		started()
	case <-ctx.Done():
		started()
		return ctx.Err()
	}
	if machineBound[job] {
		release, err := machineSlot(ctx)
		if err != nil {
			return err
		}
		defer release()
	}
	dir, err := os.MkdirTemp("", "occkit-realgateway-io-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	b, err := json.Marshal(arg)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "arg.json"), b, 0o600); err != nil {
		return err
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, "unshare", "--net", "--", self, "-test.run=^$")
	cmd.Env = append(os.Environ(), envJob+"="+job, envIO+"="+dir)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	var out limited
	cmd.Stdout, cmd.Stderr = &out, &out
	runErr := cmd.Run()
	raw, err := os.ReadFile(filepath.Join(dir, "result.json"))
	if err != nil {
		return fmt.Errorf("isolated %s: %v (%v): %s", job, runErr, err, out.buf.Bytes())
	}
	var o outcome
	if err := json.Unmarshal(raw, &o); err != nil {
		return fmt.Errorf("isolated %s: %v", job, err)
	}
	if o.Error != "" {
		return fmt.Errorf("isolated %s: %w: %s", job, errJob, o.Error)
	}
	return json.Unmarshal(o.Result, result)
}

// errJob marks an error the job itself returned.
var errJob = errors.New("job failed")

// limited keeps the first maxChildOutput bytes written to it.
type limited struct{ buf bytes.Buffer }

func (l *limited) Write(p []byte) (int, error) {
	if room := maxChildOutput - l.buf.Len(); room > 0 {
		l.buf.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}
