package render_test

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"strings"
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

// Hash is the first 12 hex characters of the SHA-256 of the ID.
func TestHash(t *testing.T) {
	for _, id := range []string{"", "main", "agt_1", "é\x00\xff", strings.Repeat("x", 300)} {
		want := fmt.Sprintf("%x", sha256.Sum256([]byte(id)))[:12]
		if got := render.Hash(id); got != want {
			t.Errorf("Hash(%q) = %q, want %q", id, got, want)
		}
	}
}
