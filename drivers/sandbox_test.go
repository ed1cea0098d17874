package drivers_test

import (
	"context"
	"path"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/admission"
	"github.com/occkit/occkit/drivers"
)

func invalid(path, rule string) occkit.ErrorMatcher {
	return occkit.ErrorMatcher{Code: occkit.CodeInvalidRequest, Path: path, Rule: rule}
}

func TestSandboxManifestValidate(t *testing.T) {
	all := occkit.AllFacets()
	tests := []struct {
		name string
		m    drivers.SandboxManifest
		want []occkit.ErrorMatcher
	}{
		{"all facets with cleanup", drivers.SandboxManifest{Facets: all, Cleanup: true}, nil},
		{"two facets, no provisioning", drivers.SandboxManifest{Facets: []occkit.Facet{"networking", "process"}, Cleanup: true}, nil},
		{"one facet", drivers.SandboxManifest{Facets: []occkit.Facet{"filesystem"}, Cleanup: true}, nil},
		{"every optional capability", drivers.SandboxManifest{Facets: all, Cleanup: true, ProvisionHarness: true, TransformConfiguration: true,
			HarnessHome: "/sandbox/home", Hooks: drivers.AllHookPhases(), Compute: occkit.ComputeKubernetes}, nil},
		{"no facets", drivers.SandboxManifest{Cleanup: true}, []occkit.ErrorMatcher{invalid("facets", "DRV-2")}},
		{"empty facets", drivers.SandboxManifest{Facets: []occkit.Facet{}, Cleanup: true}, []occkit.ErrorMatcher{invalid("facets", "DRV-2")}},
		{"exec facet", drivers.SandboxManifest{Facets: []occkit.Facet{"networking", "exec"}, Cleanup: true}, []occkit.ErrorMatcher{invalid("facets[1]", "DRV-2")}},
		{"upper-case facet", drivers.SandboxManifest{Facets: []occkit.Facet{"Networking"}, Cleanup: true}, []occkit.ErrorMatcher{invalid("facets[0]", "DRV-2")}},
		{"repeated facet", drivers.SandboxManifest{Facets: []occkit.Facet{"process", "filesystem", "process"}, Cleanup: true}, []occkit.ErrorMatcher{invalid("facets[2]", "DRV-2")}},
		{"no cleanup", drivers.SandboxManifest{Facets: all}, []occkit.ErrorMatcher{invalid("cleanup", "DRV-2")}},
		{"relative home", drivers.SandboxManifest{Facets: all, Cleanup: true, HarnessHome: "home/node"}, []occkit.ErrorMatcher{invalid("harnessHome", "DRV-2")}},
		{"root home", drivers.SandboxManifest{Facets: all, Cleanup: true, HarnessHome: "/"}, []occkit.ErrorMatcher{invalid("harnessHome", "DRV-2")}},
		{"dot-dot home", drivers.SandboxManifest{Facets: all, Cleanup: true, HarnessHome: "/home/../etc"}, []occkit.ErrorMatcher{invalid("harnessHome", "DRV-2")}},
		{"trailing slash home", drivers.SandboxManifest{Facets: all, Cleanup: true, HarnessHome: "/home/"}, []occkit.ErrorMatcher{invalid("harnessHome", "DRV-2")}},
		{"double slash home", drivers.SandboxManifest{Facets: all, Cleanup: true, HarnessHome: "/home//node"}, []occkit.ErrorMatcher{invalid("harnessHome", "DRV-2")}},
		{"dot home", drivers.SandboxManifest{Facets: all, Cleanup: true, HarnessHome: "/home/./node"}, []occkit.ErrorMatcher{invalid("harnessHome", "DRV-2")}},
		{"control character home", drivers.SandboxManifest{Facets: all, Cleanup: true, HarnessHome: "/home/\nnode"}, []occkit.ErrorMatcher{invalid("harnessHome", "DRV-2")}},
		{"unknown hook", drivers.SandboxManifest{Facets: all, Cleanup: true, Hooks: []drivers.HookPhase{"afterWorkloadStart"}}, []occkit.ErrorMatcher{invalid("hooks.afterWorkloadStart", "DRV-4")}},
		{"repeated hook", drivers.SandboxManifest{Facets: all, Cleanup: true, Hooks: []drivers.HookPhase{"beforeWorkloadStop", "beforeWorkloadStop"}}, []occkit.ErrorMatcher{invalid("hooks.beforeWorkloadStop", "DRV-4")}},
		{"ssh compute", drivers.SandboxManifest{Facets: all, Cleanup: true, Compute: occkit.ComputeSSH}, []occkit.ErrorMatcher{invalid("compute", "DRV-2")}},
		{"everything wrong at once", drivers.SandboxManifest{Facets: []occkit.Facet{"exec"}, HarnessHome: "x", Compute: "docker"},
			[]occkit.ErrorMatcher{invalid("cleanup", "DRV-2"), invalid("compute", "DRV-2"), invalid("facets[0]", "DRV-2"), invalid("harnessHome", "DRV-2")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, occkit.MatchersOf(tt.m.Validate())); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseSandboxManifest(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want drivers.SandboxManifest
		errs []occkit.ErrorMatcher
	}{
		{"full", `{"name":"openshell","facets":["networking","filesystem","process"],"cleanup":true,"provisionHarness":true,
			"transformConfiguration":true,"harnessHome":"/sandbox","hooks":["beforeWorkloadStart"],"compute":"kubernetes","extra":1}`,
			drivers.SandboxManifest{Name: "openshell", Facets: occkit.AllFacets(), Cleanup: true, ProvisionHarness: true,
				TransformConfiguration: true, HarnessHome: "/sandbox", Hooks: []drivers.HookPhase{"beforeWorkloadStart"}, Compute: "kubernetes"}, nil},
		{"hooks object", `{"facets":["process"],"cleanup":true,"hooks":{"afterNamespacePrepared":true,"bogus":true}}`,
			drivers.SandboxManifest{Facets: []occkit.Facet{"process"}, Cleanup: true, Hooks: []drivers.HookPhase{"afterNamespacePrepared", "bogus"}}, nil},
		{"nulls are absent", `{"facets":null,"cleanup":null,"harnessHome":null,"hooks":null}`, drivers.SandboxManifest{}, nil},
		{"empty facets kept empty", `{"facets":[]}`, drivers.SandboxManifest{Facets: []occkit.Facet{}}, nil},
		{"not JSON", `{`, drivers.SandboxManifest{}, []occkit.ErrorMatcher{invalid("", "DRV-2")}},
		{"not an object", `[]`, drivers.SandboxManifest{}, []occkit.ErrorMatcher{invalid("", "DRV-2")}},
		{"facets not an array", `{"facets":"networking"}`, drivers.SandboxManifest{}, []occkit.ErrorMatcher{invalid("facets", "DRV-2")}},
		{"facet not a string", `{"facets":["process",3]}`, drivers.SandboxManifest{}, []occkit.ErrorMatcher{invalid("facets[1]", "DRV-2")}},
		{"cleanup not a boolean", `{"cleanup":"yes"}`, drivers.SandboxManifest{}, []occkit.ErrorMatcher{invalid("cleanup", "DRV-2")}},
		{"home not a string", `{"harnessHome":7}`, drivers.SandboxManifest{}, []occkit.ErrorMatcher{invalid("harnessHome", "DRV-2")}},
		{"empty home", `{"harnessHome":""}`, drivers.SandboxManifest{}, []occkit.ErrorMatcher{invalid("harnessHome", "DRV-2")}},
		{"empty hooks object declares none", `{"hooks":{}}`, drivers.SandboxManifest{}, nil},
		{"empty hooks list declares none", `{"hooks":[]}`, drivers.SandboxManifest{}, nil},
		{"hooks object keys are the phases", `{"hooks":{"beforeWorkloadStop":true,"afterNamespacePrepared":{}}}`,
			drivers.SandboxManifest{Hooks: []drivers.HookPhase{"beforeWorkloadStop", "afterNamespacePrepared"}}, nil},
		{"hooks not a collection", `{"hooks":"beforeWorkloadStart"}`, drivers.SandboxManifest{}, []occkit.ErrorMatcher{invalid("hooks", "DRV-4")}},
		{"hook not a string", `{"hooks":[1]}`, drivers.SandboxManifest{}, []occkit.ErrorMatcher{invalid("hooks[0]", "DRV-4")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := drivers.ParseSandboxManifest([]byte(tt.in))
			if diff := cmp.Diff(tt.errs, occkit.MatchersOf(err)); diff != "" {
				t.Fatalf("problems (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("manifest (-want +got):\n%s", diff)
			}
		})
	}
}

// box is a SandboxDriver with every optional capability.
type box struct{ name string }

func (b box) SandboxDeclaration() drivers.SandboxDeclaration {
	return drivers.SandboxDeclaration{Name: b.name, Facets: occkit.AllFacets(), HarnessHome: "/sandbox/home"}
}
func (box) Cleanup(context.Context, drivers.Namespace, drivers.Revision) error { return nil }
func (box) ProvisionHarness(context.Context, drivers.Namespace, drivers.Revision) (drivers.SandboxRef, error) {
	return drivers.SandboxRef{Name: "sbx"}, nil
}
func (box) TransformConfiguration(_ context.Context, d occkit.Document) (occkit.Document, error) {
	return d, nil
}
func (box) BeforeWorkloadStart(context.Context, drivers.Revision, *drivers.Launch) error {
	return nil
}

// minimalBox has only the required methods.
type minimalBox struct{}

func (minimalBox) SandboxDeclaration() drivers.SandboxDeclaration {
	return drivers.SandboxDeclaration{Name: "minimal", Facets: []occkit.Facet{"networking"}}
}
func (minimalBox) Cleanup(context.Context, drivers.Namespace, drivers.Revision) error { return nil }

// boxWrapper forwards only the required methods.
type boxWrapper struct{ inner drivers.SandboxDriver }

func (w boxWrapper) SandboxDeclaration() drivers.SandboxDeclaration {
	return w.inner.SandboxDeclaration()
}
func (w boxWrapper) Cleanup(ctx context.Context, ns drivers.Namespace, rev drivers.Revision) error {
	return w.inner.Cleanup(ctx, ns, rev)
}
func (w boxWrapper) Unwrap() drivers.SandboxDriver { return w.inner }

func TestSandboxManifestOf(t *testing.T) {
	full := drivers.SandboxManifest{Name: "box", Facets: occkit.AllFacets(), Cleanup: true, ProvisionHarness: true,
		TransformConfiguration: true, HarnessHome: "/sandbox/home", Hooks: []drivers.HookPhase{drivers.PhaseBeforeWorkloadStart}}
	tests := []struct {
		name string
		d    drivers.SandboxDriver
		want drivers.SandboxManifest
	}{
		{"full", box{"box"}, full},
		{"behind two wrappers", boxWrapper{boxWrapper{box{"box"}}}, full},
		{"minimal", minimalBox{}, drivers.SandboxManifest{Name: "minimal", Facets: []occkit.Facet{"networking"}, Cleanup: true}},
		{"nil", nil, drivers.SandboxManifest{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, drivers.SandboxManifestOf(tt.d)); diff != "" {
				t.Errorf("manifest (-want +got):\n%s", diff)
			}
		})
	}
	info := admission.SandboxOf(boxWrapper{box{"box"}})
	if info.ID != "box" || !info.Facts.Qualifies() {
		t.Errorf("SandboxOf = %+v, want a qualifying box", info)
	}
	if _, ok := drivers.AsSandbox[drivers.ConfigurationTransformer](info.Driver); !ok {
		t.Error("admission cannot find the transform through the wrapper")
	}
}

// A harness home is accepted exactly when it is absolute, normalized and
// below the root (DRV-2).
func TestHarnessHomeProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		segs := rapid.SliceOfN(rapid.SampledFrom([]string{"", ".", "..", "home", "node", "a b", "x.y", "\x01"}), 0, 5).Draw(t, "segs")
		home := rapid.SampledFrom([]string{"", "/"}).Draw(t, "lead") + strings.Join(segs, "/")
		err := drivers.CheckHarnessHome(occkit.NewPath("harnessHome"), home)
		want := strings.HasPrefix(home, "/") && path.Clean(home) == home && home != "/" &&
			!strings.ContainsRune(home, '\x01')
		if (err == nil) != want {
			t.Fatalf("CheckHarnessHome(%q) = %v, want accepted=%v", home, err, want)
		}
		if err != nil && strings.Contains(err.Error(), home) && home != "" && home != "/" {
			t.Fatalf("the refusal repeats the value: %v", err)
		}
	})
}

