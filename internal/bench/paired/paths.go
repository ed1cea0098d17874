package main

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/admission"
	"github.com/occkit/occkit/compile"
	"github.com/occkit/occkit/compile/openclawschema"
	"github.com/occkit/occkit/drivers"
	"github.com/occkit/occkit/drivers/kubernetes/render"
	"github.com/occkit/occkit/drivers/ssh"
	"github.com/occkit/occkit/internal/bench"
	"github.com/occkit/occkit/resolver"
	"github.com/occkit/occkit/resolver/selection"
)

// user is what a control plane holds across deployments: one Admitter
// per Compute, reused. Nothing about a document outlives the call that
// reads it.
type user struct {
	admitter *admission.Admitter
}

func newUser() (*user, error) {
	a, err := admission.New(admission.Options{
		Authorizer:      admission.AuthorizerFunc(func(context.Context, admission.AuthorizeRequest) error { return nil }),
		HarnessVersions: map[occkit.Harness]string{occkit.HarnessOpenClaw: openclawschema.Release()},
	})
	if err != nil {
		return nil, err
	}
	return &user{admitter: a}, nil
}

// admit is the user's path from source bytes to a revision for compute:
// compile.Load, the caller's resolution (admission.Prepare, Resolve) and
// Admit with that analysis.
func (u *user) admit(src []byte, compute occkit.Compute) (*admission.Revision, error) {
	doc, err := compile.Load(src, compile.LoadOptions{})
	if err != nil {
		return nil, err
	}
	prepared := admission.Prepare(doc)
	d, err := prepared.Resolve(resolver.Request{Mode: occkit.ModeEmbedded, Compute: compute})
	if err != nil {
		return nil, err
	}
	binding := occkit.Binding{Method: occkit.MethodAPIKey,
		Source: occkit.SourceRef{Kind: occkit.SourceSecret, NamespaceID: "ns_1", ID: "sec_1"}}
	if compute == occkit.ComputeSSH {
		binding = occkit.Binding{Method: occkit.MethodRuntime}
	}
	return u.admitter.Admit(context.Background(), admission.Request{
		Principal:     "user_1",
		Agent:         admission.Agent{ID: "agt_1", ConfigurationID: "cfg_1", ExecutionMode: d.Mode, HarnessAuth: binding},
		Configuration: admission.StaticConfiguration{ID: "cfg_1", Generation: 1, Document: doc},
		Compute:       admission.ComputeInfo{Kind: compute, ID: string(compute)},
		Prepared:      prepared,
	})
}

var namespace = render.Options{Namespace: drivers.Namespace{ID: "ns_1", Name: "tenant"}}

// objects is the path to Kubernetes objects: admit, then render.Render.
func (u *user) objects(src []byte) (render.Objects, error) {
	rev, err := u.admit(src, occkit.ComputeKubernetes)
	if err != nil {
		return render.Objects{}, err
	}
	return render.Render(rev, namespace)
}

// manifests is the path to YAML manifests: what the quickstart prints
// and a GitOps repository receives.
func (u *user) manifests(src []byte) ([]byte, error) {
	objs, err := u.objects(src)
	if err != nil {
		return nil, err
	}
	return objs.YAML()
}

// unit is the path to the SSH driver's systemd unit.
func (u *user) unit(src []byte) (ssh.Unit, error) {
	rev, err := u.admit(src, occkit.ComputeSSH)
	if err != nil {
		return ssh.Unit{}, err
	}
	return ssh.Render(rev, ssh.RenderOptions{
		Port: 18789, UnitDir: "/home/occ/.config/systemd/user", StateDir: "/home/occ/.local/state/occkit",
		BinaryPath: "/usr/local/bin/openclaw",
	})
}

// request is a benchmark decision as selection asks it.
func request(d bench.Decision) selection.Request {
	return selection.Request{Provider: d.Provider, Model: d.Model, AgentID: d.AgentID}
}

