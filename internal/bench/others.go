package bench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// Others are documents of other shapes than [Documents], each the
// compact document with more (bare: less) of one kind of content, for
// measuring the paths on text the two benchmark documents do not hold
// (the paired program's -others run). They are reported, not judged by
// CI:
//
//   - prose: one model in eight carries a note of 230 characters of
//     prose in its params, long strings with spaces (folding, the scans of
//     a string's bytes);
//   - escaped: every model's note holds JSON escapes, accents, CJK and
//     an emoji (a character past the Basic Multilingual Plane, which YAML
//     writes as an escape);
//   - agents: agents.entries holds an Agent for every other model, each
//     with a name, a workspace, the primary model, an identity with an
//     emoji and a tool policy (the per-entry checks of resolution and of
//     OpenClaw's schema and refinements);
//   - sections: the compact document with the other sections a running
//     gateway's configuration holds (four channels, session, messages,
//     tools, hooks, cron, skills and commands), 1.4 KB whatever the
//     catalog's size (the schema's and refinements' work beside the
//     catalog);
//   - bare: only what the rules ask of each model (a runtime policy for a
//     selectable one, an ID and name for a catalog row): about 60 bytes a
//     model where compact has 190, so what admission and a render cost
//     whatever the document's size weighs most;
//   - rich: each catalog row carries what OpenClaw's own catalog rows do
//     (reasoning, two inputs, a cost table of four prices and limits),
//     numbers and nested objects where compact's rows are short;
//   - tabbed: compact indented with tabs, its lines ending in CRLF, the
//     white space a hand-edited file on another platform holds (U pays
//     for it, as Load does).
//
// At 10,000 models prose, escaped, agents, rich and tabbed exceed the
// document size limit (DOC-2, 2 MiB: 2.11, 2.65, 2.76, 2.30 and 3.04 MB;
// sections is 1.85 MB and bare 0.60 MB): the -others run measures 40 and
// 1,000.
var Others = []Document{
	{"prose", Prose},
	{"escaped", Escaped},
	{"agents", Agents},
	{"sections", Sections},
	{"bare", Bare},
	{"rich", Rich},
	{"tabbed", Tabbed},
}

// prose is the note of [Prose].
const prose = "Answers in plain words, cites the runbook section it used, and asks before it changes anything " +
	"outside the workspace; a long task is split into steps, each reported when it is done, with what is left."

// Prose is [Compact] with a note of prose in the params of one model in
// eight.
func Prose(n int) []byte {
	return compactWith(n, func(i int) string {
		if i%8 != 0 {
			return ""
		}
		return `"note":"` + prose + `"`
	}, defaultEntries)
}

// Escaped is [Compact] with a note holding escapes, accents, CJK and an
// emoji in every model's params.
func Escaped(n int) []byte {
	return compactWith(n, func(int) string {
		return `"note":"line one\nline \"two\"\tcaf\u00e9 naïve 日本語 🦞 \\ back\/slash"`
	}, defaultEntries)
}

// Agents is [Compact] with an Agent entry for every other model, each
// resolving to the one primary model (RES-3).
func Agents(n int) []byte {
	var e strings.Builder
	e.WriteString(`"main":{"tools":{"allow":["read","write"]}}`)
	for i := 0; i < n/2; i++ {
		fmt.Fprintf(&e, `,"agent-%d":{"name":"Agent %d","workspace":"/home/node/agent-%d","model":{"primary":"anthropic/model-0"},`+
			`"identity":{"name":"Bot %d","emoji":"🦞"},"tools":{"allow":["read"]}}`, i, i, i, i)
	}
	return compactWith(n, nil, e.String())
}