func FuzzParseSandboxManifest(f *testing.F) {
	for _, s := range []string{
		`{"facets":["networking","filesystem","process"],"cleanup":true,"provisionHarness":true}`,
		`{"facets":[],"cleanup":true}`, `{"hooks":{"x":1}}`, `{"harnessHome":"/a/../b"}`, `[]`, `{`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := drivers.ParseSandboxManifest(b)
		if err != nil {
			for _, e := range occkit.Errors(err) {
				if e.Code != occkit.CodeInvalidRequest {
					t.Fatalf("parse refusal %v is not 400", e)
				}
			}
			return
		}
		for _, e := range occkit.Errors(m.Validate()) {
			if e.Code != occkit.CodeInvalidRequest || (e.Rule != "DRV-2" && e.Rule != "DRV-4") {
				t.Fatalf("validation refusal %v is not 400 DRV-2/DRV-4", e)
			}
		}
	})
}

func BenchmarkParseAndValidateSandboxManifest(b *testing.B) {
	in := []byte(`{"name":"openshell","facets":["networking","filesystem","process"],"cleanup":true,"provisionHarness":true,"harnessHome":"/sandbox/home","hooks":["beforeWorkloadStart","beforeWorkloadStop"]}`)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		m, err := drivers.ParseSandboxManifest(in)
		if err != nil || m.Validate() != nil {
			b.Fatal(err)
		}
	}
}
