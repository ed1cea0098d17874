package render_test

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/admission"
	"github.com/occkit/occkit/drivers"
	"github.com/occkit/occkit/drivers/kubernetes/render"
)

// Render the objects of an embedded OpenClaw revision admitted for
// Kubernetes.
func ExampleRender() {
	rev := admitted()
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

// admitted is an embedded OpenClaw revision admitted for Kubernetes.
func admitted() *admission.Revision {
	a, err := admission.New(admission.Options{
		Authorizer:      admission.AuthorizerFunc(func(context.Context, admission.AuthorizeRequest) error { return nil }),
		HarnessVersions: map[occkit.Harness]string{occkit.HarnessOpenClaw: "2026.9.6"},
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
	return rev
}

// Write one file per object, named in apply order, for a GitOps
// repository or `kubectl apply -f DIR`. The files hold Secret references,
// never secret values.
func ExampleObjects_WriteFiles() {
	rev := admitted()
	objs, err := render.Render(rev, render.Options{Namespace: drivers.Namespace{ID: "team-a"}})
	if err != nil {
		panic(err)
	}
	dir, err := os.MkdirTemp("", "manifests")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	if err := objs.WriteFiles(dir); err != nil {
		panic(err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		panic(err)
	}
	for _, e := range entries {
		fmt.Println(strings.Replace(e.Name(), render.Hash(rev.Digest()), "<revision>", 1))
	}
	// Output:
	// 01-serviceaccount-occ-0d6e4079e367-gw.yaml
	// 02-configmap-occ-0d6e4079e367-<revision>-gw.yaml
	// 03-persistentvolumeclaim-occ-0d6e4079e367-gw-data.yaml
	// 04-service-occ-0d6e4079e367-gw.yaml
	// 05-deployment-occ-0d6e4079e367-gw.yaml
}

// Iterate the objects as YAML documents, for a writer of your own (an
// archive, an HTTP response, a Git commit).
func ExampleObjects_Each() {
	objs, err := render.Render(admitted(), render.Options{Namespace: drivers.Namespace{ID: "team-a"}})
	if err != nil {
		panic(err)
	}
	err = objs.Each(func(name string, doc []byte) error {
		apiVersion, _, _ := strings.Cut(string(doc), "\n")
		position, _, _ := strings.Cut(name, "-")
		fmt.Println(position, apiVersion, len(doc) > 0)
		return nil
	})
	if err != nil {
		panic(err)
	}
	// Output:
	// 01 apiVersion: v1 true
	// 02 apiVersion: v1 true
	// 03 apiVersion: v1 true
	// 04 apiVersion: v1 true
	// 05 apiVersion: apps/v1 true
}
