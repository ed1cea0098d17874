package compile

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/internal/docjson"
)

// enablePluginsBefore is planner.enablePlugins as it was before it made
// one path a plugin: the entry's path, then the edit's from it. The
// oracle of TestEnablePluginsBefore.
func enablePluginsBefore(doc occkit.Document, plugins []Plugin, write bool) ([]occkit.Edit, error) {
	var edits []occkit.Edit
	for i, p := range plugins {
		entry := pluginsPath.Key("entries").Key(p.ID)
		v := docjson.Get(doc, entry)
		if v.Exists() && !v.IsObject() {
			return nil, occkit.Invalid("CMP-4", entry, "%s must be an object", entry.String())
		}
		if i == 0 {
			for at := pluginsPath.Key("entries"); !at.IsRoot(); at = at.Parent() {
				if v := docjson.Get(doc, at); v.Exists() && !v.IsObject() {
					return nil, occkit.Invalid("CMP-4", at, "%s must be an object", at.String())
				}
			}
		}
		if !write {
			continue
		}
		if e := v.Get("enabled"); e.IsBool() && e.Bool() {
			continue
		}
		edits = append(edits, occkit.Edit{Path: entry.Key("enabled"), Raw: rawTrue})
	}
	return edits, nil
}

// editsText is edits as text a diff reads: each path and value.
func editsText(edits []occkit.Edit) []string {
	out := []string{}
	for _, e := range edits {
		out = append(out, fmt.Sprintf("%s=%s", e.Path, e.Raw))
	}
	return out
}

// refusalText is err's code, rule, path and detail, or "".
func refusalText(err error) string {
	var e *occkit.Error
	if !errors.As(err, &e) {
		return fmt.Sprint(err)
	}
	return fmt.Sprintf("%s %s %s %s", e.Code, e.Rule, e.Path, e.Detail)
}

// enablePlugins makes the edits and the refusals it made before it made
// one path a plugin, and before it read the plugins section once (the
// scan's, when it scanned the document), on plugins sections and entries
// of every shape (arrays among them, which a numeric id indexes) and
// plugin lists of every length.
func TestEnablePluginsBefore(t *testing.T) {
	ids := []string{"codex", "discord", "slack", "a.b", "x y", `q"u`, "msteams", "0", "1", "a:b", "é", "#", "@this", "a*", "b?", "c|d", "!"}
	rapid.Check(t, func(t *rapid.T) {
		var entries []string
		seen := map[string]bool{}
		for range rapid.IntRange(0, 5).Draw(t, "entries") {
			id := rapid.SampledFrom(ids).Draw(t, "entry")
			if seen[id] {
				continue
			}
			seen[id] = true
			v := rapid.SampledFrom([]string{`{}`, `{"enabled":true}`, `{"enabled":false}`, `{"enabled":"true"}`, `true`, `[]`}).Draw(t, "value")
			entries = append(entries, fmt.Sprintf("%q:%s", id, v))
		}
		plugins := rapid.SampledFrom([]string{
			`{"entries":{` + strings.Join(entries, ",") + `}}`, `{}`, `{"entries":[]}`, `[]`, `""`,
			`{"entries":[{"enabled":true},1]}`, `[{"entries":{}}]`, `{"entries":"x"}`,
		}).Draw(t, "plugins")
		src := `{"plugins":` + plugins + `}`
		if rapid.IntRange(0, 4).Draw(t, "no plugins") == 0 {
			src = `{}`
		}
		doc, err := occkit.ParseDocument([]byte(src))
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		var list []Plugin
		for _, id := range rapid.SliceOfDistinct(rapid.SampledFrom(ids), func(s string) string { return s }).Draw(t, "plugins") {
			list = append(list, Plugin{ID: id, Package: "@x/" + id, Version: "1"})
		}
		write := rapid.Bool().Draw(t, "write")
		want, wantErr := enablePluginsBefore(doc, list, write)
		b := planner{}
		if rapid.Bool().Draw(t, "scanned") {
			b.scan = ScanSecrets(doc, SecretPolicyFor(""))
		}
		got, err := b.enablePlugins(doc, list, write)
		if d := cmp.Diff(editsText(want), editsText(got)); d != "" {
			t.Fatalf("%s: edits (-before +got):\n%s", src, d)
		}
		for i := range min(len(want), len(got)) {
			if !got[i].Path.Equal(want[i].Path) {
				t.Fatalf("%s: edit %d writes %s, before %s", src, i, got[i].Path, want[i].Path)
			}
		}
		if w, g := refusalText(wantErr), refusalText(err); w != g {
			t.Fatalf("%s: refusal %q, before %q", src, g, w)
		}
	})
}
