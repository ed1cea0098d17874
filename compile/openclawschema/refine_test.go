package openclawschema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/internal/tiers"
)

// cliOracle validates docs as `openclaw config validate --json` does,
// in one node process (testdata/cli-oracle.mjs).
func cliOracle(t testing.TB, dir string, docs [][]byte) []verdict {
	t.Helper()
	batch := writeBatch(t, docs)
	home := t.TempDir()
	cmd := exec.Command(nodeBin(dir), filepath.Join("testdata", "cli-oracle.mjs"), dir, batch)
	cmd.Env = append(os.Environ(), "HOME="+home, "OPENCLAW_STATE_DIR="+filepath.Join(home, "state"),
		"OPENCLAW_CONFIG_PATH="+filepath.Join(home, "openclaw.json"))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("cli oracle: %v\n%s", err, stderr.Bytes())
	}
	var verdicts []verdict
	if err := json.Unmarshal(out, &verdicts); err != nil || len(verdicts) != len(docs) {
		t.Fatalf("cli oracle answered %d verdicts for %d documents: %v", len(verdicts), len(docs), err)
	}
	return verdicts
}

// refinementCase is one generated setting for a refinement.
type refinementCase struct {
	class string
	path  []string // concrete keys; "0" is an array index
	value any
	base  map[string]any
}

