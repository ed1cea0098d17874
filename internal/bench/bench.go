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
