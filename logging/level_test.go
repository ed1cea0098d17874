package logging

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tidwall/gjson"

	"github.com/occkit/occkit"
)

// wantErr matches err by code, rule and path, never by text.
func wantErr(t *testing.T, err error, code occkit.Code, rule, path string) {
	t.Helper()
	if err := (occkit.ErrorMatcher{Code: code, Path: path, Rule: rule}).Check(err); err != nil {
		t.Fatal(err)
	}
}

// LOG-1
func TestParseLevel(t *testing.T) {
	for _, tc := range []struct {
		name  string
		json  string // "" = absent
		want  occkit.LogLevel
		valid bool
	}{
		{"absent is info", "", occkit.LevelInfo, true},
		{"debug", `"debug"`, occkit.LevelDebug, true},
		{"info", `"info"`, occkit.LevelInfo, true},
		{"warn", `"warn"`, occkit.LevelWarn, true},
		{"error", `"error"`, occkit.LevelError, true},
		{"null is refused", `null`, "", false},
		{"empty string", `""`, "", false},
		{"trace", `"trace"`, "", false},
		{"upper case", `"INFO"`, "", false},
		{"mixed case", `"Warn"`, "", false},
		{"padded", `" info"`, "", false},
		{"trailing newline", `"info\n"`, "", false},
		{"warning", `"warning"`, "", false},
		{"number", `1`, "", false},
		{"bool", `true`, "", false},
		{"array", `["info"]`, "", false},
		{"object", `{"level":"info"}`, "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := gjson.Get(`{}`, "missing")
			if tc.json != "" {
				v = gjson.Parse(tc.json)
			}
			got, err := ParseLevel([]byte(v.Raw))
			if !tc.valid {
				wantErr(t, err, occkit.CodeInvalidRequest, "LOG-1", "level")
				if got != "" {
					t.Errorf("level %q returned with an error", got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestParseLevelString(t *testing.T) {
	for _, l := range occkit.AllLogLevels() {
		got, err := ParseLevelString(string(l))
		if err != nil || got != l {
			t.Errorf("ParseLevelString(%q) = %q, %v", l, got, err)
		}
	}
	for _, s := range []string{"", "INFO", "fatal", "info "} {
		_, err := ParseLevelString(s)
		wantErr(t, err, occkit.CodeInvalidRequest, "LOG-1", "level")
	}
}

func TestParseOwnership(t *testing.T) {
	for in, want := range map[string]occkit.LogOwnership{"": occkit.OwnedByPlatform, "platform": occkit.OwnedByPlatform, "driver": occkit.OwnedByDriver} {
		got, err := ParseOwnership(in)
		if err != nil || got != want {
			t.Errorf("ParseOwnership(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	_, err := ParseOwnership("Driver")
	wantErr(t, err, occkit.CodeInvalidRequest, "LOG-3", "runtimeLogging")
}

// LOG-3
func TestRuntimeLogs(t *testing.T) {
	if err := RuntimeLogs(occkit.OwnedByPlatform); err != nil {
		t.Errorf("platform: %v", err)
	}
	if err := RuntimeLogs(""); err != nil {
		t.Errorf("zero ownership: %v", err)
	}
	err := RuntimeLogs(occkit.OwnedByDriver)
	wantErr(t, err, occkit.CodeNotImplemented, "LOG-3", "")
	if occkit.First(err).HTTPStatus() != 501 || !errors.Is(err, occkit.ErrNotImplemented) {
		t.Errorf("driver-managed runtime logs: %v", err)
	}
}

// Every member of every closed set is valid, named in doc.go by its wire
// value, and (where the set maps to something) mapped.
func TestClosedSetsDocumentedAndMapped(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	documented := func(kind, v string) {
		t.Helper()
		if !strings.Contains(string(doc), `"`+v+`"`) {
			t.Errorf("%s %q is not documented in doc.go", kind, v)
		}
	}
	for _, l := range occkit.AllLogLevels() {
		documented("level", string(l))
		if !l.Valid() {
			t.Errorf("level %q invalid", l)
		}
	}
	for _, o := range occkit.AllLogOwnerships() {
		documented("ownership", string(o))
		if _, err := ParseOwnership(string(o)); err != nil {
			t.Errorf("ownership %q: %v", o, err)
		}
	}
	seen := map[Phase]bool{}
	for _, p := range AllPhases() {
		documented("phase", string(p))
		if !p.Valid() || seen[p] || !validWireName(string(p)) {
			t.Errorf("phase %q: invalid, duplicated or not a kebab-case wire name", p)
		}
		seen[p] = true
	}
	for _, o := range AllPhaseOutcomes() {
		documented("outcome", string(o))
		if !o.Valid() {
			t.Errorf("outcome %q invalid", o)
		}
	}
	for _, p := range occkit.AllProcesses() {
		name := startupName(p)
		documented("startup container", name)
		if back, err := ParseStartupContainer(name); err != nil || back != p {
			t.Errorf("startup container of %q: %q reads back as %q, %v", p, name, back, err)
		}
	}
	attrs := map[string]bool{}
	for _, k := range AllProtectedKeys() {
		documented("protected key", string(k))
		a := k.Attribute()
		if a == "" || attrs[a] {
			t.Errorf("protected key %q maps to %q (empty or duplicated)", k, a)
		}
		attrs[a] = true
		if !validLabelKey(string(k)) {
			t.Errorf("protected key %q is not a valid Kubernetes label key", k)
		}
	}
	for _, w := range AllWorkAttributes() {
		documented("work attribute", string(w))
	}
	if ProtectedKey("x").Attribute() != "" {
		t.Error("an unknown key maps to an attribute")
	}
	// The allowlist names exactly the startup fields and worker attributes.
	want := []string{"container", "phase", "outcome", "ms", "sinceStartMs", "code", "work.id", "work.operation", "work.attempt", "work.outcome"}
	if d := cmp.Diff(want, DefaultAttributes()); d != "" {
		t.Errorf("DefaultAttributes (-want +got):\n%s", d)
	}
}

func validWireName(s string) bool {
	if s == "" || s[0] == '-' || s[len(s)-1] == '-' || strings.Contains(s, "--") {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// validLabelKey checks Kubernetes' qualified-name syntax with a DNS prefix.
func validLabelKey(k string) bool {
	prefix, name, ok := strings.Cut(k, "/")
	if !ok || len(prefix) > 253 || len(name) == 0 || len(name) > 63 {
		return false
	}
	return labelValue.MatchString(name) && strings.Contains(prefix, ".") && validWireName(strings.ReplaceAll(prefix, ".", "-"))
}