// refinementValues are the values each kind of setting is tried with:
// the forms OpenClaw accepts, near misses and other types it refuses.
var refinementValues = map[string][]any{
	"duration": {"30m", "1h30m", "5x", "0", "", " ", "1.5h", "10", "0.5s", "1h 30m", "-1m", "30d", "59s", "1m", "abc", "2H",
		"1m30", "15ms", "0m", 0.0, 5.0, 1.5, "90s", "1d12h", "1e3"},
	"size":    {"2mb", "10", "1zb", "1.5kb", "", " 12 ", "mb", 12.0, 0.0, "3G", "1 mb", "-1", "0.5", "4tb", "7k"},
	"path":    {"/abs/x", "rel/x", "~", "~/x", "~x", " /x ", `C:\x`, `\\srv\share`, "../m.js", "a:b.js", "m.js", "./m.js", "", "sub/../m.js"},
	"url":     {"https://a.example/x", "http://localhost:3/", "http://127.0.0.1", "socks5://h:1", "ws://h", "https://u:p@h/", "https://h/?q=1", "https://h#f", "http://example.com", "https://[::1]:8/", "ftp://h/", "http://[::1]", "https://h", "HTTPS://H/"},
	"host":    {"example.com", "*.example.com", "https://x.com", "x.com:443", "10.0.0.1", "[::1]", "-bad.com", "exa mple.com", "EXAMPLE.COM.", "a..b", "010.1.1.1", "a_b.com", "::1", "x.com/p", ""},
	"agent":   {"ops", "Ops", " ops ", "x", "main", "MAIN", "o.ps", "-ops-", "work", "Work"},
	"roleKey": {"admin", "viewer", "nobody"},
	"ref": {
		map[string]any{"source": "file", "provider": "default", "id": "/providers/openai/apiKey"},
		map[string]any{"source": "file", "provider": "default", "id": "value"},
		map[string]any{"source": "file", "provider": "default", "id": "providers/openai"},
		map[string]any{"source": "file", "provider": "default", "id": "/a~2b"},
		map[string]any{"source": "file", "provider": "default", "id": "/a~0b/~1c"},
		map[string]any{"source": "file", "provider": "default", "id": ""},
		map[string]any{"source": "exec", "provider": "vault", "id": "openai/api-key"},
		map[string]any{"source": "exec", "provider": "vault", "id": "../etc"},
		map[string]any{"source": "exec", "provider": "vault", "id": "a/./b"},
		map[string]any{"source": "exec", "provider": "vault", "id": "-x"},
		map[string]any{"source": "exec", "provider": "vault", "id": "a b"},
		map[string]any{"source": "env", "provider": "default", "id": "OPENAI_API_KEY"},
		"${OPENAI_API_KEY}",
	},
	"policy": {
		map[string]any{"allow": []any{"read"}, "alsoAllow": []any{"exec"}},
		map[string]any{"allow": []any{}, "alsoAllow": []any{"exec"}},
		map[string]any{"allow": []any{"read"}, "alsoAllow": []any{}},
		map[string]any{"allow": []any{"read"}, "deny": []any{"exec"}},
		map[string]any{"alsoAllow": []any{"exec"}},
	},
	"acp": {
		map[string]any{"type": "acp", "agentId": "main", "match": map[string]any{"channel": "telegram", "peer": map[string]any{"kind": "direct", "id": "123"}}},
		map[string]any{"type": "acp", "agentId": "main", "match": map[string]any{"channel": "telegram", "peer": map[string]any{"kind": "direct", "id": " "}}},
		map[string]any{"type": "acp", "agentId": "main", "match": map[string]any{"channel": "telegram"}},
		map[string]any{"type": "route", "agentId": "main", "match": map[string]any{"channel": "telegram"}},
		map[string]any{"agentId": "main", "match": map[string]any{"channel": "telegram"}},
	},
	"hook": {
		map[string]any{"sessionMode": "persistent"},
		map[string]any{"sessionMode": "persistent", "sessionKey": "k"},
		map[string]any{"sessionMode": "persistent", "sessionKey": " "},
		map[string]any{"sessionMode": "persistent", "action": "wake"},
		map[string]any{"sessionMode": "persistent", "transform": map[string]any{"module": "t.js"}},
		map[string]any{"action": "agent"},
	},
	"group": {agents(15), agents(16), agents(17)},
	"talk":  {"openai", "OpenAI", " elevenlabs ", "missing", "", 3.0},
	"browser": {
		map[string]any{"cdpPort": 9222.0},
		map[string]any{"cdpUrl": "http://127.0.0.1:9222"},
		map[string]any{},
		map[string]any{"driver": "existing-session"},
		map[string]any{"driver": "existing-session", "userDataDir": "/u"},
		map[string]any{"cdpPort": 9222.0, "userDataDir": "/u"},
		map[string]any{"driver": "extension", "cdpUrl": "http://127.0.0.1:9222"},
		map[string]any{"driver": "extension"},
		map[string]any{"cdpPort": 0.0},
	},
	"headers": {
		map[string]any{},
		map[string]any{"X-Edge": "v"},
		map[string]any{"Host": "v"},
		map[string]any{"X-Edge": "v", "x-edge": "w"},
		map[string]any{"bad header": "v"},
		map[string]any{"X-Edge": map[string]any{"source": "env", "provider": "default", "id": "EDGE_TOKEN"}},
	},
	"time": {"08:00", "8:00", "24:00", "24:30", "23:59", "00:60", "", "noon", "12:00:00"},
	"exec": {
		map[string]any{"mode": "allowlist", "ask": "on-miss"},
		map[string]any{"mode": "allowlist"},
		map[string]any{"security": "allowlist", "ask": "on-miss"},
		map[string]any{"mode": "full", "security": "full"},
	},
}

func agents(n int) []any {
	out := make([]any, n)
	for i := range out {
		out[i] = "main"
	}
	return out
}

