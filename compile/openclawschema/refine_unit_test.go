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
		// Every pattern the refinements look settings up by reaches its
		// setting: a key mistyped in one is a refusal missed.
		{`{"agents":{"entries":{"ops":{}},"defaults":{"heartbeat":{"agentId":"nobody"}}}}`, "agents.defaults.heartbeat.agentId"},
		{`{"agents":{"entries":{"ops":{}},"defaults":{"systemAgent":{"agentId":"nobody"}}}}`, "agents.defaults.systemAgent.agentId"},
		{`{"agents":{"entries":{"ops":{"heartbeat":{"activeHours":{"end":"25:00"}}}}}}`, "agents.entries.ops.heartbeat.activeHours.end"},
		{`{"agents":{"entries":{"ops":{"tools":{"exec":{"mode":"allowlist","ask":"on-miss"}}}}}}`, "agents.entries.ops.tools.exec.mode"},
		{`{"agents":{"entries":{"ops":{"heartbeat":{"every":"5x"}}}}}`, "agents.entries.ops.heartbeat.every"},
		{`{"agents":{"defaults":{"compaction":{"maxActiveTranscriptBytes":"lots"}}}}`, "agents.defaults.compaction.maxActiveTranscriptBytes"},
		{`{"agents":{"defaults":{"compaction":{"memoryFlush":{"forceFlushTranscriptBytes":"lots"}}}}}`, "agents.defaults.compaction.memoryFlush.forceFlushTranscriptBytes"},
		{`{"gateway":{"roles":{"default":"admin","definitions":{"admin":{"scopes":[],"sessions":{"others":"none"},"agents":["no way"]}}}}}`, "gateway.roles.definitions.admin.agents"},
		{`{"session":{"maintenance":{"archiveDashboardAfter":0}}}`, ""},
		{`{"session":{"maintenance":{"archiveDashboardAfter":"0"}}}`, "session.maintenance.archiveDashboardAfter"},
		{`{"session":{"maintenance":{"preserveRecent":"forever"}}}`, "session.maintenance.preserveRecent"},
		{`{"session":{"maintenance":{"resetArchiveRetention":"forever"}}}`, "session.maintenance.resetArchiveRetention"},
		{`{"session":{"maintenance":{"highWaterBytes":"1zb"}}}`, "session.maintenance.highWaterBytes"},
		{`{"cloudWorkers":{"profiles":{"w":{"provider":"fly","suspendAfter":"30s"}}}}`, "cloudWorkers.profiles.w.suspendAfter"},
		{`{"gateway":{"tls":{"keyPath":" "}}}`, "gateway.tls.keyPath"},
		{`{"desktop":{"host":{"enabled":true,"passwordFile":"pw.txt"}}}`, "desktop.host.passwordFile"},
		{`{"secrets":{"providers":{"vault":{"source":"exec","command":"vault"}}}}`, "secrets.providers.vault.command"},
		{`{"secrets":{"providers":{"vault":{"source":"exec","command":"/usr/bin/vault","trustedDirs":["bin"]}}}}`, "secrets.providers.vault.trustedDirs[0]"},
		{`{"hooks":{"mappings":[{"transform":{"module":"/abs/t.js"}}]}}`, "hooks.mappings[0].transform.module"},
		{`{"mcp":{"servers":{"docs":{"url":"ftp://mcp.example/x"}}}}`, "mcp.servers.docs.url"},
		{`{"mcp":{"servers":{"docs":{"url":"https://mcp.example/x","oauth":{"redirectUrl":"ftp://mcp.example/cb"}}}}}`, "mcp.servers.docs.oauth.redirectUrl"},
		{`{"nodeHost":{"mcp":{"servers":{"docs":{"url":"ftp://mcp.example/x"}}}}}`, "nodeHost.mcp.servers.docs.url"},
		{`{"nodeHost":{"mcp":{"servers":{"docs":{"url":"https://mcp.example/x","oauth":{"redirectUrl":"ftp://mcp.example/cb"}}}}}}`, "nodeHost.mcp.servers.docs.oauth.redirectUrl"},
		{`{"mcp":{"apps":{"sandboxOrigin":"https://apps.example/path"}}}`, "mcp.apps.sandboxOrigin"},
		{`{"secrets":{"egressProxy":{"bypassHosts":["*.example.com"]}}}`, "secrets.egressProxy.bypassHosts[0]"},
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
