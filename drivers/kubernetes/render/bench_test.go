package render

import (
	"context"
	"fmt"
	"testing"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/admission"
	"github.com/occkit/occkit/compile"
	"github.com/occkit/occkit/compile/openclawschema"
	"github.com/occkit/occkit/drivers"
	"github.com/occkit/occkit/internal/bench"
	"github.com/occkit/occkit/resolver"
)

// benchRevision admits the benchmark document d of n models for the
// Kubernetes Compute.
func benchRevision(b testing.TB, d bench.Document, n int) *admission.Revision {
	b.Helper()
	a, err := admission.New(admission.Options{
		Authorizer:      admission.AuthorizerFunc(func(context.Context, admission.AuthorizeRequest) error { return nil }),
		HarnessVersions: map[occkit.Harness]string{occkit.HarnessOpenClaw: "2026.9.6"},
	})
	if err != nil {
		b.Fatal(err)
	}
	doc, err := compile.Load(d.Make(n), compile.LoadOptions{})
	if err != nil {
		b.Fatal(err)
	}
	rev, err := a.Admit(context.Background(), admission.Request{
		Agent: admission.Agent{ID: "main", ConfigurationID: "cfg_1", HarnessAuth: occkit.Binding{Method: occkit.MethodAPIKey,
			Source: occkit.SourceRef{Kind: occkit.SourceSecret, NamespaceID: "team-a", ID: "key"}}},
		Configuration: admission.StaticConfiguration{ID: "cfg_1", Generation: 1, Document: doc},
	})
	if err != nil {
		b.Fatal(err)
	}
	return rev
}

// benchRender runs step on the revision of every benchmark document
// and size (40 and 1,000 models).
func benchRender(b *testing.B, step func(b *testing.B, rev *admission.Revision)) {
	for _, d := range bench.Documents {
		for _, n := range []int{40, 1000} {
			rev := benchRevision(b, d, n)
			b.Run(fmt.Sprintf("%s/models=%d", d.Name, n), func(b *testing.B) {
				b.ReportAllocs()
				step(b, rev)
			})
		}
	}
}

var benchOptions = Options{Namespace: drivers.Namespace{ID: "team-a"}}

func BenchmarkRenderDocument(b *testing.B) {
	benchRender(b, func(b *testing.B, rev *admission.Revision) {
		for b.Loop() {
			if _, err := Render(rev, benchOptions); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkYAML(b *testing.B) {
	benchRender(b, func(b *testing.B, rev *admission.Revision) {
		objs, err := Render(rev, benchOptions)
		if err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			if _, err := objs.YAML(); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkRenderSmall measures what a render costs whatever the size of
// the document: the bare document (what the rules ask of each model and
// no more) at one model, where the fixed cost is nearly all of it, and
// at 40.
func BenchmarkRenderSmall(b *testing.B) {
	for _, n := range []int{1, 40} {
		rev := benchRevision(b, bench.Document{Name: "bare", Make: bench.Bare}, n)
		b.Run(fmt.Sprintf("bare/models=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Render(rev, benchOptions); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// userRevision admits src for the Kubernetes Compute as the paired
// benchmarks' user does (internal/bench/paired): the release
// openclawschema carries, the caller's resolution handed to Admit as
// Prepared.
func userRevision(b testing.TB, src []byte) *admission.Revision {
	b.Helper()
	a, err := admission.New(admission.Options{
		Authorizer:      admission.AuthorizerFunc(func(context.Context, admission.AuthorizeRequest) error { return nil }),
		HarnessVersions: map[occkit.Harness]string{occkit.HarnessOpenClaw: openclawschema.Release()},
	})
	if err != nil {
		b.Fatal(err)
	}
	doc, err := compile.Load(src, compile.LoadOptions{})
	if err != nil {
		b.Fatal(err)
	}
	prepared := admission.Prepare(doc)
	d, err := prepared.Resolve(resolver.Request{Mode: occkit.ModeEmbedded, Compute: occkit.ComputeKubernetes})
	if err != nil {
		b.Fatal(err)
	}
	rev, err := a.Admit(context.Background(), admission.Request{
		Principal: "user_1",
		Agent: admission.Agent{ID: "agt_1", ConfigurationID: "cfg_1", ExecutionMode: d.Mode, HarnessAuth: occkit.Binding{Method: occkit.MethodAPIKey,
			Source: occkit.SourceRef{Kind: occkit.SourceSecret, NamespaceID: "ns_1", ID: "sec_1"}}},
		Configuration: admission.StaticConfiguration{ID: "cfg_1", Generation: 1, Document: doc},
		Compute:       admission.ComputeInfo{Kind: occkit.ComputeKubernetes, ID: string(occkit.ComputeKubernetes)},
		Prepared:      prepared,
	})
	if err != nil {
		b.Fatal(err)
	}
	return rev
}

// userOptions are the paired benchmarks' render options.
var userOptions = Options{Namespace: drivers.Namespace{ID: "ns_1", Name: "tenant"}}

// BenchmarkYAMLSmall measures Objects.YAML on the objects of the paired
// benchmarks' manifests path (internal/bench/paired) for the bare
// document at one and 40 models, where YAML's fixed cost is most of the
// path's.
func BenchmarkYAMLSmall(b *testing.B) {
	for _, n := range []int{1, 40} {
		objs, err := Render(userRevision(b, bench.Bare(n)), userOptions)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("bare/models=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := objs.YAML(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
