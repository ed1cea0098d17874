package releasedata

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestNPMResolve(t *testing.T) {
	rec := NPMRecord{Packages: map[string][]NPMVersion{
		"a": {{"2026.7.35", "2026.7.35"}, {"2026.9.2", "2026.9.2"}, {"2026.9.6", "2026.9.6"}},
		// Published later than the release it accepts first.
		"b": {{"2026.9.4", "2026.9.3"}, {"2026.9.5", "2026.9.5"}},
		"c": {},
	}}
	tests := []struct {
		pkg, release, want string
		recorded           bool
	}{
		{"a", "2026.9.6", "2026.9.6", true},
		{"a", "2026.9.4", "2026.9.2", true},
		{"a", "2026.8.2", "2026.7.35", true},
		{"a", "2026.7.1", "", true},
		{"b", "2026.9.3", "2026.9.4", true},
		{"b", "2026.9.4", "2026.9.4", true},
		{"b", "2026.9.6", "2026.9.5", true},
		{"b", "2026.9.2", "", true},
		{"c", "2026.9.6", "", true},
		{"d", "2026.9.6", "", false},
	}
	for _, tt := range tests {
		got, recorded := rec.Resolve(tt.pkg, tt.release)
		if got != tt.want || recorded != tt.recorded {
			t.Errorf("Resolve(%s, %s) = %q, %v; want %q, %v", tt.pkg, tt.release, got, recorded, tt.want, tt.recorded)
		}
	}
}

func TestParseNPMView(t *testing.T) {
	tests := []struct {
		name, out string
		want      []NPMVersion
		bad       bool
	}{
		{"one version", `{"version":"2026.9.5","peerDependencies":{"openclaw":">=2026.9.5"}}`,
			[]NPMVersion{{"2026.9.5", "2026.9.5"}}, false},
		{"several, unordered", `[{"version":"2026.9.2","peerDependencies":{"openclaw":">=2026.9.2"}},` +
			`{"version":"2026.7.35","peerDependencies":{"openclaw":">= 2026.7.35"}}]`,
			[]NPMVersion{{"2026.7.35", "2026.7.35"}, {"2026.9.2", "2026.9.2"}}, false},
		{"no peer dependency", `[{"version":"1.0.0"}]`, nil, true},
		{"a caret range", `{"version":"1.0.0","peerDependencies":{"openclaw":"^2026.9.0"}}`, nil, true},
		{"a prerelease", `{"version":"2026.9.6-beta.1","peerDependencies":{"openclaw":">=2026.9.6"}}`, nil, true},
		{"nothing", `[]`, nil, true},
		{"not JSON", `npm ERR!`, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseNPMView([]byte(tt.out))
			if (err != nil) != tt.bad {
				t.Fatalf("err = %v, want an error %v", err, tt.bad)
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

// A record survives its own encoding, packages sorted and versions
// oldest first.
func TestNPMRecordMarshal(t *testing.T) {
	rec := NPMRecord{Registry: "https://registry.npmjs.org/", Packages: map[string][]NPMVersion{
		"@openclaw/slack": {{"2026.9.6", "2026.9.6"}, {"2026.7.35", "2026.7.35"}},
		"@openclaw/codex": {{"2026.9.5", "2026.9.5"}},
	}}
	b := rec.Marshal()
	want := "{\n\"registry\": \"https://registry.npmjs.org/\",\n\"packages\": {\n" +
		"\"@openclaw/codex\": [\n  {\"version\":\"2026.9.5\",\"openclaw\":\"2026.9.5\"}\n],\n" +
		"\"@openclaw/slack\": [\n  {\"version\":\"2026.7.35\",\"openclaw\":\"2026.7.35\"},\n  {\"version\":\"2026.9.6\",\"openclaw\":\"2026.9.6\"}\n]\n}\n}\n"
	if d := cmp.Diff(want, string(b)); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	back, err := ParseNPMRecord(b)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(string(b), string(back.Marshal())); d != "" {
		t.Errorf("not stable (-first +again):\n%s", d)
	}
	if _, err := ParseNPMRecord([]byte(`{"packages":[]}`)); err == nil {
		t.Error("a record whose packages are a list parsed")
	}
}
