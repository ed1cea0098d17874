package bench

import (
	"fmt"
	"strings"
)

// Others are documents of other shapes than [Documents], each the
// compact document with more of one kind of content, for measuring the
// paths on text the two benchmark documents do not hold (the paired
// program's -others run). They are reported, not judged by CI:
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
//     OpenClaw's schema and refinements).
//
// At 10,000 models each exceeds the document size limit (DOC-2, 2 MiB:
// prose 2.11 MB, escaped 2.65 MB, agents 2.76 MB): the -others run
// measures 40 and 1,000.
var Others = []Document{
	{"prose", Prose},
	{"escaped", Escaped},
	{"agents", Agents},
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
