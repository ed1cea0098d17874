package admission_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/admission"
	"github.com/occkit/occkit/compile"
	"github.com/occkit/occkit/compile/openclawschema"
	"github.com/occkit/occkit/internal/bench"
	"github.com/occkit/occkit/resolver"
)

// BenchmarkBare measures, on the bare benchmark document (bench.Bare: what
// the rules ask of each model and nothing else) at one and 40 models, the
// two steps of the user's path (internal/bench/paired) whose cost is
// admission's own: Prepare of the loaded document, and Admit with that
// analysis, as the paired program's objects path calls them. Small
// documents weigh the fixed cost of each.
func BenchmarkBare(b *testing.B) {
	a, err := admission.New(admission.Options{Authorizer: allow(),
		HarnessVersions: map[occkit.Harness]string{occkit.HarnessOpenClaw: openclawschema.Release()}})
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range []int{1, 40} {
		src := bench.Bare(n)
		doc, err := compile.Load(src, compile.LoadOptions{})
		if err != nil {
			b.Fatal(err)
		}
		prepared := admission.Prepare(doc)
		d, err := prepared.Resolve(resolver.Request{Mode: occkit.ModeEmbedded, Compute: occkit.ComputeKubernetes})
		if err != nil {
			b.Fatal(err)
		}
		req := admission.Request{
			Principal: "user_1",
			Agent: admission.Agent{ID: "agt_1", ConfigurationID: "cfg_1", ExecutionMode: d.Mode,
				HarnessAuth: occkit.Binding{Method: occkit.MethodAPIKey,
					Source: occkit.SourceRef{Kind: occkit.SourceSecret, NamespaceID: "ns_1", ID: "sec_1"}}},
			Configuration: admission.StaticConfiguration{ID: "cfg_1", Generation: 1, Document: doc},
			Compute:       admission.ComputeInfo{Kind: occkit.ComputeKubernetes, ID: string(occkit.ComputeKubernetes)},
			Prepared:      prepared,
		}
		b.Run(fmt.Sprintf("prepare/models=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				admission.Prepare(doc)
			}
		})
		b.Run(fmt.Sprintf("admit/models=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := a.Admit(context.Background(), req); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
