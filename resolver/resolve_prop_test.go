package resolver

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/occkit/occkit"
)

// jsonValue is a JSON value whose objects keep a chosen key order, so that
// properties can shuffle it.
type jsonValue interface{}

type objMember struct {
	K string
	V jsonValue
}

type obj []objMember

func (o obj) set(k string, v jsonValue) obj { return append(o, objMember{k, v}) }

func encode(b *strings.Builder, v jsonValue) {
	switch t := v.(type) {
	case obj:
		b.WriteByte('{')
		for i, kv := range t {
			if i > 0 {
				b.WriteByte(',')
			}
			k, _ := json.Marshal(kv.K)
			b.Write(k)
			b.WriteByte(':')
			encode(b, kv.V)
		}
		b.WriteByte('}')
	case []jsonValue:
		b.WriteByte('[')
		for i, e := range t {
			if i > 0 {
				b.WriteByte(',')
			}
			encode(b, e)
		}
		b.WriteByte(']')
	default:
		raw, _ := json.Marshal(t)
		b.Write(raw)
	}
}

func testDoc(v jsonValue) occkit.Document {
	var b strings.Builder
	encode(&b, v)
	return occkit.MustParseDocument(b.String())
}

// shuffle permutes the keys of every object (arrays keep their order).
func shuffle(t *rapid.T, v jsonValue, label string) jsonValue {
	switch x := v.(type) {
	case obj:
		perm := rapid.Permutation(indexes(len(x))).Draw(t, label)
		out := make(obj, len(x))
		for i, j := range perm {
			out[i] = objMember{x[j].K, shuffle(t, x[j].V, label+"."+x[j].K)}
		}
		return out
	case []jsonValue:
		out := make([]jsonValue, len(x))
		for i, e := range x {
			out[i] = shuffle(t, e, fmt.Sprintf("%s[%d]", label, i))
		}
		return out
	}
	return v
}

