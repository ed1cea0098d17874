package adversarial_test

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/admission"
)

var (
	secret    = occkit.SourceRef{Kind: occkit.SourceSecret, NamespaceID: "ns_1", ID: "sec_1"}
	apiKey    = occkit.Binding{Method: occkit.MethodAPIKey, Source: secret}
	embedded  = `{"agents":{"defaults":{"model":"anthropic/claude-sonnet-4-6"}},"logging":{"level":"debug"}}`
	errReader = errors.New("store \x1b[2J unavailable")
)

type failingReader struct{}

func (failingReader) ReadConfiguration(context.Context, string) (occkit.Document, int64, error) {
	return occkit.Document{}, 0, errReader
}

// TestAdmitRefuses: hostile requests through one prepared Admitter are
// refused with the rule and setting that decided; no revision comes back
// and the Configuration Document is unchanged.
func TestAdmitRefuses(t *testing.T) {
	a, err := admission.New(admission.Options{HarnessVersions: map[occkit.Harness]string{occkit.HarnessOpenClaw: "2026.9.6", occkit.HarnessCodex: "0.171.0"}, Authorizer: admission.AuthorizerFunc(func(_ context.Context, r admission.AuthorizeRequest) error {
		if r.Principal == "mallory" {
			return errors.New("denied")
		}
		return nil
	})})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		doc  string
		edit func(*admission.Request)
		want want
	}{
		{"authorizer denial", embedded, func(r *admission.Request) { r.Principal = "mallory" }, want{403, occkit.CodeForbidden, "", "ADM-2"}},
		{"unknown Compute kind", embedded, func(r *admission.Request) { r.Compute.Kind = "nomad" }, want{400, bad, "executionMode", "RES-11"}},
		{"Compute kind with a bidi override", embedded, func(r *admission.Request) { r.Compute.Kind = "kuber\u202enetes" }, want{400, bad, "compute", "RES-11"}},
		{"unknown execution mode", embedded, func(r *admission.Request) { r.Agent.ExecutionMode = "turbo" }, want{400, bad, "executionMode", "RES-11"}},
		{"unknown binding method", embedded, func(r *admission.Request) { r.Agent.HarnessAuth = occkit.Binding{Method: "oauth"} }, want{400, bad, "harnessAuth.method", "AUTH-4a"}},
		{"binding method with a bidi override", embedded, func(r *admission.Request) { r.Agent.HarnessAuth.Method = "api\u202e_key" }, want{400, bad, "harnessAuth.method", "AUTH-4a"}},
		{"missing binding", embedded, func(r *admission.Request) { r.Agent.HarnessAuth = occkit.Binding{} }, want{409, occkit.CodeResourceConflict, "harnessAuth", "AUTH-1"}},
		{"runtime binding on Kubernetes", embedded, func(r *admission.Request) { r.Agent.HarnessAuth = occkit.Binding{Method: occkit.MethodRuntime} }, want{409, occkit.CodeResourceConflict, "harnessAuth.method", "AUTH-4"}},
		{"unknown level", embedded, func(r *admission.Request) { r.Level = "trace" }, want{400, bad, "level", "LOG-1"}},
		{"level with a terminal escape", embedded, func(r *admission.Request) { r.Level = "info\x1b[2J" }, want{400, bad, "level", "LOG-1"}},
		{"unknown logging owner", embedded, func(r *admission.Request) { r.Compute.RuntimeLogging = "nobody" }, want{400, bad, "runtimeLogging", "LOG-3"}},
		{"unknown Harness in the Configuration", `{"agents":{"defaults":{"model":"anthropic/m","models":{"anthropic/m":{"agentRuntime":{"id":"gemini"}}}}}}`, nil,
			want{400, bad, `agents.defaults.models["anthropic/m"].agentRuntime.id`, "RES-1"}},
		{"bidi Agent ID in the Configuration", "{\"agents\":{\"defaults\":{\"model\":\"anthropic/m\"},\"entries\":{\"ma\u202ein\":{}}}}", nil,
			// OpenClaw's schema refuses the key (its agent-id pattern) at
			// the validation step, before the roster rule (ADM-1).
			want{400, bad, "agents.entries[\"ma\u202ein\"]", "DOC-5"}},
		{"bidi provider named by the projection", "{\"agents\":{\"defaults\":{\"model\":\"open\u202eai/gpt-5\"}}}", nil,
			want{409, occkit.CodeResourceConflict, "harnessAuth.method", "AUTH-2"}},
		{"-0 concurrency", `{"agents":{"defaults":{"model":"anthropic/m","maxConcurrent":-0}}}`, nil,
			want{400, bad, "agents.defaults.maxConcurrent", "DOC-5"}},
		{"Configuration store failure", embedded, func(r *admission.Request) { r.Configuration = failingReader{} }, want{503, occkit.CodeDependencyUnavailable, "", "ADM-1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := occkit.MustParseDocument(tt.doc)
			before := doc.Bytes()
			req := admission.Request{
				Principal:     "user_1",
				Agent:         admission.Agent{ID: "agt_1", ConfigurationID: "cfg_1", HarnessAuth: apiKey},
				Configuration: admission.StaticConfiguration{ID: "cfg_1", Generation: 1, Document: doc},
				Compute:       admission.ComputeInfo{Kind: occkit.ComputeKubernetes, ID: "k8s"},
			}
			if tt.edit != nil {
				tt.edit(&req)
			}
			rev, err := a.Admit(context.Background(), req)
			if rev != nil {
				t.Error("a refusal returned a revision")
			}
			refused(t, err, tt.want)
			unchanged(t, "Configuration", before, doc)
		})
	}
}

