package tiers

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// fakeTB is a test the tier functions run in, so that what they do to it
// (fail, skip, clean up) is observed instead of happening to the real test.
type fakeTB struct {
	testing.TB // the real test, for what is not faked here
	cleanups   []func()
	failed     bool
	skipped    bool
	messages   []string
}

// stop ends a fake test's body as Fatal and Skip end a real one.
type stop struct{}

func (f *fakeTB) Helper()              {}
func (f *fakeTB) Cleanup(fn func())    { f.cleanups = append(f.cleanups, fn) }
func (f *fakeTB) Failed() bool         { return f.failed }
func (f *fakeTB) Skipped() bool        { return f.skipped }
func (f *fakeTB) Error(args ...any)    { f.Errorf("%s", fmt.Sprint(args...)) }
func (f *fakeTB) Fatal(args ...any)    { f.Fatalf("%s", fmt.Sprint(args...)) }
func (f *fakeTB) Skip(args ...any)     { f.skipped = true; panic(stop{}) }
func (f *fakeTB) Skipf(string, ...any) { f.Skip() }
func (f *fakeTB) SkipNow()             { f.Skip() }
func (f *fakeTB) FailNow()             { f.failed = true; panic(stop{}) }
func (f *fakeTB) Errorf(format string, args ...any) {
	f.failed = true
	f.messages = append(f.messages, fmt.Sprintf(format, args...))
}
func (f *fakeTB) Fatalf(format string, args ...any) {
	f.Errorf(format, args...)
	panic(stop{})
}

// run runs body as the fake test, then its cleanups, last first.
func (f *fakeTB) run(body func(t testing.TB)) {
	func() {
		defer func() {
			if r := recover(); r != nil {
				if _, ok := r.(stop); !ok {
					panic(r)
				}
			}
		}()
		body(f)
	}()
	for i := len(f.cleanups) - 1; i >= 0; i-- {
		f.cleanups[i]()
	}
}

// outcome is what one fake test left behind.
type outcome struct {
	Report  string
	Failed  bool
	Skipped bool
}

func runFake(t *testing.T, required bool, body func(t testing.TB)) outcome {
	t.Helper()
	report := filepath.Join(t.TempDir(), "report")
	t.Setenv(ReportEnv, report)
	t.Setenv(RequireEnv, map[bool]string{true: "1", false: ""}[required])
	f := &fakeTB{TB: t}
	f.run(body)
	b, err := os.ReadFile(report)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return outcome{Report: string(b), Failed: f.failed, Skipped: f.skipped}
}

