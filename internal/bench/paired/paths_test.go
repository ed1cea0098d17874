package main

import (
	"bytes"
	"slices"
	"testing"

	"github.com/occkit/occkit/internal/bench"
	"github.com/occkit/occkit/internal/bench/celpeer"
)

// TestPaths: every path admits and renders every document (the other
// shapes of -others too), and the
// decision peers decide as occkit does, so that no measure times a
// refusal or compares unlike decisions.
func TestPaths(t *testing.T) {
	u, err := newUser()
	if err != nil {
		t.Fatal(err)
	}
	cel, err := celpeer.Compile()
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range slices.Concat(bench.Documents, bench.Others) {
		for _, n := range bench.Sizes[:2] {
			src := d.Make(n)
			if err := u.mustAll(src); err != nil {
				t.Fatalf("%s models=%d: %v", d.Name, n, err)
			}
			if err := sameDecisions(cel, src, bench.Decisions(n)); err != nil {
				t.Fatalf("%s models=%d: %v", d.Name, n, err)
			}
			y, err := u.manifests(src)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Contains(y, []byte("kind: Deployment")) || !bytes.Contains(y, []byte("model-1")) {
				t.Errorf("%s models=%d: the manifests hold no Deployment or no catalog", d.Name, n)
			}
		}
	}
}

// TestPlainIndex: the plain-Go peer follows celpeer.Expr's lookup order
// on a document where each step decides.
func TestPlainIndex(t *testing.T) {
	src := []byte(`{
	  "agents": {"defaults": {"models": {"vllm/*": {"agentRuntime": {"id": "acme"}}, "q": {"agentRuntime": {"id": "codex"}}}},
	             "entries": {"main": {"models": {"vllm/q": {"agentRuntime": {"id": "fb"}}}}}},
	  "models": {"providers": {"openai": {"agentRuntime": {"id": "codex"}, "models": [{"id": "x", "agentRuntime": {"id": "pi"}}]}}}
	}`)
	x, err := newPlainIndex(src)
	if err != nil {
		t.Fatal(err)
	}
	cel, err := celpeer.Compile()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ provider, model, agent string }{
		{"vllm", "q", "main"}, {"vllm", "q", ""}, {"vllm", "r", ""}, {"openai", "x", ""}, {"openai", "y", ""}, {"google", "g", ""}, {"", "vllm/q", "main"},
	} {
		want, err := cel.DecideBytes(src, c.provider, c.model, c.agent)
		if err != nil {
			t.Fatal(err)
		}
		if got := x.decide(c.provider, c.model, c.agent); got != want {
			t.Errorf("%s/%s@%s = %q, cel-go %q", c.provider, c.model, c.agent, got, want)
		}
	}
}
