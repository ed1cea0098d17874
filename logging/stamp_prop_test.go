package logging

import (
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tidwall/gjson"
	"pgregory.net/rapid"

	"github.com/occkit/occkit"
)

func quote(s string) string { return string(gjson.AppendJSONString(nil, s)) }

// genScalar draws a JSON scalar, with strings that need escaping.
func genScalar(t *rapid.T) string {
	switch rapid.IntRange(0, 4).Draw(t, "kind") {
	case 0:
		return "null"
	case 1:
		return strconv.FormatBool(rapid.Bool().Draw(t, "bool"))
	case 2:
		return strconv.Itoa(rapid.IntRange(-1000, 1000).Draw(t, "int"))
	case 3:
		return "1.5e3"
	}
	return quote(rapid.SampledFrom([]string{"", "info", "debug", "json", "x\"y", "tab\tnew\nline", "é", "/tmp/x.log", "a.b*c?"}).Draw(t, "str"))
}

// genValue draws any JSON value of bounded depth.
func genValue(t *rapid.T, depth int) string {
	if depth <= 0 {
		return genScalar(t)
	}
	switch rapid.IntRange(0, 2).Draw(t, "shape") {
	case 0:
		return genScalar(t)
	case 1:
		n := rapid.IntRange(0, 3).Draw(t, "len")
		parts := make([]string, n)
		for i := range parts {
			parts[i] = genValue(t, depth-1)
		}
		return "[" + strings.Join(parts, ",") + "]"
	}
	return genObject(t, depth-1, []string{"a", "b", "c.d", "level", "logging", "otel", "x y", "é"}, nil)
}

// genObject draws an object with unique keys from pool; forced[k] gives a
// generator for key k's value.
func genObject(t *rapid.T, depth int, pool []string, forced map[string]func() string) string {
	keys := rapid.SliceOfNDistinct(rapid.SampledFrom(pool), 0, len(pool), rapid.ID[string]).Draw(t, "keys")
	parts := make([]string, len(keys))
	for i, k := range keys {
		v := ""
		if f, ok := forced[k]; ok {
			v = f()
		} else {
			v = genValue(t, depth)
		}
		parts[i] = quote(k) + ":" + v
	}
	return "{" + strings.Join(parts, ",") + "}"
}

func genLevelish(t *rapid.T) string {
	return rapid.SampledFrom([]string{`"debug"`, `"info"`, `"warn"`, `"error"`, `"INFO"`, `null`, `1`, `"json"`, `"pretty"`}).Draw(t, "levelish")
}

// genConfig draws a configuration whose logging and diagnostics take every
// shape the stamp distinguishes.
func genConfig(t *rapid.T) occkit.Document {
	otel := func() string {
		if rapid.Bool().Draw(t, "otelObject") {
			return genObject(t, 1, []string{"logs", "endpoint", "traces"}, map[string]func() string{"logs": func() string { return genScalar(t) }})
		}
		return genScalar(t)
	}
	forced := map[string]func() string{
		"logging": func() string {
			if rapid.Bool().Draw(t, "loggingObject") {
				return genObject(t, 1, []string{"level", "consoleLevel", "consoleStyle", "redactSensitive", "file", "x.y"},
					map[string]func() string{"level": func() string { return genLevelish(t) }, "consoleLevel": func() string { return genLevelish(t) }})
			}
			return genValue(t, 1)
		},
		"diagnostics": func() string {
			if rapid.Bool().Draw(t, "diagnosticsObject") {
				return genObject(t, 1, []string{"otel", "flags", "enabled"}, map[string]func() string{"otel": otel})
			}
			return genValue(t, 1)
		},
	}
	raw := genObject(t, 2, []string{"logging", "diagnostics", "agents", "models", "feature", "a.b", "_"}, forced)
	doc, err := occkit.ParseDocument([]byte(raw))
	if err != nil {
		t.Fatalf("generator produced invalid JSON %s: %v", raw, err)
	}
	return doc
}

type entry struct{ Key, Raw string }

func entries(v occkit.Value) []entry {
	var out []entry
	if !v.IsObject() {
		return nil
	}
	v.ForEach(func(k, val occkit.Value) bool {
		out = append(out, entry{Key: k.String(), Raw: val.Raw()})
		return true
	})
	return out
}

func without(es []entry, drop ...string) []entry {
	var out []entry
	for _, e := range es {
		keep := true
		for _, d := range drop {
			keep = keep && e.Key != d
		}
		if keep {
			out = append(out, e)
		}
	}
	return out
}

func keys(es []entry) []string {
	var out []string
	for _, e := range es {
		out = append(out, e.Key)
	}
	return out
}

// expectedKeys is the key order the stamp must produce for an object whose
// keys were in, with drop removed and add appended when missing.
func expectedKeys(in []entry, drop []string, add ...string) []string {
	out := keys(without(in, drop...))
	for _, a := range add {
		found := false
		for _, k := range out {
			found = found || k == a
		}
		if !found {
			out = append(out, a)
		}
	}
	return out
}

