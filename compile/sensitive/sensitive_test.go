package sensitive_test

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/compile/sensitive"
)

func TestPatternsFloor(t *testing.T) {
	ps := sensitive.Patterns()
	if len(ps) < 173 {
		t.Fatalf("%d sensitive patterns, want at least OpenClaw 2026.9.6's 173", len(ps))
	}
	want := map[string]bool{
		"models.providers.*.apiKey": false, "models.providers.*.headers.*": false,
		"models.providers.*.request.auth.token": false, "channels.telegram.botToken": false,
	}
	for _, p := range ps {
		if _, ok := want[p.String()]; ok {
			want[p.String()] = true
		}
	}
	for k, seen := range want {
		if !seen {
			t.Errorf("%s is not in the list", k)
		}
	}
}

func TestFind(t *testing.T) {
	doc := occkit.MustParseDocument(`{"models":{"providers":{"a.b":{"apiKey":"k","headers":{"X":"1","Y":"2"}},"c":"bad"}},
		"tools":{"media":{"models":[{"request":{"auth":{"token":"t"}}},{"other":1}]}},"hooks":{"token":3}}`)
	tests := []struct {
		pattern string
		want    []string
	}{
		{"models.providers.*.apiKey", []string{`models.providers["a.b"].apiKey`}},
		{"models.providers.*.headers.*", []string{`models.providers["a.b"].headers.X`, `models.providers["a.b"].headers.Y`}},
		{"tools.media.models[].request.auth.token", []string{"tools.media.models[0].request.auth.token"}},
		{"hooks.token", []string{"hooks.token"}},
		{"gateway.auth.token", nil},
	}
	for _, tt := range tests {
		var got []string
		for _, p := range sensitive.Find(doc, []sensitive.Pattern{sensitive.Parse(tt.pattern)}) {
			got = append(got, p.String())
		}
		if d := cmp.Diff(tt.want, got); d != "" {
			t.Errorf("%s (-want +got):\n%s", tt.pattern, d)
		}
	}
}

func ExampleFind() {
	doc := occkit.MustParseDocument(`{"channels":{"telegram":{"botToken":"${TELEGRAM_BOT_TOKEN}"}}}`)
	for _, p := range sensitive.Find(doc, sensitive.Patterns()) {
		fmt.Println(p)
	}
	// Output: channels.telegram.botToken
}

// A Cursor walked down a document's paths matches exactly where Find
// finds a path (or below one), for OpenClaw's own patterns.
func TestCursorAgreesWithFind(t *testing.T) {
	doc := occkit.MustParseDocument(`{
		"models": {"providers": {"p": {"apiKey": "k", "headers": {"X": "h"}, "baseUrl": "u"}}},
		"channels": {"googlechat": {"serviceAccount": {"a": 1}, "name": "n"}},
		"tools": {"media": {"models": [{"request": {"auth": {"token": "t"}}}, {"x": 1}]}},
		"mcp": {"servers": {"s": {"env": {"A": "1"}, "url": "u"}}}
	}`)
	ps := sensitive.Patterns()
	found := map[string]bool{}
	for _, p := range sensitive.Find(doc, ps) {
		found[p.String()] = true
	}
	var walk func(v occkit.Value, at occkit.Path, c sensitive.Cursor, under bool)
	walk = func(v occkit.Value, at occkit.Path, c sensitive.Cursor, under bool) {
		want := under || found[at.String()]
		if c.Matched() != want {
			t.Errorf("%s: cursor matched %v, Find says %v", at, c.Matched(), want)
		}
		if v.IsArray() {
			for i, el := range v.Array() {
				walk(el, at.Index(i), c.Index(), want)
			}
			return
		}
		v.ForEach(func(k, el occkit.Value) bool {
			walk(el, at.Key(k.String()), c.Key(k.String()), want)
			return true
		})
	}
	walk(doc.Get(occkit.Root()), occkit.Root(), sensitive.Start(ps), false)
	if len(found) < 5 {
		t.Fatalf("Find found %d paths: the fixture misses the patterns", len(found))
	}
}
