package drivers_test

import (
	"context"
	"fmt"
	"sync"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/admission"
	"github.com/occkit/occkit/drivers"
	"github.com/occkit/occkit/drivers/drivertest"
)

// nomad is a complete custom ComputeDriver: it runs embedded OpenClaw
// only, keeps its "jobs" in memory, accepts only api_key bindings, and can
// read runtime logs.
type nomad struct {
	mu   sync.Mutex
	jobs map[string]bool // agentID/digest → running
}

func (n *nomad) Declaration() drivers.Declaration {
	return drivers.Declaration{
		Name:       "nomad",
		Topologies: []occkit.Topology{{Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeEmbedded}},
	}
}

func (n *nomad) EnsureNamespace(ctx context.Context, _ drivers.Namespace) error { return ctx.Err() }

func (n *nomad) DeleteNamespace(ctx context.Context, _ drivers.Namespace) error { return ctx.Err() }

func (n *nomad) Prepare(ctx context.Context, rev drivers.Revision) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := occkit.CheckTopology(n.Declaration().Name, n.Declaration().Topologies, rev.Topology()); err != nil {
		return err
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.jobs == nil {
		n.jobs = map[string]bool{}
	}
	n.jobs[rev.AgentID()+"/"+rev.Digest()] = true
	return nil
}

func (n *nomad) Retire(ctx context.Context, agentID, digest string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	delete(n.jobs, agentID+"/"+digest)
	return nil
}

func (n *nomad) ValidateHarnessAuth(ctx context.Context, f drivers.AuthFacts) (occkit.Projection, error) {
	if err := ctx.Err(); err != nil {
		return occkit.Projection{}, err
	}
	if f.Binding.Method != occkit.MethodAPIKey {
		return occkit.Projection{}, occkit.Conflict("AUTH-4", admission.BindingPath().Key("method"),
			"nomad supports only the api_key harnessAuth method")
	}
	key := occkit.EnvVar{Name: "OPENAI_API_KEY", From: f.Binding.Source}
	return occkit.Projection{Gateway: []occkit.EnvVar{}, Harness: []occkit.EnvVar{key}}, nil
}

func (n *nomad) ReadRuntimeLogs(ctx context.Context, rev drivers.Revision, req drivers.LogRequest) (drivers.LogChunk, error) {
	if err := ctx.Err(); err != nil {
		return drivers.LogChunk{}, err
	}
	return drivers.LogChunk{Lines: []drivers.LogLine{{Raw: `{"msg":"gateway ready"}`}}}, nil
}

// A custom ComputeDriver, run through the conformance suite.
func Example_customComputeDriver() {
	violations := drivertest.Check(context.Background(), &nomad{})
	fmt.Println("violations:", len(violations))
	for _, v := range violations {
		fmt.Println(v)
	}

	var reg drivers.Registry
	fmt.Println("registered:", reg.RegisterCompute(&nomad{}) == nil)
	d, _ := reg.Compute("nomad")
	_, logs := drivers.As[drivers.RuntimeLogReader](d)
	fmt.Println("reads runtime logs:", logs)
	_, err := drivers.Diagnose(context.Background(), d, nil)
	fmt.Println("diagnostics:", occkit.First(err).HTTPStatus())
	// Output:
	// violations: 0
	// registered: true
	// reads runtime logs: true
	// diagnostics: 501
}

func ExampleCapabilities() {
	inst := occkit.Installation{
		NativeWorkerSupport: occkit.NativeWorkersPinned,
		Sandbox:             &occkit.SandboxFacts{Facets: occkit.AllFacets(), ProvisionHarness: true},
	}
	healthy, _ := drivers.Capabilities(inst, drivers.CapabilityOptions{})
	fmt.Println(string(healthy.JSON()))
	outage, _ := drivers.Capabilities(inst, drivers.CapabilityOptions{SandboxUnavailable: true})
	fmt.Println(string(outage.JSON()))
	inst.Sandbox.ProvisionHarness = false
	plain, _ := drivers.Capabilities(inst, drivers.CapabilityOptions{})
	fmt.Println(string(plain.JSON()))
	// Output:
	// {"openclaw":{"executionModes":["embedded","dedicated"]},"nativeWorkers":{"support":"pinned-runtime"}}
	// {"openclaw":{"executionModes":["embedded","dedicated"]},"nativeWorkers":{"support":"pinned-runtime"},"sandboxDriverUnavailable":true}
	// {"openclaw":{"executionModes":["embedded"]}}
}

func ExampleParseSandboxManifest() {
	m, _ := drivers.ParseSandboxManifest([]byte(`{"facets":["networking","exec"],"cleanup":true,"harnessHome":"/home/../root"}`))
	for _, e := range occkit.Errors(m.Validate()) {
		fmt.Println(e.HTTPStatus(), e.Path, e.Rule)
	}
	// Output:
	// 400 facets[1] DRV-2
	// 400 harnessHome DRV-2
}

func ExampleSessionHost() {
	h, _ := drivers.NewSessionHost(1)
	fmt.Println(h.Admit("first"))
	fmt.Println(occkit.First(h.Admit("second")).HTTPStatus())
	h.Stop("first")
	fmt.Println(h.Admit("second"))
	fmt.Println(drivers.DefaultMaxConcurrent(3))
	// Output:
	// <nil>
	// 409
	// <nil>
	// 12
}
