package openclawschema

import (
	"errors"
	"strings"
	"testing"

	"github.com/occkit/occkit"
)

// TestChannelIDs: a channel id the release does not know is a 400 at
// channels.<id> with the closest known id as a suggestion; the rest is
// accepted as OpenClaw's plugin validation accepts it (checked against the
// real validation by TestChannelIDsReal).
func TestChannelIDs(t *testing.T) {
	for _, tt := range []struct {
		name, doc string
		refused   string // the refused key, "" for none
		suggest   string
	}{
		{"typo", `{"channels":{"salck":{}}}`, "salck", "channels.slack"},
		{"bundled", `{"channels":{"telegram":{},"slack":{},"discord":{},"defaults":{},"modelByChannel":{}}}`, "", ""},
		{"padded", `{"channels":{" telegram\t":{}}}`, "", ""},
		{"blank", `{"channels":{" ":{}}}`, "", ""},
		{"case", `{"channels":{"Telegram":{}}}`, "Telegram", "channels.telegram"},
		{"unrelated", `{"channels":{"zzzzzzzzzz":{}}}`, "zzzzzzzzzz", ""},
		{"declared entry", `{"channels":{"mychan":{}},"plugins":{"entries":{"MyChan":{}}}}`, "", ""},
		{"declared allow", `{"channels":{"mychan":{}},"plugins":{"allow":[" mychan "]}}`, "", ""},
		{"another plugin declared", `{"channels":{"mychan":{}},"plugins":{"entries":{"otherchan":{}}}}`, "mychan", ""},
		{"a bundled plugin is no evidence", `{"channels":{"openai":{}},"plugins":{"entries":{"openai":{}}}}`, "openai", ""},
		{"an alias of a bundled plugin", `{"channels":{"minimax-portal":{}},"plugins":{"entries":{"minimax-portal":{}}}}`, "minimax-portal", ""},
		{"load paths", `{"channels":{"mychan":{}},"plugins":{"load":{"paths":["/opt/p"]}}}`, "", ""},
		{"empty load paths", `{"channels":{"mychan":{}},"plugins":{"load":{"paths":[]}}}`, "mychan", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			for _, v := range []string{"2026.9.6", "2026.8.1"} {
				val, err := ForRelease(v)
				if err != nil {
					t.Fatal(err)
				}
				doc, err := occkit.ParseDocument([]byte(tt.doc))
				if err != nil {
					t.Fatal(err)
				}
				err = val.Validate(doc)
				if val.Valid(doc) != (err == nil) {
					t.Fatalf("%s: Valid and Validate disagree: %v", v, err)
				}
				if tt.refused == "" {
					if err != nil {
						t.Errorf("%s: refused: %v", v, err)
					}
					continue
				}
				at := occkit.NewPath("channels", tt.refused)
				if !errors.Is(err, &occkit.Error{Code: occkit.CodeInvalidRequest, Rule: Rule, Path: at}) || len(occkit.Errors(err)) != 1 {
					t.Fatalf("%s: want one 400 at %s, got %v", v, at, err)
				}
				msg := occkit.First(err).Message()
				if got := strings.Contains(msg, "did you mean"); got != (tt.suggest != "") || tt.suggest != "" && !strings.Contains(msg, tt.suggest+"?") {
					t.Errorf("%s: suggestion in %q, want %q", v, msg, tt.suggest)
				}
			}
		})
	}
}

// TestChannelIDsNeedACarriedRelease: a schema compiled for a release the
// library does not carry checks no channel id (it does not know them).
func TestChannelIDsNeedACarriedRelease(t *testing.T) {
	c, err := ContractFor("2026.9.6")
	if err != nil {
		t.Fatal(err)
	}
	own, err := Compile(c.Schema(), "2026.10.1")
	if err != nil {
		t.Fatal(err)
	}
	doc, _ := occkit.ParseDocument([]byte(`{"channels":{"salck":{}}}`))
	if err := own.Validate(doc); err != nil || own.Contract() != nil {
		t.Errorf("an uncarried release refused %v", err)
	}
}