func TestRun(t *testing.T) {
	tests := []struct {
		name     string
		required bool
		body     func(t testing.TB)
		want     outcome
	}{
		{"checks ran", false, func(t testing.TB) { Codex.Start(t).Done(3) },
			outcome{Report: "codex\tran 3\n"}},
		{"checks add up, non-positive counts nothing", true, func(t testing.TB) {
			r := SSHD.Start(t)
			r.Done(2)
			r.Done(-1)
			r.Done(0)
			r.Done(5)
		}, outcome{Report: "sshd\tran 7\n"}},
		{"no check is not a run", false, func(t testing.TB) { OpenClawDiff.Start(t).Done(0) },
			outcome{Report: "openclawdiff\tchecked nothing\n"}},
		{"no check fails when required", true, func(t testing.TB) { OpenClawDiff.Start(t) },
			outcome{Report: "openclawdiff\tchecked nothing\n", Failed: true}},
		{"a failure before any check is not a run, and adds no failure", true, func(t testing.TB) {
			SchemaDifferential.Start(t)
			t.Fatal("node crashed")
		}, outcome{Report: "openclaw schema differential (validateConfigObject)\tfailed before checking anything\n", Failed: true}},
		{"a failure after checks still ran them", true, func(t testing.TB) {
			ModelProbe.Start(t).Done(1)
			t.Fatal("wrong verdict")
		}, outcome{Report: "openclaw model probe\tran 1\n", Failed: true}},
		{"a skip after the start", false, func(t testing.TB) {
			KubeAPIServer.Start(t)
			t.Skip("late")
		}, outcome{Report: "kube-apiserver+etcd\tskipped: the test skipped after the tier started\n", Skipped: true}},
		{"a skip after the start fails when required", true, func(t testing.TB) {
			KubeAPIServer.Start(t).Done(4)
			t.Skip("late")
		}, outcome{Report: "kube-apiserver+etcd\tskipped: the test skipped after the tier started\n", Skipped: true, Failed: true}},
		{"skip records why", false, func(t testing.TB) { NodeJSON5.Skip(t, "node is not installed\n(run .ci/setup)") },
			outcome{Report: "node json5 differential\tskipped: node is not installed (run .ci/setup)\n", Skipped: true}},
		{"skip fails when required, recording nothing", true, func(t testing.TB) { NodeJSON5.Skip(t, "node is not installed") },
			outcome{Failed: true}},
		{"the zero tier is no tier", false, func(t testing.TB) { Tier{}.Start(t).Done(1) },
			outcome{Failed: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, runFake(t, tt.required, tt.body)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// Parallel subtests count into one run, recorded once they all ended.
func TestRunCountsParallelChecks(t *testing.T) {
	got := runFake(t, true, func(t testing.TB) {
		r := GatewaySSH.Start(t)
		var wg sync.WaitGroup
		for range 8 {
			wg.Add(1)
			go func() { defer wg.Done(); r.Done(1) }()
		}
		wg.Wait()
	})
	if diff := cmp.Diff(outcome{Report: "openclaw gateway (ssh)\tran 8\n"}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestRecordWithoutReport(t *testing.T) {
	t.Setenv(ReportEnv, "")
	record("sshd", "ran 1") // must not create anything or fail
}

func TestSummarize(t *testing.T) {
	everyTier := func(status string) string {
		var b strings.Builder
		for _, tr := range All() {
			b.WriteString(tr.name + "\t" + status + "\n")
		}
		return b.String()
	}
	tests := []struct {
		name     string
		report   string
		required bool
		lines    map[string]string // tier → its summary status
		missing  []string          // tiers the error names
		unknown  []string
	}{
		{name: "every tier ran", report: everyTier("ran 2") + everyTier("ran 1"), required: true,
			lines: map[string]string{"sshd": "ran (3 checks)", "codex": "ran (3 checks)"}},
		{name: "a run among skips counts", required: true,
			report: everyTier("ran 1") + "sshd\tskipped: no sshd\nsshd\tran 4\nsshd\tchecked nothing\n",
			lines:  map[string]string{"sshd": "ran (5 checks)"}},
		{name: "a tier that checked nothing did not run", required: true,
			report: strings.Replace(everyTier("ran 1"), "openclawdiff\tran 1", "openclawdiff\tchecked nothing", 1),
			lines:  map[string]string{"openclawdiff": "checked nothing"}, missing: []string{"openclawdiff"}},
		{name: "the first reason is kept", required: true,
			report: strings.Replace(everyTier("ran 1"), "codex\tran 1\n", "codex\tskipped: -short\ncodex\tskipped: unset\n", 1),
			lines:  map[string]string{"codex": "skipped: -short"}, missing: []string{"codex"}},
		{name: "an unreported tier did not run", required: true,
			report: strings.Replace(everyTier("ran 1"), "node json5 differential\tran 1\n", "", 1),
			lines:  map[string]string{"node json5 differential": "not reported (no test of the tier ran)"}, missing: []string{"node json5 differential"}},
		{name: "a bare ran (no count) is not a run", required: true,
			report: strings.Replace(everyTier("ran 1"), "sshd\tran 1", "sshd\tran", 1),
			lines:  map[string]string{"sshd": "ran"}, missing: []string{"sshd"}},
		{name: "a name no tier has", required: true, report: everyTier("ran 1") + "sshd-old\tran 1\n",
			lines: map[string]string{"sshd-old": "is not a tier of internal/tiers.All"}, unknown: []string{"sshd-old"}},
		{name: "nothing is an error only when required", report: "",
			lines: map[string]string{"sshd": "not reported (no test of the tier ran)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out strings.Builder
			err := Summarize(strings.NewReader(tt.report), &out, tt.required)
			got := map[string]string{}
			for _, line := range strings.Split(strings.TrimRight(out.String(), "\n"), "\n") {
				if line == "" {
					continue
				}
				f := strings.SplitN(strings.TrimSpace(line), "  ", 2)
				if len(f) != 2 {
					t.Fatalf("summary line %q", line)
				}
				got[f[0]] = strings.TrimSpace(f[1])
			}
			for name, want := range tt.lines {
				if got[name] != want {
					t.Errorf("%s: %q, want %q\n%s", name, got[name], want, out.String())
				}
			}
			if len(got) != len(All())+len(tt.unknown) {
				t.Errorf("%d summary lines, want %d:\n%s", len(got), len(All())+len(tt.unknown), out.String())
			}
			if (err != nil) != (len(tt.missing)+len(tt.unknown) > 0) {
				t.Fatalf("err = %v, want one naming %v %v", err, tt.missing, tt.unknown)
			}
			for _, name := range append(tt.missing, tt.unknown...) {
				if !strings.Contains(err.Error(), name) {
					t.Errorf("err = %v, does not name %s", err, name)
				}
			}
		})
	}
}

// TestEveryTierIsListedAndUsed keeps the one list of expected tiers true:
// every Tier declared here is in All (so the summary expects it), names are
// unique, and every tier of All is used by some test outside this package
// (a listed tier no test runs would fail every run under REQUIRE).
func TestEveryTierIsListedAndUsed(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "tiers.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	declared := map[string]string{} // Go name → tier name
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.VAR {
			continue
		}
		for _, spec := range g.Specs {
			vs := spec.(*ast.ValueSpec)
			for i, v := range vs.Values {
				lit, ok := v.(*ast.CompositeLit)
				if !ok || len(lit.Elts) != 1 {
					continue
				}
				if id, ok := lit.Type.(*ast.Ident); !ok || id.Name != "Tier" {
					continue
				}
				s, ok := lit.Elts[0].(*ast.BasicLit)
				if !ok {
					t.Fatalf("%s: a tier's name must be a string literal", vs.Names[i].Name)
				}
				name, err := strconv.Unquote(s.Value)
				if err != nil {
					t.Fatal(err)
				}
				declared[vs.Names[i].Name] = name
			}
		}
	}
	listed := map[string]bool{}
	for _, tr := range All() {
		if tr.name == "" || listed[tr.name] {
			t.Errorf("All lists %q twice or empty", tr.name)
		}
		listed[tr.name] = true
	}
	byName := map[string]string{}
	for id, name := range declared {
		if !listed[name] {
			t.Errorf("tiers.%s (%q) is declared but not in All: the summary would not expect it", id, name)
		}
		if other, dup := byName[name]; dup {
			t.Errorf("tiers.%s and tiers.%s are both %q", id, other, name)
		}
		byName[name] = id
	}
	if len(declared) != len(listed) {
		t.Errorf("%d tiers declared, %d listed", len(declared), len(listed))
	}

	used := usedSelectors(t, filepath.Join("..", ".."))
	for id, name := range declared {
		if len(used[id]) == 0 {
			t.Errorf("tiers.%s (%q) is listed but no test uses it: under REQUIRE the summary would always fail", id, name)
		}
	}
}

// usedSelectors maps each name selected from package tiers (tiers.X) in a
// Go file of the repository outside this package to the files using it.
func usedSelectors(t *testing.T, root string) map[string][]string {
	t.Helper()
	const path = "github.com/occkit/occkit/internal/tiers"
	self, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	used := map[string][]string{}
	fset := token.NewFileSet()
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", ".cache", "node_modules", "testdata", "vendor":
				return filepath.SkipDir
			}
			if abs, _ := filepath.Abs(p); abs == self {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil || !strings.Contains(string(src), path) {
			return err
		}
		f, err := parser.ParseFile(fset, p, src, 0)
		if err != nil {
			return err
		}
		local := ""
		for _, imp := range f.Imports {
			if v, _ := strconv.Unquote(imp.Path.Value); v == path {
				local = "tiers"
				if imp.Name != nil {
					local = imp.Name.Name
				}
			}
		}
		if local == "" {
			return nil
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if x, ok := sel.X.(*ast.Ident); ok && x.Name == local {
					used[sel.Sel.Name] = append(used[sel.Sel.Name], p)
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return used
}
