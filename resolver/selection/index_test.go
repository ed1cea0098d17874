package selection

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/occkit/occkit"
	"pgregory.net/rapid"
)

// genSpellings adds what the indexes must resolve like a scan: agent
// entries and provider configs under other spellings, an agents.list, and
// catalog rows with provider-qualified, padded and duplicate IDs.
func genSpellings(t *rapid.T, cfg map[string]any) {
	agents := cfg["agents"].(map[string]any)
	entries := agents["entries"].(map[string]any)
	policy := func(label string) map[string]any {
		return map[string]any{"agentRuntime": map[string]any{"id": rapid.SampledFrom(genRuntimes).Draw(t, label)}}
	}
	for _, k := range []string{" Main", "MAIN", "Other"} {
		if rapid.Bool().Draw(t, "entry"+k) {
			entries[k] = map[string]any{"models": map[string]any{
				rapid.SampledFrom([]string{"q", "vllm/q", " openai / gpt-5.5 ", "anthropic/*"}).Draw(t, "ek"+k): policy("ert" + k),
			}}
		}
	}
	if rapid.Bool().Draw(t, "list") {
		agents["list"] = []any{
			"not an object",
			map[string]any{"id": " other ", "models": map[string]any{"openai/*": policy("lrt")}},
			map[string]any{"id": "OTHER", "agentRuntime": map[string]any{"id": "codex"}},
		}
	}
	providers := cfg["models"].(map[string]any)["providers"].(map[string]any)
	for _, k := range []string{" vllm", "VLLM", "Anthropic"} {
		if rapid.Bool().Draw(t, "prov"+k) {
			pc := policy("prt" + k)
			pc["models"] = []any{
				map[string]any{"id": rapid.SampledFrom([]string{"q", " q ", "VLLM/q", "vllm / q", "anthropic/claude-opus-5", "vendor/m"}).Draw(t, "rid"+k), "api": "openai-completions", "params": map[string]any{"temperature": 1}},
				map[string]any{"id": rapid.SampledFrom([]string{"q", "Vendor/m", "claude-opus-5"}).Draw(t, "rid2"+k), "agentRuntime": map[string]any{"id": "acme"}},
				7,
			}
			providers[k] = pc
		}
	}
}

// TestPrepareMatchesScan: the indexed decision equals the scanning
// one on every generated document and request, and one index answers
// every request.
func TestPrepareMatchesScan(t *testing.T) {
	reg := genRegistry(t)
	rapid.Check(t, func(t *rapid.T) {
		cfg := genConfig(t)
		genSpellings(t, cfg)
		doc := testDoc(t, cfg, nil)
		x, scan, indexed := Prepare(doc), oPrepare(doc, false), oPrepare(doc, true)
		for i := rapid.IntRange(1, 4).Draw(t, "n"); i > 0; i-- {
			req := genRequest(t)
			req.AgentID = rapid.SampledFrom([]string{"", "main", "MAIN", " main", "other", "Other ", "ghost"}).Draw(t, "agentid")
			want := oOutcome(scan.Select(req, reg))
			if got := oOutcome(indexed.Select(req, reg)); got != want {
				t.Fatalf("the reference's indexes differ from its scan for %+v:\n%s\nvs\n%s\n%s", req, got, want, doc)
			}
			if got := outcome(x.Select(req, reg)); got != want {
				t.Fatalf("prepared decision differs from the scan for %+v:\n%s\nvs\n%s\n%s", req, got, want, doc)
			}
			if got := outcome(Select(doc, req, reg)); got != want {
				t.Fatalf("Select differs from the scan for %+v:\n%s\nvs\n%s", req, got, want)
			}
		}
	})
}

