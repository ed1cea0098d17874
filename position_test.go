package occkit_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/occkit/occkit"
)

// mapSource places every path at a fixed line of a fixed text.
type mapSource map[string]occkit.Position

func (m mapSource) Position(p occkit.Path) (occkit.Position, bool) {
	pos, ok := m[p.String()]
	return pos, ok
}

func TestPositionString(t *testing.T) {
	for _, tc := range []struct {
		p    occkit.Position
		want string
	}{
		{occkit.Position{}, ""},
		{occkit.Position{File: "a.json5"}, "a.json5"},
		{occkit.Position{Line: 3, Column: 5}, "3:5"},
		{occkit.Position{File: "dir/a.json5", Line: 3, Column: 5}, "dir/a.json5:3:5"},
		{occkit.Position{File: "a\x1b[2J.json", Line: 1, Column: 1}, "a?[2J.json:1:1"},
	} {
		if got := tc.p.String(); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.p, got, tc.want)
		}
	}
}

func TestSnippet(t *testing.T) {
	long := strings.Repeat("x", 150) + "KEY" + strings.Repeat("y", 150)
	for _, tc := range []struct {
		name string
		pos  occkit.Position
		want string
	}{
		{"none", occkit.Position{}, ""},
		{"no text", occkit.Position{Line: 2, Column: 3}, ""},
		{"plain", occkit.Position{Line: 4, Column: 5, Text: "    defualts: {},"},
			"4 |     defualts: {},\n  |     ^"},
		{"tabs keep alignment", occkit.Position{Line: 12, Column: 3, Text: "\t\tkind: 1"},
			"12 | \t\tkind: 1\n   | \t\t^"},
		{"control characters", occkit.Position{Line: 1, Column: 2, Text: "a\x1bb"},
			"1 | a?b\n  |  ^"},
		{"excerpt column", occkit.Position{Line: 1, Column: 500, TextColumn: 3, Text: "…ab"},
			"1 | …ab\n  |   ^"},
		{"long line cut around the column", occkit.Position{Line: 1, Column: 151, Text: long},
			"1 | …" + strings.Repeat("x", 50) + "KEY" + strings.Repeat("y", 47) + "…\n  |  " + strings.Repeat(" ", 50) + "^"},
	} {
		e := occkit.Invalid("DOC-5", occkit.NewPath("a"), "m")
		e.Position = tc.pos
		if got := e.Snippet(); got != tc.want {
			t.Errorf("%s:\n%s\nwant\n%s", tc.name, got, tc.want)
		}
	}
}

func TestErrorFormat(t *testing.T) {
	e := occkit.Invalid("DOC-5", occkit.NewPath("agents", "defualts"), "unknown key")
	e.Position = occkit.Position{File: "c.json5", Line: 4, Column: 5, Text: "    defualts: {},"}
	if got, want := fmt.Sprint(e), "INVALID_REQUEST agents.defualts: unknown key [DOC-5]"; got != want {
		t.Errorf("%%v = %q, want %q (no position: the message is for anyone)", got, want)
	}
	if got, want := fmt.Sprintf("%s", e), e.Error(); got != want {
		t.Errorf("%%s = %q", got)
	}
	want := "c.json5:4:5: INVALID_REQUEST agents.defualts: unknown key [DOC-5]\n4 |     defualts: {},\n  |     ^"
	if got := fmt.Sprintf("%+v", e); got != want {
		t.Errorf("%%+v =\n%s\nwant\n%s", got, want)
	}
	bare := occkit.Invalid("DOC-5", occkit.Root(), "m")
	if got := fmt.Sprintf("%+v", bare); got != bare.Error() {
		t.Errorf("%%+v without a position = %q", got)
	}
}

func TestPlace(t *testing.T) {
	doc := occkit.MustParseDocument(`{"agents":{"defaults":{}}}`)
	at := occkit.Position{File: "c.json5", Line: 2, Column: 3}
	src := mapSource{"agents.defaults": at}
	placed := doc.WithSourceMap(src)
	if placed.SourceMap() == nil || doc.SourceMap() != nil {
		t.Fatal("WithSourceMap changed the receiver or kept nothing")
	}
	orig := occkit.Invalid("DOC-5", occkit.NewPath("agents", "defaults"), "m")
	other := occkit.Invalid("RES-1", occkit.NewPath("harnessAuth"), "m")
	root := occkit.Invalid("DOC-1", occkit.Root(), "m")

	if err := doc.Place(orig); err != error(orig) {
		t.Errorf("a document without a source map changed the error")
	}
	got := placed.Place(orig)
	var e *occkit.Error
	if !errors.As(got, &e) || e.Position != at {
		t.Fatalf("placed %v, want position %v", got, at)
	}
	if orig.Position.IsValid() {
		t.Errorf("Place changed its argument in place")
	}
	if err := placed.Place(other); err != error(other) {
		t.Errorf("an error not in the source was replaced")
	}
	if err := placed.Place(root); err != error(root) {
		t.Errorf("a root error was placed")
	}
	joined := occkit.Join(orig, other, root)
	list := occkit.Errors(placed.Place(joined))
	if len(list) != 3 {
		t.Fatalf("%d errors after Place, want 3", len(list))
	}
	for _, e := range list {
		want := e.Path.Equal(orig.Path)
		if e.Position.IsValid() != want {
			t.Errorf("%v: placed %v", e, e.Position)
		}
	}
	if !errors.Is(placed.Place(joined), occkit.ErrInvalidRequest) {
		t.Errorf("placing lost errors.Is")
	}
	already := occkit.Invalid("DOC-5", occkit.NewPath("agents", "defaults"), "m")
	already.Position = occkit.Position{Line: 9, Column: 9}
	if err := placed.Place(already); err != error(already) {
		t.Errorf("an error with a position was placed again")
	}
	if placed.Place(nil) != nil {
		t.Errorf("Place(nil) is not nil")
	}
}

// A Position encodes without its source text.
func TestPositionJSON(t *testing.T) {
	b, err := json.Marshal(occkit.Position{File: "a.json5", Line: 2, Column: 3, Text: "apiKey: 'sk'", TextColumn: 1})
	if err != nil || string(b) != `{"file":"a.json5","line":2,"column":3}` {
		t.Errorf("%s %v", b, err)
	}
}
