package openclawschema

import (
	"testing"

	"github.com/occkit/occkit"
)

// TestExcusesAreNarrow: each excuse of the schema differential holds only
// where its reason applies: counterexamples beside each case it excuses
// (no real OpenClaw needed; the verdicts are written as OpenClaw words
// them).
func TestExcusesAreNarrow(t *testing.T) {
	v, err := ForRelease("2026.9.6")
	if err != nil {
		t.Fatal(err)
	}
	d := newDiffer(v, map[string]bool{"telegram": true, "zalouser": true})
	req := func(path, prop string) issue {
		return issue{Path: path, Message: "invalid config: must have required property '" + prop + "'"}
	}
	accepted := verdict{OK: true}
	for _, tt := range []struct {
		name   string
		doc    string
		theirs []issue
		gw     verdict
		want   string
	}{
		{"channel default", `{"channels":{"telegram":{}}}`, []issue{req("channels.telegram.dmPolicy", "dmPolicy")}, accepted, "channel-default"},
		{"the gateway refuses it too", `{"channels":{"telegram":{}}}`, []issue{req("channels.telegram.dmPolicy", "dmPolicy")},
			verdict{Issues: []issue{req("channels.telegram.dmPolicy", "dmPolicy")}}, ""},
		{"a property without a default", `{"channels":{"telegram":{}}}`, []issue{req("channels.telegram.botToken", "botToken")}, accepted, ""},
		{"a property the document has", `{"channels":{"telegram":{"dmPolicy":"open"}}}`, []issue{req("channels.telegram.dmPolicy", "dmPolicy")}, accepted, ""},
		{"a channel it does not bundle", `{"channels":{"slack":{}}}`, []issue{req("channels.slack.dmPolicy", "dmPolicy")}, accepted, ""},
		{"outside channels", `{"gateway":{}}`, []issue{req("gateway.mode", "mode")}, accepted, ""},
		{"spec: a list without entries", `{"agents":{"list":[{"id":"a"}]}}`, []issue{{Path: "agents", Message: `Unrecognized key: "list"`}}, accepted, "spec"},
		{"spec: a list beside entries", `{"agents":{"list":[{"id":"a"}],"entries":{"a":{}}}}`, []issue{{Path: "agents", Message: `Unrecognized key: "list"`}}, accepted, ""},
		{"spec: another key", `{"agents":{"lists":[]}}`, []issue{{Path: "agents", Message: `Unrecognized key: "lists"`}}, accepted, ""},
		{"raw accounts", `{"channels":{"zalouser":{"accounts":{"a":{}}}}}`, []issue{{Path: "channels.zalouser.accounts", Message: `invalid config: must not have additional properties: "a"`}}, accepted, "channel-raw"},
		{"raw elsewhere", `{"channels":{"zalouser":{"x":1}}}`, []issue{{Path: "channels.zalouser", Message: `invalid config: must not have additional properties: "x"`}}, accepted, ""},
		{"a mirrored kind of refinement", `{}`, []issue{{Path: "worktreeRoot", Message: "worktreeRoot must be an absolute path"}}, accepted, ""},
		{"an unmirrored row", `{}`, []issue{{Path: "agents.entries", Message: "agents.entries must contain at least one configured agent"}}, accepted, "refinement/roster"},
		{"a structural issue", `{}`, []issue{{Path: "agents.entries", Message: "Invalid input: expected record"}}, accepted, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := d.verdictClass([]byte(tt.doc), nil, verdict{Issues: tt.theirs}, tt.gw)
			if got != tt.want {
				t.Errorf("excused as %q, want %q", got, tt.want)
			}
		})
	}

	salck := occkit.Invalid(Rule, occkit.NewPath("channels", "salck"), "x")
	unknown := verdict{Issues: []issue{{Path: "channels.salck", Message: "unknown channel id: salck"}}}
	for _, tt := range []struct {
		name string
		ours error
		gw   verdict
		want string
	}{
		{"an id the gateway refuses", salck, unknown, "channel-id"},
		{"the gateway accepts it", salck, accepted, ""},
		{"a bundled channel", occkit.Invalid(Rule, occkit.NewPath("channels", "telegram"), "x"), verdict{Issues: []issue{{Path: "channels.telegram", Message: "unknown channel id: telegram"}}}, ""},
		{"a refusal elsewhere too", occkit.Join(salck, occkit.Invalid(Rule, occkit.NewPath("gateway"), "x")), unknown, ""},
		{"an agent entry with capitals", occkit.Invalid(Rule, occkit.NewPath("agents", "entries", "Team-a_"), "x"), accepted, "roster-key"},
		{"an agent entry no case fixes", occkit.Invalid(Rule, occkit.NewPath("agents", "entries", "Team!"), "x"), accepted, ""},
		{"below an agent entry", occkit.Invalid(Rule, occkit.NewPath("agents", "entries", "Team", "model"), "x"), accepted, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := d.verdictClass([]byte(`{"channels":{"salck":{}}}`), tt.ours, accepted, tt.gw); got != tt.want {
				t.Errorf("excused as %q, want %q", got, tt.want)
			}
		})
	}

	for _, tt := range []struct {
		name   string
		ours   []occkit.Path
		theirs []issue
		ok     bool
	}{
		{"the same setting", []occkit.Path{occkit.NewPath("gateway", "port")}, []issue{{Path: "gateway.port", Message: "Invalid input: expected number"}}, true},
		{"an unknown key at its own path", []occkit.Path{occkit.NewPath("agents", "defualts")}, []issue{{Path: "agents", Message: `Unrecognized key: "defualts"`}}, true},
		{"another setting", []occkit.Path{occkit.NewPath("gateway", "mode")}, []issue{{Path: "gateway.port", Message: "Invalid input: expected number"}}, false},
		{"a union summarized", []occkit.Path{occkit.NewPath("bindings").Index(0).Key("match").Key("peer").Key("kind")}, []issue{{Path: "bindings.0", Message: "Invalid input"}}, true},
		{"not a union", []occkit.Path{occkit.NewPath("gateway", "port", "x")}, []issue{{Path: "gateway", Message: "Invalid input"}}, false},
		{"an agent reference after an abort", []occkit.Path{occkit.NewPath("talk", "agentId"), occkit.NewPath("gateway", "port")}, []issue{{Path: "gateway.port", Message: "Invalid input: expected number"}}, true},
		{"an agent reference without an abort", []occkit.Path{occkit.NewPath("talk", "agentId"), occkit.NewPath("agents", "x")}, []issue{{Path: "agents", Message: `Unrecognized key: "x"`}}, false},
		{"a channel section after a core issue", []occkit.Path{occkit.NewPath("channels", "telegram", "x"), occkit.NewPath("gateway", "port")}, []issue{{Path: "gateway.port", Message: "Invalid input: expected number"}}, true},
		{"a channel section alone", []occkit.Path{occkit.NewPath("channels", "telegram", "x")}, []issue{{Path: "channels.telegram", Message: "invalid config: must be object"}}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var errs []error
			for _, p := range tt.ours {
				errs = append(errs, occkit.Invalid(Rule, p, "x"))
			}
			_, ok := d.samePaths([]byte(`{"channels":{"telegram":{}}}`), occkit.Join(errs...), verdict{Issues: tt.theirs})
			if ok != tt.ok {
				t.Errorf("paths agree %v, want %v", ok, tt.ok)
			}
		})
	}
}
