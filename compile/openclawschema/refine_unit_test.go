package openclawschema

import (
	"testing"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/internal/docjson"
)

// TestRefinements checks each mirrored refinement on documents the
// schema accepts: the refusal is at the setting OpenClaw names, and the
// forms OpenClaw accepts pass.
func TestRefinements(t *testing.T) {
	v, err := New()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		doc  string
		want string // the refused path, "" for none
	}{
		{`{"talk":{"agentId":"main"}}`, ""},
		{`{"talk":{"agentId":"bogus"}}`, "talk.agentId"},
		{`{"agents":{"entries":{"ops":{}}},"talk":{"agentId":" OPS "}}`, ""},
		{`{"bindings":[{"agentId":"x","match":{"channel":"telegram"}}]}`, "bindings[0].agentId"},
		{`{"agents":{"entries":{"ops":{}}},"bindings":[{"agentId":"main","match":{"channel":"telegram"}}]}`, ""},
		{`{"agents":{"entries":{"ops":{}}},"broadcast":{"telegram:1":["OPS"]}}`, "broadcast.telegram:1[0]"},
		{`{"agents":{"entries":{"ops":{}}},"broadcast":{"telegram:1":["ops"]}}`, ""},
		{`{"broadcast":{"plain":{"agents":["main"]}}}`, "broadcast.plain"},
		{`{"cron":{"sessionRetention":"1h30m"}}`, ""},
		{`{"cron":{"sessionRetention":"forever"}}`, "cron.sessionRetention"},
		{`{"session":{"maintenance":{"pruneAfter":"0"}}}`, "session.maintenance.pruneAfter"},
		{`{"session":{"maintenance":{"pruneAfter":30}}}`, ""},
		{`{"session":{"maintenance":{"maxDiskBytes":"1zb"}}}`, "session.maintenance.maxDiskBytes"},
		{`{"session":{"maintenance":{"maxDiskBytes":"2gb"}}}`, ""},
		{`{"agents":{"defaults":{"heartbeat":{"every":"5x"}}}}`, "agents.defaults.heartbeat.every"},
		{`{"worktreeRoot":"~/trees"}`, ""},
		{`{"worktreeRoot":"trees"}`, "worktreeRoot"},
		{`{"proxy":{"proxyUrl":"socks5://127.0.0.1:1080"}}`, "proxy.proxyUrl"},
		{`{"proxy":{"proxyUrl":"http://127.0.0.1:3128"}}`, ""},
		{`{"models":{"catalogRefresh":{"url":"http://example.com/c"}}}`, "models.catalogRefresh.url"},
		{`{"models":{"catalogRefresh":{"url":"http://localhost:8/c"}}}`, ""},
		{`{"gateway":{"publicOrigin":"https://gw.example.com/path"}}`, "gateway.publicOrigin"},
		{`{"secrets":{"egressProxy":{"allowedHosts":["api.example.com","10.0.0.1"]}}}`, ""},
		{`{"secrets":{"egressProxy":{"allowedHosts":["https://api.example.com"]}}}`, "secrets.egressProxy.allowedHosts[0]"},
		{`{"skills":{"entries":{"web":{"apiKey":{"source":"file","provider":"default","id":"web/key"}}}}}`, "skills.entries.web.apiKey.id"},
		{`{"skills":{"entries":{"web":{"apiKey":{"source":"file","provider":"default","id":"/web/key"}}}}}`, ""},
		{`{"skills":{"entries":{"web":{"apiKey":{"source":"exec","provider":"vault","id":"a/../b"}}}}}`, "skills.entries.web.apiKey.id"},
		{`{"tools":{"allow":["read"],"alsoAllow":["exec"]}}`, "tools"},
		{`{"gateway":{"tls":{"certPath":" "}}}`, "gateway.tls.certPath"},
		{`{"talk":{"providers":{"openai":{},"elevenlabs":{}}}}`, "talk.provider"},
		{`{"talk":{"provider":"OpenAI","providers":{"openai":{},"elevenlabs":{}}}}`, ""},
		{`{"browser":{"profiles":{"work":{}}}}`, "browser.profiles.work"},
		{`{"browser":{"profiles":{"work":{"cdpPort":9222}}}}`, ""},
		{`{"tools":{"allow":[],"alsoAllow":["exec"]}}`, ""},
		{`{"tools":{"exec":{"mode":"allowlist","ask":"on-miss"}}}`, "tools.exec.mode"},
		{`{"agents":{"defaults":{"heartbeat":{"activeHours":{"start":"24:00"}}}}}`, "agents.defaults.heartbeat.activeHours.start"},
		{`{"agents":{"defaults":{"heartbeat":{"activeHours":{"start":"08:00","end":"24:00"}}}}}`, ""},
		{`{"bindings":[{"type":"acp","agentId":"main","match":{"channel":"telegram"}}]}`, "bindings[0].match.peer"},
		{`{"hooks":{"mappings":[{"sessionMode":"persistent"}]}}`, "hooks.mappings[0].sessionKey"},
		{`{"hooks":{"defaultSessionKey":"main","mappings":[{"sessionMode":"persistent"}]}}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.doc, func(t *testing.T) {
			doc, err := occkit.ParseDocument([]byte(tt.doc))
			if err != nil {
				t.Fatal(err)
			}
			if !v.root.valid(docjson.Root(doc)) {
				t.Fatalf("the case is not schema-valid: %v", v.Validate(doc))
			}
			err = v.Validate(doc)
			if tt.want == "" {
				if err != nil || !v.Valid(doc) {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if v.Valid(doc) {
				t.Fatal("Valid admits what Validate refuses")
			}
			errs := occkit.Errors(err)
			if len(errs) != 1 || errs[0].Path.String() != tt.want || errs[0].Rule != Rule {
				t.Fatalf("got %v, want one DOC-5 refusal at %s", err, tt.want)
			}
		})
	}
}
