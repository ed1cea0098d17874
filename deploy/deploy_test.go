package deploy_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/deploy"
)

type problem struct {
	Code occkit.Code
	Path string
	Rule string
}

func problemOf(err error) *problem {
	oe := occkit.First(err)
	if oe == nil {
		return nil
	}
	return &problem{oe.Code, oe.Path.String(), oe.Rule}
}

func TestCheckTopology(t *testing.T) {
	inv := func(path, rule string) *problem { return &problem{occkit.CodeInvalidRequest, path, rule} }
	oe := deploy.Topology{Harness: deploy.HarnessOpenClaw, Mode: deploy.ModeEmbedded}
	od := deploy.Topology{Harness: deploy.HarnessOpenClaw, Mode: deploy.ModeDedicated}
	cd := deploy.Topology{Harness: deploy.HarnessCodex, Mode: deploy.ModeDedicated}
	ce := deploy.Topology{Harness: deploy.HarnessCodex, Mode: deploy.ModeEmbedded}
	tests := []struct {
		name     string
		compute  deploy.Compute
		declared []deploy.Topology
		t        deploy.Topology
		want     *problem
	}{
		{"RES-11 kubernetes runs openclaw embedded", deploy.ComputeKubernetes, nil, oe, nil},
		{"RES-11 kubernetes runs codex dedicated", deploy.ComputeKubernetes, nil, cd, nil},
		{"RES-11 kubernetes runs openclaw dedicated", deploy.ComputeKubernetes, nil, od, nil},
		{"RES-11 ssh runs only embedded openclaw", deploy.ComputeSSH, nil, cd, inv("executionMode", "RES-11")},
		{"RES-11 docker ignores a declared set", deploy.ComputeDocker, []deploy.Topology{od}, od, inv("executionMode", "RES-11")},
		{"RES-11 a custom Compute runs what it declares", "nomad", []deploy.Topology{cd}, cd, nil},
		{"RES-11 a custom Compute runs nothing else", "nomad", []deploy.Topology{cd}, oe, inv("executionMode", "RES-11")},
		{"RES-11 codex never runs embedded, even declared", "nomad", []deploy.Topology{ce}, ce, inv("executionMode", "RES-11")},
		{"RES-11 unknown mode", deploy.ComputeKubernetes, nil, deploy.Topology{Harness: deploy.HarnessOpenClaw, Mode: "sidecar"}, inv("executionMode", "RES-11")},
		{"RES-1 unknown harness", deploy.ComputeKubernetes, nil, deploy.Topology{Harness: "claude", Mode: deploy.ModeEmbedded}, inv("harness", "RES-1")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := deploy.CheckTopology(tt.compute, deploy.Supported(tt.compute, tt.declared), tt.t)
			if diff := cmp.Diff(tt.want, problemOf(err)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// The bundled table is a copy: a caller cannot change RES-11 for others.
func TestSupportedIsACopy(t *testing.T) {
	rows := deploy.Supported(deploy.ComputeSSH, nil)
	rows[0].Mode = deploy.ModeDedicated
	if got := deploy.Supported(deploy.ComputeSSH, nil)[0].Mode; got != deploy.ModeEmbedded {
		t.Fatalf("the bundled table changed: %s", got)
	}
	for _, c := range deploy.BundledComputes() {
		if !c.Bundled() || len(deploy.Supported(c, nil)) == 0 {
			t.Errorf("%s has no rows", c)
		}
	}
	if deploy.Compute("nomad").Bundled() || deploy.Compute("").Bundled() {
		t.Error("only the bundled kinds are bundled")
	}
}

func TestQualifies(t *testing.T) {
	all := deploy.AllFacets()
	tests := []struct {
		name string
		s    *deploy.SandboxFacts
		want bool
		miss []string
	}{
		{"nil", nil, false, []string{"harness provisioning", "networking facet", "filesystem facet", "process facet"}},
		{"full", &deploy.SandboxFacts{Facets: all, ProvisionHarness: true}, true, nil},
		{"an extra facet does not matter", &deploy.SandboxFacts{Facets: append(all, "gpu"), ProvisionHarness: true}, true, nil},
		{"no provisioning", &deploy.SandboxFacts{Facets: all}, false, []string{"harness provisioning"}},
		{"no process facet", &deploy.SandboxFacts{Facets: all[:2], ProvisionHarness: true}, false, []string{"process facet"}},
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
	for _, h := range deploy.AllHarnesses() {
		if !h.Known() {
			t.Errorf("%s", h)
		}
	}
	for _, m := range deploy.AllModes() {
		if !m.Known() {
			t.Errorf("%s", m)
		}
	}
	for _, p := range deploy.AllProcesses() {
		if !p.Known() {
			t.Errorf("%s", p)
		}
	}
	for _, l := range deploy.AllLogLevels() {
		if !l.Valid() {
			t.Errorf("%s", l)
		}
	}
	if deploy.Harness("Codex").Known() || deploy.Mode("").Known() || deploy.Process("agent").Known() || deploy.LogLevel("trace").Valid() {
		t.Error("a value outside a closed set is known")
	}
}

// RES-11 has one home (issue 12): outside package deploy, no source file
// decides Codex-is-never-embedded or spells a bundled Compute's rows.
func TestTopologyRuleHasOneHome(t *testing.T) {
	codexEmbedded := regexp.MustCompile(`HarnessCodex\b.*ModeEmbedded\b|ModeEmbedded\b.*HarnessCodex\b`)
	root := ".."
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "deploy" || d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != root {
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
			if codexEmbedded.MatchString(line) {
				t.Errorf("%s:%d decides RES-11 outside package deploy: %s", path, i+1, strings.TrimSpace(line))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func ExampleCheckTopology() {
	codexEmbedded := deploy.Topology{Harness: deploy.HarnessCodex, Mode: deploy.ModeEmbedded}
	fmt.Println(occkit.First(deploy.CheckTopology(deploy.ComputeKubernetes, deploy.Supported(deploy.ComputeKubernetes, nil), codexEmbedded)).Rule)
	fmt.Println(deploy.Supported(deploy.ComputeSSH, nil))
	nomad := []deploy.Topology{{Harness: deploy.HarnessCodex, Mode: deploy.ModeDedicated}}
	fmt.Println(deploy.CheckTopology("nomad", deploy.Supported("nomad", nomad), nomad[0]))
	// Output:
	// RES-11
	// [openclaw/embedded]
	// <nil>
}
