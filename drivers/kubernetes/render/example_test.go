package render_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/admission"
	"github.com/occkit/occkit/drivers"
	"github.com/occkit/occkit/drivers/kubernetes/render"
)

// Render the objects of an embedded OpenClaw revision admitted for
// Kubernetes.
func ExampleRender() {
	a, err := admission.New(admission.Options{
		Authorizer:      admission.AuthorizerFunc(func(context.Context, admission.AuthorizeRequest) error { return nil }),
		HarnessVersions: map[occkit.Harness]string{occkit.HarnessOpenClaw: "2026.5.1"},
	})
	if err != nil {
		panic(err)
	}
	auth, err := admission.CreateHarnessAuth([]byte(
		`{"method":"api_key","source":{"kind":"secret","namespaceId":"team-a","id":"anthropic-key"}}`))
	if err != nil {
		panic(err)
	}
	rev, err := a.Admit(context.Background(), admission.Request{
		Agent: admission.Agent{ID: "main", ConfigurationID: "cfg_1", HarnessAuth: auth},
		Configuration: admission.StaticConfiguration{ID: "cfg_1", Generation: 1,
			Document: occkit.MustParseDocument(`{"agents":{"defaults":{"model":"anthropic/claude-sonnet-4-6"}}}`)},
		Compute: admission.ComputeInfo{Kind: occkit.ComputeKubernetes},
	})
	if err != nil {
		panic(err)
	}
	objs, err := render.Render(rev, render.Options{Namespace: drivers.Namespace{ID: "team-a"}})
	if err != nil {
		panic(err)
	}
	for _, o := range objs.List() {
		// Per-revision names carry the revision's hash.
		name := strings.Replace(o.GetName(), render.Hash(rev.Digest()), "<revision>", 1)
		fmt.Println(o.GetObjectKind().GroupVersionKind().Kind, name)
	}
	dep := objs.Deployments[0]
	fmt.Println("strategy:", dep.Spec.Strategy.Type)
	for _, e := range dep.Spec.Template.Spec.Containers[0].Env {
		if e.ValueFrom != nil {
			fmt.Println(e.Name, "from Secret", e.ValueFrom.SecretKeyRef.Name)
		}
	}
	// Output:
	// ServiceAccount occ-0d6e4079e367-gw
	// ConfigMap occ-0d6e4079e367-<revision>-gw
	// PersistentVolumeClaim occ-0d6e4079e367-gw-data
	// Service occ-0d6e4079e367-gw
	// Deployment occ-0d6e4079e367-gw
	// strategy: Recreate
	// OPENCLAW_GATEWAY_TOKEN from Secret occ-0d6e4079e367-gw-token
	// ANTHROPIC_API_KEY from Secret occ-6e2c8215fd88-cred
}
