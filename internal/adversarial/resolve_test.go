package adversarial_test

import (
	"testing"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/resolver"
)

// defaults wraps a model setting into a Configuration.
func defaults(inner string) string { return `{"agents":{"defaults":` + inner + `}}` }

// TestResolveRefuses: hostile Configurations and requests are refused by
// resolver.Resolve with the rule and setting that decided, and the input
// Document is unchanged.
func TestResolveRefuses(t *testing.T) {
	tests := []struct {
		name string
		doc  string
		req  resolver.Request
		want want
	}{
		{"unknown Harness", defaults(`{"model":"anthropic/m","models":{"anthropic/m":{"agentRuntime":{"id":"gemini"}}}}`), resolver.Request{},
			want{400, bad, `agents.defaults.models["anthropic/m"].agentRuntime.id`, "RES-1"}},
		{"Harness with a bidi override", defaults("{\"model\":\"anthropic/m\",\"models\":{\"anthropic/m\":{\"agentRuntime\":{\"id\":\"open\u202eclaw\"}}}}"), resolver.Request{},
			want{400, bad, `agents.defaults.models["anthropic/m"].agentRuntime.id`, "RES-1"}},
		{"Harness as a string", defaults(`{"model":"anthropic/m","models":{"anthropic/m":{"agentRuntime":"codex"}}}`), resolver.Request{},
			want{400, bad, `agents.defaults.models["anthropic/m"].agentRuntime`, "RES-1"}},
		{"__proto__ as a catalog key", defaults(`{"model":"anthropic/m","models":{"__proto__":{}}}`), resolver.Request{},
			want{400, bad, "agents.defaults.models.__proto__", "RES-8"}},
		{"constructor as a model", defaults(`{"model":"constructor"}`), resolver.Request{},
			want{400, bad, "agents.defaults.model", "RES-3"}},
		{"bidi provider named in the message", "{\"agents\":{\"defaults\":{\"model\":\"my\u202eproxy/m\"}},\"models\":{\"providers\":{\"my\u202eproxy\":{}}}}", resolver.Request{},
			want{400, bad, "agents.defaults.model", "RES-6"}},
		{"isolate provider named in the message", "{\"agents\":{\"defaults\":{\"model\":\"x\u2066/m\",\"models\":{\"x\u2066/m\":{\"agentRuntime\":{\"id\":\"codex\"}}}}}}", resolver.Request{},
			want{400, bad, "agents.defaults.models[\"x\u2066/m\"].agentRuntime.id", "RES-7"}},
		{"terminal escape in a provider", `{"agents":{"defaults":{"model":"my\u001b[2Jproxy/m"}},"models":{"providers":{"my\u001b[2Jproxy":{}}}}`, resolver.Request{},
			want{400, bad, "agents.defaults.model", "RES-6"}},
		{"bidi fallback on another provider", defaults("{\"model\":{\"primary\":\"anthropic/m\",\"fallbacks\":[\"ot\u2066her/m\"]}}"), resolver.Request{},
			want{400, bad, "agents.defaults.model.fallbacks[0]", "RES-3"}},
		{"model nested 9,990 levels", defaults(`{"model":` + nest("[", "]", 9990) + `}`), resolver.Request{},
			want{400, bad, "agents.defaults.model", "RES-3"}},
		{"fallbacks a huge number", defaults(`{"model":{"primary":"anthropic/m","fallbacks":1e308}}`), resolver.Request{},
			want{400, bad, "agents.defaults.model.fallbacks", "RES-3"}},
		{"unknown Compute kind", defaults(`{"model":"anthropic/m"}`), resolver.Request{Compute: "nomad"},
			want{400, bad, "executionMode", "RES-11"}},
		{"Compute kind with a bidi override", defaults(`{"model":"anthropic/m"}`), resolver.Request{Compute: "kuber\u202enetes"},
			want{400, bad, "compute", "RES-11"}},
		{"unknown mode", defaults(`{"model":"anthropic/m"}`), resolver.Request{Mode: "turbo"},
			want{400, bad, "executionMode", "RES-11"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := occkit.MustParseDocument(tt.doc)
			before := doc.Bytes()
			_, err := resolver.Resolve(doc, tt.req)
			refused(t, err, tt.want)
			unchanged(t, "Configuration", before, doc)
		})
	}
}
