package bench

import (
	"fmt"
	"strings"
)

// Sizes are the catalog sizes the benchmarks run.
var Sizes = []int{40, 1_000, 10_000}

// Configuration returns an embedded OpenClaw Configuration, as an author
// writes it (indented JSON), whose selectable catalog holds n models, each
// with the explicit openclaw policy RES-8 asks of a catalog model other
// than the primary, plus the surrounding settings a real one carries:
// fallbacks, one Agent entry, a provider, channels and logging.
func Configuration(n int) []byte {
	var b strings.Builder
	b.Grow(160 * (n + 8))
	b.WriteString("{\n  \"agents\": {\n    \"defaults\": {\n")
	b.WriteString("      \"model\": {\"primary\": \"anthropic/model-0\", \"fallbacks\": [\"anthropic/model-1\"]},\n")
	b.WriteString("      \"workspace\": \"/home/node/workspace\",\n      \"models\": {\n")
	for i := 0; i < n; i++ {
		sep := ","
		if i == n-1 {
			sep = ""
		}
		fmt.Fprintf(&b, "        \"anthropic/model-%d\": {\"alias\": \"Model %d\", \"agentRuntime\": {\"id\": \"openclaw\"}, \"params\": {\"temperature\": 0.%d, \"maxTokens\": %d}}%s\n",
			i, i, i%10, 1024+i, sep)
	}
	b.WriteString("      }\n    },\n    \"entries\": {\"main\": {\"tools\": {\"allow\": [\"read\", \"write\"]}}}\n  },\n")
	b.WriteString("  \"models\": {\"providers\": {\"anthropic\": {\"baseUrl\": \"https://api.anthropic.com\"}}},\n")
	b.WriteString("  \"channels\": {\"slack\": {\"enabled\": true, \"allowFrom\": [\"C01\", \"C02\"]}},\n")
	b.WriteString("  \"logging\": {\"level\": \"debug\", \"redactSensitive\": \"off\"}\n}\n")
	return []byte(b.String())
}

// Decision is one runtime decision (selection.Select) the decision
// benchmarks take on Configuration(n): a provider, a model ID and an agent.
type Decision struct {
	Provider, Model, AgentID string
}

// Decisions returns the four decisions the benchmarks take on
// Configuration(n): the primary model for the main agent, the last
// catalog model, a model the catalog does not hold (no policy: automatic
// selection) and a bare "provider/model" ref from the middle of the
// catalog. Each of the first, second and fourth decides from its
// model-map key; the third falls through every lookup.
func Decisions(n int) []Decision {
	return []Decision{
		{Provider: "anthropic", Model: "model-0", AgentID: "main"},
		{Provider: "anthropic", Model: fmt.Sprintf("model-%d", n-1)},
		{Provider: "anthropic", Model: "model-unlisted"},
		{Model: fmt.Sprintf("anthropic/model-%d", n/2)},
	}
}

// Compact returns an embedded OpenClaw Configuration written compact (no
// white space outside strings, as a control plane stores one) whose
// selectable catalog holds n models, each with the explicit openclaw
// policy RES-8 asks, an alias and params; every other model is a fallback
// of the primary and a row of the provider's catalog (RES-9 asks a row to
// be one or the other). It is the other document of the paired benchmarks
// (internal/bench/paired) beside the indented, flat [Configuration].
func Compact(n int) []byte {
	return compactWith(n, nil, defaultEntries)
}

// defaultEntries are the members of agents.entries of [Compact].
const defaultEntries = `"main":{"tools":{"allow":["read","write"]}},"helper":{"workspace":"/home/node/helper"}`

// compactWith is [Compact] with more members in each model's params
// (paramsOf(i), written after a comma, when paramsOf is not nil) and
// entries as the members of agents.entries.
func compactWith(n int, paramsOf func(i int) string, entries string) []byte {
	var b strings.Builder
	b.Grow(260*(n+8) + len(entries))
	ref := func(i int) string { return fmt.Sprintf("anthropic/model-%d", i) }
	b.WriteString(`{"agents":{"ownership":"explicit","defaults":{"model":{"primary":"` + ref(0) + `","fallbacks":[`)
	for i := 1; i < n; i += 2 {
		if i > 1 {
			b.WriteByte(',')
		}
		b.WriteString(`"` + ref(i) + `"`)
	}
	b.WriteString(`]},`)
	b.WriteString(`"workspace":"/home/node/workspace","models":{`)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"%s":{"alias":"Model %d","agentRuntime":{"id":"openclaw"},"params":{"temperature":0.%d,"maxTokens":%d`,
			ref(i), i, i%10, 1024+i)
		if paramsOf != nil {
			if p := paramsOf(i); p != "" {
				b.WriteString("," + p)
			}
		}
		b.WriteString("}}")
	}
	b.WriteString(`}},"entries":{` + entries + `}},`)
	b.WriteString(`"models":{"providers":{"anthropic":{"baseUrl":"https://api.anthropic.com","api":"anthropic-messages","models":[`)
	first := true
	for i := 1; i < n; i += 2 {
		if !first {
			b.WriteByte(',')
		}
		first = false
		fmt.Fprintf(&b, `{"id":"model-%d","name":"Model %d","contextWindow":128000,"maxTokens":8192,"input":["text"]}`, i, i)
	}
	b.WriteString(`]}}},"channels":{"slack":{"enabled":true,"allowFrom":["C01","C02"]}},"logging":{"level":"debug","redactSensitive":"off"}}`)
	return []byte(b.String())
}

// Document is one document of the paired benchmarks: its name and its
// generator. [Decisions] decide on each.
type Document struct {
	Name string
	Make func(n int) []byte
}

// Documents are the documents of the paired benchmarks: the compact one
// first, then the indented [Configuration].
var Documents = []Document{
	{"compact", Compact},
	{"indented", Configuration},
}
