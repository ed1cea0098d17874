package compile

import (
	"fmt"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/occkit/occkit"
)

// runtimeOnlyScopes are scopes whose entries' agentRuntime objects
// name only their runtime, which the walk reads as one literal, and near
// misses of every test runtimeOnly makes, which it walks: an id with an
// escape, one that is or may be a URL (each byte of urlBytes), of 32 and
// 33 bytes (the bound of mayBeURL), empty, not ASCII, not a string; another member before or
// after, a key spelled otherwise; the literal where it names no entry's
// runtime (below params, in a headers map), in a catalog's element (an
// entry) and beside pickerRuntimes.
var runtimeOnlyScopes = []string{
	`{"agentRuntime":{"id":"openclaw"}}`,
	`{"agentRuntime":{"id":"codex"}}`,
	`{"agentRuntime":{"id":""}}`,
	`{"agentRuntime":{"id":"日本語"}}`,
	`{"agentRuntime":{"id":"` + strings.Repeat("x", 32) + `"}}`,
	`{"agentRuntime":{"id":"openclaw"},"alias":"Model 0","params":{"maxTokens":1024,"temperature":0.5}}`,
	`{"agentRuntime":{"id":"codex"},"models":[{"agentRuntime":{"id":"openclaw"},"id":"m"},{"agentRuntime":{"id":"x:y"}}]}`,
	`{"agentRuntime":{"id":"` + strings.Repeat("x", 33) + `"}}`,
	`{"agentRuntime":{"id":"` + strings.Repeat("x", 31) + `:"}}`,
	`{"agentRuntime":{"id":"\u0063odex"}}`,
	`{"agentRuntime":{"id":"a\"b"}}`,
	`{"agentRuntime":{"id":"https://u:p@h/x?token=1"}}`,
	`{"agentRuntime":{"id":"svc:KEY@host"}}`,
	`{"agentRuntime":{"id":"a@b"}}`,
	`{"agentRuntime":{"id":"?x"}}`,
	`{"agentRuntime":{"id":"#x"}}`,
	`{"agentRuntime":{"id":"${TOKEN}"}}`,
	`{"agentRuntime":{"id":1}}`,
	`{"agentRuntime":{"id":"openclaw","apiKey":"k"}}`,
	`{"agentRuntime":{"id":"openclaw"},"apiKey":"k"}`,
	`{"agentRuntime":{"id":"openclaw"},"params":{"url":"https://h"}}`,
	`{"agentRuntime":{"apiKey":"k","id":"openclaw"}}`,
	`{"agentRuntime":{"id":"openclaw"},"id":"x"}`,
	`{"agentRuntime":{"i\u0064":"openclaw"}}`,
	`{"params":{"agentRuntime":{"id":"https://h?x"}},"x":{"agentRuntime":{"id":"codex"}}}`,
	`{"headers":{"agentRuntime":{"id":"openclaw"}}}`,
	`{"pickerRuntimes":["codex","a@b"],"agentRuntime":{"id":"openclaw"}}`,
	`{"agentRuntime":["openclaw"]}`,
	`{}`,
}

// runtimeOnlyDocument is a document with the scopes at every kind of
// models map the walk reads: the defaults', an agent entry's and the
// providers' (whose scopes are the providers).
func runtimeOnlyDocument(scopes []string) occkit.Document {
	var m []string
	for i, s := range scopes {
		m = append(m, fmt.Sprintf(`"p/m%d":%s`, i, s))
	}
	models := "{" + strings.Join(m, ",") + "}"
	src := `{"agents":{"defaults":{"model":"p/m0","models":` + models + `},"entries":{"main":{"models":` + models +
		`}}},"models":{"providers":` + strings.ReplaceAll(models, `"p/m`, `"p`) + `}}`
	doc, err := occkit.ParseDocument([]byte(src))
	if err != nil {
		panic(err)
	}
	return doc
}

