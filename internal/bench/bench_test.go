package bench_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/admission"
	"github.com/occkit/occkit/compile"
	"github.com/occkit/occkit/internal/bench"
	"github.com/occkit/occkit/resolver"
	"github.com/occkit/occkit/resolver/selection"
)

type pipeline struct {
	admitter *admission.Admitter
	binding  occkit.Binding
}

func newPipeline(tb testing.TB) pipeline {
	tb.Helper()
	a, err := admission.New(admission.Options{
		Authorizer:      admission.AuthorizerFunc(func(context.Context, admission.AuthorizeRequest) error { return nil }),
		HarnessVersions: map[occkit.Harness]string{occkit.HarnessOpenClaw: "2026.9.6"},
	})
	if err != nil {
		tb.Fatal(err)
	}
	return pipeline{a, occkit.Binding{Method: occkit.MethodAPIKey,
		Source: occkit.SourceRef{Kind: occkit.SourceSecret, NamespaceID: "ns_1", ID: "sec_1"}}}
}

// run is one deployment from source bytes to the rendered gateway
// document: the caller resolves the loaded document and hands its analysis
// to admission, which checks that it is of the document it reads.
func (p pipeline) run(src []byte) (occkit.Document, error) {
	doc, err := compile.Load(src, compile.LoadOptions{})
	if err != nil {
		return occkit.Document{}, err
	}
	prepared := admission.Prepare(doc)
	d, err := prepared.Resolve(resolver.Request{Mode: occkit.ModeEmbedded, Compute: occkit.ComputeKubernetes})
	if err != nil {
		return occkit.Document{}, err
	}
	rev, err := p.admitter.Admit(context.Background(), admission.Request{
		Principal:     "user_1",
		Agent:         admission.Agent{ID: "agt_1", ConfigurationID: "cfg_1", ExecutionMode: d.Mode, HarnessAuth: p.binding},
		Configuration: admission.StaticConfiguration{ID: "cfg_1", Generation: 1, Document: doc},
		Compute:       admission.ComputeInfo{Kind: occkit.ComputeKubernetes, ID: "k8s"},
		Prepared:      prepared,
	})
	if err != nil {
		return occkit.Document{}, err
	}
	return compile.GatewayDocument(rev.Document(), rev.Harness(), rev.Mode())
}

// TestEndToEnd checks that every generated size goes through the whole
// pipeline, so the benchmark measures admissions, not refusals.
func TestEndToEnd(t *testing.T) {
	p := newPipeline(t)
	for _, n := range bench.Sizes {
		gw, err := p.run(bench.Configuration(n))
		if err != nil {
			t.Fatalf("models=%d: %v", n, err)
		}
		if got := gw.Get(occkit.NewPath("logging", "level")).String(); got != "info" {
			t.Errorf("models=%d: gateway logging.level = %q, want the admitted info", n, got)
		}
		if gw.Has(occkit.NewPath("logging", "redactSensitive")) {
			t.Errorf("models=%d: redactSensitive survived the stamp", n)
		}
		got := 0
		gw.Get(occkit.NewPath("agents", "defaults", "models")).ForEach(func(_, _ occkit.Value) bool { got++; return true })
		if got != n {
			t.Errorf("models=%d: gateway catalog has %d models", n, got)
		}
	}
}

func BenchmarkEndToEnd(b *testing.B) {
	p := newPipeline(b)
	for _, n := range bench.Sizes {
		src := bench.Configuration(n)
		b.Run(fmt.Sprintf("models=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := p.run(src); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkFloor(b *testing.B) {
	for _, n := range bench.Sizes {
		src := bench.Configuration(n)
		b.Run(fmt.Sprintf("models=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				var v map[string]any
				if err := json.Unmarshal(src, &v); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestDecisions checks that the benchmarked decisions decide: three from
// their model keys, one automatically.
func TestDecisions(t *testing.T) {
	for _, n := range bench.Sizes {
		x := selection.Prepare(occkit.MustParseDocument(string(bench.Configuration(n))))
		for i, d := range bench.Decisions(n) {
			sel, err := x.Select(selection.Request{Provider: d.Provider, Model: d.Model, AgentID: d.AgentID}, nil)
			if err != nil {
				t.Fatalf("models=%d %+v: %v", n, d, err)
			}
			want := selection.SourceModel
			if i == 2 {
				want = selection.SourceImplicit
			}
			if sel.Runtime != "openclaw" || sel.Source != want {
				t.Fatalf("models=%d %+v: %s from %s, want openclaw from %s", n, d, sel.Runtime, sel.Source, want)
			}
		}
	}
}

// BenchmarkDecision takes the four Decisions on a prepared document: the
// occkit side of the cel-go comparison (internal/bench/celpeer).
func BenchmarkDecision(b *testing.B) { benchDecisions(b, false) }

// BenchmarkDecisionExplained is BenchmarkDecision with each decision
// asked for its reason chain (Result.Reasons), which a decision builds only
// on demand.
func BenchmarkDecisionExplained(b *testing.B) { benchDecisions(b, true) }

func benchDecisions(b *testing.B, explain bool) {
	for _, n := range bench.Sizes {
		x := selection.Prepare(occkit.MustParseDocument(string(bench.Configuration(n))))
		var reqs []selection.Request
		for _, d := range bench.Decisions(n) {
			reqs = append(reqs, selection.Request{Provider: d.Provider, Model: d.Model, AgentID: d.AgentID})
		}
		b.Run(fmt.Sprintf("models=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				for _, r := range reqs {
					sel, err := x.Select(r, nil)
					if err != nil {
						b.Fatal(err)
					}
					if explain && len(sel.Reasons()) == 0 {
						b.Fatal("no reasons")
					}
				}
			}
		})
	}
}

// BenchmarkPrepareDecision measures selection.Prepare, the one linear
// pass a document's decisions share.
func BenchmarkPrepareDecision(b *testing.B) {
	for _, n := range bench.Sizes {
		doc := occkit.MustParseDocument(string(bench.Configuration(n)))
		b.Run(fmt.Sprintf("models=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(doc.Bytes())))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				selection.Prepare(doc)
			}
		})
	}
}
