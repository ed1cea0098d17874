package realgateway

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/occkit/occkit/internal/tiers"
)

// containerTier starts the container filesystem tier in t: it needs root
// (bind mounts) and the tools; without them the tier skips
// (tiers.Tier.Skip: a failure under OCCKIT_REQUIRE_INTEGRATION=1).
func containerTier(t *testing.T, tools ...string) *tiers.Run {
	t.Helper()
	if os.Geteuid() != 0 {
		tiers.ContainerFilesystem.Skip(t, "bind mounts need root")
	}
	for _, tool := range tools {
		if _, err := exec.LookPath(tool); err != nil {
			tiers.ContainerFilesystem.Skip(t, "no "+tool)
		}
	}
	return tiers.ContainerFilesystem.Start(t)
}

// A process's container filesystem: a read-only mount refuses writes
// (EROFS), a writable one takes them, and /etc/hosts maps the rendered
// host names; the host's own files are untouched, and a mount point the
// host lacks is made in a private overlay, not on the host.
func TestContainerFilesystem(t *testing.T) {
	run := containerTier(t, "unshare", "mount", "getent")
	defer run.Done(1)
	src, ro, rw := t.TempDir(), t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(src, "openclaw.json"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(t.TempDir(), "etc-openclaw")
	logs := t.TempDir()
	script := `touch ` + target + `/x 2>&1 || true; touch ` + rw + `/written; getent hosts occ-1-gw.team-a.svc`
	p := Process{Role: "gateway", Argv: []string{"sh", "-c", script},
		Mounts: []Mount{{Source: src, Target: target, ReadOnly: true}, {Source: ro, Target: rw}},
		Hosts:  map[string]string{"occ-1-gw.team-a.svc": "127.0.0.1"}}
	r, err := startOne(p, logs)
	if err != nil {
		t.Fatal(err)
	}
	<-r.done
	out := string(readLog(filepath.Join(logs, "gateway.stdout")))
	if !strings.Contains(out, "Read-only file system") {
		t.Errorf("a write to the read-only mount did not fail with EROFS: %q", out)
	}
	if !strings.Contains(out, "127.0.0.1") || !strings.Contains(out, "occ-1-gw.team-a.svc") {
		t.Errorf("the rendered host name does not resolve: %q", out)
	}
	if _, err := os.Stat(filepath.Join(ro, "written")); err != nil {
		t.Errorf("the write to the writable mount did not reach its source: %v", err)
	}
	if b, _ := os.ReadFile("/etc/hosts"); strings.Contains(string(b), "occ-1-gw.team-a.svc") {
		t.Error("the host's /etc/hosts was changed")
	}
	// The mount point existed only in the process's private root.
	if _, err := os.Stat(target); !os.IsNotExist(err) {
		t.Errorf("the mount point %s was created on the host (%v)", target, err)
	}
}

// The checks issue 30 asks for: a missing connected signal, a secret in a
// written file or a readiness answer, each fail.
func TestProblemsMachine(t *testing.T) {
	const secret = "occkit-test-secret-value"
	logs, data := t.TempDir(), t.TempDir()
	write := func(name, s string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(logs, name), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("gateway.stdout", `{"level":"info","message":"gateway ready"}`+"\n")
	write("harness.stderr", "node host gateway connect failed: refused\n")
	if err := os.MkdirAll(filepath.Join(data, "state"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(data, "state", "node.json"), []byte(`{"token":"`+secret+`"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	spec := Spec{LogDir: logs, Processes: []Process{
		{Role: "gateway", Port: 1},
		{Role: "harness", Connected: `^node host gateway connected: `, OutsideLogger: `^node host `, Writes: []string{data}},
	}}
	rep := Report{Processes: []ProcessReport{
		{Role: "gateway", LiveMs: 1, ReadyMs: 2, Readyz: "200 {\"token\":\"" + secret + "\"}", Exit: "exit 0", StopMs: 5},
		{Role: "harness", LiveMs: -1, ReadyMs: -1, Exit: "exit 0", StopMs: 5},
	}}
	got := strings.Join(Problems(spec, rep, Expect{Level: "info", Secrets: []string{secret}}), "\n")
	for _, want := range []string{
		"gateway: 1 secret values appear in its output or readiness answers",
		"harness: never showed its connected signal",
		"harness: secret values appear in 1 files it wrote, first " + filepath.Join(data, "state", "node.json"),
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing problem %q in:\n%s", want, got)
		}
	}
	write("harness.stderr", "node host gateway connected: ws://occ-1-gw.team-a.svc:18789\n")
	os.Remove(filepath.Join(data, "state", "node.json"))
	rep.Processes[0].Readyz = "200 {}"
	if got := Problems(spec, rep, Expect{Level: "info", Secrets: []string{secret}}); len(got) != 1 || !strings.Contains(got[0], "outside its logger") {
		t.Errorf("problems %q, want only the node host's outside-logger line", got)
	}
}

// A pod's /tmp over the host's: the sources the test keeps under the
// host's /tmp are bound before it hides them.
func TestContainerFilesystemOwnTmp(t *testing.T) {
	run := containerTier(t, "unshare")
	defer run.Done(1)
	root := t.TempDir() // under the host's temporary directory
	tmp, cfg := filepath.Join(root, "pod-tmp"), filepath.Join(root, "cfg")
	for _, d := range []string{tmp, cfg} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(cfg, "openclaw.json"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(t.TempDir(), "etc")
	logs := t.TempDir()
	// The pod's tmp is bound over root, which holds the configuration's
	// source.
	p := Process{Role: "gateway", Argv: []string{"sh", "-c", "cat " + target + "/openclaw.json; touch " + root + "/pod-file"},
		Dir: root, Mounts: []Mount{{Source: tmp, Target: root}, {Source: cfg, Target: target, ReadOnly: true}},
		Hosts: map[string]string{"svc": "127.0.0.1"}}
	r, err := startOne(p, logs)
	if err != nil {
		t.Fatal(err)
	}
	<-r.done
	if out := string(readLog(filepath.Join(logs, "gateway.stdout"))); out != "{}" {
		t.Errorf("stdout %q, stderr %q", out, readLog(filepath.Join(logs, "gateway.stderr")))
	}
	if _, err := os.Stat(filepath.Join(tmp, "pod-file")); err != nil {
		t.Errorf("the pod's /tmp did not receive its file: %v", err)
	}
}

// A TCP-ready process that never accepted says so (not /healthz); an init
// step that fails, or leaks a secret, is a problem of its own, and the
// process it prepared is reported as never started.
func TestProblemsInitAndTCP(t *testing.T) {
	const secret = "occkit-test-secret-value"
	logs := t.TempDir()
	if err := os.WriteFile(filepath.Join(logs, "plugin-discord.stderr"), []byte("npm error E404 token="+secret+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	spec := Spec{LogDir: logs, Processes: []Process{
		{Role: "gateway", Port: 1, Init: []Process{{Role: "plugin-discord"}, {Role: "plugin-slack"}}},
		{Role: "harness", Port: 2, TCPReady: true},
	}}
	rep := Report{Processes: []ProcessReport{
		{Role: "gateway", LiveMs: -1, ReadyMs: -1, NotStarted: true,
			Init: []StepReport{{Role: "plugin-discord", Exit: "exit 1"}, {Role: "plugin-slack", Exit: "not run"}}},
		{Role: "harness", LiveMs: -1, ReadyMs: -1, Exit: "exit 0", StopMs: 5},
	}}
	got := Problems(spec, rep, Expect{Level: "info", Secrets: []string{secret}})
	want := []string{
		"plugin-discord: init step ended exit 1; output tail: npm error E404 token=[secret]\n",
		"plugin-discord: 1 secret values appear in its output",
		"plugin-slack: init step ended not run; output tail: ",
		"gateway: never started: an init step failed",
		"harness: port 2 never accepted a connection",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("problems (-want +got):\n%s", d)
	}
}

// Init steps run in order to their end before any process starts, inside
// the same namespace machinery; a failing step stops the rest, and no
// process starts.
func TestStartInitSteps(t *testing.T) {
	logs, dir := t.TempDir(), t.TempDir()
	mark := filepath.Join(dir, "order")
	step := func(role, script string) Process {
		return Process{Role: role, Argv: []string{"sh", "-c", script}}
	}
	spec := Spec{LogDir: logs, InitTimeout: time.Minute, Processes: []Process{{
		Role: "gateway", Argv: []string{"sh", "-c", "echo main >> " + mark},
		Init: []Process{step("first", "echo first >> "+mark), step("second", "echo second >> "+mark+"; exit 3"), step("third", "echo third >> "+mark)},
	}}}
	rep, ok := runInits(context.Background(), spec)
	if ok {
		t.Fatal("a failed init step let the processes start")
	}
	want := []StepReport{{Role: "first", Exit: "exit 0"}, {Role: "second", Exit: "exit 3"}, {Role: "third", Exit: "not run"}}
	if d := cmp.Diff(want, rep.Processes[0].Init, cmpopts.IgnoreFields(StepReport{}, "Ms")); d != "" {
		t.Errorf("steps (-want +got):\n%s", d)
	}
	if !rep.Processes[0].NotStarted {
		t.Error("the gateway is not reported as never started")
	}
	if b, _ := os.ReadFile(mark); string(b) != "first\nsecond\n" {
		t.Errorf("ran %q", b)
	}
	spec.Processes[0].Init = []Process{step("slow", "sleep 60")}
	spec.InitTimeout = 200 * time.Millisecond
	rep, ok = runInits(context.Background(), spec)
	if ok || !strings.HasPrefix(rep.Processes[0].Init[0].Exit, "killed after ") {
		t.Errorf("a step over its timeout: %+v, ok %v", rep.Processes[0].Init, ok)
	}
}