// sections are the sections [Sections] writes beside the catalog.
const sections = `"channels":{` +
	`"telegram":{"enabled":true,"dmPolicy":"allowlist","allowFrom":["123456789","987654321"],"groups":{"*":{"requireMention":true}}},` +
	`"whatsapp":{"dmPolicy":"pairing","allowFrom":["+15555550123","+15555550124"],"groups":{"*":{"requireMention":true}}},` +
	`"discord":{"enabled":true,"dm":{"enabled":true},"guilds":{"123456789012345678":{"slug":"friends","requireMention":false,` +
	`"channels":{"general":{"requireMention":false},"help":{"requireMention":true}}}}},` +
	`"slack":{"enabled":true,"channels":{"#general":{"requireMention":true}}}},` +
	`"session":{"dmScope":"per-channel-peer","reset":{"mode":"daily","atHour":4,"idleMinutes":60},"resetTriggers":["/new","/reset"]},` +
	`"messages":{"responsePrefix":"[{model}]","ackReaction":"👀","ackReactionScope":"group-mentions","queue":{"mode":"collect","cap":20}},` +
	`"tools":{"profile":"coding","allow":["read","write","exec"],"deny":["browser"],"exec":{"backgroundMs":10000},` +
	`"web":{"search":{"enabled":true,"maxResults":5},"fetch":{"enabled":true}}},` +
	`"hooks":{"enabled":true,"path":"/hooks","mappings":[{"match":{"path":"gmail"},"action":"agent","name":"Gmail",` +
	`"messageTemplate":"New email from {{messages[0].from}}"}]},` +
	`"cron":{"enabled":true},` +
	`"skills":{"allowBundled":["github","weather"],"entries":{"weather":{"enabled":true},"github":{"enabled":true}}},` +
	`"commands":{"native":"auto","text":true,"bash":false,"config":false,"restart":true}`

// Sections is [Compact] with the other sections of a running gateway's
// configuration in place of its one channel.
func Sections(n int) []byte {
	const channel = `"channels":{"slack":{"enabled":true,"allowFrom":["C01","C02"]}}`
	src := Compact(n)
	i := strings.Index(string(src), channel)
	return []byte(string(src[:i]) + sections + string(src[i+len(channel):]))
}

// Bare is a document with what the rules ask of n models and nothing
// else: the primary and every other model as a fallback, the others
// selectable with the openclaw policy RES-8 asks, and a provider whose
// policy covers its catalog rows (RES-6), each an ID and a name.
func Bare(n int) []byte {
	var b strings.Builder
	b.Grow(64 * (n + 4))
	ref := func(i int) string { return fmt.Sprintf("anthropic/model-%d", i) }
	b.WriteString(`{"agents":{"defaults":{"model":{"primary":"` + ref(0) + `","fallbacks":[`)
	for i := 1; i < n; i += 2 {
		if i > 1 {
			b.WriteByte(',')
		}
		b.WriteString(`"` + ref(i) + `"`)
	}
	b.WriteString(`]},"models":{`)
	for i := 0; i < n; i += 2 {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"` + ref(i) + `":{"agentRuntime":{"id":"openclaw"}}`)
	}
	b.WriteString(`}}},"models":{"providers":{"anthropic":{"baseUrl":"https://api.anthropic.com","api":"anthropic-messages",` +
		`"agentRuntime":{"id":"openclaw"},"models":[`)
	for i := 1; i < n; i += 2 {
		if i > 1 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":"model-%d","name":"Model %d"}`, i, i)
	}
	b.WriteString(`]}}}}`)
	return []byte(b.String())
}

// Rich is [Compact] whose catalog rows carry what OpenClaw's own
// catalog does: reasoning, inputs, a cost table and limits.
func Rich(n int) []byte {
	const (
		compactRow = `,"contextWindow":128000,"maxTokens":8192,"input":["text"]}`
		richRow    = `,"reasoning":true,"input":["text","image"],"cost":{"input":3,"output":15,"cacheRead":0.3,"cacheWrite":3.75},` +
			`"contextWindow":200000,"maxTokens":64000}`
	)
	return bytes.ReplaceAll(Compact(n), []byte(compactRow), []byte(richRow))
}

// Tabbed is [Compact] indented with tabs, lines ending in CRLF.
func Tabbed(n int) []byte {
	var b bytes.Buffer
	if err := json.Indent(&b, Compact(n), "", "\t"); err != nil {
		panic(err) // Compact writes valid JSON: a broken generator
	}
	return bytes.ReplaceAll(b.Bytes(), []byte("\n"), []byte("\r\n"))
}