// refinementTargets are the settings the generator varies, with the
// value kind and the neighbours a setting needs.
var refinementTargets = []struct {
	class, path, kind string
	base              string
}{
	{"agent-reference", "talk.agentId", "agent", `{"agents":{"entries":{"ops":{},"Work":{}}}}`},
	{"agent-reference", "talk.agentId", "agent", `{}`},
	{"agent-reference", "agents.defaults.heartbeat.agentId", "agent", `{"agents":{"entries":{"ops":{}}}}`},
	{"agent-reference", "agents.defaults.systemAgent.agentId", "agent", `{"agents":{"entries":{"ops":{},"Work":{}},"ownership":"explicit"}}`},
	{"agent-reference", "bindings.0.agentId", "agent", `{"agents":{"entries":{"ops":{}}},"bindings":[{"match":{"channel":"telegram"}}]}`},
	{"agent-reference", "bindings.0.agentId", "agent", `{"bindings":[{"match":{"channel":"telegram"}}]}`},
	{"agent-reference", "broadcast.telegram:1.0", "agent", `{"agents":{"entries":{"ops":{}}},"broadcast":{"telegram:1":[]}}`},
	{"agent-reference", "broadcast.plain.0", "agent", `{"broadcast":{"plain":[]}}`},
	{"agent-reference", "broadcast.telegram:2.agents.0", "agent", `{"agents":{"entries":{"Work":{}}},"broadcast":{"telegram:2":{"agents":[]}}}`},
	{"duration", "agents.defaults.heartbeat.every", "duration", `{}`},
	{"duration", "agents.entries.ops.heartbeat.every", "duration", `{"agents":{"entries":{"ops":{}}}}`},
	{"duration", "session.maintenance.pruneAfter", "duration", `{}`},
	{"duration", "session.maintenance.archiveDashboardAfter", "duration", `{}`},
	{"duration", "session.maintenance.preserveRecent", "duration", `{}`},
	{"duration", "session.maintenance.resetArchiveRetention", "duration", `{}`},
	{"duration", "cron.sessionRetention", "duration", `{}`},
	{"duration", "cloudWorkers.profiles.w.suspendAfter", "duration", `{}`},
	{"byte-size", "session.maintenance.maxDiskBytes", "size", `{}`},
	{"byte-size", "session.maintenance.highWaterBytes", "size", `{}`},
	{"byte-size", "agents.defaults.compaction.maxActiveTranscriptBytes", "size", `{}`},
	{"byte-size", "agents.defaults.compaction.memoryFlush.forceFlushTranscriptBytes", "size", `{}`},
	{"absolute-path", "worktreeRoot", "path", `{}`},
	{"absolute-path", "desktop.host.passwordFile", "path", `{"desktop":{"host":{"enabled":true}}}`},
	{"absolute-path", "secrets.providers.vault.command", "path", `{"secrets":{"providers":{"vault":{"source":"exec"}}}}`},
	{"absolute-path", "secrets.providers.vault.trustedDirs.0", "path", `{"secrets":{"providers":{"vault":{"source":"exec","command":"/usr/bin/vault"}}}}`},
	{"absolute-path", "hooks.mappings.0.transform.module", "path", `{"hooks":{"mappings":[{"transform":{}}]}}`},
	{"url-scheme", "proxy.proxyUrl", "url", `{}`},
	{"url-scheme", "models.catalogRefresh.url", "url", `{}`},
	{"url-scheme", "mcp.apps.sandboxOrigin", "url", `{}`},
	{"url-scheme", "gateway.publicOrigin", "url", `{}`},
	{"url-scheme", "mcp.servers.docs.url", "url", `{}`},
	{"url-scheme", "mcp.servers.docs.oauth.redirectUrl", "url", `{"mcp":{"servers":{"docs":{"url":"https://mcp.example/x"}}}}`},
	{"url-scheme", "nodeHost.mcp.servers.docs.url", "url", `{}`},
	{"exact-host", "secrets.egressProxy.allowedHosts.0", "host", `{}`},
	{"exact-host", "secrets.egressProxy.bypassHosts.0", "host", `{}`},
	{"broadcast-key", "broadcast", "", `{}`},
	{"broadcast-size", "broadcast.telegram:9", "group", `{}`},
	{"broadcast-size", "broadcast.plain", "group", `{}`},
	{"secret-ref-id", "models.providers.vllm.apiKey", "ref", `{"models":{"providers":{"vllm":{"baseUrl":"http://127.0.0.1:8000/v1","models":[]}}}}`},
	{"secret-ref-id", "skills.entries.web.apiKey", "ref", `{}`},
	{"secret-ref-id", "talk.providers.openai.apiKey", "ref", `{}`},
	{"secret-ref-id", "cron.webhookToken", "ref", `{}`},
	{"secret-ref-id", "memory.search.remote.apiKey", "ref", `{}`},
	{"tools-allow", "tools", "policy", `{}`},
	{"tools-allow", "tools.byProvider.openai", "policy", `{}`},
	{"tools-allow", "tools.toolsBySender.ops", "policy", `{}`},
	{"tools-allow", "agents.entries.main.tools", "policy", `{}`},
	{"tools-allow", "tools.sandbox.tools", "policy", `{}`},
	{"acp-binding", "bindings.0", "acp", `{}`},
	{"talk-provider", "talk.provider", "talk", `{"talk":{"providers":{"openai":{},"elevenlabs":{}}}}`},
	{"talk-provider", "talk.provider", "talk", `{"talk":{"providers":{"openai":{}}}}`},
	{"talk-provider", "talk.realtime.provider", "talk", `{"talk":{"realtime":{"providers":{"openai":{},"elevenlabs":{}}}}}`},
	{"browser-profile", "browser.profiles.work", "browser", `{}`},
	{"edge-auth", "gateway.remote.edgeAuth", "headers", `{}`},
	{"active-hours", "agents.defaults.heartbeat.activeHours.start", "time", `{}`},
	{"active-hours", "agents.defaults.heartbeat.activeHours.end", "time", `{"agents":{"defaults":{"heartbeat":{"activeHours":{"start":"08:00"}}}}}`},
	{"active-hours", "agents.entries.main.heartbeat.activeHours.end", "time", `{}`},
	{"exec-mode", "tools.exec", "exec", `{}`},
	{"exec-mode", "agents.entries.main.tools.exec", "exec", `{}`},
	{"secret-ref-id", "channels.zalo.botToken", "ref", `{}`},
	{"hook-session", "hooks.mappings.0", "hook", `{}`},
	{"hook-session", "hooks.mappings.0", "hook", `{"hooks":{"defaultSessionKey":"main"}}`},
	{"gateway-roles", "gateway.roles.default", "roleKey", `{"gateway":{"roles":{"definitions":{"admin":{"capabilities":["admin"]}}}}}`},
	{"gateway-roles", "gateway.roles.default", "roleKey", `{"gateway":{"roles":{"definitions":{}}}}`},
}

