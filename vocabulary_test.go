package occkit_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/occkit/occkit"
)

// problemOf is err's first refusal by code, path and rule, or nil.
func problemOf(err error) *occkit.ErrorMatcher {
	if m := occkit.MatchersOf(err); len(m) > 0 {
		return &m[0]
	}
	return nil
}

func TestCheckTopology(t *testing.T) {
	inv := func(path, rule string) *occkit.ErrorMatcher {
		return &occkit.ErrorMatcher{Code: occkit.CodeInvalidRequest, Path: path, Rule: rule}
	}
	oe := occkit.Topology{Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeEmbedded}
	od := occkit.Topology{Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeDedicated}
	cd := occkit.Topology{Harness: occkit.HarnessCodex, Mode: occkit.ModeDedicated}
	ce := occkit.Topology{Harness: occkit.HarnessCodex, Mode: occkit.ModeEmbedded}
	tests := []struct {
		name     string
		compute  occkit.Compute
		declared []occkit.Topology
		t        occkit.Topology
		want     *occkit.ErrorMatcher
	}{
		{"RES-11 kubernetes runs openclaw embedded", occkit.ComputeKubernetes, nil, oe, nil},
		{"RES-11 kubernetes runs codex dedicated", occkit.ComputeKubernetes, nil, cd, nil},
		{"RES-11 kubernetes runs openclaw dedicated", occkit.ComputeKubernetes, nil, od, nil},
		{"RES-11 ssh runs only embedded openclaw", occkit.ComputeSSH, nil, cd, inv("executionMode", "RES-11")},
		{"RES-11 docker ignores a declared set", occkit.ComputeDocker, []occkit.Topology{od}, od, inv("executionMode", "RES-11")},
		{"RES-11 a custom Compute runs what it declares", "nomad", []occkit.Topology{cd}, cd, nil},
		{"RES-11 a custom Compute runs nothing else", "nomad", []occkit.Topology{cd}, oe, inv("executionMode", "RES-11")},
		{"RES-11 codex never runs embedded, even declared", "nomad", []occkit.Topology{ce}, ce, inv("executionMode", "RES-11")},
		{"RES-11 unknown mode", occkit.ComputeKubernetes, nil, occkit.Topology{Harness: occkit.HarnessOpenClaw, Mode: "sidecar"}, inv("executionMode", "RES-11")},
		{"RES-1 unknown harness", occkit.ComputeKubernetes, nil, occkit.Topology{Harness: "claude", Mode: occkit.ModeEmbedded}, inv("harness", "RES-1")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := occkit.CheckTopology(tt.compute, occkit.Supported(tt.compute, tt.declared), tt.t)
			if diff := cmp.Diff(tt.want, problemOf(err)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// The bundled table is a copy: a caller cannot change RES-11 for others.
func TestSupportedIsACopy(t *testing.T) {
	rows := occkit.Supported(occkit.ComputeSSH, nil)
	rows[0].Mode = occkit.ModeDedicated
	if got := occkit.Supported(occkit.ComputeSSH, nil)[0].Mode; got != occkit.ModeEmbedded {
		t.Fatalf("the bundled table changed: %s", got)
	}
	for _, c := range occkit.BundledComputes() {
		if !c.Bundled() || len(occkit.Supported(c, nil)) == 0 {
			t.Errorf("%s has no rows", c)
		}
	}
	if occkit.Compute("nomad").Bundled() || occkit.Compute("").Bundled() {
		t.Error("only the bundled kinds are bundled")
	}
}

func TestQualifies(t *testing.T) {
	all := occkit.AllFacets()
	tests := []struct {
		name string
		s    *occkit.SandboxFacts
		want bool
		miss []string
	}{
		{"nil", nil, false, []string{"harness provisioning", "networking facet", "filesystem facet", "process facet"}},
		{"full", &occkit.SandboxFacts{Facets: all, ProvisionHarness: true}, true, nil},
		{"an extra facet does not matter", &occkit.SandboxFacts{Facets: append(all, "gpu"), ProvisionHarness: true}, true, nil},
		{"no provisioning", &occkit.SandboxFacts{Facets: all}, false, []string{"harness provisioning"}},
		{"no process facet", &occkit.SandboxFacts{Facets: all[:2], ProvisionHarness: true}, false, []string{"process facet"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.s.Qualifies(); got != tt.want {
				t.Errorf("Qualifies = %v, want %v", got, tt.want)
			}
			if diff := cmp.Diff(tt.miss, tt.s.Missing()); diff != "" {
				t.Errorf("Missing (-want +got):\n%s", diff)
			}
		})
	}
}

func TestClosedSets(t *testing.T) {
	for _, h := range occkit.AllHarnesses() {
		if !h.Known() {
			t.Errorf("%s", h)
		}
	}
	for _, m := range occkit.AllModes() {
		if !m.Known() {
			t.Errorf("%s", m)
		}
	}
	for _, p := range occkit.AllProcesses() {
		if !p.Known() {
			t.Errorf("%s", p)
		}
	}
	for _, l := range occkit.AllLogLevels() {
		if !l.Valid() {
			t.Errorf("%s", l)
		}
	}
	if occkit.Harness("Codex").Known() || occkit.Mode("").Known() || occkit.Process("agent").Known() || occkit.LogLevel("trace").Valid() {
		t.Error("a value outside a closed set is known")
	}
}

// RES-11, the bundled-topology table and RES-2 each have one home (issue
// 12): outside topology.go no source file (in any module of the
// repository) decides Codex-is-never-embedded or spells a bundled
// Compute's row of the table, and outside resolver/shape.go (resolver's
// CheckShape) none refuses under RES-2.
func TestTopologyRuleHasOneHome(t *testing.T) {
	homes := []struct {
		what string
		re   *regexp.Regexp
		home string
	}{
		{"RES-11 (Codex is never embedded)", regexp.MustCompile(`HarnessCodex\b.*ModeEmbedded\b|ModeEmbedded\b.*HarnessCodex\b`), "topology.go"},
		{"the bundled-topology table", regexp.MustCompile(`Compute(Kubernetes|SSH|Docker)\s*:\s*\{`), "topology.go"},
		{"RES-2 (the shape of agents)", regexp.MustCompile(`"RES-2"`), filepath.Join("resolver", "shape.go")},
	}
	found := map[string]int{}
	root := "."
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "//") {
				continue
			}
			for _, h := range homes {
				if !h.re.MatchString(line) {
					continue
				}
				if path != h.home {
					t.Errorf("%s:%d decides %s outside %s: %s", path, i+1, h.what, h.home, strings.TrimSpace(line))
				}
				found[h.what]++
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range homes {
		if found[h.what] == 0 {
			t.Errorf("%s: not found in %s; the check no longer sees its home", h.what, h.home)
		}
	}
}

func ExampleCheckTopology() {
	codexEmbedded := occkit.Topology{Harness: occkit.HarnessCodex, Mode: occkit.ModeEmbedded}
	fmt.Println(occkit.First(occkit.CheckTopology(occkit.ComputeKubernetes, occkit.Supported(occkit.ComputeKubernetes, nil), codexEmbedded)).Rule)
	fmt.Println(occkit.Supported(occkit.ComputeSSH, nil))
	nomad := []occkit.Topology{{Harness: occkit.HarnessCodex, Mode: occkit.ModeDedicated}}
	fmt.Println(occkit.CheckTopology("nomad", occkit.Supported("nomad", nomad), nomad[0]))
	// Output:
	// RES-11
	// [openclaw/embedded]
	// <nil>
}
