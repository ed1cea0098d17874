package openclawdiff

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/occkit/occkit/compile"
)

// TestEnvNamesAgreeWithOpenClaw: DOC-4 — for every name OpenClaw's host
// environment policy lists, and variants of each (lower case, names under
// each prefix, the Cargo target pattern, OpenClaw's own switches,
// ordinary names), a configuration's env.vars defines the name in occkit
// ([compile.DefinedEnv]) exactly when OpenClaw's
// isConfigRuntimeEnvVarAllowed lets the configuration set it.
func TestEnvNamesAgreeWithOpenClaw(t *testing.T) {
	o := oracle(t)
	ctx := context.Background()
	first, err := o.Run(ctx, []any{map[string]any{"op": "envnames", "names": []string{}, "policy": true}})
	if err != nil {
		t.Fatal(err)
	}
	var policy struct {
		Keys     []string `json:"keys"`
		Prefixes []string `json:"prefixes"`
	}
	if err := json.Unmarshal(first[0], &policy); err != nil {
		t.Fatal(err)
	}
	if len(policy.Keys) < 100 || len(policy.Prefixes) == 0 {
		t.Fatalf("the oracle returned %d names and %d prefixes: not OpenClaw's policy", len(policy.Keys), len(policy.Prefixes))
	}
	names := []string{
		"A", "OPENAI_API_KEY", "SLACK_BOT_TOKEN", "ZAI_API_KEY", "Z_AI_API_KEY", "PATH_EXTRA", "LDX", "DYLDX",
		"OPENCLAW_INCLUDE_ROOTS", "OPENCLAW_CONFIG_READONLY", "OPENCLAW_ALLOW_OLDER_BINARY_DESTRUCTIVE_ACTIONS",
		"OPENCLAW_STATE_DIR", "openclaw_include_roots",
		"CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_LINKER", "CARGO_TARGET_X_RUNNER", "CARGO_TARGET__RUNNER",
		"CARGO_TARGET_X_RUNNERS", "cargo_target_x_linker", "CARGO_TARGET_DIR",
	}
	for _, k := range policy.Keys {
		names = append(names, k, strings.ToLower(k), k+"_X", "X_"+k)
	}
	for _, p := range policy.Prefixes {
		names = append(names, p+"X", strings.ToLower(p)+"x", strings.TrimSuffix(p, "_"))
	}
	slices.Sort(names)
	names = slices.Compact(names)
	res, err := o.Run(ctx, []any{map[string]any{"op": "envnames", "names": names}})
	if err != nil {
		t.Fatal(err)
	}
	var answer struct {
		Allowed []bool `json:"allowed"`
	}
	if err := json.Unmarshal(res[0], &answer); err != nil {
		t.Fatal(err)
	}
	if len(answer.Allowed) != len(names) {
		t.Fatalf("%d answers for %d names", len(answer.Allowed), len(names))
	}
	var b strings.Builder
	b.WriteString(`{"env":{"vars":{`)
	for i, n := range names {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%q:\"v\"", n)
	}
	b.WriteString(`}}}`)
	doc, err := compile.Load([]byte(b.String()), compile.LoadOptions{Limits: compile.Limits{MaxKeys: 4 * len(names)}})
	if err != nil {
		t.Fatal(err)
	}
	defined := compile.DefinedEnv(doc, compile.SecretPolicyFor(""))
	disagree := 0
	for i, n := range names {
		// ZAI_API_KEY is also defined by its alias, which is in names.
		occ := slices.Contains(defined, n)
		if occ != answer.Allowed[i] {
			disagree++
			if disagree <= 10 {
				t.Errorf("%s: occkit defines it: %v, OpenClaw lets a configuration set it: %v", n, occ, answer.Allowed[i])
			}
		}
	}
	t.Logf("%d names compared (%d of OpenClaw's policy names, %d prefixes), %d disagree", len(names), len(policy.Keys), len(policy.Prefixes), disagree)
}