// admittedJSON is validJSON as OpenClaw 2026.9.6 accepts it (DOC-5): no
// null sandbox, slack keys OpenClaw knows, a complete catalog row.
const admittedJSON = `{
  "agents": {
    "defaults": {
      "model": {"primary": "anthropic/claude-sonnet-4-6", "fallbacks": ["anthropic/claude-haiku-4-5"]},
      "models": {
        "anthropic/claude-sonnet-4-6": {"alias": "Sonnet \u00e9\"q\"", "agentRuntime": {"id": "openclaw"}, "params": {"temperature": 0.25, "maxTokens": 8e3}},
        "anthropic/claude-haiku-4-5": {"alias": "Haiku — 俳句", "agentRuntime": {"id": "openclaw"}}
      },
      "maxConcurrent": 8,
      "workspace": "/home/node/workspace"
    },
    "entries": {"main": {"tools": {"allow": ["read", "write"], "deny": []}}}
  },
  "models": {"providers": {"anthropic": {"baseUrl": "https://api.anthropic.com", "models": [{"id": "claude-sonnet-4-6", "name": "Claude Sonnet 4.6", "reasoning": true, "cost": {"input": -0, "output": 1.5E-2, "cacheRead": 0, "cacheWrite": 0}}]}}},
  "channels": {"slack": {"enabled": true, "botToken": "${SLACK_TOKEN}", "allowFrom": ["U123"]}},
  "logging": {"level": "info"}
}`

// TestRevisionTruncation_ADM3: a revision record cut at any byte is
// refused with a structured 400 by ParseRevision, never a panic and never
// a revision.
func TestRevisionTruncation_ADM3(t *testing.T) {
	a, err := admission.New(admission.Options{HarnessVersions: map[occkit.Harness]string{occkit.HarnessOpenClaw: "2026.9.6", occkit.HarnessCodex: "0.171.0"}, Authorizer: admission.AuthorizerFunc(func(context.Context, admission.AuthorizeRequest) error { return nil })})
	if err != nil {
		t.Fatal(err)
	}
	rev, err := a.Admit(context.Background(), admission.Request{
		Agent:         admission.Agent{ID: "agt_1", ConfigurationID: "cfg_1", HarnessAuth: apiKey},
		Configuration: admission.StaticConfiguration{ID: "cfg_1", Generation: 1, Document: occkit.MustParseDocument(admittedJSON)},
		Compute:       admission.ComputeInfo{Kind: occkit.ComputeKubernetes, ID: "k8s"},
		SecretBindings: []occkit.SecretBinding{{Env: "SLACK_TOKEN",
			Source: occkit.SourceRef{Kind: occkit.SourceSecret, NamespaceID: "ns_1", ID: "slack"}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	rec, err := rev.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	if back, err := admission.ParseRevision(rec); err != nil || back.Digest() != rev.Digest() {
		t.Fatalf("the whole record does not restore: %v", err)
	}
	for n := 0; n < len(rec); n++ {
		back, err := admission.ParseRevision(bytes.Clone(rec[:n]))
		if back != nil {
			t.Fatalf("a %d-byte prefix restored a revision", n)
		}
		e := occkit.First(err)
		if e == nil || e.Code != bad || e.HTTPStatus() != 400 || e.Rule == "" {
			t.Fatalf("a %d-byte prefix: %v", n, err)
		}
		clean(t, err.Error())
	}
}
