package conformance

// Handlers for the harness.resolve and roster.check ops.

import (
	"github.com/tidwall/gjson"

	"github.com/occkit/occkit/resolver"
)

// opHarnessResolve resolves input.configuration for input.executionMode on
// input.compute with input.installation (RES-1..RES-13).
func opHarnessResolve(in gjson.Result) (Result, error) {
	doc, err := inputDocument(in, "configuration")
	if err != nil {
		return nil, err
	}
	req := resolver.Request{
		Mode:         resolver.Mode(in.Get("executionMode").String()),
		Compute:      resolver.Compute(in.Get("compute").String()),
		Installation: harnessInstallation(in.Get("installation")),
	}
	for _, t := range in.Get("topologies").Array() {
		req.Topologies = append(req.Topologies, resolver.Topology{
			Harness: resolver.Harness(t.Get("harness").String()),
			Mode:    resolver.Mode(t.Get("mode").String()),
		})
	}
	d, err := resolver.Resolve(doc, req)
	if err != nil {
		return nil, err
	}
	fallbacks := make([]any, len(d.Fallbacks))
	for i, f := range d.Fallbacks {
		fallbacks[i] = f
	}
	res := Result{"harness": string(d.Harness), "mode": string(d.Mode), "fallbacks": fallbacks}
	if d.Primary != "" {
		res["primary"] = d.Primary
	}
	return res, nil
}

// harnessInstallation reads {nativeWorkerSupport, sandboxDriver}.
func harnessInstallation(v gjson.Result) resolver.Installation {
	inst := resolver.Installation{
		NativeWorkerSupport: resolver.NativeWorkerSupport(v.Get("nativeWorkerSupport").String()),
	}
	if sb := v.Get("sandboxDriver"); sb.IsObject() {
		facts := &resolver.SandboxFacts{ProvisionHarness: sb.Get("provisionHarness").Bool()}
		for _, f := range sb.Get("facets").Array() {
			facts.Facets = append(facts.Facets, resolver.Facet(f.String()))
		}
		inst.Sandbox = facts
	}
	return inst
}

// opRosterCheck applies the roster rules (RES-10) for input.stage.
func opRosterCheck(in gjson.Result) (Result, error) {
	doc, err := inputDocument(in, "configuration")
	if err != nil {
		return nil, err
	}
	err = resolver.CheckRoster(doc, resolver.RosterRequest{
		Stage:   resolver.Stage(in.Get("stage").String()),
		Compute: resolver.Compute(in.Get("compute").String()),
		Harness: resolver.Harness(in.Get("harness").String()),
		Mode:    resolver.Mode(in.Get("executionMode").String()),
	})
	if err != nil {
		return nil, err
	}
	return Result{"accept": true}, nil
}
