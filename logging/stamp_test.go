package logging

import (
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/occkit/occkit"
)

// LOG-1: exact bytes, so key order and untouched bytes are checked too.
func TestStamp(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		level    occkit.LogLevel
		want     string
	}{
		{"empty document", `{}`, occkit.LevelInfo,
			`{"logging":{"level":"info","consoleLevel":"info","consoleStyle":"json"},"diagnostics":{"otel":{"logs":false}}}`},
		{"other keys kept before the appended blocks", `{"feature":1,"agents":{"b":2,"a":1}}`, occkit.LevelWarn,
			`{"feature":1,"agents":{"b":2,"a":1},"logging":{"level":"warn","consoleLevel":"warn","consoleStyle":"json"},"diagnostics":{"otel":{"logs":false}}}`},
		{"existing logging keys keep their place", `{"logging":{"consoleStyle":"pretty","file":"/tmp/x.log","level":"debug"},"x":true}`, occkit.LevelError,
			`{"logging":{"consoleStyle":"json","file":"/tmp/x.log","level":"error","consoleLevel":"error"},"x":true,"diagnostics":{"otel":{"logs":false}}}`},
		{"redactSensitive removed", `{"logging":{"redactSensitive":"tools","level":"info"}}`, occkit.LevelDebug,
			`{"logging":{"level":"debug","consoleLevel":"debug","consoleStyle":"json"},"diagnostics":{"otel":{"logs":false}}}`},
		{"redactSensitive off removed", `{"logging":{"a":1,"redactSensitive":"off","b":2}}`, occkit.LevelInfo,
			`{"logging":{"a":1,"b":2,"level":"info","consoleLevel":"info","consoleStyle":"json"},"diagnostics":{"otel":{"logs":false}}}`},
		{"string logging replaced in place", `{"logging":"verbose","z":0,"diagnostics":[]}`, occkit.LevelError,
			`{"logging":{"level":"error","consoleLevel":"error","consoleStyle":"json"},"z":0,"diagnostics":{"otel":{"logs":false}}}`},
		{"null logging replaced", `{"logging":null}`, occkit.LevelInfo,
			`{"logging":{"level":"info","consoleLevel":"info","consoleStyle":"json"},"diagnostics":{"otel":{"logs":false}}}`},
		{"array logging replaced", `{"logging":[{"level":"debug"}]}`, occkit.LevelWarn,
			`{"logging":{"level":"warn","consoleLevel":"warn","consoleStyle":"json"},"diagnostics":{"otel":{"logs":false}}}`},
		{"diagnostics keys kept", `{"diagnostics":{"flags":["x"],"otel":{"endpoint":"http://c:4318","logs":true,"traces":true}}}`, occkit.LevelInfo,
			`{"diagnostics":{"flags":["x"],"otel":{"endpoint":"http://c:4318","logs":false,"traces":true}},"logging":{"level":"info","consoleLevel":"info","consoleStyle":"json"}}`},
		{"non-object otel replaced", `{"diagnostics":{"enabled":true,"otel":"on"}}`, occkit.LevelInfo,
			`{"diagnostics":{"enabled":true,"otel":{"logs":false}},"logging":{"level":"info","consoleLevel":"info","consoleStyle":"json"}}`},
		{"missing otel appended", `{"diagnostics":{"enabled":true}}`, occkit.LevelInfo,
			`{"diagnostics":{"enabled":true,"otel":{"logs":false}},"logging":{"level":"info","consoleLevel":"info","consoleStyle":"json"}}`},
		{"otel.logs string replaced", `{"diagnostics":{"otel":{"logs":"false"}}}`, occkit.LevelInfo,
			`{"diagnostics":{"otel":{"logs":false}},"logging":{"level":"info","consoleLevel":"info","consoleStyle":"json"}}`},
		{"keys needing escapes are untouched", `{"a.b":{"c*":1},"logging":{"x?":2}}`, occkit.LevelInfo,
			`{"a.b":{"c*":1},"logging":{"x?":2,"level":"info","consoleLevel":"info","consoleStyle":"json"},"diagnostics":{"otel":{"logs":false}}}`},
		{"nested logging keys are not the stamp's", `{"agents":{"logging":{"level":"x"}}}`, occkit.LevelInfo,
			`{"agents":{"logging":{"level":"x"}},"logging":{"level":"info","consoleLevel":"info","consoleStyle":"json"},"diagnostics":{"otel":{"logs":false}}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := occkit.MustParseDocument(tc.in)
			before := in.String()
			got, err := Stamp(in, tc.level, occkit.OwnedByPlatform)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, got.String()); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
			if in.String() != before {
				t.Errorf("input changed: %s", in)
			}
			again, err := Stamp(got, tc.level, occkit.OwnedByPlatform)
			if err != nil || again.String() != got.String() {
				t.Errorf("not idempotent: %s, %v", again, err)
			}
			if l, err := CheckStamp(got); err != nil || l != tc.level {
				t.Errorf("CheckStamp after Stamp = %q, %v", l, err)
			}
		})
	}
}

// LOG-3
func TestStampDriverOwnedIsUnchanged(t *testing.T) {
	in := occkit.MustParseDocument(`{"logging":{"redactSensitive":"off","level":"trace"},"diagnostics":{"otel":{"logs":true}}}`)
	got, err := Stamp(in, occkit.LevelInfo, occkit.OwnedByDriver)
	if err != nil {
		t.Fatal(err)
	}
	if !got.Equal(in) {
		t.Errorf("driver-owned document changed: %s", got)
	}
}

func TestStampZeroOwnershipIsPlatform(t *testing.T) {
	got, err := Stamp(occkit.Document{}, occkit.LevelWarn, "")
	if err != nil {
		t.Fatal(err)
	}
	if l, err := CheckStamp(got); err != nil || l != occkit.LevelWarn {
		t.Errorf("CheckStamp = %q, %v", l, err)
	}
}

func TestStampRefuses(t *testing.T) {
	for _, tc := range []struct {
		name, doc  string
		level      occkit.LogLevel
		owner      occkit.LogOwnership
		rule, path string
	}{
		{"invalid level", `{}`, "trace", occkit.OwnedByPlatform, "LOG-1", "level"},
		{"empty level", `{}`, "", occkit.OwnedByPlatform, "LOG-1", "level"},
		{"invalid ownership", `{}`, occkit.LevelInfo, "compute", "LOG-3", "runtimeLogging"},
		{"array root", `[]`, occkit.LevelInfo, occkit.OwnedByPlatform, "LOG-1", ""},
		{"string root", `"x"`, occkit.LevelInfo, occkit.OwnedByPlatform, "LOG-1", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Stamp(occkit.MustParseDocument(tc.doc), tc.level, tc.owner)
			wantErr(t, err, occkit.CodeInvalidRequest, tc.rule, tc.path)
		})
	}
}

const intact = `"diagnostics":{"otel":{"logs":false}}`

// LOG-2
func TestCheckStamp(t *testing.T) {
	for _, tc := range []struct {
		name, doc string
		want      occkit.LogLevel
		paths     []string // broken settings; nil = intact
	}{
		{"intact warn", `{"logging":{"level":"warn","consoleLevel":"warn","consoleStyle":"json"},` + intact + `}`, occkit.LevelWarn, nil},
		{"intact with other keys", `{"logging":{"file":"/x","level":"error","consoleLevel":"error","consoleStyle":"json"},"diagnostics":{"otel":{"endpoint":"e","logs":false}}}`, occkit.LevelError, nil},
		{"empty document", `{}`, "", []string{"logging.level", "logging.consoleLevel", "logging.consoleStyle", "diagnostics.otel.logs"}},
		{"null level", `{"logging":{"level":null,"consoleLevel":"info","consoleStyle":"json"},` + intact + `}`, "", []string{"logging.level"}},
		{"absent level", `{"logging":{"consoleLevel":"info","consoleStyle":"json"},` + intact + `}`, "", []string{"logging.level"}},
		{"invalid console level", `{"logging":{"level":"info","consoleLevel":"verbose","consoleStyle":"json"},` + intact + `}`, "", []string{"logging.consoleLevel"}},
		{"unequal levels", `{"logging":{"level":"info","consoleLevel":"debug","consoleStyle":"json"},` + intact + `}`, "", []string{"logging.consoleLevel"}},
		{"upper-case level", `{"logging":{"level":"INFO","consoleLevel":"INFO","consoleStyle":"json"},` + intact + `}`, "", []string{"logging.level", "logging.consoleLevel"}},
		{"pretty style", `{"logging":{"level":"warn","consoleLevel":"warn","consoleStyle":"pretty"},` + intact + `}`, "", []string{"logging.consoleStyle"}},
		{"absent style", `{"logging":{"level":"warn","consoleLevel":"warn"},` + intact + `}`, "", []string{"logging.consoleStyle"}},
		{"redactSensitive present", `{"logging":{"level":"warn","consoleLevel":"warn","consoleStyle":"json","redactSensitive":"tools"},` + intact + `}`, "", []string{"logging.redactSensitive"}},
		{"redactSensitive null", `{"logging":{"level":"warn","consoleLevel":"warn","consoleStyle":"json","redactSensitive":null},` + intact + `}`, "", []string{"logging.redactSensitive"}},
		{"otel logs true", `{"logging":{"level":"warn","consoleLevel":"warn","consoleStyle":"json"},"diagnostics":{"otel":{"logs":true}}}`, "", []string{"diagnostics.otel.logs"}},
		{"otel logs string", `{"logging":{"level":"warn","consoleLevel":"warn","consoleStyle":"json"},"diagnostics":{"otel":{"logs":"false"}}}`, "", []string{"diagnostics.otel.logs"}},
		{"otel absent", `{"logging":{"level":"warn","consoleLevel":"warn","consoleStyle":"json"},"diagnostics":{}}`, "", []string{"diagnostics.otel.logs"}},
		{"non-object otel", `{"logging":{"level":"warn","consoleLevel":"warn","consoleStyle":"json"},"diagnostics":{"otel":[false]}}`, "", []string{"diagnostics.otel.logs"}},
		{"non-object logging", `{"logging":["info"],` + intact + `}`, "", []string{"logging.level", "logging.consoleLevel", "logging.consoleStyle"}},
		{"array root", `[{"logging":{"level":"info"}}]`, "", []string{"logging.level", "logging.consoleLevel", "logging.consoleStyle", "diagnostics.otel.logs"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := CheckStamp(occkit.MustParseDocument(tc.doc))
			if tc.paths == nil {
				if err != nil || got != tc.want {
					t.Fatalf("CheckStamp = %q, %v; want %q", got, err, tc.want)
				}
				return
			}
			if got != "" {
				t.Errorf("level %q returned with an error", got)
			}
			var paths []string
			for _, e := range occkit.Errors(err) {
				if e.Code != occkit.CodeResourceConflict || e.Rule != "LOG-2" || e.HTTPStatus() != 409 {
					t.Errorf("error %v is not a LOG-2 409 RESOURCE_CONFLICT", e)
				}
				paths = append(paths, e.Path.String())
			}
			if d := cmp.Diff(sorted(tc.paths), paths); d != "" {
				t.Errorf("broken settings (-want +got):\n%s", d)
			}
		})
	}
}

func sorted(s []string) []string {
	out := append([]string(nil), s...)
	sort.Strings(out)
	return out
}

// Refusals name settings, never their values.
func TestCheckStampNeverEchoesValues(t *testing.T) {
	secret := "sk-live-0123456789"
	_, err := CheckStamp(occkit.MustParseDocument(`{"logging":{"level":"` + secret + `","consoleLevel":"` + secret + `","consoleStyle":"` + secret + `","redactSensitive":"` + secret + `"},"diagnostics":{"otel":{"logs":"` + secret + `"}}}`))
	if err == nil {
		t.Fatal("accepted")
	}
	if msg := err.Error(); strings.Contains(msg, secret) {
		t.Errorf("error echoes a value: %s", msg)
	}
}
