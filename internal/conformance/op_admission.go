package conformance

// Handlers for the admission ops.

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/occkit/occkit/admission"
	"github.com/occkit/occkit/resolver"
)

var opAdmissionAdmit = notYet

// opAuthValidate: auth.validate (AUTH-*).
func opAuthValidate(in gjson.Result) (Result, error) {
	b, err := admission.ParseBinding(in.Get("binding"), admission.BindingPath())
	if err != nil {
		return nil, err
	}
	f := admission.AuthFacts{
		Compute:             resolver.Compute(strOr(in.Get("compute"), string(resolver.ComputeKubernetes))),
		Harness:             resolver.Harness(in.Get("harness").String()),
		Mode:                resolver.Mode(strOr(in.Get("executionMode"), string(resolver.ModeEmbedded))),
		Binding:             b,
		CredentialGateway:   in.Get("credentialGateway").Bool(),
		Sandbox:             sandboxFacts(in.Get("sandbox")),
		NativeWorkerSupport: resolver.NativeWorkerSupport(in.Get("nativeWorkerSupport").String()),
		Model:               in.Get("model").String(),
	}
	p, err := admission.ValidateHarnessAuth(f)
	if err != nil {
		return nil, err
	}
	var snap any
	if err := json.Unmarshal(b.JSON(), &snap); err != nil {
		return nil, err
	}
	return Result{
		"accept":   true,
		"snapshot": snap,
		"env":      envSetCheck(p),
	}, nil
}

func strOr(v gjson.Result, def string) string {
	if !v.Exists() || v.Type == gjson.Null {
		return def
	}
	return v.String()
}

// sandboxFacts reads {facets, provisionHarness}; absent or null is no
// SandboxDriver.
func sandboxFacts(v gjson.Result) *resolver.SandboxFacts {
	if !v.IsObject() {
		return nil
	}
	s := &resolver.SandboxFacts{ProvisionHarness: v.Get("provisionHarness").Bool()}
	for _, f := range v.Get("facets").Array() {
		s.Facets = append(s.Facets, resolver.Facet(f.String()))
	}
	return s
}

// envSetCheck compares each process named in the expectation with the
// exact set of projected variable names.
func envSetCheck(p admission.Projection) Check {
	return func(want gjson.Result) string {
		var diffs []string
		for _, proc := range admission.AllProcesses() {
			w := want.Get(string(proc))
			if !w.Exists() {
				continue
			}
			var names []string
			for _, n := range w.Array() {
				names = append(names, n.String())
			}
			sort.Strings(names)
			got := p.Names(proc)
			if strings.Join(names, ",") != strings.Join(got, ",") {
				diffs = append(diffs, fmt.Sprintf("%s: got %v, want %v", proc, got, names))
			}
		}
		return strings.Join(diffs, "; ")
	}
}
