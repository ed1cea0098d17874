package logging

import (
	"reflect"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
	"pgregory.net/rapid"

	"github.com/occkit/occkit"
)

// checkStampBefore is CheckStamp as it was before it read logging's
// settings in one pass: one Key lookup each.
func checkStampBefore(doc occkit.Document) (occkit.LogLevel, error) {
	logging, diagnostics := stampedMembers(doc)
	var errs []error
	level, okLevel := levelBefore(logging.Key("level"))
	if !okLevel {
		errs = append(errs, broken(pathLevel, "logging.level must be one of debug, info, warn or error"))
	}
	console, okConsole := levelBefore(logging.Key("consoleLevel"))
	if !okConsole {
		errs = append(errs, broken(pathConsoleLevel, "logging.consoleLevel must be one of debug, info, warn or error"))
	}
	if okLevel && okConsole && level != console {
		errs = append(errs, broken(pathConsoleLevel, "logging.consoleLevel must equal logging.level"))
	}
	if s := logging.Key("consoleStyle"); !s.IsString() || s.String() != ConsoleStyle {
		errs = append(errs, broken(pathConsoleStyle, "logging.consoleStyle must be json"))
	}
	if logging.Key("redactSensitive").Exists() {
		errs = append(errs, broken(pathRedactSensitive, "logging.redactSensitive is retired and must be absent"))
	}
	if logs := diagnostics.Key("otel").Key("logs"); !logs.IsBool() || logs.Bool() {
		errs = append(errs, broken(pathOtelLogs, "diagnostics.otel.logs must be false"))
	}
	if err := occkit.Join(errs...); err != nil {
		return "", err
	}
	return level, nil
}

// levelBefore is stampedLevel as it was, of a Value.
func levelBefore(v occkit.Value) (occkit.LogLevel, bool) {
	if !v.IsString() {
		return "", false
	}
	l := occkit.LogLevel(v.String())
	return l, l.Valid()
}

// spelled is the JSON string of the name k, now and then spelled with an
// escape (the same name to Key, other bytes).
func spelled(t *rapid.T, k string) string {
	switch rapid.IntRange(0, 3).Draw(t, "spelling") {
	case 0:
		// The first letter as a \u escape.
		return `"\u00` + hexOf(k[0]) + k[1:] + `"`
	case 1:
		// The last letter as a \u escape.
		return `"` + k[:len(k)-1] + `\u00` + hexOf(k[len(k)-1]) + `"`
	}
	return quote(k)
}

// hexOf is the two lower-case hex digits of c.
func hexOf(c byte) string {
	const digits = "0123456789abcdef"
	return string([]byte{digits[c>>4], digits[c&15]})
}

// genStampedMembers draws a logging or diagnostics.otel value of every
// shape CheckStamp distinguishes: an object of members named from
// required and others (each spelled plainly or with an escape) in any
// order, or now and then another value; an object holds every name of
// required when stamped. Its names are distinct: a Document holds no
// object with a name twice (ParseDocument refuses it, DOC-2, escaped or
// not). value draws the value of a name.
func genStampedMembers(t *rapid.T, stamped bool, required, others []string, value func(t *rapid.T, name string) string) string {
	if rapid.IntRange(0, 6).Draw(t, "object") == 0 {
		return genValue(t, 1)
	}
	all := append(append([]string(nil), required...), others...)
	keys := rapid.SliceOfNDistinct(rapid.SampledFrom(all), 0, len(all), rapid.ID[string]).Draw(t, "names")
	if stamped {
		keys = rapid.SliceOfNDistinct(rapid.SampledFrom(others), 0, len(others), rapid.ID[string]).Draw(t, "others")
		keys = rapid.Permutation(append(keys, required...)).Draw(t, "order")
	}
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = spelled(t, k) + ":" + value(t, k)
	}
	return "{" + strings.Join(parts, ",") + "}"
}

