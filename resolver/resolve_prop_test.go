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

// resJSON is a JSON value whose objects keep a chosen key order, so that
// properties can shuffle it.
type resJSON interface{}

type resKV struct {
	K string
	V resJSON
}

type resObj []resKV

func (o resObj) set(k string, v resJSON) resObj { return append(o, resKV{k, v}) }

func resEncode(b *strings.Builder, v resJSON) {
	switch t := v.(type) {
	case resObj:
		b.WriteByte('{')
		for i, kv := range t {
			if i > 0 {
				b.WriteByte(',')
			}
			k, _ := json.Marshal(kv.K)
			b.Write(k)
			b.WriteByte(':')
			resEncode(b, kv.V)
		}
		b.WriteByte('}')
	case []resJSON:
		b.WriteByte('[')
		for i, e := range t {
			if i > 0 {
				b.WriteByte(',')
			}
			resEncode(b, e)
		}
		b.WriteByte(']')
	default:
		raw, _ := json.Marshal(t)
		b.Write(raw)
	}
}

func resDoc(v resJSON) occkit.Document {
	var b strings.Builder
	resEncode(&b, v)
	return occkit.MustParseDocument(b.String())
}

// resShuffle permutes the keys of every object (arrays keep their order).
func resShuffle(t *rapid.T, v resJSON, label string) resJSON {
	switch x := v.(type) {
	case resObj:
		perm := rapid.Permutation(indexes(len(x))).Draw(t, label)
		out := make(resObj, len(x))
		for i, j := range perm {
			out[i] = resKV{x[j].K, resShuffle(t, x[j].V, label+"."+x[j].K)}
		}
		return out
	case []resJSON:
		out := make([]resJSON, len(x))
		for i, e := range x {
			out[i] = resShuffle(t, e, fmt.Sprintf("%s[%d]", label, i))
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

// resGenConfig draws a Configuration that exercises every RES rule: valid
// more often than not, with occasional wrong runtimes, providers and
// shapes. It returns the document value and the fallbacks it wrote.
func resGenConfig(t *rapid.T) (resJSON, []string) {
	providers := []string{"anthropic", "google", "openai", "codex"}
	runtimes := []resJSON{nil, "openclaw", "codex"}
	runtime := func(label string) resJSON {
		r := rapid.SampledFrom(runtimes).Draw(t, label)
		if r == nil {
			return nil
		}
		if rapid.IntRange(0, 30).Draw(t, label+"-bogus") == 0 {
			r = "auto"
		}
		return resObj{}.set("id", r)
	}
	withRuntime := func(o resObj, label string) resObj {
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

	defaults := resObj{}
	hasDefault := true
	switch rapid.IntRange(0, 3).Draw(t, "model-form") {
	case 0:
		defaults = defaults.set("model", primary)
		fallbacks = nil
	case 1, 2:
		fb := make([]resJSON, len(fallbacks))
		for i, f := range fallbacks {
			fb[i] = f
		}
		defaults = defaults.set("model", resObj{}.set("primary", primary).set("fallbacks", fb))
	default:
		hasDefault = false
		fallbacks = nil // no default model: entries supply it
	}
	if rapid.Bool().Draw(t, "catalog") {
		cat := resObj{}
		for i, r := range refs {
			if i == 0 || rapid.Bool().Draw(t, fmt.Sprintf("cat-%d", i)) {
				cat = cat.set(strings.Split(r, "@")[0], withRuntime(resObj{}, fmt.Sprintf("cat-rt-%d", i)))
			}
		}
		defaults = defaults.set("models", cat)
	}
	agents := resObj{}.set("defaults", defaults)
	nEntries := rapid.IntRange(0, 3).Draw(t, "entries")
	if nEntries > 0 || rapid.Bool().Draw(t, "empty-entries") {
		entries := resObj{}
		for i := 0; i < nEntries; i++ {
			e := resObj{}.set("workspace", fmt.Sprintf("/w/%d", i))
			if !hasDefault || rapid.IntRange(0, 4).Draw(t, fmt.Sprintf("entry-model-%d", i)) == 0 {
				e = e.set("model", primary)
			}
			if rapid.IntRange(0, 3).Draw(t, fmt.Sprintf("entry-cat-%d", i)) == 0 {
				e = e.set("models", resObj{}.set(strings.Split(primary, "@")[0], withRuntime(resObj{}, fmt.Sprintf("entry-rt-%d", i))))
			}
			entries = entries.set([]string{"main", "helper", "ops"}[i], e)
		}
		agents = agents.set("entries", entries)
	}
	doc := resObj{}.set("agents", agents)
	if rapid.Bool().Draw(t, "providers") {
		p := withRuntime(resObj{}.set("baseUrl", "https://example.test/v1"), "prov-rt")
		if rapid.Bool().Draw(t, "rows") {
			var rows []resJSON
			for i, r := range refs {
				if rapid.Bool().Draw(t, fmt.Sprintf("row-%d", i)) {
					id := strings.SplitN(strings.Split(r, "@")[0], "/", 2)[1]
					rows = append(rows, withRuntime(resObj{}.set("id", id), fmt.Sprintf("row-rt-%d", i)))
				}
			}
			p = p.set("models", rows)
		}
		doc = doc.set("models", resObj{}.set("providers", resObj{}.set(prov, p)))
	}
	if rapid.Bool().Draw(t, "codex-plugin") {
		transport := rapid.SampledFrom([]string{"websocket", "websocket", "stdio"}).Draw(t, "transport")
		doc = doc.set("plugins", resObj{}.set("entries", resObj{}.set("codex",
			resObj{}.set("enabled", rapid.Bool().Draw(t, "enabled")).set("config",
				resObj{}.set("appServer", resObj{}.set("transport", transport))))))
	}
	return doc, fallbacks
}

func resGenRequest(t *rapid.T) Request {
	req := Request{
		Mode:    rapid.SampledFrom([]occkit.Mode{"", occkit.ModeEmbedded, occkit.ModeDedicated}).Draw(t, "mode"),
		Compute: rapid.SampledFrom([]occkit.Compute{"", occkit.ComputeKubernetes, occkit.ComputeSSH, occkit.ComputeDocker}).Draw(t, "compute"),
	}
	if rapid.Bool().Draw(t, "qualified") {
		req.Installation = resQualified
	}
	return req
}

type resResult struct {
	Decision Decision
	Problems []occkit.ErrorMatcher
}

func resRun(doc occkit.Document, req Request) resResult {
	d, err := Resolve(doc, req)
	return resResult{Decision: d, Problems: occkit.MatchersOf(err)}
}

var resCmpOpts = cmp.Options{cmp.Comparer(func(a, b occkit.Path) bool { return a.Equal(b) })}

func TestPropResolveDeterministic(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		v, _ := resGenConfig(t)
		doc, req := resDoc(v), resGenRequest(t)
		if d := cmp.Diff(resRun(doc, req), resRun(doc, req), resCmpOpts); d != "" {
			t.Fatalf("two resolutions differ:\n%s", d)
		}
	})
}

func TestPropResolveKeyOrderIndependent(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		v, _ := resGenConfig(t)
		req := resGenRequest(t)
		a := resRun(resDoc(v), req)
		b := resRun(resDoc(resShuffle(t, v, "shuffle")), req)
		if d := cmp.Diff(a, b, resCmpOpts); d != "" {
			t.Fatalf("key order changed the decision:\n%s", d)
		}
	})
}