// TestDecisionAllocatesNothing: a prepared decision that asks no plugin
// allocates nothing (its reasons are rebuilt on demand), whatever the
// catalog size, for every lookup step: entry key, defaults key, bare ref,
// catalog row, wildcard, provider policy, the official OpenAI route, a CLI
// backend, no policy, and a session note.
func TestDecisionAllocatesNothing(t *testing.T) {
	for _, n := range []int{1, 100, 5000} {
		var b strings.Builder
		b.WriteString(`{"agents":{"defaults":{"agentRuntime":{"id":"codex"},"params":{"temperature":0.1},"models":{"vllm/*":{"agentRuntime":{"id":"openclaw"}},"anthropic/opus":{"agentRuntime":{"id":"claude-cli"}}`)
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, `,"acme/m-%d":{"agentRuntime":{"id":"openclaw"},"params":{"thinking":"low"}}`, i)
		}
		b.WriteString(`}},"entries":{"main":{"models":{"acme/m-0":{"agentRuntime":{"id":"pi"}}}}}},"models":{"providers":{`)
		b.WriteString(`"openai":{"baseUrl":"https://api.openai.com/v1"},"google":{"agentRuntime":{"id":"openclaw"}},"acme":{"baseUrl":"https://acme.example/v1?key=secret","models":[`)
		for i := 0; i < n; i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `{"id":"row-%d","agentRuntime":{"id":"openclaw"},"headers":{"X":"y"}}`, i)
		}
		b.WriteString(`]}}}}`)
		x := Prepare(occkit.MustParseDocument(b.String()))
		for _, req := range []Request{
			{Provider: "acme", Model: "m-0", AgentID: "main"},
			{Provider: "ACME", Model: fmt.Sprintf("m-%d", n-1)},
			{Model: fmt.Sprintf("acme/m-%d", n/2)},
			{Provider: "acme", Model: fmt.Sprintf("row-%d", n/2)},
			{Provider: "vllm", Model: "q"},
			{Provider: "google", Model: "g"},
			{Provider: "openai", Model: "gpt-5.5"},
			{Provider: "anthropic", Model: "opus"},
			{Provider: "acme", Model: "unlisted", AgentID: "ghost"},
			{Provider: "acme", Model: "m-1", Session: Session{HistoricalHarnessID: "codex"}},
		} {
			if _, err := x.Select(req, nil); err != nil {
				t.Fatalf("models=%d %+v: %v", n, req, err)
			}
			if a := testing.AllocsPerRun(50, func() { _, _ = x.Select(req, nil) }); a != 0 {
				t.Errorf("models=%d %+v: %v allocations per decision, want 0", n, req, a)
			}
		}
	}
}

