//go:build linux

package celrules_test

import (
	"context"
	"fmt"
	"runtime"
	"slices"
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
func cpuTime() time.Duration { return rusage(syscall.RUSAGE_SELF) }

// threadTime is the CPU time the calling thread has used: with the
// goroutine locked to it, the admission's own, without the collector's
// background work and without the other processes of a shared machine
// running on the same thread's time (which the process's time, spread
// over threads that wait for a core, picks up less cleanly).
func threadTime() time.Duration { return rusage(1) } // RUSAGE_THREAD

func rusage(who int) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(who, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkRulesOverhead admits a 1,000-model document with and without
// twenty CEL rules side by side, paired: each iteration is one round of
// overheadBatch admissions without the rules and overheadBatch with them,
// the order alternating from round to round, each batch timed by the
// process's CPU time (every thread: the admission, a rules' goroutine,
// the garbage collector), by the admitting thread's CPU time and by the
// wall clock. It reports the median over the rounds of the rules' share
// of an admission ("overhead-%", which the issue bounds at 5, with its
// quartiles "overhead-%-p25" and "-p75"; "thread-overhead-%";
// "wall-overhead-%"), what the rules cost an admission (the medians of
// the rounds' differences, "rules-cpu-ns/admit" and
// "rules-thread-ns/admit") and what an admission costs without them
// ("cpu-ns/admit"). Medians of paired rounds, because on a shared
// machine a round's time wanders with the load and with which batch the
// collector runs in; read several hundred rounds (-benchtime=400x).
// "noop" is twenty Go rules that return nil: what handing rules over to
// a goroutine costs (its thread times are not the admission's own).
// "none" admits without rules on both sides: the method's own bias,
// which the others are read against.
func BenchmarkRulesOverhead(b *testing.B) {
	doc := catalog(1000)
	req := benchRequest(doc)
	noop := make([]admission.Rule, 20)
	for i := range noop {
		noop[i] = admission.RuleFunc(fmt.Sprintf("bench/noop-%02d", i), func(context.Context, *admission.View) error { return nil })
	}
	for _, set := range []struct {
		name  string
		rules []admission.Rule
	}{{"cel", benchRules(b)}, {"noop", noop}, {"none", nil}} {
		plain, ruled := admitter(b, nil), admitter(b, set.rules)
		b.Run("models=1000/rules=20/"+set.name, func(b *testing.B) {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			ctx := context.Background()
			type times struct{ cpu, thread, wall time.Duration }
			batch := func(a *admission.Admitter) times {
				start, startCPU, startThread := time.Now(), cpuTime(), threadTime()
				for range overheadBatch {
					if _, err := a.Admit(ctx, req); err != nil {
						b.Fatal(err)
					}
				}
				return times{cpuTime() - startCPU, threadTime() - startThread, time.Since(start)}
			}
			var share, threadShare, wallShare, cost, threadCost, base []float64
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				var t0, t1 times // without, with the rules
				if i%2 == 0 {
					t0 = batch(plain)
					t1 = batch(ruled)
				} else {
					t1 = batch(ruled)
					t0 = batch(plain)
				}
				pct := func(with, without time.Duration) float64 { return 100 * (float64(with)/float64(without) - 1) }
				share = append(share, pct(t1.cpu, t0.cpu))
				threadShare = append(threadShare, pct(t1.thread, t0.thread))
				wallShare = append(wallShare, pct(t1.wall, t0.wall))
				cost = append(cost, float64(t1.cpu-t0.cpu)/overheadBatch)
				threadCost = append(threadCost, float64(t1.thread-t0.thread)/overheadBatch)
				base = append(base, float64(t0.cpu)/overheadBatch)
			}
			b.ReportMetric(quantile(share, 0.5), "overhead-%")
			b.ReportMetric(quantile(share, 0.25), "overhead-%-p25")
			b.ReportMetric(quantile(share, 0.75), "overhead-%-p75")
			b.ReportMetric(quantile(threadShare, 0.5), "thread-overhead-%")
			b.ReportMetric(quantile(wallShare, 0.5), "wall-overhead-%")
			b.ReportMetric(quantile(cost, 0.5), "rules-cpu-ns/admit")
			b.ReportMetric(quantile(threadCost, 0.5), "rules-thread-ns/admit")
			b.ReportMetric(quantile(base, 0.5), "cpu-ns/admit")
		})
	}
}

// overheadBatch is how many admissions of each kind a round of
// BenchmarkRulesOverhead times together.
const overheadBatch = 4

// quantile is the q-quantile of xs (sorted in place; the nearest rank),
// 0 when empty.
func quantile(xs []float64, q float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	slices.Sort(xs)
	return xs[int(q*float64(len(xs)-1)+0.5)]
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

// BenchmarkCheck evaluates the twenty rules over the views of real
// admissions of a 1,000-model document, a fresh view each iteration (the
// views captured beforehand, outside the timer): what the rules
// themselves cost an admission, converting what they read included,
// without the admission around them.
func BenchmarkCheck(b *testing.B) { checkViews(b, benchRules(b)) }

// BenchmarkRuleShapes evaluates one rule of each shape that reads the
// model catalog of a 1,000-model document itself, over fresh views as
// BenchmarkCheck: what one such rule costs an admission.
func BenchmarkRuleShapes(b *testing.B) {
	for _, shape := range []struct{ name, expr string }{
		{"late-member", `document.logging.level != ""`},
		{"catalog-size", `size(document.agents.defaults.models) <= 2000`},
		{"catalog-in", `!("openai/gpt-5" in document.agents.defaults.models)`},
		{"catalog-keys", `document.agents.defaults.models.all(k, k.startsWith("anthropic/"))`},
		{"catalog-entries", `document.agents.defaults.models.all(k, document.agents.defaults.models[k].alias != "")`},
	} {
		b.Run(shape.name, func(b *testing.B) {
			rules, err := celrules.Compile([]celrules.Spec{{Name: "bench/shape", Expression: shape.expr, Message: "refused"}}, celrules.Options{})
			if err != nil {
				b.Fatal(err)
			}
			checkViews(b, rules)
		})
	}
}

// checkViews times rules over b.N fresh views of admissions of a
// 1,000-model document, reporting the process's CPU time beside the wall
// time.
func checkViews(b *testing.B, rules []admission.Rule) {
	views := make([]*admission.View, 0, b.N)
	capture := admission.RuleFunc("bench/capture", func(_ context.Context, v *admission.View) error {
		views = append(views, v)
		return nil
	})
	a, req := admitter(b, []admission.Rule{capture}), benchRequest(catalog(1000))
	for range b.N {
		if _, err := a.Admit(context.Background(), req); err != nil {
			b.Fatal(err)
		}
	}
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	start := cpuTime()
	for _, v := range views {
		for _, r := range rules {
			if err := r.Check(ctx, v); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64((cpuTime()-start).Nanoseconds())/float64(b.N), "cpu-ns/op")
}