func TestPropResolveKeepsFallbackOrder(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		v, fallbacks := resGenConfig(t)
		d, err := Resolve(resDoc(v), resGenRequest(t))
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
		v, _ := resGenConfig(t)
		req := resGenRequest(t)
		before := resRun(resDoc(v), req)
		doc := v.(resObj)
		extra := resObj{}.set("baseUrl", "https://mistral.example.test")
		if rapid.Bool().Draw(t, "extra-runtime") {
			extra = extra.set("agentRuntime", resObj{}.set("id", rapid.SampledFrom([]string{"openclaw", "codex"}).Draw(t, "extra-id")))
		}
		// Add the unrelated built-in provider "zai" beside any existing ones.
		added := false
		for i, kv := range doc {
			if kv.K == "models" {
				ps := kv.V.(resObj)[0].V.(resObj)
				doc[i].V = resObj{}.set("providers", append(append(resObj{}, ps...), resKV{"zai", extra}))
				added = true
			}
		}
		if !added {
			doc = doc.set("models", resObj{}.set("providers", resObj{}.set("zai", extra)))
		}
		after := resRun(resDoc(doc), req)
		if d := cmp.Diff(before.Decision.Harness, after.Decision.Harness); d != "" || len(before.Problems) != len(after.Problems) {
			t.Fatalf("an unrelated provider changed the outcome:\nbefore %+v\nafter  %+v", before, after)
		}
	})
}

func TestPropReasonPathsExist(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		v, _ := resGenConfig(t)
		doc := resDoc(v)
		d, err := Resolve(doc, resGenRequest(t))
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
		string(resBenchDoc(3).Bytes()),
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
			req.Installation = resQualified
		}
		d, err := Resolve(doc, req)
		resCheckStructured(t, err)
		if err == nil && (d.Harness != occkit.HarnessOpenClaw && d.Harness != occkit.HarnessCodex || d.Fallbacks == nil) {
			t.Fatalf("bad decision %+v", d)
		}
		rr := RosterRequest{Stage: []Stage{StageSave, StageDeploy}[sel>>7], Compute: req.Compute, Mode: req.Mode}
		resCheckStructured(t, CheckRoster(doc, rr))
	})
}

func resCheckStructured(t *testing.T, err error) {
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