// TestReasonsAreFresh: Reasons returns a new slice each call, so a caller
// changing it changes neither the Result nor the Index.
func TestReasonsAreFresh(t *testing.T) {
	x := Prepare(occkit.MustParseDocument(`{"agents":{"defaults":{"agentRuntime":{"id":"codex"},"models":{"vllm/q":{"agentRuntime":{"id":"openclaw"}}}}}}`))
	sel, err := x.Select(Request{Provider: "vllm", Model: "q"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	rs := sel.Reasons()
	if len(rs) != 2 || rs[0].Rule != "SEL-2" || rs[1].Rule != "SEL-1" {
		t.Fatalf("reasons = %+v", rs)
	}
	rs[0].Note, rs[1].Value = "changed", "changed"
	again, _ := x.Select(Request{Provider: "vllm", Model: "q"}, nil)
	for _, r := range append(sel.Reasons(), again.Reasons()...) {
		if r.Note == "changed" || r.Value == "changed" {
			t.Fatalf("a caller's edit reached the index: %+v", r)
		}
	}
}

// TestModelMapKey: a model map finds a key as written, and the key whose
// params count for a route (paramsKey), as a map of its keys as written
// found them (the first of a spelling): on maps of many keys and few,
// with padded, duplicate, qualified and non-ASCII keys.
func TestModelMapKey(t *testing.T) {
	spellings := []string{"q", " q", "q ", "vllm/q", "VLLM/q", " vllm/q ", "vllm / q", "vllm/*", "openai/gpt-5.5", "gpt-5.5",
		"openai/openai/gpt-5.5", "é/q", "vllm/é", "\u00a0q", "q\u00a0", "moonshotai/kimi", "nvidia/moonshotai/kimi", ""}
	rapid.Check(t, func(t *rapid.T) {
		var b strings.Builder
		var written []string
		b.WriteByte('{')
		for i := rapid.IntRange(0, 12).Draw(t, "n"); i > 0; i-- {
			k := rapid.SampledFrom(spellings).Draw(t, "key")
			if len(written) > 0 {
				b.WriteByte(',')
			}
			params := rapid.SampledFrom([]string{"", `,"params":{"temperature":1}`, `,"params":null`}).Draw(t, "params")
			fmt.Fprintf(&b, `%q:{"agentRuntime":{"id":"acme"}%s}`, k, params)
			written = append(written, k)
		}
		b.WriteByte('}')
		m, _ := readModelMap(b.String(), 0, occkit.NewPath("m"), &table[provEntry]{}, nil)
		// The keys in author order: the map's own, then its chunks'.
		var ks []*modelKey
		for _, k := range written {
			for _, r := range m.refs(strings.TrimSpace(k)) {
				if r.whole && r.k.key == k && !slices.Contains(ks, r.k) {
					ks = append(ks, r.k)
				}
			}
		}
		if len(ks) != len(written) {
			t.Fatalf("the map holds %d keys of the %d written: %s", len(ks), len(written), b.String())
		}
		first := map[string]*modelKey{} // the keys as the map of them found them
		for _, k := range ks {
			if _, ok := first[k.key]; !ok {
				first[k.key] = k
			}
		}
		for _, s := range append(spellings, "x", "vllm/qq") {
			if got, want := m.key(s), first[s]; got != want {
				t.Fatalf("key(%q) = %v, want %v in %s", s, got, want, b.String())
			}
		}
		for _, p := range []string{"vllm", "openai", "moonshotai", "nvidia", "é"} {
			for _, model := range append(spellings, "x") {
				if model == "" {
					continue
				}
				if got, want := m.paramsKey(p, model), refParamsKey(first, p, model); got != want {
					t.Fatalf("paramsKey(%q, %q) = %v, want %v in %s", p, model, got, want, b.String())
				}
			}
		}
	})
}

// refParamsKey is paramsKey as it read a map of the keys as written.
func refParamsKey(keys map[string]*modelKey, provider, model string) *modelKey {
	full := provider + "/" + model
	if n := len(provider) + 1; len(model) > n && strings.EqualFold(model[:n], full[:n]) {
		if k := keys[model]; k != nil && k.hasParams {
			return k
		}
	}
	return keys[full]
}

// refs are the keys of m indexed under model, in author order.
func (m *modelMap) refs(model string) []keyRef {
	r, ok := m.byModel.get(model)
	switch {
	case !ok:
		return nil
	case !r.more:
		return []keyRef{r}
	}
	return m.dups[model]
}

// TestRouteOfficial: every prepared route of openai, a provider config's
// and each catalog row's (its own facts, else its provider's), says
// whether it is official as OfficialOpenAIRoute says of its facts.
func TestRouteOfficial(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		cfg := genConfig(t)
		genSpellings(t, cfg)
		x := Prepare(testDoc(t, cfg, nil))
		official := func(r *route) bool {
			return OfficialOpenAIRoute(RouteFacts{BaseURL: r.baseURL, BaseURLStripped: r.stripped, API: r.api})
		}
		p := x.provider("openai")
		if p == nil {
			return
		}
		if p.official != official(&p.route) {
			t.Fatalf("the openai config's route %+v is official %v", p.route, p.official)
		}
		rows := append([]*row(nil), p.other...)
		for _, e := range p.bare.few[:p.bare.n] {
			rows = append(rows, e.v)
		}
		for _, r := range p.bare.m {
			rows = append(rows, r)
		}
		for _, r := range p.qual {
			rows = append(rows, r)
		}
		for _, r := range rows {
			if r.official != official(&r.route) {
				t.Fatalf("the openai row %q's route %+v is official %v", r.id, r.route, r.official)
			}
		}
	})
}

// TestChunks: chunks hand out distinct zero values; the k-th chunk made
// holds at least 4<<k and at most 4<<2k values (never more than 512),
// and no more than is left beyond the least.
func TestChunks(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var c chunks[[2]int]
		seen := map[*[2]int]bool{}
		k := 0
		for i := rapid.IntRange(0, 3000).Draw(t, "n"); i > 0; i-- {
			left := rapid.IntRange(1, 5000).Draw(t, "left")
			before := c.buf
			v := c.next(left)
			if *v != [2]int{} || seen[v] {
				t.Fatalf("next handed out %p again, or not zero: %v", v, *v)
			}
			*v = [2]int{1, 1}
			seen[v] = true
			if len(before) == cap(before) { // a new chunk
				n := cap(c.buf)
				lo := min(4<<min(k, 7), 512)
				hi := max(lo, min(4<<min(2*k, 7), 512, left))
				if n < lo || n > hi {
					t.Fatalf("chunk %d holds %d with %d left; want %d to %d", k, n, left, lo, hi)
				}
				k++
			}
		}
	})
}
