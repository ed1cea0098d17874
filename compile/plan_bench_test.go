package compile_test

import (
	"fmt"
	"testing"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/compile"
	"github.com/occkit/occkit/internal/bench"
	"github.com/occkit/occkit/logging"
)

// benchPlanRelease is the OpenClaw release the plan benchmarks' revisions
// run and were validated against.
const benchPlanRelease = "2026.9.6"

// benchPlanInput is the PlanInput of an embedded OpenClaw revision on
// Kubernetes of the document src, stamped and scanned as admission
// stamps and scans it.
func benchPlanInput(b testing.TB, src []byte) compile.PlanInput {
	b.Helper()
	doc, err := compile.Load(src, compile.LoadOptions{})
	if err != nil {
		b.Fatal(err)
	}
	if doc, err = logging.StampCanonical(doc, occkit.LevelInfo, occkit.OwnedByPlatform); err != nil {
		b.Fatal(err)
	}
	return compile.PlanInput{
		Document: doc, Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeEmbedded, Compute: occkit.ComputeKubernetes,
		Level: occkit.LevelInfo, HarnessVersion: benchPlanRelease, OpenClawRelease: benchPlanRelease,
		Secrets: compile.ScanSecrets(doc, compile.SecretPolicyFor(benchPlanRelease)),
	}
}

// benchPlanDocs are the plan benchmarks' documents: the bare one of one
// model, where the plan's fixed cost is nearly all of it, and the bare
// and compact ones of 40 models.
var benchPlanDocs = []struct {
	name string
	src  func(int) []byte
	n    int
}{
	{"bare", bench.Bare, 1},
	{"bare", bench.Bare, 40},
	{"compact", bench.Compact, 40},
}

// BenchmarkPreparePlan measures what admission runs once per admitted
// document (PreparePlan) and what each render runs after it
// (PreparedPlan.Plan): their fixed cost decides the admission and render
// of a small document. A scan works out the required plugins once, so
// "admit" scans the document each time, as admission does, and PreparePlan
// pays for them; "prepare" reuses one scan.
func BenchmarkPreparePlan(b *testing.B) {
	for _, d := range benchPlanDocs {
		in := benchPlanInput(b, d.src(d.n))
		b.Run(fmt.Sprintf("admit/%s/models=%d", d.name, d.n), func(b *testing.B) {
			b.ReportAllocs()
			in := in
			for i := 0; i < b.N; i++ {
				in.Secrets = compile.ScanSecrets(in.Document, compile.SecretPolicyFor(benchPlanRelease))
				if _, err := compile.PreparePlan(in, compile.PlanOptions{}); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("prepare/%s/models=%d", d.name, d.n), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := compile.PreparePlan(in, compile.PlanOptions{}); err != nil {
					b.Fatal(err)
				}
			}
		})
		k, err := compile.PreparePlan(in, compile.PlanOptions{})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("plan/%s/models=%d", d.name, d.n), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := k.Plan(compile.PlanOptions{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
