package policytest

// Handlers for the harness.resolve and roster.check ops.

import (
	"fmt"
	"github.com/occkit/occkit"
	"slices"

	"github.com/tidwall/gjson"

	"github.com/occkit/occkit/resolver"
)

// opHarnessResolve resolves input.configuration for input.executionMode on
// input.compute with input.installation (RES-1..RES-13).
func opHarnessResolve(in input) (result, error) {
	doc, err := inputDocument(in, "configuration")
	if err != nil {
		return nil, err
	}
	req := resolver.Request{
		Mode:         occkit.Mode(in.Get("executionMode").String()),
		Compute:      occkit.Compute(computeKind(in.Get("compute"))),
		Installation: harnessInstallation(in.Result),
	}
	for _, t := range in.Get("topologies").Array() {
		req.Topologies = append(req.Topologies, occkit.Topology{
			Harness: occkit.Harness(t.Get("harness").String()),
			Mode:    occkit.Mode(t.Get("mode").String()),
		})
	}
	d, err := resolver.Resolve(doc, req)
	if err != nil {
		return nil, err
	}
	return result{
		"harness": string(d.Harness), "mode": string(d.Mode),
		"primary": optString(d.Primary), "fallbacks": listCheck(d.Fallbacks),
	}, nil
}

// harnessInstallation reads input.installation {nativeWorkerSupport,
// sandboxDriver}; the same facts written at the top level, as
// auth.validate and drivers.installation spell them (sandbox or
// sandboxDriver), are read too.
func harnessInstallation(in gjson.Result) occkit.Installation {
	return occkit.Installation{
		NativeWorkerSupport: occkit.NativeWorkerSupport(
			firstOf(in, "installation.nativeWorkerSupport", "nativeWorkerSupport").String()),
		Sandbox: sandboxFacts(firstOf(in, "installation.sandboxDriver", "sandboxDriver", "sandbox")),
	}
}

// opRosterCheck applies the roster rules (RES-10) for input.stage.
func opRosterCheck(in input) (result, error) {
	doc, err := inputDocument(in, "configuration")
	if err != nil {
		return nil, err
	}
	err = resolver.CheckRoster(doc, resolver.RosterRequest{
		Stage:   resolver.Stage(in.Get("stage").String()),
		Compute: occkit.Compute(computeKind(in.Get("compute"))),
		Harness: occkit.Harness(in.Get("harness").String()),
		Mode:    occkit.Mode(in.Get("executionMode").String()),
	})
	if err != nil {
		return nil, err
	}
	return result{"accept": true}, nil
}

// computeKind reads a compute input: a bare kind ("ssh"), or an object
// {kind, ...} as admission.admit spells it; absent, null or an object
// without a kind is "" (the library's default, Kubernetes).
func computeKind(v gjson.Result) string {
	switch {
	case v.IsObject():
		return computeKind(v.Get("kind"))
	case !v.Exists() || v.Type == gjson.Null:
		return ""
	}
	return v.String()
}

// listCheck compares an ordered list of strings with its expectation
// (order kept, exact). An empty list is the list's absence: [], "" and null
// all expect no element; a lone string is a list of one.
func listCheck(got []string) checkFunc {
	return func(want gjson.Result) string {
		var w []string
		switch {
		case want.Type == gjson.String && want.Str != "":
			w = []string{want.Str}
		case want.IsArray():
			for _, x := range want.Array() {
				if x.Type != gjson.String {
					return fmt.Sprintf("want %s, got %q", want.Raw, got)
				}
				w = append(w, x.Str)
			}
		case want.Type != gjson.Null && want.Type != gjson.String:
			return fmt.Sprintf("want %s, expected an array", want.Raw)
		}
		if !slices.Equal(w, got) {
			return fmt.Sprintf("want %s, got %q", want.Raw, got)
		}
		return ""
	}
}