func indexes(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// genConfig draws a Configuration that exercises every RES rule: valid
// more often than not, with occasional wrong runtimes, providers and
// shapes. It returns the document value and the fallbacks it wrote.
func genConfig(t *rapid.T) (jsonValue, []string) {
	providers := []string{"anthropic", "google", "openai", "codex"}
	runtimes := []jsonValue{nil, "openclaw", "codex"}
	runtime := func(label string) jsonValue {
		r := rapid.SampledFrom(runtimes).Draw(t, label)
		if r == nil {
			return nil
		}
		if rapid.IntRange(0, 30).Draw(t, label+"-bogus") == 0 {
			r = "auto"
		}
		return obj{}.set("id", r)
	}
	withRuntime := func(o obj, label string) obj {
		if r := runtime(label); r != nil {
			o = o.set("agentRuntime", r)
		}
		return o
	}
	prov := rapid.SampledFrom(providers).Draw(t, "provider")
	models := rapid.SliceOfNDistinct(rapid.SampledFrom([]string{"a", "b", "c", "vendor/d", "e@work"}), 1, 4, rapid.ID[string]).Draw(t, "models")
	refs := make([]string, len(models))
	for i, m := range models {
		refs[i] = prov + "/" + m
	}
	if rapid.IntRange(0, 10).Draw(t, "foreign-fallback") == 0 && len(refs) > 1 {
		refs[len(refs)-1] = "mistral/x"
	}
	primary, fallbacks := refs[0], refs[1:]

	defaults := obj{}
	hasDefault := true
	switch rapid.IntRange(0, 3).Draw(t, "model-form") {
	case 0:
		defaults = defaults.set("model", primary)
		fallbacks = nil
	case 1, 2:
		fb := make([]jsonValue, len(fallbacks))
		for i, f := range fallbacks {
			fb[i] = f
		}
		defaults = defaults.set("model", obj{}.set("primary", primary).set("fallbacks", fb))
	default:
		hasDefault = false
		fallbacks = nil // no default model: entries supply it
	}
	if rapid.Bool().Draw(t, "catalog") {
		cat := obj{}
		for i, r := range refs {
			if i == 0 || rapid.Bool().Draw(t, fmt.Sprintf("cat-%d", i)) {
				cat = cat.set(strings.Split(r, "@")[0], withRuntime(obj{}, fmt.Sprintf("cat-rt-%d", i)))
			}
		}
		defaults = defaults.set("models", cat)
	}
	agents := obj{}.set("defaults", defaults)
	nEntries := rapid.IntRange(0, 3).Draw(t, "entries")
	if nEntries > 0 || rapid.Bool().Draw(t, "empty-entries") {
		entries := obj{}
		for i := 0; i < nEntries; i++ {
			e := obj{}.set("workspace", fmt.Sprintf("/w/%d", i))
			if !hasDefault || rapid.IntRange(0, 4).Draw(t, fmt.Sprintf("entry-model-%d", i)) == 0 {
				e = e.set("model", primary)
			}
			if rapid.IntRange(0, 3).Draw(t, fmt.Sprintf("entry-cat-%d", i)) == 0 {
				e = e.set("models", obj{}.set(strings.Split(primary, "@")[0], withRuntime(obj{}, fmt.Sprintf("entry-rt-%d", i))))
			}
			entries = entries.set([]string{"main", "helper", "ops"}[i], e)
		}
		agents = agents.set("entries", entries)
	}
	doc := obj{}.set("agents", agents)
	if rapid.Bool().Draw(t, "providers") {
		p := withRuntime(obj{}.set("baseUrl", "https://example.test/v1"), "prov-rt")
		if rapid.Bool().Draw(t, "rows") {
			var rows []jsonValue
			for i, r := range refs {
				if rapid.Bool().Draw(t, fmt.Sprintf("row-%d", i)) {
					id := strings.SplitN(strings.Split(r, "@")[0], "/", 2)[1]
					rows = append(rows, withRuntime(obj{}.set("id", id), fmt.Sprintf("row-rt-%d", i)))
				}
			}
			p = p.set("models", rows)
		}
		doc = doc.set("models", obj{}.set("providers", obj{}.set(prov, p)))
	}
	if rapid.Bool().Draw(t, "codex-plugin") {
		transport := rapid.SampledFrom([]string{"websocket", "websocket", "stdio"}).Draw(t, "transport")
		doc = doc.set("plugins", obj{}.set("entries", obj{}.set("codex",
			obj{}.set("enabled", rapid.Bool().Draw(t, "enabled")).set("config",
				obj{}.set("appServer", obj{}.set("transport", transport))))))
	}
	return doc, fallbacks
}

func genRequest(t *rapid.T) Request {
	req := Request{
		Mode:    rapid.SampledFrom([]occkit.Mode{"", occkit.ModeEmbedded, occkit.ModeDedicated}).Draw(t, "mode"),
		Compute: rapid.SampledFrom([]occkit.Compute{"", occkit.ComputeKubernetes, occkit.ComputeSSH, occkit.ComputeDocker}).Draw(t, "compute"),
	}
	if rapid.Bool().Draw(t, "qualified") {
		req.Installation = qualified
	}
	return req
}

type result struct {
	Decision Decision
	Problems []occkit.ErrorMatcher
}

func run(doc occkit.Document, req Request) result {
	d, err := Resolve(doc, req)
	return result{Decision: d, Problems: occkit.MatchersOf(err)}
}

var cmpOpts = cmp.Options{cmp.Comparer(func(a, b occkit.Path) bool { return a.Equal(b) })}

func TestPropResolveDeterministic(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		v, _ := genConfig(t)
		doc, req := testDoc(v), genRequest(t)
		if d := cmp.Diff(run(doc, req), run(doc, req), cmpOpts); d != "" {
			t.Fatalf("two resolutions differ:\n%s", d)
		}
	})
}

func TestPropResolveKeyOrderIndependent(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		v, _ := genConfig(t)
		req := genRequest(t)
		a := run(testDoc(v), req)
		b := run(testDoc(shuffle(t, v, "shuffle")), req)
		if d := cmp.Diff(a, b, cmpOpts); d != "" {
			t.Fatalf("key order changed the decision:\n%s", d)
		}
	})
}

func TestPropResolveKeepsFallbackOrder(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		v, fallbacks := genConfig(t)
		d, err := Resolve(testDoc(v), genRequest(t))
		if err != nil {
			return
		}
		want := []string{}
		for _, f := range fallbacks {
			r, _ := ParseRef(f)
			want = append(want, r.String())
		}
		if diff := cmp.Diff(want, d.Fallbacks); diff != "" {
			t.Fatalf("fallbacks (-want +got):\n%s", diff)
		}
	})
}