// decideBytes is occkit's one-shot decision from a document's bytes:
// compile.Load, then selection.Select once.
func decideBytes(src []byte, d bench.Decision) (string, error) {
	doc, err := compile.Load(src, compile.LoadOptions{})
	if err != nil {
		return "", err
	}
	sel, err := selection.Select(doc, request(d), nil)
	if err != nil {
		return "", err
	}
	return sel.Runtime, nil
}

// floor is U: one encoding/json Unmarshal of the bytes into a
// map[string]any.
func floor(src []byte) (map[string]any, error) {
	var v map[string]any
	if err := json.Unmarshal(src, &v); err != nil {
		return nil, err
	}
	return v, nil
}

// plainIndex is the plain-Go peer of a prepared decision: the lookups of
// celpeer.Expr (SEL-1's order as far as the benchmark documents need it)
// over maps built once from the decoded document, each answering with
// the runtime string alone.
type plainIndex struct {
	entries   map[string]map[string]string // agent → model key → runtime
	defaults  map[string]string            // model key → runtime
	rows      map[string]map[string]string // provider → row id → runtime
	providers map[string]string            // provider → its own runtime
}

func newPlainIndex(src []byte) (*plainIndex, error) {
	v, err := floor(src)
	if err != nil {
		return nil, err
	}
	obj := func(v any, k string) map[string]any {
		m, _ := v.(map[string]any)
		x, _ := m[k].(map[string]any)
		return x
	}
	runtime := func(v any) (string, bool) {
		id, ok := obj(v, "agentRuntime")["id"].(string)
		return id, ok
	}
	keys := func(m map[string]any) map[string]string {
		out := map[string]string{}
		for k, e := range m {
			if rt, ok := runtime(e); ok {
				out[k] = rt
			}
		}
		return out
	}
	agents := obj(v, "agents")
	x := &plainIndex{entries: map[string]map[string]string{}, defaults: keys(obj(obj(agents, "defaults"), "models")),
		rows: map[string]map[string]string{}, providers: map[string]string{}}
	for id, e := range obj(agents, "entries") {
		x.entries[id] = keys(obj(e, "models"))
	}
	for p, pv := range obj(obj(v, "models"), "providers") {
		if rt, ok := runtime(pv); ok {
			x.providers[p] = rt
		}
		rows := map[string]string{}
		list, _ := pv.(map[string]any)["models"].([]any)
		for _, r := range list {
			id, _ := r.(map[string]any)["id"].(string)
			if rt, ok := runtime(r); ok {
				if _, dup := rows[id]; !dup {
					rows[id] = rt
				}
			}
		}
		x.rows[p] = rows
	}
	return x, nil
}

// decide follows celpeer.Expr.
func (x *plainIndex) decide(provider, model, agent string) string {
	if provider == "" {
		for i := 0; i < len(model); i++ {
			if model[i] == '/' {
				provider, model = model[:i], model[i+1:]
				break
			}
		}
	}
	ref := provider + "/" + model
	if agent != "" {
		if rt, ok := x.entries[agent][ref]; ok {
			return auto(rt)
		}
	}
	if rt, ok := x.defaults[ref]; ok {
		return auto(rt)
	}
	if rt, ok := x.defaults[model]; ok {
		return auto(rt)
	}
	if rt, ok := x.rows[provider][model]; ok {
		return auto(rt)
	}
	if rt, ok := x.defaults[provider+"/*"]; ok {
		return auto(rt)
	}
	if rt, ok := x.providers[provider]; ok {
		return auto(rt)
	}
	return "openclaw"
}

func auto(rt string) string {
	if rt == "auto" {
		return "openclaw"
	}
	return rt
}

// mustAll checks that every path admits and renders doc at n models: a
// benchmark of a refusal would measure the wrong thing.
func (u *user) mustAll(src []byte) error {
	if _, err := u.manifests(src); err != nil {
		return fmt.Errorf("kubernetes: %w", err)
	}
	if _, err := u.unit(src); err != nil {
		return fmt.Errorf("ssh: %w", err)
	}
	return nil
}
