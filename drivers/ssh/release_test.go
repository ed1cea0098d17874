package ssh

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/internal/realgateway"
	"github.com/occkit/occkit/internal/tiers"
)

func TestParseVersion(t *testing.T) {
	tests := []struct {
		name, out, want string
	}{
		{"2026.9 form with commit", "OpenClaw 2026.9.6 (eb377ac)\n", "2026.9.6"},
		{"without commit", "OpenClaw 2026.8.2\n", "2026.8.2"},
		{"blank lines first", "\n  \nOpenClaw 2026.8.2 (abc)\n", "2026.8.2"},
		{"prerelease", "OpenClaw 2026.9.6-beta.1 (abc)", "2026.9.6-beta.1"},
		{"a notice after the version", "OpenClaw 2026.9.6 (eb377ac)\nnotice: fs-safe native support unavailable\n", "2026.9.6"},
		{"node's version", "v24.22.3\n", ""},
		{"another product", "codex-cli 0.171.0\n", ""},
		{"trailing words", "OpenClaw 2026.9.6 beta\n", ""},
		{"shell characters", "OpenClaw $(id)\n", ""},
		{"a notice before the version", "warning: something\nOpenClaw 2026.9.6\n", ""},
		{"empty", "", ""},
		{"too long", "OpenClaw " + strings.Repeat("9", 65) + "\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := parseVersion([]byte(tt.out)); got != tt.want {
				t.Errorf("parseVersion(%q) = %q, want %q", tt.out, got, tt.want)
			}
		})
	}
}

// A reported release is a plain token taken from the output, never
// anything a shell, a unit file or an error message would interpret.
var releaseTokenRE = regexp.MustCompile(`^[0-9A-Za-z][0-9A-Za-z.+_-]{0,63}$`)

func FuzzParseVersion(f *testing.F) {
	for _, s := range []string{"OpenClaw 2026.9.6 (eb377ac)\n", "OpenClaw 2026.8.2", "v24.22.3", "", "\n\nOpenClaw x"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, out []byte) {
		got := parseVersion(out)
		if got == "" {
			return
		}
		if !releaseTokenRE.MatchString(got) || !strings.Contains(string(out), "OpenClaw "+got) {
			t.Fatalf("parseVersion(%q) = %q", out, got)
		}
	})
}

// fakeWithRelease links the fake gateway under another name on the test
// host, reporting release (see fakeVersion).
func fakeWithRelease(t *testing.T, release string) string {
	t.Helper()
	// Under shared: the test user cannot reach t.TempDir().
	dir, err := os.MkdirTemp(shared, "release-")
	if err == nil {
		err = os.Chmod(dir, 0o755)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	bin := filepath.Join(dir, "openclaw")
	if err := os.Symlink(gateway, bin); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin+".version", []byte(release+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return bin
}

// The host's binary must be the approved release (ADM-3): otherwise
// Prepare refuses, naming both versions, before it writes or starts
// anything on the host.
func TestPrepareRefusesAnotherRelease(t *testing.T) {
	s := needSSH(t)
	tests := []struct {
		name   string
		binary func(t *testing.T) string
		found  string
		code   occkit.Code
	}{
		{"another release", func(t *testing.T) string { return fakeWithRelease(t, "2026.8.2") }, "2026.8.2", occkit.CodeResourceConflict},
		{"no release in the answer", func(*testing.T) string { return "/bin/echo" }, "", occkit.CodeResourceConflict},
		{"the binary fails", func(*testing.T) string { return "/bin/false" }, "", occkit.CodeDependencyUnavailable},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, p := testConfig(t, s)
			cfg.BinaryPath = tt.binary(t)
			rev := revision(t, "release", 0)
			err := mustNew(t, cfg).Prepare(ctxT(t), rev)
			if tt.code == occkit.CodeDependencyUnavailable {
				wantCode(t, err, tt.code, "DRV-6", "hosts[0]")
			} else {
				wantCode(t, err, tt.code, "ADM-3", "hosts[0]")
				var re *ReleaseError
				if !errors.As(err, &re) {
					t.Fatalf("got %v, want a *ReleaseError", err)
				}
				want := ReleaseError{Host: 0, Harness: occkit.HarnessOpenClaw, Approved: rev.HarnessIdentity().Version, Found: tt.found}
				if re.Host != want.Host || re.Harness != want.Harness || re.Approved != want.Approved || re.Found != want.Found {
					t.Errorf("got %+v, want %+v", *re, want)
				}
				for _, v := range []string{re.Approved, re.Found} {
					if v != "" && !strings.Contains(err.Error(), v) {
						t.Errorf("the error does not name version %q: %v", v, err)
					}
				}
			}
			if p.starts != 0 {
				t.Errorf("started %d processes, want none", p.starts)
			}
			// Nothing was written: not the state directory, not a unit.
			if got := remote(t, "ls -A "+quote(filepath.Dir(cfg.StateDir))+" 2>/dev/null; exit 0"); got != "" {
				t.Errorf("the host holds %q after a refused Prepare", got)
			}
		})
	}
	// The approved release passes.
	cfg, p := testConfig(t, s)
	cfg.BinaryPath = fakeWithRelease(t, fakeRelease)
	if err := mustNew(t, cfg).Prepare(ctxT(t), revision(t, "release", 0)); err != nil {
		t.Fatal(err)
	}
	if p.starts != 1 {
		t.Errorf("started %d times, want 1", p.starts)
	}
}