func TestPropUnrelatedProviderKeepsHarness(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		v, _ := genConfig(t)
		req := genRequest(t)
		before := run(testDoc(v), req)
		doc := v.(obj)
		extra := obj{}.set("baseUrl", "https://mistral.example.test")
		if rapid.Bool().Draw(t, "extra-runtime") {
			extra = extra.set("agentRuntime", obj{}.set("id", rapid.SampledFrom([]string{"openclaw", "codex"}).Draw(t, "extra-id")))
		}
		// Add the unrelated built-in provider "zai" beside any existing ones.
		added := false
		for i, kv := range doc {
			if kv.K == "models" {
				ps := kv.V.(obj)[0].V.(obj)
				doc[i].V = obj{}.set("providers", append(append(obj{}, ps...), objMember{"zai", extra}))
				added = true
			}
		}
		if !added {
			doc = doc.set("models", obj{}.set("providers", obj{}.set("zai", extra)))
		}
		after := run(testDoc(doc), req)
		if d := cmp.Diff(before.Decision.Harness, after.Decision.Harness); d != "" || len(before.Problems) != len(after.Problems) {
			t.Fatalf("an unrelated provider changed the outcome:\nbefore %+v\nafter  %+v", before, after)
		}
	})
}

func TestPropReasonPathsExist(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		v, _ := genConfig(t)
		doc := testDoc(v)
		d, err := Resolve(doc, genRequest(t))
		if err != nil {
			for _, e := range occkit.Errors(err) {
				if e.Rule == "" || e.Code.HTTPStatus() >= 500 {
					t.Fatalf("unstructured refusal: %#v", e)
				}
			}
			return
		}
		if len(d.Reasons) == 0 {
			t.Fatal("decision without reasons")
		}
		for _, r := range d.Reasons {
			if !doc.Has(r.Path) {
				t.Fatalf("reason %s names %s, which is not in the document", r.Rule, r.Path)
			}
		}
	})
}

// FuzzResolve feeds arbitrary documents (seeded with generated
// Configurations and the conformance shapes) through Resolve and
// CheckRoster: no panics, and every refusal is a structured *occkit.Error.
func FuzzResolve(f *testing.F) {
	seeds := []string{
		`{}`, `[]`, `null`, `{"agents":[]}`, `{"agents":{"entries":{"main":"x"}}}`,
		`{"agents":{"defaults":{"model":{"primary":"openai/a","fallbacks":[42]}}}}`,
		`{"agents":{"defaults":{"model":"openai/vendor/model","models":{"openai/vendor/model":{"agentRuntime":{"id":"openclaw"}}}}},"models":{"providers":{"openai":{"models":[{"id":"vendor/model","agentRuntime":{"id":"codex"}}]}}}}`,
		`{"agents":{"list":[{"id":"main"}],"ownership":"explicit","entries":{"_a-":{"default":1},"_A":{}}}}`,
		string(benchDoc(3).Bytes()),
	}
	for i, s := range seeds {
		f.Add(s, uint8(i))
	}
	f.Fuzz(func(t *testing.T, raw string, sel uint8) {
		doc, err := occkit.ParseDocument([]byte(raw))
		if err != nil {
			return
		}
		req := Request{
			Mode:    []occkit.Mode{"", occkit.ModeEmbedded, occkit.ModeDedicated, "bogus"}[sel&3],
			Compute: []occkit.Compute{"", occkit.ComputeSSH, occkit.ComputeDocker, "acme"}[(sel>>2)&3],
		}
		if sel&16 != 0 {
			req.Installation = qualified
		}
		d, err := Resolve(doc, req)
		checkStructured(t, err)
		if err == nil && (d.Harness != occkit.HarnessOpenClaw && d.Harness != occkit.HarnessCodex || d.Fallbacks == nil) {
			t.Fatalf("bad decision %+v", d)
		}
		rr := RosterRequest{Stage: []Stage{StageSave, StageDeploy}[sel>>7], Compute: req.Compute, Mode: req.Mode}
		checkStructured(t, CheckRoster(doc, rr))
	})
}

func checkStructured(t *testing.T, err error) {
	t.Helper()
	if err == nil {
		return
	}
	for _, e := range occkit.Errors(err) {
		if e.Rule == "" || e.Code.HTTPStatus() >= 500 || e.Message() == "" {
			t.Fatalf("unstructured refusal %#v", e)
		}
	}
}
