package compile_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/compile"
)

func TestRepair(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		want  string
		kinds []compile.ChangeKind
	}{
		{
			name:  "CMP-3 codex refs move to openai with model-scoped codex policy",
			in:    `{"agents":{"defaults":{"model":{"primary":"codex/gpt-5.5","fallbacks":["codex-cli/gpt-5.4","anthropic/x"]}}}}`,
			want:  `{"agents":{"defaults":{"model":{"primary":"openai/gpt-5.5","fallbacks":["openai/gpt-5.4","anthropic/x"]},"models":{"openai/gpt-5.5":{"agentRuntime":{"id":"codex"}},"openai/gpt-5.4":{"agentRuntime":{"id":"codex"}}}}}}`,
			kinds: []compile.ChangeKind{compile.ChangeRefRewritten, compile.ChangeRefRewritten, compile.ChangePolicySet, compile.ChangePolicySet},
		},
		{
			name: "CMP-3 CLI refs in every selection slot get their CLI runtime; media slots move without policy",
			in: `{"agents":{"entries":{"main":{"model":"openai/current","heartbeat":{"model":"claude-cli/hb","every":"2h"},
				"subagents":{"model":{"primary":"google-gemini-cli/sub","fallbacks":["anthropic-cli/sf"]}},"mediaModels":{"image":"google-gemini-cli/img"},
				"modelPolicy":{"allow":["claude-cli/a",7]}}}}}`,
			want: `{"agents":{"entries":{"main":{"model":"openai/current","heartbeat":{"model":"anthropic/hb","every":"2h"},
				"subagents":{"model":{"primary":"google/sub","fallbacks":["anthropic/sf"]}},"mediaModels":{"image":"google/img"},
				"modelPolicy":{"allow":["anthropic/a",7]},
				"models":{"anthropic/hb":{"agentRuntime":{"id":"claude-cli"}},"google/sub":{"agentRuntime":{"id":"google-gemini-cli"}},
					"anthropic/sf":{"agentRuntime":{"id":"claude-cli"}},
					"anthropic/a":{"agentRuntime":{"id":"claude-cli"}}}}}}}`,
		},
		{
			name: "CMP-3 a legacy key merges deeply into the canonical entry, which wins and keeps its pin",
			in: `{"agents":{"defaults":{"models":{"claude-cli/a":{"alias":"Legacy","params":{"temperature":0.3,"maxTokens":1200}},
				"anthropic/a":{"alias":"Canonical","params":{"temperature":0.8},"agentRuntime":{"id":"openclaw"}}}}}}`,
			want:  `{"agents":{"defaults":{"models":{"anthropic/a":{"alias":"Canonical","params":{"temperature":0.8,"maxTokens":1200},"agentRuntime":{"id":"openclaw"}}}}}}`,
			kinds: []compile.ChangeKind{compile.ChangeKeyMerged},
		},
		{
			name:  "CMP-3 a legacy key without a canonical entry is renamed in place",
			in:    `{"agents":{"defaults":{"models":{"a/x":{},"codex/gpt":{"alias":"G"},"z/y":{}}}}}`,
			want:  `{"agents":{"defaults":{"models":{"a/x":{},"openai/gpt":{"alias":"G","agentRuntime":{"id":"codex"}},"z/y":{}}}}}`,
			kinds: []compile.ChangeKind{compile.ChangeKeyRenamed, compile.ChangePolicySet},
		},
		{
			name: "CMP-3 a whole-agent CLI pin becomes policy for its own scope's selection on that provider only, then is removed",
			in: `{"agents":{"defaults":{"agentRuntime":{"id":"claude-cli"},"model":{"primary":"anthropic/opus","fallbacks":["openai/gpt"]}},
				"entries":{"main":{"model":"anthropic/sonnet"},"other":{"embeddedHarness":{"runtime":"pi"},"model":"anthropic/haiku"}}}}`,
			want: `{"agents":{"defaults":{"model":{"primary":"anthropic/opus","fallbacks":["openai/gpt"]},"models":{"anthropic/opus":{"agentRuntime":{"id":"claude-cli"}}}},
				"entries":{"main":{"model":"anthropic/sonnet"},"other":{"model":"anthropic/haiku"}}}}`,
			kinds: []compile.ChangeKind{compile.ChangePolicySet, compile.ChangePinRemoved, compile.ChangePinRemoved},
		},
		{
			name: "CMP-3 a pin covers neither other models keys nor subagents, and embeddedHarness or a string agentRuntime is no pin",
			in: `{"agents":{"defaults":{"agentRuntime":{"id":"claude-cli"},"model":"anthropic/opus","subagents":{"model":"anthropic/sub"},
				"models":{"anthropic/extra":{}}},
				"entries":{"a":{"embeddedHarness":{"runtime":"claude-cli"},"model":"anthropic/a"},"b":{"agentRuntime":"claude-cli","model":"anthropic/b"}}}}`,
			want: `{"agents":{"defaults":{"model":"anthropic/opus","subagents":{"model":"anthropic/sub"},
				"models":{"anthropic/extra":{},"anthropic/opus":{"agentRuntime":{"id":"claude-cli"}}}},
				"entries":{"a":{"model":"anthropic/a"},"b":{"model":"anthropic/b"}}}}`,
		},
		{
			// doctor turns the whole-agent pin into the canonical key first;
			// the legacy key then merges into it and the canonical entry wins.
			name: "CMP-3 a whole-agent CLI pin is written before legacy keys merge",
			in: `{"agents":{"defaults":{"model":"anthropic/claude-sonnet-4-6",
				"models":{"anthropic-cli/claude-sonnet-4-6":{"agentRuntime":{"id":"codex"}}},"agentRuntime":{"id":"claude-cli"}}}}`,
			want: `{"agents":{"defaults":{"model":"anthropic/claude-sonnet-4-6",
				"models":{"anthropic/claude-sonnet-4-6":{"agentRuntime":{"id":"claude-cli"}}}}}}`,
			kinds: []compile.ChangeKind{compile.ChangePolicySet, compile.ChangeKeyMerged, compile.ChangePinRemoved},
		},
		{
			name:  "CMP-3 whole-agent codex and auto pins are dropped without policy",
			in:    `{"agents":{"defaults":{"agentRuntime":{"id":"codex"},"embeddedHarness":{"runtime":"auto","fallback":"pi"},"model":"openai/gpt"}}}`,
			want:  `{"agents":{"defaults":{"model":"openai/gpt"}}}`,
			kinds: []compile.ChangeKind{compile.ChangePinRemoved, compile.ChangePinRemoved},
		},
		{
			name: "CMP-3 codex-cli runtime ids become codex everywhere",
			in: `{"models":{"providers":{"openai":{"agentRuntime":{"id":" Codex-CLI "},"models":[{"id":"a","agentRuntime":{"id":"codex-cli"}},"bare"]}}},
				"agents":{"list":[{"id":"main","models":{"openai/b":{"agentRuntime":{"id":"codex-cli","x":1}}}}]}}`,
			want: `{"models":{"providers":{"openai":{"agentRuntime":{"id":"codex"},"models":[{"id":"a","agentRuntime":{"id":"codex"}},"bare"]}}},
				"agents":{"list":[{"id":"main","models":{"openai/b":{"agentRuntime":{"id":"codex","x":1}}}}]}}`,
			kinds: []compile.ChangeKind{compile.ChangeRuntimeRenamed, compile.ChangeRuntimeRenamed, compile.ChangeRuntimeRenamed},
		},
		{
			name: "CMP-3 a concrete pin on the canonical key is never overwritten",
			in:   `{"agents":{"defaults":{"model":"codex/gpt","models":{"openai/gpt":{"agentRuntime":{"id":"openclaw"}}}}}}`,
			want: `{"agents":{"defaults":{"model":"openai/gpt","models":{"openai/gpt":{"agentRuntime":{"id":"openclaw"}}}}}}`,
		},
		{
			name: "CMP-3 CLI refs outside the agent slots are rewritten without policy",
			in: `{"agents":{"defaults":{"voiceModel":"claude-cli/v","compaction":{"memoryFlush":{"model":"anthropic-cli/f"}},
				"imageModel":{"primary":"google-gemini-cli/i","fallbacks":["codex-cli/j"]}}},
				"channels":{"modelByChannel":{"discord":{"*":"claude-cli/c"}}},"hooks":{"mappings":[{"model":"claude-cli/h"}]},
				"messages":{"tts":{"summaryModel":"claude-cli/s"}},"plugins":{"entries":{"p":{"config":{"allowedModels":["claude-cli/a",1]}}}}}`,
			want: `{"agents":{"defaults":{"voiceModel":"anthropic/v","compaction":{"memoryFlush":{"model":"anthropic/f"}},
				"imageModel":{"primary":"google/i","fallbacks":["openai/j"]}}},
				"channels":{"modelByChannel":{"discord":{"*":"anthropic/c"}}},"hooks":{"mappings":[{"model":"anthropic/h"}]},
				"messages":{"tts":{"summaryModel":"anthropic/s"}},"plugins":{"entries":{"p":{"config":{"allowedModels":["anthropic/a",1]}}}}}`,
		},
		{
			name:  "CMP-3 a media provider/model pair moves together",
			in:    `{"tools":{"media":{"audio":{"preferredModel":"google-gemini-cli/g"},"models":[{"provider":"google-gemini-cli","model":"g","capabilities":["audio"]}]}}}`,
			want:  `{"tools":{"media":{"audio":{"preferredModel":"google/g"},"models":[{"provider":"google","model":"g","capabilities":["audio"]}]}}}`,
			kinds: []compile.ChangeKind{compile.ChangeRefRewritten, compile.ChangeRefRewritten},
		},
		{
			name: "CMP-3 outside agent scopes codex refs stay and models keys merge without policy",
			in: `{"hooks":{"mappings":[{"model":"codex/gpt"}]},"x":{"provider":"openai","model":"claude-cli/q"},
				"plugins":{"entries":{"p":{"config":{"models":{"claude-cli/a":{"x":1,"y":{"k":1}},"anthropic/a":{"y":{"j":2}}}}}}}}`,
			want: `{"hooks":{"mappings":[{"model":"codex/gpt"}]},"x":{"provider":"openai","model":"claude-cli/q"},
				"plugins":{"entries":{"p":{"config":{"models":{"anthropic/a":{"y":{"j":2,"k":1},"x":1}}}}}}}`,
			kinds: []compile.ChangeKind{compile.ChangeKeyMerged},
		},
		{
			name: "CMP-3 prototype keys are dropped from both sides of a merge, and only there",
			in: `{"agents":{"defaults":{"models":{
				"claude-cli/a":{"params":{"maxTokens":1200,"constructor":{"polluted":true}},"l":[{"prototype":1}]},
				"anthropic/a":{"params":{"temperature":0.8,"__proto__":{"polluted":true}}},
				"claude-cli/b":{"constructor":1}}}}}`,
			want: `{"agents":{"defaults":{"models":{
				"anthropic/a":{"params":{"temperature":0.8,"maxTokens":1200},"l":[{}],"agentRuntime":{"id":"claude-cli"}},
				"anthropic/b":{"constructor":1,"agentRuntime":{"id":"claude-cli"}}}}}}`,
		},
		{
			// doctor's canonical-refs migration: an unpadded key a padded
			// one merges into wins, wherever it stands.
			name: "padded models keys merge into their trimmed key, which wins",
			in: `{"agents":{"defaults":{"models":{" vllm/m":{"alias":"P","agentRuntime":{"id":"codex"}},"vllm/m":{"params":{"t":1},"agentRuntime":{"id":"openclaw"}},
				"Vllm/n @work ":{"alias":"N"},"x/y ":{"alias":"first"}," x/y":{"alias":"second","z":1}}}},
				"plugins":{"entries":{"p":{"config":{"models":{"a/b ":{"k":1}}}}}}}`,
			want: `{"agents":{"defaults":{"models":{"vllm/m":{"params":{"t":1},"agentRuntime":{"id":"openclaw"},"alias":"P"},
				"Vllm/n@work":{"alias":"N"},"x/y":{"alias":"first","z":1}}}},
				"plugins":{"entries":{"p":{"config":{"models":{"a/b":{"k":1}}}}}}}`,
			kinds: []compile.ChangeKind{compile.ChangeKeyMerged, compile.ChangeKeyRenamed, compile.ChangeKeyRenamed, compile.ChangeKeyMerged, compile.ChangeKeyRenamed},
		},
		{
			name: "padded model refs are trimmed where doctor reads a ref; a model-suffix profile keeps its space",
			in: `{"agents":{"defaults":{"model":{"primary":" vllm/m ","fallbacks":["a/b @ work"," ","c/d@ q4"]},"subagents":{"model":"e/f "}}},
				"tools":{"media":{"models":[{"provider":" vllm","model":"m"}]}}}`,
			want: `{"agents":{"defaults":{"model":{"primary":"vllm/m","fallbacks":["a/b@work","","c/d@ q4"]},"subagents":{"model":"e/f"}}},
				"tools":{"media":{"models":[{"provider":"vllm","model":"m"}]}}}`,
			kinds: []compile.ChangeKind{compile.ChangeRefRewritten, compile.ChangeRefRewritten, compile.ChangeRefRewritten, compile.ChangeRefRewritten, compile.ChangeRefRewritten},
		},
		{
			// OpenClaw 2026.9.6 doctor, asked through oracle.mjs (its
			// modelPolicy.allow, outside CMP-3, left out): once a padded
			// key makes it rewrite a models map, a blank key is trimmed
			// to "" too, and the first blank key in author order wins,
			// the unpadded "" included; a blank key alone, or beside a
			// legacy key, stays.
			name: "blank models keys are trimmed along with a padded key, the first winning",
			in: `{"agents":{"defaults":{"models":{"   ":{"alias":"x","q":2},"":{"alias":"z","p":1}," a/b":{"alias":"y"}}},
				"entries":{"e":{"models":{"":{"alias":"z","p":1},"c/d ":{"alias":"x","q":2},"   ":{"alias":"w","q":3}}},
				"f":{"models":{"  ":{"alias":"x"},"codex/q":{}}},"g":{"models":{"  ":{"alias":"x"}}}}}}`,
			want: `{"agents":{"defaults":{"models":{"":{"alias":"x","q":2,"p":1},"a/b":{"alias":"y"}}},
				"entries":{"e":{"models":{"":{"alias":"z","p":1,"q":3},"c/d":{"alias":"x","q":2}}},
				"f":{"models":{"  ":{"alias":"x"},"openai/q":{"agentRuntime":{"id":"codex"}}}},"g":{"models":{"  ":{"alias":"x"}}}}}}`,
			kinds: []compile.ChangeKind{compile.ChangeKeyRenamed, compile.ChangeKeyMerged, compile.ChangeKeyRenamed,
				compile.ChangeKeyRenamed, compile.ChangeKeyMerged, compile.ChangeKeyRenamed, compile.ChangePolicySet},
		},
		{
			// OpenClaw 2026.9.6 doctor, asked through oracle.mjs: the pair is
			// read as "provider/model", trimmed, and split at the first "/"
			// again, so a blank model becomes "" and a provider padded on
			// its right keeps its space.
			name:  "a provider/model pair with a blank model is trimmed as one ref",
			in:    `{"x":{"provider":"p","model":" "},"w":{"provider":"p ","model":" "},"z":{"provider":"claude-cli","model":" "}}`,
			want:  `{"x":{"provider":"p","model":""},"w":{"provider":"p ","model":""},"z":{"provider":"claude-cli","model":""}}`,
			kinds: []compile.ChangeKind{compile.ChangeRefRewritten, compile.ChangeRefRewritten, compile.ChangeRefRewritten},
		},
		{
			// doctor's order: whole-agent pin, then trimming, then legacy keys.
			name: "CMP-3 a whole-agent CLI pin is written before padded keys merge",
			in: `{"agents":{"defaults":{"model":"anthropic/x","agentRuntime":{"id":"claude-cli"},
				"models":{" anthropic/x":{"agentRuntime":{"id":"codex"},"alias":"X"}," codex/y":{"alias":"Y"}}}}}`,
			want: `{"agents":{"defaults":{"model":"anthropic/x",
				"models":{"anthropic/x":{"agentRuntime":{"id":"claude-cli"},"alias":"X"},"openai/y":{"alias":"Y","agentRuntime":{"id":"codex"}}}}}}`,
		},
		{
			// doctor gives each legacy key its policy as it merges it, and
			// would end with codex here.
			name: "CMP-3 a concrete pin of a later legacy key is kept when legacy keys merge",
			in:   `{"agents":{"defaults":{"models":{"codex-cli/g":{},"codex/g":{"alias":"fast","agentRuntime":{"id":"claude-cli"}}}}}}`,
			want: `{"agents":{"defaults":{"models":{"openai/g":{"alias":"fast","agentRuntime":{"id":"claude-cli"}}}}}}`,
		},
		{
			name: "CMP-3 a null canonical entry in an agent scope gives way to the legacy entry",
			in:   `{"agents":{"defaults":{"models":{"openai/g":null,"codex/g":{"alias":"fast"}}}}}`,
			want: `{"agents":{"defaults":{"models":{"openai/g":{"alias":"fast","agentRuntime":{"id":"codex"}}}}}}`,
		},
		{
			name: "CMP-3 non-refs, aliases and wrong shapes are left alone",
			in:   `{"agents":{"defaults":{"model":"fast","subagents":{"model":"codex/"},"models":"nope"},"entries":{"a":"x"}},"models":{"providers":{"p":[]}}}`,
			want: `{"agents":{"defaults":{"model":"fast","subagents":{"model":"codex/"},"models":"nope"},"entries":{"a":"x"}},"models":{"providers":{"p":[]}}}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := occkit.MustParseDocument(tt.in)
			before := in.String()
			got, changes, err := compile.Repair(in)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(jsonValue(t, tt.want), jsonValue(t, got.String())); d != "" {
				t.Errorf("repaired document (-want +got):\n%s", d)
			}
			if tt.kinds != nil {
				var kinds []compile.ChangeKind
				for _, c := range changes {
					kinds = append(kinds, c.Kind)
				}
				if d := cmp.Diff(tt.kinds, kinds); d != "" {
					t.Errorf("change kinds (-want +got):\n%s", d)
				}
			}
			if in.String() != before {
				t.Error("CMP-3: input changed")
			}
			again, more, err := compile.Repair(got)
			if err != nil || len(more) != 0 || !again.Equal(got) {
				t.Errorf("CMP-3 not idempotent: %v %v", more, err)
			}
		})
	}
}

func TestRepairCanonicalIsByteIdentical(t *testing.T) {
	src := `{"agents":{"defaults":{"model":"anthropic/opus","models":{"anthropic/opus":{"agentRuntime":{"id":"claude-cli"}}}}},"x":[3,1]}`
	in := occkit.MustParseDocument(src)
	out, changes, err := compile.Repair(in)
	if err != nil || len(changes) != 0 || out.String() != in.String() {
		t.Fatalf("canonical document changed: %v %v %s", changes, err, out)
	}
}

// TestChangeKindsMapped: every ChangeKind is distinct and produced by Repair.
func TestChangeKindsMapped(t *testing.T) {
	doc := occkit.MustParseDocument(`{"agents":{"defaults":{"agentRuntime":{"id":"auto"},"model":"codex/a",
		"models":{"claude-cli/b":{},"anthropic/b":{},"codex-cli/c":{},"openai/d":{"agentRuntime":{"id":"codex-cli"}}}}},
		"models":{"providers":{"x":{"api":"openai-codex-responses"},"codex":{"models":[{"id":"q"}]}}}}`)
	_, changes, err := compile.Repair(doc)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[compile.ChangeKind]bool{}
	for _, c := range changes {
		seen[c.Kind] = true
		if !strings.HasPrefix(c.String(), string(c.Kind)+" ") {
			t.Errorf("Change.String() = %q", c.String())
		}
	}
	distinct := map[compile.ChangeKind]bool{}
	for _, k := range compile.AllChangeKinds() {
		if distinct[k] || k == "" {
			t.Errorf("kind %q duplicated or empty", k)
		}
		distinct[k] = true
		if !seen[k] {
			t.Errorf("kind %q never produced", k)
		}
	}
}

// repairDoc draws configurations full of legacy shapes.
func repairDoc(t *rapid.T) string {
	provider := rapid.SampledFrom([]string{"codex", "codex-cli", "claude-cli", "anthropic-cli", "google-gemini-cli",
		"openai", "anthropic", "google", "Codex", "fast"})
	ref := func(label string) string {
		p := provider.Draw(t, label+"p")
		if p == "fast" {
			return p
		}
		return p + "/" + rapid.SampledFrom([]string{"m", "v/m", "x", "*"}).Draw(t, label+"m")
	}
	runtime := rapid.SampledFrom([]string{"codex", "codex-cli", "claude-cli", "google-gemini-cli", "auto", "openclaw", "pi", ""})
	scope := func(label string) map[string]any {
		s := map[string]any{}
		if rapid.Bool().Draw(t, label+"str") {
			s["model"] = ref(label + "model")
		} else {
			var fb []any
			for i, n := 0, rapid.IntRange(0, 3).Draw(t, label+"nfb"); i < n; i++ {
				fb = append(fb, ref(label+"fb"))
			}
			s["model"] = map[string]any{"primary": ref(label + "primary"), "fallbacks": fb}
		}
		models := map[string]any{}
		for i, n := 0, rapid.IntRange(0, 4).Draw(t, label+"nm"); i < n; i++ {
			e := map[string]any{"params": map[string]any{"k": rapid.IntRange(0, 3).Draw(t, label+"param")}}
			if rt := runtime.Draw(t, label+"rt"); rt != "" {
				e["agentRuntime"] = map[string]any{"id": rt}
			}
			models[ref(label+"key")] = e
		}
		s["models"] = models
		if rt := runtime.Draw(t, label+"pin"); rt != "" {
			s["agentRuntime"] = map[string]any{"id": rt}
		}
		if rapid.Bool().Draw(t, label+"harness") {
			s["embeddedHarness"] = map[string]any{"runtime": runtime.Draw(t, label+"eh")}
		}
		return s
	}
	doc := map[string]any{
		"agents": map[string]any{"defaults": scope("d"), "entries": map[string]any{"main": scope("e1"), "paige": scope("e2")}},
		"models": map[string]any{"providers": map[string]any{"openai": map[string]any{
			"agentRuntime": map[string]any{"id": runtime.Draw(t, "prt")},
			"models":       []any{map[string]any{"id": "m", "agentRuntime": map[string]any{"id": runtime.Draw(t, "rowrt")}}},
		}}},
		"x-unknown": map[string]any{"b": 1, "a": []any{"z"}},
	}
	b, _ := json.Marshal(doc)
	return string(b)
}

// TestRepairProperties: Repair is idempotent, never mutates its input,
// keeps unknown settings byte-for-byte and leaves no legacy ref, codex-cli
// runtime or whole-agent key behind (CMP-3, DOC-3).
func TestRepairProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := occkit.MustParseDocument(repairDoc(t))
		before := in.Bytes()
		out, _, err := compile.Repair(in)
		if err != nil {
			t.Fatal(err)
		}
		if string(in.Bytes()) != string(before) {
			t.Fatal("input changed")
		}
		again, changes, err := compile.Repair(out)
		if err != nil || len(changes) != 0 || !again.Equal(out) {
			t.Fatalf("second pass made changes %v (%v):\n%s", changes, err, out)
		}
		if got, want := out.Get(occkit.NewPath("x-unknown")).Raw(), in.Get(occkit.NewPath("x-unknown")).Raw(); got != want {
			t.Fatalf("unknown setting changed: %s", got)
		}
		s := out.String()
		for _, legacy := range []string{`"codex/`, `"codex-cli`, `"claude-cli/`, `"anthropic-cli/`, `"google-gemini-cli/`, `"embeddedHarness"`} {
			if strings.Contains(s, legacy) {
				t.Fatalf("legacy %s left in %s", legacy, s)
			}
		}
		for _, scope := range []occkit.Path{occkit.NewPath("agents", "defaults"), occkit.NewPath("agents", "entries", "main")} {
			if out.Has(scope.Key("agentRuntime")) {
				t.Fatalf("whole-agent pin left at %s", scope)
			}
		}
	})
}

