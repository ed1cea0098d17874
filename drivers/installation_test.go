package drivers_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/drivers"
)

func TestCapabilities(t *testing.T) {
	full := &occkit.SandboxFacts{Facets: occkit.AllFacets(), ProvisionHarness: true}
	embeddedOnly := `{"openclaw":{"executionModes":["embedded"]}}`
	tests := []struct {
		name    string
		support occkit.NativeWorkerSupport
		sandbox *occkit.SandboxFacts
		outage  bool
		want    string
	}{
		{"pinned runtime with a qualifying driver", occkit.NativeWorkersPinned, full, false,
			`{"openclaw":{"executionModes":["embedded","dedicated"]},"nativeWorkers":{"support":"pinned-runtime"}}`},
		{"custom image with a qualifying driver", occkit.NativeWorkersCustomImage, full, false,
			`{"openclaw":{"executionModes":["embedded","dedicated"]},"nativeWorkers":{"support":"custom-image"}}`},
		{"outage keeps dedicated", occkit.NativeWorkersPinned, full, true,
			`{"openclaw":{"executionModes":["embedded","dedicated"]},"nativeWorkers":{"support":"pinned-runtime"},"sandboxDriverUnavailable":true}`},
		{"qualifying driver without support source", occkit.NativeWorkersNone, full, false, embeddedOnly},
		{"no support and an outage", occkit.NativeWorkersNone, full, true,
			`{"openclaw":{"executionModes":["embedded"]},"sandboxDriverUnavailable":true}`},
		{"no sandbox driver", occkit.NativeWorkersPinned, nil, false, embeddedOnly},
		{"no sandbox driver, so no outage", occkit.NativeWorkersPinned, nil, true, embeddedOnly},
		{"driver without provisioning", occkit.NativeWorkersPinned, &occkit.SandboxFacts{Facets: occkit.AllFacets()}, false, embeddedOnly},
		{"driver with two facets", occkit.NativeWorkersPinned,
			&occkit.SandboxFacts{Facets: []occkit.Facet{"networking", "process"}, ProvisionHarness: true}, false, embeddedOnly},
		{"non-qualifying driver out", occkit.NativeWorkersCustomImage,
			&occkit.SandboxFacts{Facets: []occkit.Facet{"networking"}, ProvisionHarness: true}, true,
			`{"openclaw":{"executionModes":["embedded"]},"sandboxDriverUnavailable":true}`},
		{"invalid facets never qualify", occkit.NativeWorkersPinned,
			&occkit.SandboxFacts{Facets: append(occkit.AllFacets(), "exec"), ProvisionHarness: true}, false, embeddedOnly},
		{"facet order does not matter", occkit.NativeWorkersPinned,
			&occkit.SandboxFacts{Facets: []occkit.Facet{"process", "networking", "filesystem"}, ProvisionHarness: true}, false,
			`{"openclaw":{"executionModes":["embedded","dedicated"]},"nativeWorkers":{"support":"pinned-runtime"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			caps, err := drivers.Capabilities(occkit.Installation{NativeWorkerSupport: tt.support, Sandbox: tt.sandbox},
				drivers.CapabilityOptions{SandboxUnavailable: tt.outage})
			if err != nil {
				t.Fatal(err)
			}
			var got, want any
			if err := json.Unmarshal(caps.JSON(), &got); err != nil {
				t.Fatal(err)
			}
			_ = json.Unmarshal([]byte(tt.want), &want)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("capabilities (-want +got):\n%s", diff)
			}
		})
	}
	_, err := drivers.Capabilities(occkit.Installation{NativeWorkerSupport: "yes"}, drivers.CapabilityOptions{})
	if diff := cmp.Diff([]occkit.ErrorMatcher{invalid("runtime.nativeWorkerSupport", "DRV-3")}, occkit.MatchersOf(err)); diff != "" {
		t.Errorf("unknown support (-want +got):\n%s", diff)
	}
}

// Invariants of DRV-3 over arbitrary installations.
func TestCapabilitiesProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		support := rapid.SampledFrom([]occkit.NativeWorkerSupport{"", occkit.NativeWorkersPinned, occkit.NativeWorkersCustomImage}).Draw(t, "support")
		var sandbox *occkit.SandboxFacts
		if rapid.Bool().Draw(t, "configured") {
			sandbox = &occkit.SandboxFacts{
				Facets:           rapid.SliceOfN(rapid.SampledFrom([]occkit.Facet{"networking", "filesystem", "process", "exec"}), 0, 5).Draw(t, "facets"),
				ProvisionHarness: rapid.Bool().Draw(t, "provision"),
			}
		}
		inst := occkit.Installation{NativeWorkerSupport: support, Sandbox: sandbox}
		healthy, err := drivers.Capabilities(inst, drivers.CapabilityOptions{})
		if err != nil {
			t.Fatal(err)
		}
		out, err := drivers.Capabilities(inst, drivers.CapabilityOptions{SandboxUnavailable: true})
		if err != nil {
			t.Fatal(err)
		}
		modes := healthy.OpenClaw.ExecutionModes
		if len(modes) == 0 || modes[0] != occkit.ModeEmbedded {
			t.Fatalf("executionModes %v must start with embedded", modes)
		}
		if healthy.Offers(occkit.ModeDedicated) != (healthy.NativeWorkers != nil) {
			t.Fatalf("dedicated is offered exactly when nativeWorkers is reported: %+v", healthy)
		}
		if healthy.Offers(occkit.ModeDedicated) && (!sandbox.Qualifies() || support == "") {
			t.Fatalf("dedicated offered without a qualifying driver and support: %+v", healthy)
		}
		if !cmp.Equal(healthy.OpenClaw, out.OpenClaw) || !cmp.Equal(healthy.NativeWorkers, out.NativeWorkers) {
			t.Fatalf("an outage changed what is offered: %+v vs %+v", healthy, out)
		}
		if out.SandboxDriverUnavailable != (sandbox != nil) || healthy.SandboxDriverUnavailable {
			t.Fatalf("sandboxDriverUnavailable wrong: healthy %v, out %v", healthy.SandboxDriverUnavailable, out.SandboxDriverUnavailable)
		}
	})
}

func TestNativeWorkerSource(t *testing.T) {
	tests := []struct {
		name     string
		pinned   bool
		declared string
		want     occkit.NativeWorkerSupport
		errs     []occkit.ErrorMatcher
	}{
		{"pinned image supports", true, "", occkit.NativeWorkersPinned, nil},
		{"pinned image wins over a declaration", true, "custom-image", occkit.NativeWorkersPinned, nil},
		{"custom image declared", false, "custom-image", occkit.NativeWorkersCustomImage, nil},
		{"nothing", false, "", occkit.NativeWorkersNone, nil},
		{"operator cannot declare pinned-runtime", false, "pinned-runtime", "", []occkit.ErrorMatcher{invalid("runtime.nativeWorkerSupport", "DRV-3")}},
		{"operator cannot declare pinned-runtime even when true", true, "pinned-runtime", "", []occkit.ErrorMatcher{invalid("runtime.nativeWorkerSupport", "DRV-3")}},
		{"unknown declaration", false, "yes", "", []occkit.ErrorMatcher{invalid("runtime.nativeWorkerSupport", "DRV-3")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := drivers.NativeWorkerSource(tt.pinned, tt.declared)
			if diff := cmp.Diff(tt.errs, occkit.MatchersOf(err)); diff != "" {
				t.Fatalf("problems (-want +got):\n%s", diff)
			}
			if got != tt.want {
				t.Errorf("support = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestMaxConcurrent(t *testing.T) {
	tests := []struct {
		name        string
		cfg         string
		parallelism int
		want        int
		errs        []occkit.ErrorMatcher
	}{
		{"two cores give the floor", `{}`, 2, 8, nil},
		{"three cores give twelve", `{}`, 3, 12, nil},
		{"eight cores", `{}`, 8, 32, nil},
		{"unknown parallelism counts as one", `{}`, 0, 8, nil},
		{"negative parallelism counts as one", `{}`, -4, 8, nil},
		{"agent setting wins", `{"agents":{"defaults":{"maxConcurrent":3}}}`, 16, 3, nil},
		{"integral float", `{"agents":{"defaults":{"maxConcurrent":6.0}}}`, 1, 6, nil},
		{"zero", `{"agents":{"defaults":{"maxConcurrent":0}}}`, 2, 0, []occkit.ErrorMatcher{invalid("agents.defaults.maxConcurrent", "RES-14")}},
		{"negative", `{"agents":{"defaults":{"maxConcurrent":-1}}}`, 2, 0, []occkit.ErrorMatcher{invalid("agents.defaults.maxConcurrent", "RES-14")}},
		{"fraction", `{"agents":{"defaults":{"maxConcurrent":2.5}}}`, 2, 0, []occkit.ErrorMatcher{invalid("agents.defaults.maxConcurrent", "RES-14")}},
		{"string", `{"agents":{"defaults":{"maxConcurrent":"8"}}}`, 2, 0, []occkit.ErrorMatcher{invalid("agents.defaults.maxConcurrent", "RES-14")}},
		{"null", `{"agents":{"defaults":{"maxConcurrent":null}}}`, 2, 0, []occkit.ErrorMatcher{invalid("agents.defaults.maxConcurrent", "RES-14")}},
		{"huge", `{"agents":{"defaults":{"maxConcurrent":1e300}}}`, 2, 0, []occkit.ErrorMatcher{invalid("agents.defaults.maxConcurrent", "RES-14")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := drivers.MaxConcurrent(occkit.MustParseDocument(tt.cfg), tt.parallelism)
			if diff := cmp.Diff(tt.errs, occkit.MatchersOf(err)); diff != "" {
				t.Fatalf("problems (-want +got):\n%s", diff)
			}
			if got != tt.want {
				t.Errorf("maxConcurrent = %d, want %d", got, tt.want)
			}
		})
	}
	rapid.Check(t, func(t *rapid.T) {
		p := rapid.IntRange(-10, 1<<20).Draw(t, "parallelism")
		got := drivers.DefaultMaxConcurrent(p)
		if got < 8 || got%4 != 0 || p >= 2 && got != 4*p {
			t.Fatalf("DefaultMaxConcurrent(%d) = %d", p, got)
		}
	})
}

func TestSessionWorkers(t *testing.T) {
	tests := []struct {
		name string
		raw  string
		want int
		errs []occkit.ErrorMatcher
	}{
		{"absent", ``, 8, nil},
		{"null", `null`, 8, nil},
		{"one", `1`, 1, nil},
		{"max", `1024`, 1024, nil},
		{"zero", `0`, 0, []occkit.ErrorMatcher{invalid("sessionWorkers", "RES-14")}},
		{"over max", `1025`, 0, []occkit.ErrorMatcher{invalid("sessionWorkers", "RES-14")}},
		{"fraction", `2.5`, 0, []occkit.ErrorMatcher{invalid("sessionWorkers", "RES-14")}},
		{"string", `"4"`, 0, []occkit.ErrorMatcher{invalid("sessionWorkers", "RES-14")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := occkit.MustParseDocument(`{"x":` + orNull(tt.raw) + `}`).Get(occkit.NewPath("x"))
			if tt.raw == "" {
				v = occkit.MustParseDocument(`{}`).Get(occkit.NewPath("x"))
			}
			got, err := drivers.ParseSessionWorkers([]byte(v.Raw()), occkit.NewPath("sessionWorkers"))
			if diff := cmp.Diff(tt.errs, occkit.MatchersOf(err)); diff != "" {
				t.Fatalf("problems (-want +got):\n%s", diff)
			}
			if got != tt.want {
				t.Errorf("workers = %d, want %d", got, tt.want)
			}
		})
	}
}

func orNull(s string) string {
	if s == "" {
		return "null"
	}
	return s
}

func TestSessionHost(t *testing.T) {
	h, err := drivers.NewSessionHost(2)
	if err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		op, id string
		ok     bool
	}{
		{"admit", "a", true},
		{"admit", "a", true}, // already hosted: no second worker
		{"admit", "b", true},
		{"admit", "c", false}, // full: refused, nothing displaced
		{"stop", "a", true},
		{"admit", "c", true},
		{"admit", "a", false},
		{"stop", "zzz", true},
	}
	for i, s := range steps {
		switch s.op {
		case "admit":
			err := h.Admit(s.id)
			if (err == nil) != s.ok {
				t.Fatalf("step %d admit %s = %v, want ok=%v", i, s.id, err, s.ok)
			}
			if err != nil {
				if diff := cmp.Diff([]occkit.ErrorMatcher{{Code: occkit.CodeResourceConflict, Path: "", Rule: "RES-14"}}, occkit.MatchersOf(err)); diff != "" {
					t.Fatalf("refusal (-want +got):\n%s", diff)
				}
			}
		case "stop":
			h.Stop(s.id)
		}
	}
	if diff := cmp.Diff([]string{"b", "c"}, h.Active()); diff != "" {
		t.Errorf("active (-want +got):\n%s", diff)
	}
	if d, _ := drivers.NewSessionHost(0); d.Workers() != drivers.DefaultSessionWorkers {
		t.Errorf("default workers = %d", d.Workers())
	}
	if _, err := drivers.NewSessionHost(2000); err == nil {
		t.Error("2000 workers must be refused")
	}
	if drivers.CanAdmitSession(2, -1) {
		t.Error("a negative active count must fail closed")
	}
}

func TestSessionHostConcurrent(t *testing.T) {
	h, _ := drivers.NewSessionHost(5)
	var wg sync.WaitGroup
	var mu sync.Mutex
	admitted := 0
	for i := 0; i < 50; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if h.Admit(fmt.Sprint("s", i)) == nil {
				mu.Lock()
				admitted++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if admitted != 5 || len(h.Active()) != 5 {
		t.Errorf("admitted %d, active %d; want exactly the 5 workers", admitted, len(h.Active()))
	}
}

// hooked implements all four lifecycle hooks.
type hooked struct{ minimalBox }

func (hooked) AfterNamespacePrepared(context.Context, drivers.Namespace) error { return nil }
func (hooked) BeforeWorkloadStart(context.Context, drivers.Revision, *drivers.Launch) error {
	return nil
}
func (hooked) BeforeWorkloadStop(context.Context, drivers.Revision) error     { return nil }
func (hooked) BeforeNamespaceDelete(context.Context, drivers.Namespace) error { return nil }

// Every phase of the closed set is valid, accepted and discoverable.
func TestHookPhasesClosedSet(t *testing.T) {
	names := make([]string, 0, 4)
	for _, p := range drivers.AllHookPhases() {
		if !p.Valid() {
			t.Errorf("%q is not Valid", p)
		}
		names = append(names, string(p))
	}
	if err := drivers.CheckHookPhases(occkit.NewPath("hooks"), names); err != nil {
		t.Errorf("the closed set is refused: %v", err)
	}
	if diff := cmp.Diff(drivers.AllHookPhases(), drivers.SandboxHookPhases(boxWrapper{hooked{}})); diff != "" {
		t.Errorf("SandboxHookPhases (-want +got):\n%s", diff)
	}
	if got := drivers.SandboxHookPhases(minimalBox{}); len(got) != 0 {
		t.Errorf("a driver without hooks hooks %v", got)
	}
	for _, bad := range []string{"afterWorkloadStart", "AfterNamespacePrepared", "", "beforeExec"} {
		if drivers.HookPhase(bad).Valid() {
			t.Errorf("%q must not be valid", bad)
		}
	}
}

func TestLaunch(t *testing.T) {
	tests := []struct {
		name, key, value string
		want             []occkit.ErrorMatcher
	}{
		{"placeholder", "PROXY_TOKEN", "opaque-abc.1", nil},
		{"lower-case name", "proxy", "opaque-x", []occkit.ErrorMatcher{invalid("environment", "DRV-4")}},
		{"reserved name", "OPENCLAW_CONFIG_PATH", "opaque-x", []occkit.ErrorMatcher{invalid("environment.OPENCLAW_CONFIG_PATH", "DRV-4")}},
		{"loader hook", "LD_PRELOAD", "opaque-x", []occkit.ErrorMatcher{invalid("environment.LD_PRELOAD", "DRV-4")}},
		{"secret value", "API_KEY", "sk-live-123", []occkit.ErrorMatcher{invalid("environment.API_KEY", "DRV-4")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var l drivers.Launch
			err := l.Setenv(tt.key, tt.value)
			if diff := cmp.Diff(tt.want, occkit.MatchersOf(err)); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
			if err != nil && contains(err, tt.value) {
				t.Errorf("the refusal repeats the value: %v", err)
			}
		})
	}
	var l drivers.Launch
	for i := 0; i < drivers.MaxLaunchEnv; i++ {
		if err := l.Setenv(fmt.Sprintf("V%d", i), "opaque-x"); err != nil {
			t.Fatal(err)
		}
	}
	if err := l.Setenv("ONE_MORE", "opaque-x"); err == nil {
		t.Error("the launch environment must be bounded")
	}
	if err := l.Setenv("V0", "opaque-y"); err != nil {
		t.Errorf("replacing a variable at the bound: %v", err)
	}
	if len(l.Names()) != drivers.MaxLaunchEnv || l.Env()["V0"] != "opaque-y" {
		t.Errorf("launch = %v", l.Env())
	}
}

func BenchmarkCapabilities(b *testing.B) {
	inst := occkit.Installation{NativeWorkerSupport: occkit.NativeWorkersPinned,
		Sandbox: &occkit.SandboxFacts{Facets: occkit.AllFacets(), ProvisionHarness: true}}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := drivers.Capabilities(inst, drivers.CapabilityOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkAsThroughWrappers(b *testing.B) {
	var d drivers.ComputeDriver = capable{stub: newStub()}
	for i := 0; i < 4; i++ {
		d = wrapper{d}
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, ok := drivers.As[drivers.RuntimeLogReader](d); !ok {
			b.Fatal("lost")
		}
	}
}