// genRefinementCases draws n documents, each varying one target setting.
func genRefinementCases(rng *rand.Rand, n int) []refinementCase {
	var out []refinementCase
	for len(out) < n {
		tg := refinementTargets[rng.IntN(len(refinementTargets))]
		var base map[string]any
		if err := json.Unmarshal([]byte(tg.base), &base); err != nil {
			panic(err)
		}
		c := refinementCase{class: tg.class, path: strings.Split(tg.path, "."), base: base}
		if tg.kind == "" { // broadcast keys: a group object or a list under a key
			keys := []string{"telegram:1", "plain", "Slack:C1", "1x:a", "t:", "strategy"}
			k := keys[rng.IntN(len(keys))]
			c.path = []string{"broadcast", k}
			if k != "strategy" && rng.IntN(2) == 0 {
				c.value = map[string]any{"agents": []any{"main"}}
			} else if k != "strategy" {
				c.value = []any{"main"}
			} else {
				c.value = "parallel"
			}
		} else {
			vals := refinementValues[tg.kind]
			c.value = clone(vals[rng.IntN(len(vals))])
		}
		out = append(out, c)
	}
	return out
}

// build places the case's value at its path in a copy of its base.
func (c refinementCase) build() []byte {
	doc := c.base
	var cur any = doc
	for i, k := range c.path {
		last := i == len(c.path)-1
		switch x := cur.(type) {
		case map[string]any:
			if last {
				x[k] = c.value
				break
			}
			if _, ok := x[k]; !ok {
				if c.path[i+1] == "0" {
					x[k] = []any{}
				} else {
					x[k] = map[string]any{}
				}
			}
			if a, ok := x[k].([]any); ok && c.path[i+1] == "0" && len(a) == 0 {
				x[k] = []any{nil}
			}
			cur = x[k]
		case []any:
			if last {
				x[0] = c.value
				break
			}
			if x[0] == nil {
				x[0] = map[string]any{}
			}
			cur = x[0]
		}
	}
	b, err := json.Marshal(doc)
	if err != nil {
		panic(err)
	}
	return b
}