func FuzzRepair(f *testing.F) {
	for _, s := range []string{
		`{}`, `[]`, `null`, `{"agents":1}`,
		`{"agents":{"defaults":{"model":"codex/gpt-5.5","models":{"openai/gpt-5.5":{"agentRuntime":{"id":"auto"}}}}}}`,
		`{"agents":{"defaults":{"agentRuntime":{"id":"claude-cli"},"model":{"primary":"anthropic/a","fallbacks":["claude-cli/b",1,null]}},"entries":{"m":{"models":{"claude-cli/b":null,"anthropic/b":"x"}}}}}`,
		`{"models":{"providers":{"openai":{"agentRuntime":"codex-cli","models":[{"agentRuntime":{"id":"codex-cli"}}]}}},"agents":{"list":[{"embeddedHarness":"x"}]}}`,
		`{"agents":{"defaults":{"models":{"codex/a":{"p":{"q":1}},"codex-cli/a":{"p":{"r":2}},"openai/a":{"p":{"q":3}}}}}}`,
		`{"agents":{"defaults":{"model":" v/m @ w ","models":{" v/m":{"a":1},"v/m ":{"b":2}," codex/x":{},"codex/x":null}}},"x":{"models":{" a/b":{}},"provider":" p","model":"m"}}`,
		`{"agents":{"defaults":{"model":"codex/m","modelPolicy":{"allow":["codex/*"]}}},"models":{"providers":{"codex":{"api":"openai-codex-responses","models":[{"id":"m"}]}}}}`,
		`{"agents":{"defaults":{"model":"codex/m"}},"models":{"providers":{"openai":{"apiKey":"k","models":[{"id":"a"}]},"Codex":{"params":{"t":1},"models":[{"id":"m","agentRuntime":{"id":"auto"}},{"name":"n"},1]},"openai-codex":{"models":[{"id":"a"}]}}}}`,
		`{"models":{"providers":{"OpenAI":"x","codex":{"agentRuntime":{"id":"pi"},"baseUrl":"b","models":[{"id":"m"}]},"openai-codex":{"models":[{"id":"m","name":"y"}]}}}}`,
		`{"models":{"providers":{"codex":{"apiKey":"k","models":[{"id":"m","agentRuntime":{"id":"auto"}}]},"openai":{"apiKey":"k","agentRuntime":{"id":"codex-cli"},"models":[{"id":"m"}]}}}}`,
		`{"models":{"providers":{"codex":{"models":[{"id":"m","api":"openai-chatgpt-responses","agentRuntime":{"id":"codex"}}]},"openai":{"models":[{"id":"m","api":"openai-codex-responses","agentRuntime":{"id":"codex"}}]}}}}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		in, err := occkit.ParseDocument([]byte(s))
		if err != nil {
			return
		}
		before := in.String()
		out, _, err := compile.Repair(in)
		if err != nil {
			if _, ok := err.(*occkit.Error); !ok {
				t.Fatalf("unstructured error %T: %v", err, err)
			}
			return
		}
		if in.String() != before {
			t.Fatal("input changed")
		}
		if !json.Valid(out.Bytes()) {
			t.Fatalf("invalid output %s", out)
		}
		again, changes, err := compile.Repair(out)
		if err != nil || len(changes) != 0 || !again.Equal(out) {
			t.Fatalf("not idempotent: %v %v\n%s\n%s", changes, err, out, again)
		}
	})
}

func BenchmarkRepair(b *testing.B) {
	var models []string
	for i := 0; i < 20; i++ {
		models = append(models, fmt.Sprintf(`"claude-cli/m%d":{"params":{"t":%d}},"anthropic/m%d":{"alias":"a"}`, i, i, i))
	}
	doc := occkit.MustParseDocument(`{"agents":{"defaults":{"agentRuntime":{"id":"claude-cli"},"model":{"primary":"codex/gpt","fallbacks":["claude-cli/m1","anthropic/m2"]},"models":{` +
		strings.Join(models, ",") + `}},"entries":{"main":{"model":"codex-cli/gpt"}}},"channels":{"slack":{"enabled":true}}}`)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, _, err := compile.Repair(doc); err != nil {
			b.Fatal(err)
		}
	}
}

// TestRepairManyScopes: every entry and list item is repaired in place with
// its own changes at their whole-document paths, whichever scopes are
// untouched (CMP-3; scopes are repaired one by one and written back once).
func TestRepairManyScopes(t *testing.T) {
	tests := []struct {
		name  string
		n     int
		every int // every n-th scope holds a legacy ref
	}{
		{name: "one scope", n: 1, every: 1},
		{name: "all scopes repaired", n: 200, every: 1},
		{name: "some scopes untouched", n: 200, every: 9},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var entries, list, wantEntries, wantList []string
			legacy := 0
			for i := 0; i < tt.n; i++ {
				if i%tt.every == 0 {
					legacy++
					entries = append(entries, fmt.Sprintf(`"e%d":{"model":"claude-cli/m%d"}`, i, i))
					wantEntries = append(wantEntries, fmt.Sprintf(`"e%d":{"model":"anthropic/m%d","models":{"anthropic/m%d":{"agentRuntime":{"id":"claude-cli"}}}}`, i, i, i))
					list = append(list, fmt.Sprintf(`{"id":"l%d","agentRuntime":{"id":"auto"},"model":"openai/m%d"}`, i, i))
					wantList = append(wantList, fmt.Sprintf(`{"id":"l%d","model":"openai/m%d"}`, i, i))
				} else {
					entries = append(entries, fmt.Sprintf(`"e%d":{"model":"anthropic/m%d"}`, i, i))
					wantEntries = append(wantEntries, entries[len(entries)-1])
					list = append(list, fmt.Sprintf(`{"id":"l%d"}`, i))
					wantList = append(wantList, list[len(list)-1])
				}
			}
			in := `{"agents":{"entries":{` + strings.Join(entries, ",") + `},"list":[` + strings.Join(list, ",") + `]}}`
			want := `{"agents":{"entries":{` + strings.Join(wantEntries, ",") + `},"list":[` + strings.Join(wantList, ",") + `]}}`
			got, changes, err := compile.Repair(occkit.MustParseDocument(in))
			if err != nil {
				t.Fatal(err)
			}
			if got.String() != want {
				t.Errorf("repaired:\n got %.300s\nwant %.300s", got.String(), want)
			}
			// Each legacy entry: ref rewritten + policy set; each pinned item: pin removed.
			if len(changes) != 3*legacy {
				t.Errorf("%d changes, want %d", len(changes), 3*legacy)
			}
			for _, c := range changes {
				if !got.Has(c.Path) && c.Kind != compile.ChangePinRemoved {
					t.Errorf("change %s names a path absent from the result", c)
				}
			}
		})
	}
}

// TestRepairCodexProviders: the legacy Codex provider entries (CMP-3).
// Every expected document is OpenClaw 2026.9.6's `doctor --fix` answer,
// asked through internal/openclawdiff/oracle.mjs, byte for byte (member
// order included); where one doctor pass is not idempotent, its answer on
// a second pass (so noted). Where doctor would imply a primary model from the first
// catalog row (its utility-model-separation migration, the
// implicit-primary divergence) the input names a model.
func TestRepairCodexProviders(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{
			name: "a codex entry without an openai entry moves there, its rows stamped with the codex runtime",
			in:   `{"agents":{"defaults":{"model":"anthropic/x"}},"models":{"providers":{"codex":{"models":[{"id":"m"}]}}}}`,
			want: `{"agents":{"defaults":{"model":"anthropic/x"}},"models":{"providers":{"openai":{"models":[{"id":"m","agentRuntime":{"id":"codex"}}]}}}}`,
		},
		{
			// As doctor: an openai key that is no object reads as {} for
			// each legacy entry, so each merge writes providers.openai
			// afresh and the last one wins.
			name: "beside an openai key that is no object, each merge writes providers.openai afresh",
			in:   `{"agents":{"defaults":{"model":"codex/a"}},"models":{"providers":{" openai":null,"codex":{"models":[{"id":"a"}]},"openai-codex":{"models":[{"id":"b"}]}}}}`,
			want: `{"agents":{"defaults":{"model":"openai/a","models":{"openai/a":{"agentRuntime":{"id":"codex"}}}}},"models":{"providers":{" openai":null,"openai":{"models":[{"id":"b"}]}}}}`,
		},
		{
			// As doctor: the blocking plan needs an openai object, so the
			// entry kept beside a null openai does not keep its refs.
			name: "an entry kept beside an openai key that is no object does not block its refs",
			in:   `{"agents":{"defaults":{"model":"codex/a"}},"models":{"providers":{"openai":null,"codex":{"apiKey":"${K}","models":[{"id":"a"}]}}}}`,
			want: `{"agents":{"defaults":{"model":"openai/a","models":{"openai/a":{"agentRuntime":{"id":"codex"}}}}},"models":{"providers":{"openai":null,"codex":{"apiKey":"${K}","models":[{"id":"a"}]}}}}`,
		},
		{
			name: "an allow that is no array names no wildcard",
			in:   `{"agents":{"defaults":{"model":"codex/a","modelPolicy":{"allow":"codex/*"}}}}`,
			want: `{"agents":{"defaults":{"model":"openai/a","modelPolicy":{"allow":"codex/*"},"models":{"openai/a":{"agentRuntime":{"id":"codex"}}}}}}`,
		},
		{
			name: "an openai entry's apiKey blocks the merge, so the entry and its codex refs stay",
			in:   `{"agents":{"defaults":{"model":"codex/m"}},"models":{"providers":{"openai":{"apiKey":"${K}","models":[{"id":"a"}]},"codex":{"models":[{"id":"m"}]}}}}`,
			want: `{"agents":{"defaults":{"model":"codex/m"}},"models":{"providers":{"openai":{"apiKey":"${K}","models":[{"id":"a"}]},"codex":{"models":[{"id":"m"}]}}}}`,
		},
		{
			name: "a codex/* wildcard blocks the provider: entry, refs, keys and allow stay, api not renamed",
			in:   `{"agents":{"defaults":{"model":"codex/m","models":{"codex/m":{"alias":"z"}},"modelPolicy":{"allow":["codex/m","codex/*"]}}},"models":{"providers":{"codex":{"api":"openai-codex-responses","models":[{"id":"m"}]}}}}`,
			want: `{"agents":{"defaults":{"model":"codex/m","models":{"codex/m":{"alias":"z"}},"modelPolicy":{"allow":["codex/m","codex/*"]}}},"models":{"providers":{"codex":{"api":"openai-codex-responses","models":[{"id":"m"}]}}}}`,
		},
		{
			name: "a non-equivalent colliding row blocks the merge",
			in:   `{"agents":{"defaults":{"model":"codex/m"}},"models":{"providers":{"codex":{"models":[{"id":"m"}]},"openai":{"models":[{"id":"m","name":"x"}]}}}}`,
			want: `{"agents":{"defaults":{"model":"codex/m"}},"models":{"providers":{"codex":{"models":[{"id":"m"}]},"openai":{"models":[{"id":"m","name":"x"}]}}}}`,
		},
		{
			name: "with no openai entry the entry moves with its apiKey and the ref migrates",
			in:   `{"models":{"providers":{"codex":{"apiKey":"${K}","models":[{"id":"m"}]}}},"agents":{"defaults":{"model":"codex/m"}}}`,
			want: `{"models":{"providers":{"openai":{"apiKey":"${K}","models":[{"id":"m","agentRuntime":{"id":"codex"}}]}}},"agents":{"defaults":{"model":"openai/m","models":{"openai/m":{"agentRuntime":{"id":"codex"}}}}}}`,
		},
		{
			name: "mergeable rows are appended stamped, equivalent collisions dropped, and the legacy entry removed",
			in:   `{"agents":{"defaults":{"model":"codex/m"}},"models":{"providers":{"openai":{"baseUrl":"u","models":[{"id":"a","api":"openai-chatgpt-responses","contextWindow":5,"params":{"t":1,"u":2},"agentRuntime":{"id":"codex"}}]},"codex":{"baseUrl":"b","api":"openai-codex-responses","contextWindow":5,"params":{"t":1,"u":2},"models":[{"id":"m","params":{"u":3,"v":4}},{"id":"a","baseUrl":"u"},{"name":"n","agentRuntime":{"id":"auto","x":1}},7,{"x":1}]}}}}`,
			want: `{"agents":{"defaults":{"model":"openai/m","models":{"openai/m":{"agentRuntime":{"id":"codex"}}}}},"models":{"providers":{"openai":{"baseUrl":"u","models":[{"id":"a","api":"openai-chatgpt-responses","contextWindow":5,"params":{"t":1,"u":2},"agentRuntime":{"id":"codex"}},{"id":"m","params":{"t":1,"u":3,"v":4},"baseUrl":"b","api":"openai-chatgpt-responses","contextWindow":5,"agentRuntime":{"id":"codex"}},{"name":"n","agentRuntime":{"id":"codex","x":1},"baseUrl":"b","api":"openai-chatgpt-responses","contextWindow":5,"params":{"t":1,"u":2}}]}}}}`,
		},
		{
			name: "mixed-case keys, api renames everywhere, openai-codex merged without the codex runtime",
			in:   `{"agents":{"defaults":{"model":"codex/m"}},"models":{"providers":{"x":{"api":"openai-codex-responses","models":[{"id":"m","api":"openai-codex-responses"},"s"]},"OpenAI":{"baseUrl":"u","models":[{"id":"a"}]},"Codex":{"api":"openai-codex-responses","baseUrl":"b","models":[{"id":"m","agentRuntime":{"id":"auto","x":1}},{"id":"a"}]},"openai-codex":{"agentRuntime":{"id":"pi"},"models":[{"id":"q"}]}}}}`,
			want: `{"agents":{"defaults":{"model":"codex/m"}},"models":{"providers":{"x":{"api":"openai-chatgpt-responses","models":[{"id":"m","api":"openai-chatgpt-responses"},"s"]},"OpenAI":{"baseUrl":"u","models":[{"id":"a"},{"id":"q","agentRuntime":{"id":"pi"}}]},"Codex":{"api":"openai-chatgpt-responses","baseUrl":"b","models":[{"id":"m","agentRuntime":{"id":"auto","x":1}},{"id":"a"}]}}}}`,
		},
		{
			name: "openai-codex moves unstamped, then a colliding CODEX entry stays and blocks codex refs",
			in:   `{"agents":{"defaults":{"model":"codex/q"}},"models":{"providers":{"openai-codex":{"agentRuntime":{"id":"pi"},"models":[{"id":"q","agentRuntime":{"id":"auto"}}]},"CODEX":{"agentRuntime":{"id":"pi"},"models":[{"id":"q"}]}}}}`,
			want: `{"agents":{"defaults":{"model":"codex/q"}},"models":{"providers":{"CODEX":{"agentRuntime":{"id":"pi"},"models":[{"id":"q"}]},"openai":{"agentRuntime":{"id":"pi"},"models":[{"id":"q","agentRuntime":{"id":"auto"}}]}}}}`,
		},
		{
			name: "a merged row of the legacy /models add shape is marked models-add",
			in:   `{"agents":{"defaults":{"model":"codex/gpt-5.5"}},"models":{"providers":{"openai":{"models":[]},"codex":{"models":[{"id":"gpt-5.5","api":"openai-codex-responses","reasoning":true,"input":["text","image"],"cost":{"input":5,"output":30,"cacheRead":0.5,"cacheWrite":0},"contextWindow":400000,"contextTokens":272000,"maxTokens":128000}]}}}}`,
			want: `{"agents":{"defaults":{"model":"openai/gpt-5.5","models":{"openai/gpt-5.5":{"agentRuntime":{"id":"codex"}}}}},"models":{"providers":{"openai":{"models":[{"id":"gpt-5.5","api":"openai-chatgpt-responses","reasoning":true,"input":["text","image"],"cost":{"input":5,"output":30,"cacheRead":0.5,"cacheWrite":0},"contextWindow":400000,"contextTokens":272000,"maxTokens":128000,"agentRuntime":{"id":"codex"},"metadataSource":"models-add"}]}}}}`,
		},
		{
			name: "an openai-codex wildcard blocks only openai-codex; codex refs still migrate",
			in:   `{"agents":{"defaults":{"model":"codex/m"},"entries":{"ops":{"model":"codex/n","modelPolicy":{"allow":[" openai-codex/* "]}}}},"models":{"providers":{"openai-codex":{"api":"openai-codex-responses","models":[{"id":"m"}]}}}}`,
			want: `{"agents":{"defaults":{"model":"openai/m","models":{"openai/m":{"agentRuntime":{"id":"codex"}}}},"entries":{"ops":{"model":"openai/n","modelPolicy":{"allow":["openai-codex/*"]},"models":{"openai/n":{"agentRuntime":{"id":"codex"}}}}}},"models":{"providers":{"openai-codex":{"api":"openai-codex-responses","models":[{"id":"m"}]}}}}`,
		},
		{
			name: "a blocked codex provider keeps codex refs in every slot and scope, codex-cli refs still migrate",
			in:   `{"agents":{"defaults":{"model":{"primary":"codex/m","fallbacks":["codex/n","codex-cli/o"]},"subagents":{"model":"codex/s"}},"entries":{"ops":{"model":"Codex/m@work"}}},"models":{"providers":{"openai":{"models":[{"id":"m","name":"other"}]},"codex":{"models":[{"id":"m"}]}}}}`,
			want: `{"agents":{"defaults":{"model":{"primary":"codex/m","fallbacks":["codex/n","openai/o"]},"subagents":{"model":"codex/s"},"models":{"openai/o":{"agentRuntime":{"id":"codex"}}}},"entries":{"ops":{"model":"Codex/m@work"}}},"models":{"providers":{"openai":{"models":[{"id":"m","name":"other"}]},"codex":{"models":[{"id":"m"}]}}}}`,
		},
		{
			name: "the moved entry's codex-cli pins become codex after the move",
			in:   `{"agents":{"defaults":{"model":"codex/m"}},"models":{"providers":{"codex":{"agentRuntime":{"id":"codex-cli"},"models":[{"id":"m"},{"id":"n","agentRuntime":{"id":"codex-cli"}}]}}}}`,
			want: `{"agents":{"defaults":{"model":"openai/m","models":{"openai/m":{"agentRuntime":{"id":"codex"}}}}},"models":{"providers":{"openai":{"agentRuntime":{"id":"codex"},"models":[{"id":"m","agentRuntime":{"id":"codex"}},{"id":"n","agentRuntime":{"id":"codex"}}]}}}}`,
		},
		{
			// Doctor judges the merge before it renames the openai entry's
			// codex-cli pin and keeps both here; its second pass (asked
			// for this document) merges. Repair gives the second-pass
			// answer at once, staying idempotent.
			name: "a codex-cli openai entry is judged with its pin renamed",
			in:   `{"agents":{"defaults":{"model":"codex/m"}},"models":{"providers":{"openai":{"agentRuntime":{"id":"codex-cli"},"models":[{"id":"m"}]},"codex":{"agentRuntime":{"id":"codex"},"models":[{"id":"m"}]}}}}`,
			want: `{"agents":{"defaults":{"model":"openai/m","models":{"openai/m":{"agentRuntime":{"id":"codex"}}}}},"models":{"providers":{"openai":{"agentRuntime":{"id":"codex"},"models":[{"id":"m"}]}}}}`,
		},
		{
			// Likewise doctor judges a legacy entry listed before openai
			// against openai's legacy api, keeps it, renames the api, and
			// removes the entry on its second pass (which also copies the
			// models map into modelPolicy.allow, outside CMP-3, left out).
			name: "a legacy entry is judged against the openai entry with its api renamed",
			in:   `{"agents":{"defaults":{"model":"codex/m"}},"models":{"providers":{"codex":{"models":[{"id":"m","api":"openai-chatgpt-responses","agentRuntime":{"id":"codex"}}]},"openai":{"models":[{"id":"m","api":"openai-codex-responses","agentRuntime":{"id":"codex"}}]}}}}`,
			want: `{"agents":{"defaults":{"model":"openai/m","models":{"openai/m":{"agentRuntime":{"id":"codex"}}}}},"models":{"providers":{"openai":{"models":[{"id":"m","api":"openai-chatgpt-responses","agentRuntime":{"id":"codex"}}]}}}}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := occkit.MustParseDocument(tt.in)
			got, _, err := compile.Repair(in)
			if err != nil {
				t.Fatal(err)
			}
			if in.String() != tt.in {
				t.Error("CMP-3: input changed")
			}
			if d := cmp.Diff(tt.want, got.String()); d != "" {
				t.Errorf("repaired document (-want +got):\n%s", d)
			}
			again, more, err := compile.Repair(got)
			if err != nil || len(more) != 0 || !again.Equal(got) {
				t.Errorf("CMP-3 not idempotent: %v %v", more, err)
			}
		})
	}
}