// TestCheckStampMatchesKeyLookups: CheckStamp, reading logging's settings
// in one pass, returns the level and the refusal (each error, in order)
// that one Key lookup per setting returned, on documents stamped or
// nearly, whose logging, diagnostics and otel members escape names and
// stand in any order, and whose logging, diagnostics or otel are not
// objects.
func TestCheckStampMatchesKeyLookups(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		stamped := rapid.Bool().Draw(t, "stamped")
		level := string(rapid.SampledFrom(occkit.AllLogLevels()).Draw(t, "level"))
		// value is the stamp's value of a setting when stamped (but
		// now and then), spelled plainly or with an escape, else any
		// value, a level more often than not.
		value := func(t *rapid.T, name string) string {
			if stamped && rapid.IntRange(0, 7).Draw(t, "broken") != 0 {
				switch name {
				case "level", "consoleLevel":
					return spelled(t, level)
				case "consoleStyle":
					return spelled(t, ConsoleStyle)
				case "logs":
					return "false"
				}
			}
			if name == "logs" {
				return rapid.SampledFrom([]string{"false", "true", `"false"`, "null"}).Draw(t, "logs")
			}
			if rapid.Bool().Draw(t, "levelish") {
				return genLevelish(t)
			}
			return genValue(t, 1)
		}
		logging := genStampedMembers(t, stamped, []string{"level", "consoleLevel", "consoleStyle"},
			[]string{"redactSensitive", "file", "levels", "Level"}, value)
		diagnostics := genStampedMembers(t, stamped, []string{"otel"}, []string{"flags", "otels"}, func(t *rapid.T, name string) string {
			if name == "otel" {
				return genStampedMembers(t, stamped, []string{"logs"}, []string{"endpoint", "log"}, value)
			}
			return value(t, name)
		})
		root := []string{`"logging":` + logging, `"diagnostics":` + diagnostics, `"agents":{}`}
		src := "{" + strings.Join(rapid.Permutation(root).Draw(t, "root"), ",") + "}"
		doc, err := occkit.ParseDocument([]byte(src))
		if err != nil {
			t.Fatalf("generated %s: %v", src, err)
		}
		got, gerr := CheckStamp(doc)
		want, werr := checkStampBefore(doc)
		if got != want {
			t.Fatalf("CheckStamp(%s) = %q, before %q", src, got, want)
		}
		if !reflect.DeepEqual(occkit.Errors(gerr), occkit.Errors(werr)) || (gerr == nil) != (werr == nil) {
			t.Fatalf("CheckStamp(%s)\n got %v\nbefore %v", src, gerr, werr)
		}
		if gerr != nil && gerr.Error() != werr.Error() {
			t.Fatalf("CheckStamp(%s)\n got %q\nbefore %q", src, gerr, werr)
		}
	})
}

// TestFirstMembersIsKey: firstMembers finds, for each name, the value
// gjson's lookup of that name finds (what Key reads), on objects that no
// Document holds too: names repeated, escaped or not, and any other value.
func TestFirstMembersIsKey(t *testing.T) {
	names := []string{"level", "consoleLevel", "logs", "otel"}
	rapid.Check(t, func(t *rapid.T) {
		obj := genValue(t, 1)
		if rapid.IntRange(0, 4).Draw(t, "object") != 0 {
			n := rapid.IntRange(0, 6).Draw(t, "members")
			parts := make([]string, n)
			for i := range parts {
				parts[i] = spelled(t, rapid.SampledFrom(append(names, "x")).Draw(t, "name")) + ":" + genValue(t, 1)
			}
			obj = "{" + strings.Join(parts, ",") + "}"
		}
		read := rapid.SliceOfNDistinct(rapid.SampledFrom(names), 1, len(names), rapid.ID[string]).Draw(t, "read")
		found := make([]string, len(read))
		firstMembers(obj, read, found)
		for i, n := range read {
			// Key reads objects only.
			want := ""
			if gjson.Parse(obj).IsObject() {
				want = gjson.Get(obj, n).Raw
			}
			if found[i] != want {
				t.Fatalf("firstMembers(%s) of %s = %q, Key %q", obj, n, found[i], want)
			}
		}
	})
}