// TestRuntimeOnlyScopesMatchOracle holds the walk that reads an entry's
// agentRuntime naming only its runtime as one literal to the scan's
// oracle (which walks it member by member): each scope of runtimeOnlyScopes
// alone and all of them together, with every extent kept (minKnown 0 and
// 1) and the default.
func TestRuntimeOnlyScopesMatchOracle(t *testing.T) {
	checkEachAndAll(t, runtimeOnlyScopes, runtimeOnlyDocument)
}

// checkEachAndAll holds the scan to its oracle on the document doc makes
// of each part alone and of all of them, with every extent kept
// (minKnown 0 and 1) and the default.
func checkEachAndAll(t *testing.T, parts []string, doc func([]string) occkit.Document) {
	t.Helper()
	pol := SecretPolicyFor("")
	defer func(n int) { minKnown = n }(minKnown)
	for _, known := range []int{0, 1, minKnown} {
		minKnown = known
		for _, p := range parts {
			checkScanOracle(t, doc([]string{p}), pol)
		}
		checkScanOracle(t, doc(parts), pol)
	}
}

// TestRuntimeOnlyScopesDrawn is TestRuntimeOnlyScopesMatchOracle on drawn
// lists of those scopes and of drawn runtime ids, so that the literal's
// ids (the set the plugins read) are compared between scopes of every
// kind.
func TestRuntimeOnlyScopesDrawn(t *testing.T) {
	pol := SecretPolicyFor("")
	ids := []string{"openclaw", "codex", "claude-cli", "", "x:y", "a@b", "a#b", "a?b", "é", `\u0041`, strings.Repeat("z", 32), strings.Repeat("z", 33)}
	rapid.Check(t, func(t *rapid.T) {
		defer func(n int) { minKnown = n }(minKnown)
		minKnown = rapid.SampledFrom([]int{0, 1, minKnown}).Draw(t, "minKnown")
		var scopes []string
		for range rapid.IntRange(1, 8).Draw(t, "scopes") {
			if rapid.Bool().Draw(t, "literal") {
				scopes = append(scopes, `{"agentRuntime":{"id":"`+rapid.SampledFrom(ids).Draw(t, "id")+`"}`+
					rapid.SampledFrom([]string{"", `,"alias":"a"`, `,"apiKey":"k"`, `,"models":[{"agentRuntime":{"id":"c"}}]`}).Draw(t, "rest")+"}")
			} else {
				scopes = append(scopes, rapid.SampledFrom(runtimeOnlyScopes).Draw(t, "scope"))
			}
		}
		checkScanOracle(t, runtimeOnlyDocument(scopes), pol)
	})
}

// TestRuntimeOnlyReadsTheLiteral: the agentRuntime objects the literal
// is for are read as one (the fast path does not decline what it is
// for), and their near misses are not.
func TestRuntimeOnlyReadsTheLiteral(t *testing.T) {
	for _, tc := range []struct {
		lit string
		id  string
		ok  bool
	}{
		{`{"id":"openclaw"}`, "openclaw", true},
		{`{"id":""}`, "", true},
		{`{"id":"日本語"}`, "日本語", true},
		{`{"id":"` + strings.Repeat("x", 32) + `"}`, strings.Repeat("x", 32), true},
		{`{"id":"` + strings.Repeat("x", 33) + `"}`, strings.Repeat("x", 33), true},
		{`{"id":"a:b"}`, "", false},
		{`{"id":"a\"b"}`, "", false},
		{`{"id":"openclaw","x":1}`, "", false},
		{`{"id":1}`, "", false},
	} {
		raw := `{"agentRuntime":` + tc.lit + `}`
		at := len(`{"agentRuntime":`)
		end, id := runtimeOnly(raw, at)
		if ok := end > 0; ok != tc.ok || ok && (end != at+len(tc.lit) || id != tc.id) {
			t.Errorf("runtimeOnly(%s) = %d, %q; want %v (end %d, id %q)", tc.lit, end, id, tc.ok, at+len(tc.lit), tc.id)
		}
	}
}