// errStarted is what startRecorder's Start returns: the driver got past
// every check and asked to start the unit.
var errStarted = occkit.Conflict("TEST-START", occkit.NewPath("started"), "the test service manager does not start units")

// startRecorder is a ServiceManager that starts nothing and says so.
type startRecorder struct{ starts int }

func (r *startRecorder) Start(context.Context, Runner, Unit) error {
	r.starts++
	return errStarted
}
func (r *startRecorder) Stop(context.Context, Runner, string) error { return nil }
func (r *startRecorder) Forget(context.Context, Runner) error       { return nil }

// envDirPrev names the install of the earlier OpenClaw release the real
// tiers also run (.ci/setup: OPENCLAW_VERSION=2026.8.2 .ci/openclaw.sh).
const envDirPrev = "OCCKIT_OPENCLAW_DIR_PREV"

// realInstalls are the real OpenClaw installs of the tier: the pinned
// release (realgateway.EnvDir) and the earlier one (envDirPrev). Without
// them the test skips, or fails under OCCKIT_REQUIRE_INTEGRATION=1.
func realInstalls(t *testing.T, tier tiers.Tier) ([]realgateway.Install, *tiers.Run) {
	t.Helper()
	dir := os.Getenv(envDirPrev)
	prev := realgateway.Install{Dir: dir}
	if _, err := os.Stat(prev.Entry()); dir == "" || err != nil {
		tier.Skip(t, envDirPrev+" names no OpenClaw install (run .ci/setup)")
	}
	cur, run := realgateway.Open(t, tier)
	return []realgateway.Install{cur, prev}, run
}

// installedRelease is the release an install holds, read from its
// package.json (not from the code under test).
func installedRelease(t *testing.T, in realgateway.Install) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(filepath.Dir(in.Entry()), "package.json"))
	if err != nil {
		t.Fatal(err)
	}
	var pkg struct{ Version string }
	if err := json.Unmarshal(b, &pkg); err != nil || pkg.Version == "" {
		t.Fatalf("package.json of %s: %v", in.Dir, err)
	}
	return pkg.Version
}

// reachable makes an install runnable by the SSH test user, who cannot
// enter root's home: a tree of hard links under shared (same file
// system, no bytes copied), removed after the test.
func reachable(t *testing.T, in realgateway.Install) realgateway.Install {
	t.Helper()
	dst, err := os.MkdirTemp(shared, "openclaw-")
	if err == nil {
		err = os.Chmod(dst, 0o755)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dst) })
	dst = filepath.Join(dst, "install")
	if out, err := exec.Command("cp", "-al", in.Dir, dst).CombinedOutput(); err != nil {
		t.Fatalf("linking %s under %s: %v: %s", in.Dir, shared, err, out)
	}
	return realgateway.Install{Dir: dst}
}

// The real binaries over the real sshd: a host running one release
// refuses a revision approved for the other, before anything starts, and
// gets as far as starting the unit for its own. BinaryPath is node with
// Args and CLIArgs naming openclaw.mjs, the layout .ci/openclaw.sh
// installs.
func TestReleaseCheckRealOpenClaw(t *testing.T) {
	s := needSSH(t)
	installs, run := realInstalls(t, tiers.SSHRelease)
	releases := make([]string, len(installs))
	for i, in := range installs {
		releases[i] = installedRelease(t, in)
		installs[i] = reachable(t, in)
	}
	if releases[0] == releases[1] {
		t.Fatalf("both installs hold OpenClaw %s; the tier needs two releases", releases[0])
	}
	for i, in := range installs {
		for _, approved := range releases {
			t.Run(releases[i]+" approves "+approved, func(t *testing.T) {
				cfg, _ := testConfig(t, s)
				rec := &startRecorder{}
				cfg.Services = rec
				cfg.BinaryPath = in.Node()
				cfg.Args = []string{in.Entry(), "gateway", "run"}
				cfg.CLIArgs = []string{in.Entry()}
				rev := admitSSH(t, "release-check", approved, `{"agents":{"defaults":{"model":"anthropic/claude-sonnet-4-5"}}}`, occkit.LevelInfo, nil)
				err := mustNew(t, cfg).Prepare(ctxT(t), rev)
				if approved == releases[i] {
					if oe := occkit.First(err); oe == nil || oe.Rule != errStarted.Rule {
						t.Fatalf("got %v, want the start of the unit", err)
					}
					run.Done(1)
					return
				}
				var re *ReleaseError
				if !errors.As(err, &re) || re.Approved != approved || re.Found != releases[i] {
					t.Fatalf("got %v, want a *ReleaseError approving %s, finding %s", err, approved, releases[i])
				}
				if rec.starts != 0 {
					t.Errorf("started %d units, want none", rec.starts)
				}
				run.Done(1)
			})
		}
	}
}
