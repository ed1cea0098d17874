//go:build unix

package celrules_test

import (
	"context"
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/admission"
	"github.com/occkit/occkit/admission/celrules"
)

// benchRules are twenty rules of the kinds a platform team writes: the
// five of the issue, and more over the view and the document.
func benchRules(tb testing.TB) []admission.Rule {
	tb.Helper()
	exprs := []string{
		`!(harness == "codex" && (agent.namespaceId.startsWith("ns_prod") || agent.labels.?env.orValue("") == "production"))`,
		`models.all(m, m.provider in ["anthropic", "google"])`,
		`mode != "dedicated" || tenant.labels.?plan.orValue("") == "enterprise"`,
		`tenant.id != "tnt_acme" || channels.all(c, c == "slack")`,
		`size(fallbacks) <= 3`,
		`compute.kind in ["kubernetes", "ssh"]`,
		`release.version != ""`,
		`!primary.id.contains("preview")`,
		`primary.profile == "" || primary.profile in ["work", "batch"]`,
		`secretBindings.all(b, b.namespaceId == agent.namespaceId || agent.namespaceId == "")`,
		`size(channels) <= 4`,
		`!("telegram" in channels) || tenant.labels.?telegram.orValue("") == "allowed"`,
		`agent.id.matches("^[a-z0-9_-]+$")`,
		`principal == "" || !principal.startsWith("bot:")`,
		`models.all(m, m.runtime == harness)`,
		`!has(document.gateway) || !has(document.gateway.bind) || document.gateway.bind != "lan"`,
		`document.?agents.defaults.maxConcurrent.orValue(8) <= 16`,
		`document.logging.level in ["info", "warn", "error", "debug"]`,
		`!has(document.tools) || !has(document.tools.elevated)`,
		`fallbacks.all(f, f.provider == primary.provider)`,
	}
	specs := make([]celrules.Spec, len(exprs))
	for i, e := range exprs {
		specs[i] = celrules.Spec{Name: fmt.Sprintf("company/rule-%02d", i), Expression: e, Message: "refused"}
	}
	rules, err := celrules.Compile(specs, celrules.Options{})
	if err != nil {
		tb.Fatalf("%+v", err)
	}
	return rules
}

// catalog is an embedded OpenClaw Configuration whose selectable catalog
// holds n models (as admission's own benchmark), on Slack.
func catalog(n int) occkit.Document {
	var b strings.Builder
	b.WriteString(`{"agents":{"defaults":{"model":{"primary":"anthropic/m0","fallbacks":["anthropic/m1"]},"maxConcurrent":4,"models":{`)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"anthropic/m%d":{"alias":"model %d","agentRuntime":{"id":"openclaw"},"params":{"temperature":0.%d}}`, i, i, i%10)
	}
	b.WriteString(`}}},"channels":{"slack":{"enabled":true}},"logging":{"level":"debug"}}`)
	return occkit.MustParseDocument(b.String())
}

func benchRequest(doc occkit.Document) admission.Request {
	return admission.Request{
		Agent: admission.Agent{ID: "main", ConfigurationID: "c", HarnessAuth: apiKey, NamespaceID: "ns_1",
			Labels: map[string]string{"env": "production"}},
		Tenant:        admission.Tenant{ID: "tnt_acme", Labels: map[string]string{"plan": "enterprise"}},
		Configuration: admission.StaticConfiguration{ID: "c", Document: doc},
		Compute:       admission.ComputeInfo{Kind: occkit.ComputeKubernetes},
	}
}

// The benchmarked rules hold for the benchmarked document: the benchmark
// measures admissions that run every rule to the end.
func TestBenchRulesHold(t *testing.T) {
	rev, err := admitter(t, benchRules(t)).Admit(context.Background(), benchRequest(catalog(40)))
	if err != nil {
		t.Fatalf("%+v", err)
	}
	held := 0
	for _, r := range rev.Reasons() {
		if strings.HasPrefix(r.Rule, "company/") {
			held++
		}
	}
	if held != 20 {
		t.Errorf("%d rules held, want 20", held)
	}
}

// cpuTime is the CPU time the process has used (every thread: the
// admission, the rules' goroutine, the garbage collector).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkRulesOverhead admits a 1,000-model document with and without
// twenty CEL rules, side by side: each iteration runs one admission of
// each, alternating which goes first, so both see the same machine. It
// reports each one's wall time and CPU time and the rules' share of
// each ("overhead-%", "cpu-overhead-%"), which the issue bounds at 5. On
// a machine shared with other work the wall times wander with its load;
// the CPU times are what the rules cost.
func BenchmarkRulesOverhead(b *testing.B) {
	for _, n := range []int{1000} {
		doc := catalog(n)
		req := benchRequest(doc)
		plain, ruled := admitter(b, nil), admitter(b, benchRules(b))
		b.Run(fmt.Sprintf("models=%d/rules=20", n), func(b *testing.B) {
			ctx := context.Background()
			var wall, cpu [2]time.Duration // plain, ruled
			admit := func(k int, a *admission.Admitter) {
				start, startCPU := time.Now(), cpuTime()
				if _, err := a.Admit(ctx, req); err != nil {
					b.Fatal(err)
				}
				wall[k] += time.Since(start)
				cpu[k] += cpuTime() - startCPU
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if i%2 == 0 {
					admit(0, plain)
					admit(1, ruled)
				} else {
					admit(1, ruled)
					admit(0, plain)
				}
			}
			share := func(d [2]time.Duration) float64 { return 100 * (float64(d[1]) - float64(d[0])) / float64(d[0]) }
			b.ReportMetric(float64(wall[0].Nanoseconds())/float64(b.N), "ns/admit")
			b.ReportMetric(float64(wall[1].Nanoseconds())/float64(b.N), "ns/admit+rules")
			b.ReportMetric(share(wall), "overhead-%")
			b.ReportMetric(float64(cpu[0].Nanoseconds())/float64(b.N), "cpu-ns/admit")
			b.ReportMetric(float64(cpu[1].Nanoseconds())/float64(b.N), "cpu-ns/admit+rules")
			b.ReportMetric(share(cpu), "cpu-overhead-%")
		})
	}
}

// BenchmarkRules measures the twenty rules alone, over one admission's
// view, by the difference of the two admissions' allocations too.
func BenchmarkRules(b *testing.B) {
	req := benchRequest(catalog(1000))
	for name, rules := range map[string][]admission.Rule{"rules=0": nil, "rules=20": benchRules(b)} {
		a := admitter(b, rules)
		b.Run("models=1000/"+name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := a.Admit(context.Background(), req); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkCheck evaluates the twenty rules over one admission's view of
// a 1,000-model document (the view captured from a real admission): what
// the rules themselves cost, without admission's goroutine per rule.
func BenchmarkCheck(b *testing.B) {
	var view *admission.View
	capture := admission.RuleFunc("bench/capture", func(_ context.Context, v *admission.View) error { view = v; return nil })
	if _, err := admitter(b, []admission.Rule{capture}).Admit(context.Background(), benchRequest(catalog(1000))); err != nil {
		b.Fatal(err)
	}
	rules := benchRules(b)
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, r := range rules {
			if err := r.Check(ctx, view); err != nil {
				b.Fatal(err)
			}
		}
	}
}