// TestRefinementDifferential measures the mirrored refinements against
// the real CLI's validation (testdata/cli-oracle.mjs): generated documents
// each vary one setting a refinement judges, with accepted forms, near
// misses and other types. For each document the question is whether the
// setting is refused (some refusal at its path or below); the check and
// OpenClaw must agree on every document, and on the whole verdict.
func TestRefinementDifferential(t *testing.T) {
	installs, run := openclawDirs(t, tiers.SchemaRefinement)
	for _, in := range installs {
		t.Run(in.version, func(t *testing.T) { refinementDifferential(t, in, run) })
	}
}

func refinementDifferential(t *testing.T, in installed, run *tiers.Run) {
	dir := in.dir
	v, err := ForRelease(in.version)
	if err != nil {
		t.Fatal(err)
	}
	n := 1500
	if testing.Short() {
		n = 300
	}
	cases := genRefinementCases(rand.New(rand.NewPCG(18, 2026)), n)
	docs := make([][]byte, len(cases))
	for i, c := range cases {
		docs[i] = c.build()
	}
	verdicts := cliOracle(t, dir, docs)
	type tally struct{ n, agree, refused, verdict, documented int }
	per := map[string]*tally{}
	var bad []string
	for i, c := range cases {
		doc, err := occkit.ParseDocument(docs[i])
		if err != nil {
			t.Fatal(err)
		}
		err = v.Validate(doc)
		target := strings.Join(c.path, ".")
		ours := refusedAt(ourPaths(err), target)
		theirPaths := issuePaths(verdicts[i])
		theirs := refusedAt(theirPaths, target)
		tl := per[c.class]
		if tl == nil {
			tl = &tally{}
			per[c.class] = tl
		}
		tl.n++
		if theirs {
			tl.refused++
		}
		if (err == nil) == verdicts[i].OK {
			tl.verdict++
		}
		switch {
		case ours == theirs:
			tl.agree++
		case !ours && documentedOnly(verdicts[i], target):
			tl.documented++
		case len(bad) < 30:
			bad = append(bad, fmt.Sprintf("%s at %s = %s: ours %v; OpenClaw %+v", c.class, target, clip(mustMarshal(c.value)), err, verdicts[i].Issues))
		}
	}
	run.Done(len(cases))
	classes := make([]string, 0, len(per))
	for c := range per {
		classes = append(classes, c)
	}
	sort.Strings(classes)
	total, agree, verdictAgree, documented := 0, 0, 0, 0
	for _, c := range classes {
		tl := per[c]
		total += tl.n
		agree += tl.agree
		verdictAgree += tl.verdict
		t.Logf("%-16s N=%4d refused by OpenClaw %4d, setting agreement %d (%.1f%%; %d more in documented divergences), verdict agreement %d",
			c, tl.n, tl.refused, tl.agree, 100*float64(tl.agree)/float64(tl.n-tl.documented), tl.documented, tl.verdict)
		documented += tl.documented
	}
	t.Logf("refinements: N=%d, setting agreement %d (%.2f%% outside %d documented divergences), whole verdict %d (%.2f%%)",
		total, agree, 100*float64(agree)/float64(total-documented), documented, verdictAgree, 100*float64(verdictAgree)/float64(total))
	for _, b := range bad {
		t.Error(b)
	}
}

// documentedOnly reports whether every refusal OpenClaw makes at target
// or below belongs to a row of UnmirroredRefinements.
func documentedOnly(theirs verdict, target string) bool {
	found := false
	for _, is := range theirs.Issues {
		p := normPath(is.Path)
		if !refusedAt([]string{p}, target) {
			continue
		}
		if unmirroredClass(p, is.Message) == "" {
			return false
		}
		found = true
	}
	return found
}

// clone copies a generated value, so that no two documents share one.
func clone(v any) any {
	var out any
	if err := json.Unmarshal(mustMarshal(v), &out); err != nil {
		panic(err)
	}
	return out
}

func mustMarshal(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

func ourPaths(err error) []string {
	var out []string
	for _, e := range occkit.Errors(err) {
		out = append(out, ourPath(e.Path))
	}
	return out
}

// refusedAt reports whether some path is target or below it.
func refusedAt(paths []string, target string) bool {
	for _, p := range paths {
		if p == target || strings.HasPrefix(p, target+".") {
			return true
		}
	}
	return false
}
