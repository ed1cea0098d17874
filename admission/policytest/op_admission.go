package policytest

// Handlers for the admission ops.

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/occkit/occkit"
	"slices"
	"sort"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/occkit/occkit/admission"
	"github.com/occkit/occkit/drivers"
	"github.com/occkit/occkit/logging"
)

// opAuthValidate: auth.validate (AUTH-*).
func opAuthValidate(in input) (result, error) {
	b, err := admission.ParseBinding([]byte(in.Get("binding").Raw), admission.BindingPath())
	if err != nil {
		return nil, err
	}
	mode := occkit.Mode(strOr(in.Get("executionMode"), string(occkit.ModeEmbedded)))
	// An omitted harness on an embedded topology can only be openclaw
	// (RES-11); a dedicated one must name it.
	// null is the same omission as absence.
	harness := occkit.Harness(strOr(in.Get("harness"), ""))
	if harness == "" && mode == occkit.ModeEmbedded {
		harness = occkit.HarnessOpenClaw
	}
	compute := computeKind(in.Get("compute"))
	if compute == "" {
		compute = string(occkit.ComputeKubernetes)
	}
	f := drivers.AuthFacts{
		Compute:             occkit.Compute(compute),
		Harness:             harness,
		Mode:                mode,
		Binding:             b,
		CredentialGateway:   in.Get("credentialGateway").Bool(),
		Sandbox:             sandboxFacts(firstOf(in.Result, "sandbox", "sandboxDriver", "installation.sandboxDriver")),
		NativeWorkerSupport: occkit.NativeWorkerSupport(firstOf(in.Result, "nativeWorkerSupport", "installation.nativeWorkerSupport").String()),
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
	return result{
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
func sandboxFacts(v gjson.Result) *occkit.SandboxFacts {
	if !v.IsObject() {
		return nil
	}
	s := &occkit.SandboxFacts{ProvisionHarness: v.Get("provisionHarness").Bool()}
	for _, f := range v.Get("facets").Array() {
		s.Facets = append(s.Facets, occkit.Facet(f.String()))
	}
	return s
}

// envSetCheck compares each process named in the expectation with the
// exact set of projected variable names (order and repeats ignored; null
// is the empty set). A process the projection does not have fails the
// check instead of going unchecked; a null env expects no variable at all.
func envSetCheck(p occkit.Projection) checkFunc {
	return func(want gjson.Result) string {
		if want.Type == gjson.Null {
			want = gjson.Parse(`{"gateway":[],"harness":[]}`)
		}
		if !want.IsObject() {
			return fmt.Sprintf("want %s, expected an object of processes", want.Raw)
		}
		var diffs []string
		known := map[string]bool{}
		for _, proc := range occkit.AllProcesses() {
			known[string(proc)] = true
		}
		want.ForEach(func(k, _ gjson.Result) bool {
			if !known[k.String()] {
				diffs = append(diffs, fmt.Sprintf("%q is not a process (gateway, harness)", k.String()))
			}
			return true
		})
		for _, proc := range occkit.AllProcesses() {
			w := want.Get(gjson.Escape(string(proc)))
			if !w.Exists() {
				continue
			}
			var names []string
			for _, n := range w.Array() {
				names = append(names, n.String())
			}
			sort.Strings(names)
			names = slices.Compact(names)
			got := p.Names(proc)
			if strings.Join(names, ",") != strings.Join(got, ",") {
				diffs = append(diffs, fmt.Sprintf("%s: got %v, want %v", proc, got, names))
			}
		}
		return strings.Join(diffs, "; ")
	}
}

// opAdmissionAdmit: admission.admit (ADM-1..ADM-3). The Authorizer allows
// everything: authorization is not what these cases exercise.
func opAdmissionAdmit(in input) (result, error) {
	agent := in.Get("agent")
	b, err := admission.ParseBinding([]byte(agent.Get("harnessAuth").Raw), admission.BindingPath())
	if err != nil {
		return nil, err
	}
	level, err := logging.ParseLevel([]byte(in.Get("level").Raw))
	if err != nil {
		return nil, err
	}
	doc, err := inputDocument(in, "configuration")
	if err != nil {
		return nil, err
	}
	a, err := admission.New(admission.Options{HarnessVersions: map[occkit.Harness]string{occkit.HarnessOpenClaw: "2026.9.6", occkit.HarnessCodex: "0.171.0"},
		Authorizer: admission.AuthorizerFunc(func(context.Context, admission.AuthorizeRequest) error { return nil }),
		Rules:      in.rules,
	})
	if err != nil {
		return nil, err
	}
	// compute is {kind, runtimeLogging}, or a bare kind as auth.validate
	// spells it.
	c := in.Get("compute")
	kind := computeKind(c)
	if kind == "" {
		kind = string(occkit.ComputeKubernetes)
	}
	bindings, err := secretBindings(in.Get("secretBindings"))
	if err != nil {
		return nil, err
	}
	req := admission.Request{
		Principal: in.Get("principal").String(),
		Agent: admission.Agent{
			ID: strOr(agent.Get("id"), "main"), ConfigurationID: "cfg",
			ExecutionMode: occkit.Mode(agent.Get("executionMode").String()), HarnessAuth: b,
			NamespaceID: agent.Get("namespaceId").String(), Labels: labels(agent.Get("labels")),
		},
		Tenant:         admission.Tenant{ID: in.Get("tenant.id").String(), Labels: labels(in.Get("tenant.labels"))},
		SecretBindings: bindings,
		Configuration:  admission.StaticConfiguration{ID: "cfg", Generation: 1, Document: doc},
		Compute: admission.ComputeInfo{
			Kind:           occkit.Compute(kind),
			RuntimeLogging: occkit.LogOwnership(c.Get("runtimeLogging").String()),
		},
		CredentialGateway:   in.Get("credentialGateway").Bool(),
		NativeWorkerSupport: occkit.NativeWorkerSupport(firstOf(in.Result, "nativeWorkerSupport", "installation.nativeWorkerSupport").String()),
		Level:               level,
	}
	if s := sandboxFacts(firstOf(in.Result, "sandbox", "sandboxDriver", "installation.sandboxDriver")); s != nil {
		req.Sandbox = &admission.SandboxInfo{ID: "sandbox", Facts: *s}
	}
	rev, err := a.Admit(context.Background(), req)
	if err != nil {
		return nil, err
	}
	again, err := a.Admit(context.Background(), req)
	if err != nil {
		return nil, err
	}
	var held []string
	for _, r := range rev.Reasons() {
		if strings.Contains(r.Rule, "/") { // a caller's rule (admission.CheckRuleName)
			held = append(held, r.Rule)
		}
	}
	return result{
		"held":         listCheck(held),
		"harness":      string(rev.Harness()),
		"mode":         string(rev.Mode()),
		"primary":      optString(rev.Primary()),
		"fallbacks":    listCheck(rev.Fallbacks()),
		"digestStable": rev.Digest() == again.Digest(),
		documentKey:    rev.Document(),
	}, nil
}

// firstOf returns the first of the given gjson paths present in in (null
// counts as present): installation facts are spelt under "installation"
// by harness.resolve and at the top level by auth.validate and
// admission.admit, and each op reads both.
func firstOf(in gjson.Result, paths ...string) gjson.Result {
	for _, p := range paths {
		if v := in.Get(p); v.Exists() {
			return v
		}
	}
	return gjson.Result{}
}

// labels reads an object of strings; anything else is no labels.
func labels(v gjson.Result) map[string]string {
	if !v.IsObject() {
		return nil
	}
	out := map[string]string{}
	v.ForEach(func(k, v gjson.Result) bool {
		out[k.String()] = v.String()
		return true
	})
	return out
}

// secretBindings reads [{env, source: {kind, namespaceId, id}}], the
// Configuration's secretBindings as a control plane stores them.
func secretBindings(v gjson.Result) ([]occkit.SecretBinding, error) {
	if !v.Exists() || v.Type == gjson.Null {
		return nil, nil
	}
	if !v.IsArray() {
		return nil, caseErrorf("secretBindings must be a list of {env, source}")
	}
	var out []occkit.SecretBinding
	for _, b := range v.Array() {
		src := b.Get("source")
		out = append(out, occkit.SecretBinding{Env: b.Get("env").String(), Source: occkit.SourceRef{
			Kind: occkit.SourceKind(src.Get("kind").String()), NamespaceID: src.Get("namespaceId").String(), ID: src.Get("id").String()}})
	}
	return out, nil
}
