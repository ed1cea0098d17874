package celpeer_test

import (
	"fmt"
	"testing"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/internal/bench"
	"github.com/occkit/occkit/internal/bench/celpeer"
	"github.com/occkit/occkit/resolver/selection"
)

// TestSameDecision: cel-go and occkit choose the same runtime for every
// benchmarked decision, so the benchmark compares like with like.
func TestSameDecision(t *testing.T) {
	for _, n := range bench.Sizes {
		src := bench.Configuration(n)
		d, err := celpeer.New(src)
		if err != nil {
			t.Fatal(err)
		}
		x := selection.Prepare(occkit.MustParseDocument(string(src)))
		for _, q := range bench.Decisions(n) {
			got, err := d.Decide(q.Provider, q.Model, q.AgentID)
			if err != nil {
				t.Fatalf("models=%d %+v: %v", n, q, err)
			}
			sel, err := x.Select(selection.Request{Provider: q.Provider, Model: q.Model, AgentID: q.AgentID}, nil)
			if err != nil {
				t.Fatalf("models=%d %+v: %v", n, q, err)
			}
			if got != sel.Runtime {
				t.Fatalf("models=%d %+v: cel-go %s, occkit %s", n, q, got, sel.Runtime)
			}
		}
	}
}

// TestPolicyOrder: the expression follows the lookup order on a document
// where each step decides.
func TestPolicyOrder(t *testing.T) {
	d, err := celpeer.New([]byte(`{
	  "agents": {"defaults": {"models": {"vllm/*": {"agentRuntime": {"id": "acme"}}, "q": {"agentRuntime": {"id": "codex"}}}},
	             "entries": {"main": {"models": {"vllm/q": {"agentRuntime": {"id": "fb"}}}}}},
	  "models": {"providers": {"openai": {"agentRuntime": {"id": "codex"}, "models": [{"id": "x", "agentRuntime": {"id": "pi"}}]}}}
	}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ provider, model, agent, want string }{
		{"vllm", "q", "main", "fb"},
		{"vllm", "q", "", "codex"},
		{"vllm", "r", "", "acme"},
		{"openai", "x", "", "pi"},
		{"openai", "y", "", "codex"},
		{"google", "g", "", "openclaw"},
	} {
		got, err := d.Decide(c.provider, c.model, c.agent)
		if err != nil || got != c.want {
			t.Errorf("%s/%s@%s = %q, %v; want %q", c.provider, c.model, c.agent, got, err, c.want)
		}
	}
}

// BenchmarkCEL takes the four Decisions in cel-go on a decoded document:
// the peer of internal/bench's BenchmarkDecision.
func BenchmarkCEL(b *testing.B) {
	for _, n := range bench.Sizes {
		d, err := celpeer.New(bench.Configuration(n))
		if err != nil {
			b.Fatal(err)
		}
		qs := bench.Decisions(n)
		b.Run(fmt.Sprintf("models=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				for _, q := range qs {
					if _, err := d.Decide(q.Provider, q.Model, q.AgentID); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
