package realgateway

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A process's container filesystem: a read-only mount refuses writes
// (EROFS), a writable one takes them, and /etc/hosts maps the rendered
// host names; the host's own files are untouched.
func TestContainerFilesystem(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("bind mounts need root")
	}
	for _, tool := range []string{"unshare", "mount", "getent"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s", tool)
		}
	}
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
	if os.Geteuid() != 0 {
		t.Skip("bind mounts need root")
	}
	if _, err := exec.LookPath("unshare"); err != nil {
		t.Skip("no unshare")
	}
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
