package render_test

import (
	"errors"
	"testing"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/drivers"
	"github.com/occkit/occkit/drivers/drivertest"
	"github.com/occkit/occkit/drivers/kubernetes/render"
)

// A half-filled namespace is refused at the option the caller set, not
// later as a collector label (LOG-6) it never wrote.
func TestRenderRefusesNamespaceWithoutID(t *testing.T) {
	rev, err := drivertest.NewRevision(drivertest.RevisionOptions{Compute: occkit.ComputeKubernetes, AgentID: "main",
		Binding: occkit.Binding{Method: occkit.MethodAPIKey, Source: occkit.SourceRef{Kind: occkit.SourceSecret, NamespaceID: "team", ID: "key"}}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = render.Render(rev, render.Options{Namespace: drivers.Namespace{Name: "team"}})
	want := &occkit.Error{Code: occkit.CodeInvalidRequest, Rule: "DRV-5", Path: occkit.RenderPath("namespace", "id")}
	if !errors.Is(err, want) {
		t.Errorf("Render(namespace without ID) = %v", err)
	}
	if _, err := render.Render(rev, render.Options{Namespace: drivers.Namespace{ID: "team"}}); err != nil {
		t.Errorf("Render(namespace with ID) = %v", err)
	}
}
