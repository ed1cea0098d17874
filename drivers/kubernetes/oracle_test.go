package kubernetes

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/api/resource"
	"pgregory.net/rapid"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/admission"
	"github.com/occkit/occkit/compile"
	"github.com/occkit/occkit/drivers"
	"github.com/occkit/occkit/drivers/kubernetes/render"
	"github.com/occkit/occkit/internal/bench"
)

// quantityEqual compares resource quantities (their fields are
// unexported) by value and by the text they write.
var quantityEqual = cmp.Comparer(func(a, b resource.Quantity) bool {
	return a.Cmp(b) == 0 && a.String() == b.String() && a.Format == b.Format
})

// wrapped is a revision that plans but is not an *admission.Revision:
// Render copies its files instead of taking the plan's bytes.
type wrapped struct{ *admission.Revision }

// unplanned is a revision that cannot plan its render.
type unplanned struct{ drivers.Revision }

// oracleRevisions are admitted revisions of every topology, level and
// document variant the oracle test draws from.
type oracleRevisions struct {
	revs []*admission.Revision
}

func newOracleRevisions(t *testing.T) oracleRevisions {
	d := testDriver(t)
	docs := map[string][]string{
		embeddedOpenClaw.name: {embeddedOpenClaw.doc,
			`{"agents":{"defaults":{"model":"openai/gpt-5","models":{"openai/gpt-5":{"agentRuntime":{"id":"openclaw"}}}}},"channels":{"slack":{"enabled":true},"discord":{"enabled":true},"telegram":{"enabled":true}}}`,
			`{"agents":{"defaults":{"model":"openai/gpt-5","models":{"openai/gpt-5":{"agentRuntime":{"id":"openclaw"}}}}}}`},
		dedicatedCodex.name: {dedicatedCodex.doc,
			`{"agents":{"defaults":{"model":"codex/gpt-5-codex","models":{"codex/gpt-5-codex":{"agentRuntime":{"id":"codex"}}}},"entries":{"main":{}}},"channels":{"slack":{"enabled":true}}}`},
		dedicatedOpenClaw.name: {dedicatedOpenClaw.doc,
			`{"agents":{"defaults":{"model":"openai/gpt-5","models":{"openai/gpt-5":{"agentRuntime":{"id":"openclaw"}}}},"entries":{"main":{}}}}`},
	}
	var out oracleRevisions
	for i, c := range allTopologyCases {
		for _, doc := range docs[c.name] {
			for _, level := range []occkit.LogLevel{occkit.LevelWarn, occkit.LevelDebug} {
				out.revs = append(out.revs, admitWith(t, d, fmt.Sprintf("agent-%d", i), c, occkit.MustParseDocument(doc), int64(1+i), level))
			}
		}
	}
	// The benchmark document (an embedded OpenClaw revision).
	for _, bd := range bench.Documents {
		doc, err := compile.Load(bd.Make(3), compile.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		out.revs = append(out.revs, admitDoc(t, d, "bench", embeddedOpenClaw, doc, 12))
	}
	return out
}

// draw returns a revision: an admitted one, or one restored from its
// edited record (what admission would not freeze included), or another
// implementation of drivers.Revision.
func (o oracleRevisions) draw(t *rapid.T) drivers.Revision {
	base := rapid.SampledFrom(o.revs).Draw(t, "revision")
	var rev *admission.Revision
	switch rapid.IntRange(0, 19).Draw(t, "edit") {
	case 18:
		return nil
	case 19:
		var none *admission.Revision
		return none
	case 5:
		harness := rapid.SampledFrom([]string{"2026.9.6", "2026.8.2", "0.171.0", "latest", "", "v 1", "-x"}).Draw(t, "harnessVersion")
		openclaw := rapid.SampledFrom([]string{"2026.9.6", "2026.9.4", "2026.8.2", ""}).Draw(t, "openclawSchema")
		rev = record(t, base, withVersions(harness, openclaw))
	case 6:
		agent := rapid.StringMatching(`[A-Za-z0-9_.@ -]{1,40}`).Draw(t, "agent")
		generation := rapid.Int64Range(1, 1<<50).Draw(t, "generation")
		rev = record(t, base, func(m map[string]any) {
			m["agentId"] = agent
			src := m["source"].(map[string]any)
			src["generation"] = generation
		})
	case 7:
		if base.Topology() != dedicatedCodex.topology() {
			rev = base
			break
		}
		secretID := rapid.StringMatching(`[A-Za-z0-9_./-]{1,40}`).Draw(t, "secret")
		kind := rapid.SampledFrom([]string{"secret", "serviceAccount"}).Draw(t, "secretKind")
		ns := rapid.SampledFrom([]string{tenant.ID, "team-b"}).Draw(t, "secretNamespace")
		rev = record(t, base, func(m map[string]any) {
			m["projection"] = map[string]any{"gateway": []any{}, "harness": []any{
				map[string]any{"name": "OPENAI_API_KEY", "from": map[string]any{"kind": kind, "namespaceId": ns, "id": secretID}},
				map[string]any{"name": "CODEX_LOGIN_MODE", "value": "api_key"},
			}}
		})
	case 8:
		ownership := rapid.SampledFrom([]string{"platform", "driver"}).Draw(t, "ownership")
		level := rapid.SampledFrom([]string{"warn", "debug", "info"}).Draw(t, "level")
		rev = record(t, base, func(m map[string]any) { m["logging"] = map[string]any{"level": level, "ownership": ownership} })
	case 9:
		rev = record(t, base, func(map[string]any) {})
	default:
		rev = base
	}
	switch rapid.IntRange(0, 9).Draw(t, "implementation") {
	case 7, 8:
		return wrapped{rev}
	case 9:
		return unplanned{rev}
	}
	return rev
}

func (c topologyCase) topology() occkit.Topology {
	return occkit.Topology{Harness: c.harness, Mode: c.mode}
}

// drawOptions draws render options: defaults and installation settings,
// and, one draw in four, settings the render refuses.
func drawOptions(t *rapid.T) render.Options {
	hostile := rapid.IntRange(0, 3).Draw(t, "hostile") == 3
	pick := func(label string, good []string, bad ...string) string {
		if hostile {
			good = append(good, bad...)
		}
		return rapid.SampledFrom(good).Draw(t, label)
	}
	var o render.Options
	namespaces := []drivers.Namespace{{}, tenant, {ID: tenant.ID}, {ID: "team-a", Name: "tenant-a-ns"}}
	if hostile {
		namespaces = append(namespaces, drivers.Namespace{ID: "team-b"}, drivers.Namespace{Name: "team-a"}, drivers.Namespace{ID: "team-a", Name: "Team_A"})
	}
	o.Namespace = rapid.SampledFrom(namespaces).Draw(t, "namespace")
	o.Images.OpenClaw = pick("openclawImage", []string{"", "registry.local/openclaw", "registry.local:5000/oc"}, "oc:1", "oc@sha256:x")
	o.Images.Codex = pick("codexImage", []string{"", "registry.local/codex"}, "codex:2")
	if rapid.Bool().Draw(t, "digests") {
		digest := pick("digest", []string{"sha256:" + strings.Repeat("ab", 32)}, "sha256:short")
		o.Images.Digests = map[string]string{}
		for _, repo := range []string{o.Images.OpenClaw, o.Images.Codex, render.DefaultOpenClawImage, render.DefaultCodexImage} {
			for _, v := range []string{"2026.9.6", "0.171.0", "2026.8.2"} {
				if rapid.Bool().Draw(t, "mapped") {
					o.Images.Digests[repo+":"+v] = digest
				}
			}
		}
	}
	o.Storage.Size = pick("storageSize", []string{"", "1Gi", "500M", "1.5Ti", "2e3"}, "0", "-1Gi", "lots")
	o.Storage.ClassName = pick("storageClass", []string{"", "fast", "ssd.example.com"}, "Not_A_Class")
	o.Plugins.Registry = pick("registry", []string{"", "http://npm-mirror.platform.svc:4873/", "https://npm.example/"}, "ftp://x/", "http://u:p@x/")
	switch rapid.IntRange(0, 4).Draw(t, "sandbox") {
	case 4:
		if hostile {
			break
		}
		fallthrough
	case 3:
		if hostile {
			o.Sandbox = &render.Sandbox{ID: "other", Facts: testSandbox().Facts}
			break
		}
		fallthrough
	case 2:
		sb := testSandbox()
		sb.HarnessHome = pick("harnessHome", []string{"", "/sandbox/home", "/home/agent"}, "relative", "/a/../b")
		sb.RuntimeClassName = rapid.SampledFrom([]string{"", "gvisor"}).Draw(t, "runtimeClass")
		o.Sandbox = sb
	default:
		o.Sandbox = testSandbox()
	}
	o.Stopped = rapid.Bool().Draw(t, "stopped")
	return o
}

// TestRenderMatchesOracle: issue 29 — Render returns exactly the objects
// (and the YAML) the render before its allocation work returned, and
// refuses what it refused, by code, path and rule, in the same order,
// for drawn revisions and options.
func TestRenderMatchesOracle(t *testing.T) {
	revs := newOracleRevisions(t)
	rendered := 0
	rapid.Check(t, func(t *rapid.T) {
		rev, opts := revs.draw(t), drawOptions(t)
		want, wantErr := oldRender(rev, opts)
		got, err := render.Render(rev, opts)
		if d := cmp.Diff(occkit.MatchersOf(wantErr), occkit.MatchersOf(err)); d != "" {
			t.Fatalf("refusals (-oracle +Render):\n%s\noracle: %v\nRender: %v", d, wantErr, err)
		}
		if (wantErr == nil) != (err == nil) {
			t.Fatalf("oracle: %v, Render: %v", wantErr, err)
		}
		if d := cmp.Diff(want, got, quantityEqual); d != "" {
			t.Fatalf("objects (-oracle +Render):\n%s", d)
		}
		if err != nil {
			return
		}
		rendered++
		wy, werr := want.YAML()
		gy, gerr := got.YAML()
		if werr != nil || gerr != nil || !bytes.Equal(wy, gy) {
			t.Fatalf("YAML differs: %v %v\n%s\n---\n%s", werr, gerr, wy, gy)
		}
		checkOwnership(t, got)
	})
	if rendered == 0 {
		t.Fatal("no drawn revision rendered")
	}
}

// checkOwnership holds every returned object to owning what it refers
// to: no map, pointer or slice array reachable from one object is
// reachable from another (a caller editing one object's labels, or one
// of its pointed-to values, edits no other object), no two pointers of
// one object point at the same value, and no two slices overlap unless
// they are the same slice.
func checkOwnership(t fataler, objs render.Objects) {
	t.Helper()
	type span struct {
		lo, hi uintptr
		obj    int
		at     string
		slice  bool
	}
	type target struct {
		p uintptr
		t reflect.Type
	}
	var spans []span
	seen := map[target]span{}
	var walk func(v reflect.Value, obj int, at string)
	walk = func(v reflect.Value, obj int, at string) {
		switch v.Kind() {
		case reflect.Pointer:
			if v.IsNil() {
				return
			}
			p := target{v.Pointer(), v.Type()}
			if s, ok := seen[p]; ok {
				t.Fatalf("%s (object %d) and %s (object %d) point at the same value", s.at, s.obj, at, obj)
			}
			seen[p] = span{obj: obj, at: at}
			spans = append(spans, span{lo: p.p, hi: p.p + v.Elem().Type().Size(), obj: obj, at: at})
			walk(v.Elem(), obj, at)
		case reflect.Map:
			if v.IsNil() {
				return
			}
			p := target{uintptr(v.UnsafePointer()), v.Type()}
			if s, ok := seen[p]; ok {
				t.Fatalf("%s (object %d) and %s (object %d) share a map", s.at, s.obj, at, obj)
			}
			seen[p] = span{obj: obj, at: at}
			for it := v.MapRange(); it.Next(); {
				walk(it.Value(), obj, at+"["+it.Key().String()+"]")
			}
		case reflect.Slice:
			if v.Cap() > 0 {
				lo := uintptr(v.UnsafePointer())
				spans = append(spans, span{lo, lo + uintptr(v.Cap())*v.Type().Elem().Size(), obj, at, true})
			}
			for i := range v.Len() {
				walk(v.Index(i), obj, fmt.Sprintf("%s[%d]", at, i))
			}
		case reflect.Struct:
			for i := range v.NumField() {
				if v.Type().Field(i).IsExported() {
					walk(v.Field(i), obj, at+"."+v.Type().Field(i).Name)
				}
			}
		case reflect.Interface:
			if !v.IsNil() {
				walk(v.Elem(), obj, at)
			}
		}
	}
	for i, o := range objs.List() {
		walk(reflect.ValueOf(o), i, fmt.Sprintf("%T %s", o, o.GetName()))
	}
	// No object's memory reaches into another's; within one object, two
	// slices are the same slice or apart (an append to one cannot write
	// into the other).
	for i, a := range spans {
		for _, b := range spans[i+1:] {
			if a.lo >= b.hi || b.lo >= a.hi {
				continue
			}
			if a.obj != b.obj {
				t.Fatalf("%s (object %d) and %s (object %d) share memory", a.at, a.obj, b.at, b.obj)
			}
			if a.slice && b.slice && (a.lo != b.lo || a.hi != b.hi) {
				t.Fatalf("%s and %s overlap (object %d)", a.at, b.at, a.obj)
			}
		}
	}
}

// BenchmarkRenderOracle times Render beside the oracle on the compact
// benchmark document, in turns, for a paired comparison on a busy
// machine (benchstat -col /render).
func BenchmarkRenderOracle(b *testing.B) {
	d := testDriver(b)
	for _, n := range []int{40, 1000} {
		doc, err := compile.Load(bench.Documents[0].Make(n), compile.LoadOptions{})
		if err != nil {
			b.Fatal(err)
		}
		rev := admitDoc(b, d, "bench", embeddedOpenClaw, doc, 12)
		opts := render.Options{Namespace: tenant}
		for _, r := range []struct {
			name   string
			render func(drivers.Revision, render.Options) (render.Objects, error)
		}{{"oracle", oldRender}, {"render", render.Render}} {
			b.Run(fmt.Sprintf("models=%d/render=%s", n, r.name), func(b *testing.B) {
				b.ReportAllocs()
				var start syscall.Rusage
				_ = syscall.Getrusage(syscall.RUSAGE_SELF, &start)
				for b.Loop() {
					if _, err := r.render(rev, opts); err != nil {
						b.Fatal(err)
					}
				}
				// Process CPU time (the collector's too): a busy machine
				// stretches wall time, not CPU time.
				var end syscall.Rusage
				_ = syscall.Getrusage(syscall.RUSAGE_SELF, &end)
				cpu := end.Utime.Nano() + end.Stime.Nano() - start.Utime.Nano() - start.Stime.Nano()
				b.ReportMetric(float64(cpu)/float64(b.N), "cpu-ns/op")
			})
		}
	}
}