// LOG-1, DOC-3: the stamp is idempotent, leaves its input alone, keeps
// every byte and the key order of everything it does not own, and always
// passes the guard.
func TestStampProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := genConfig(t)
		before := in.String()
		level := rapid.SampledFrom(occkit.AllLogLevels()).Draw(t, "level")
		out, err := Stamp(in, level, occkit.OwnedByPlatform)
		if err != nil {
			t.Fatalf("Stamp(%s): %v", in, err)
		}
		if in.String() != before {
			t.Fatalf("input changed")
		}
		if !gjson.Valid(out.String()) {
			t.Fatalf("invalid output %s", out)
		}
		again, err := Stamp(out, level, occkit.OwnedByPlatform)
		if err != nil || !again.Equal(out) {
			t.Fatalf("not idempotent:\n%s\n%s", out, again)
		}
		if l, err := CheckStamp(out); err != nil || l != level {
			t.Fatalf("CheckStamp(%s) = %q, %v", out, l, err)
		}

		root, outRoot := entries(in.Root()), entries(out.Root())
		// Root: untouched entries byte-identical and in order; logging and
		// diagnostics keep their place or are appended.
		if d := cmp.Diff(without(root, "logging", "diagnostics"), without(outRoot, "logging", "diagnostics")); d != "" {
			t.Fatalf("root entries changed (-in +out):\n%s", d)
		}
		if d := cmp.Diff(expectedKeys(root, nil, "logging", "diagnostics"), keys(outRoot)); d != "" {
			t.Fatalf("root key order (-want +got):\n%s", d)
		}
		// logging: the unowned entries of an object survive in order.
		logIn, logOut := in.Get(pathLogging), out.Get(pathLogging)
		owned := []string{"level", "consoleLevel", "consoleStyle", "redactSensitive"}
		if d := cmp.Diff(without(entries(logIn), owned...), without(entries(logOut), owned...)); d != "" {
			t.Fatalf("logging entries changed (-in +out):\n%s", d)
		}
		if d := cmp.Diff(expectedKeys(entries(logIn), []string{"redactSensitive"}, "level", "consoleLevel", "consoleStyle"), keys(entries(logOut))); d != "" {
			t.Fatalf("logging key order (-want +got):\n%s", d)
		}
		// diagnostics and otel likewise.
		diagIn, diagOut := in.Get(pathDiagnostics), out.Get(pathDiagnostics)
		if d := cmp.Diff(without(entries(diagIn), "otel"), without(entries(diagOut), "otel")); d != "" {
			t.Fatalf("diagnostics entries changed (-in +out):\n%s", d)
		}
		if d := cmp.Diff(expectedKeys(entries(diagIn), nil, "otel"), keys(entries(diagOut))); d != "" {
			t.Fatalf("diagnostics key order (-want +got):\n%s", d)
		}
		otelIn := diagIn.Key("otel")
		otelOut := out.Get(pathOtel)
		if d := cmp.Diff(without(entries(otelIn), "logs"), without(entries(otelOut), "logs")); d != "" {
			t.Fatalf("otel entries changed (-in +out):\n%s", d)
		}
		if d := cmp.Diff(expectedKeys(entries(otelIn), nil, "logs"), keys(entries(otelOut))); d != "" {
			t.Fatalf("otel key order (-want +got):\n%s", d)
		}
	})
}

// LOG-3: driver-owned stamping is the identity.
func TestStampDriverOwnedProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := genConfig(t)
		out, err := Stamp(in, rapid.SampledFrom(occkit.AllLogLevels()).Draw(t, "level"), occkit.OwnedByDriver)
		if err != nil || !out.Equal(in) {
			t.Fatalf("driver-owned Stamp changed %s into %s (%v)", in, out, err)
		}
	})
}

// Restamping at another level changes only the two levels.
func TestRestampProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		first, err := Stamp(genConfig(t), rapid.SampledFrom(occkit.AllLogLevels()).Draw(t, "first"), occkit.OwnedByPlatform)
		if err != nil {
			t.Fatal(err)
		}
		level := rapid.SampledFrom(occkit.AllLogLevels()).Draw(t, "second")
		second, err := Stamp(first, level, occkit.OwnedByPlatform)
		if err != nil {
			t.Fatal(err)
		}
		if l, _ := CheckStamp(second); l != level {
			t.Fatalf("restamped level %q, want %q", l, level)
		}
		norm := func(d occkit.Document) string {
			d, _ = d.Set(pathLevel, "x")
			d, _ = d.Set(pathConsoleLevel, "x")
			return d.String()
		}
		if norm(first) != norm(second) {
			t.Fatalf("restamp changed more than the levels:\n%s\n%s", first, second)
		}
	})
}

// StampCanonical is the canonical form of Stamp's document, byte for
// byte, and refuses what Stamp refuses, with the same error: over drawn
// configurations, levels and ownerships (valid or not), and roots that
// are not objects.
func TestStampCanonicalIsCanonicalStamp(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := genConfig(t)
		if rapid.IntRange(0, 9).Draw(t, "array root") == 0 {
			in = occkit.MustParseDocument(`[` + in.String() + `]`)
		}
		level := rapid.SampledFrom(append(occkit.AllLogLevels(), "loud")).Draw(t, "level")
		owner := rapid.SampledFrom([]occkit.LogOwnership{occkit.OwnedByPlatform, occkit.OwnedByDriver, "", "nobody"}).Draw(t, "owner")
		want, werr := Stamp(in, level, owner)
		if werr == nil {
			want = occkit.CanonicalDocument(want)
		}
		got, err := StampCanonical(in, level, owner)
		if (err == nil) != (werr == nil) || err != nil && err.Error() != werr.Error() {
			t.Fatalf("StampCanonical(%s): error %v, Stamp's %v", in, err, werr)
		}
		if !got.Equal(want) {
			t.Fatalf("StampCanonical(%s)\n got %s\nwant %s", in, got, want)
		}
	})
}