// TestRepairCodexChanges: the edits recorded for legacy Codex provider
// entries (CMP-3): where the entry went, and each api rename of an entry
// that stays. OpenClaw 2026.9.6 doctor, asked through oracle.mjs, logs the
// same four edits for this document.
func TestRepairCodexChanges(t *testing.T) {
	in := occkit.MustParseDocument(`{"models":{"providers":{"x":{"api":"openai-codex-responses","models":[{"api":"openai-codex-responses"}]},
		"Codex":{"models":[{"id":"m"}]},"openai-codex":{"models":[{"id":"m","agentRuntime":{"id":"codex"}}]},"o":{"models":[]}}}}`)
	_, changes, err := compile.Repair(in)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range changes {
		got = append(got, c.String())
	}
	want := []string{
		"api-renamed models.providers.x.api openai-codex-responses → openai-chatgpt-responses",
		"api-renamed models.providers.x.models[0].api openai-codex-responses → openai-chatgpt-responses",
		"provider-moved models.providers.openai Codex → openai",
		"provider-moved models.providers.openai-codex openai-codex",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("changes (-want +got):\n%s", d)
	}
}

// BenchmarkRepairCodexProviders merges a legacy Codex catalog into the
// openai one, and moves one spelled many ways: the work grows with the
// rows and the entries, not with their product.
func BenchmarkRepairCodexProviders(b *testing.B) {
	for _, n := range []int{1000, 4000} {
		var openai, codex, spellings []string
		for i := 0; i < n; i++ {
			openai = append(openai, fmt.Sprintf(`{"id":"o%d"}`, i))
			codex = append(codex, fmt.Sprintf(`{"id":"c%d","name":"C %d"}`, i, i))
			spellings = append(spellings, fmt.Sprintf(`"%scodex%s":{"models":[{"id":"s%d"}]}`, strings.Repeat(" ", i%64), strings.Repeat(" ", i/64), i))
		}
		docs := map[string]occkit.Document{
			"rows":      occkit.MustParseDocument(`{"models":{"providers":{"openai":{"models":[` + strings.Join(openai, ",") + `]},"codex":{"baseUrl":"https://x","models":[` + strings.Join(codex, ",") + `]}}}}`),
			"spellings": occkit.MustParseDocument(`{"models":{"providers":{"openai":{"models":[{"id":"x"}]},` + strings.Join(spellings, ",") + `}}}`),
		}
		for _, name := range []string{"rows", "spellings"} {
			b.Run(fmt.Sprintf("%s=%d", name, n), func(b *testing.B) {
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					if _, _, err := compile.Repair(docs[name]); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
