package logging

import (
	"reflect"
	"testing"

	"pgregory.net/rapid"

	"github.com/occkit/occkit"
)

// stampLiterals are logging and diagnostics values as the stamp writes
// them in canonical form, and near misses of each test stampedLiteral
// makes: levels that differ, are not levels or not spelled plainly,
// another consoleStyle, another member, another order, otel logs on.
var (
	loggingLiterals = []string{
		`{"consoleLevel":"info","consoleStyle":"json","level":"info"}`,
		`{"consoleLevel":"debug","consoleStyle":"json","level":"debug"}`,
		`{"consoleLevel":"warn","consoleStyle":"json","level":"warn"}`,
		`{"consoleLevel":"error","consoleStyle":"json","level":"error"}`,
		`{"consoleLevel":"info","consoleStyle":"json","level":"warn"}`,
		`{"consoleLevel":"warn","consoleStyle":"json","level":"info"}`,
		`{"consoleLevel":"infoo","consoleStyle":"json","level":"infoo"}`,
		`{"consoleLevel":"INFO","consoleStyle":"json","level":"INFO"}`,
		`{"consoleLevel":"","consoleStyle":"json","level":""}`,
		`{"consoleLevel":"\u0069nfo","consoleStyle":"json","level":"\u0069nfo"}`,
		`{"consoleLevel":"info","consoleStyle":"pretty","level":"info"}`,
		`{"consoleLevel":"info","consoleStyle":"json","level":"info","redactSensitive":"off"}`,
		`{"consoleLevel":"info","consoleStyle":"json","file":"x","level":"info"}`,
		`{"consoleLevel":"info","level":"info","consoleStyle":"json"}`,
		`{"consoleLevel":"info","consoleStyle":"json"}`,
		`{"consoleStyle":"json","level":"info"}`,
		`{"consoleLevel":"info","consoleStyle":"json","level":"info","level2":"info"}`,
		`"info"`,
		`{}`,
	}
	diagnosticsLiterals = []string{
		`{"otel":{"logs":false}}`,
		`{"otel":{"logs":true}}`,
		`{"otel":{"logs":false,"x":1}}`,
		`{"flags":[],"otel":{"logs":false}}`,
		`{"otel":{}}`,
		`false`,
	}
)

// stampLiteralDocument is a document with the logging and diagnostics
// values given ("" for none).
func stampLiteralDocument(t interface{ Fatalf(string, ...any) }, logging, diagnostics string) occkit.Document {
	src := `{"agents":{}`
	if diagnostics != "" {
		src += `,"diagnostics":` + diagnostics
	}
	if logging != "" {
		src += `,"logging":` + logging
	}
	doc, err := occkit.ParseDocument([]byte(src + "}"))
	if err != nil {
		t.Fatalf("%s}: %v", src, err)
	}
	return doc
}

// checkStampAgrees fails when CheckStamp and checkStampBefore (one Key
// lookup per setting) differ on doc: the level, the refusal's errors and
// its text.
func checkStampAgrees(t interface{ Fatalf(string, ...any) }, doc occkit.Document) {
	got, gerr := CheckStamp(doc)
	want, werr := checkStampBefore(doc)
	if got != want || (gerr == nil) != (werr == nil) || !reflect.DeepEqual(occkit.Errors(gerr), occkit.Errors(werr)) {
		t.Fatalf("CheckStamp(%s) = %q, %v; before %q, %v", doc, got, gerr, want, werr)
	}
	if gerr != nil && gerr.Error() != werr.Error() {
		t.Fatalf("CheckStamp(%s)\n got %q\nbefore %q", doc, gerr, werr)
	}
}

// TestStampedLiteralMatchesBefore holds CheckStamp, which reads a stamp
// written as StampCanonical writes it as two literals, to
// checkStampBefore on every pairing of the literals and their near
// misses, and on stamped documents of every level.
func TestStampedLiteralMatchesBefore(t *testing.T) {
	for _, l := range append(loggingLiterals, "") {
		for _, d := range append(diagnosticsLiterals, "") {
			checkStampAgrees(t, stampLiteralDocument(t, l, d))
		}
	}
	for _, level := range occkit.AllLogLevels() {
		doc, err := StampCanonical(stampLiteralDocument(t, `{"level":"debug","redactSensitive":"off"}`, ""), level, occkit.OwnedByPlatform)
		if err != nil {
			t.Fatal(err)
		}
		logging, diagnostics := stampedMembers(doc)
		if got, ok := stampedLiteral(logging.Raw(), diagnostics.Raw()); !ok || got != level {
			t.Errorf("stampedLiteral of the stamp at %s = %q, %v; want it read as one literal", level, got, ok)
		}
		checkStampAgrees(t, doc)
	}
}

// TestStampedLiteralDrawn is TestStampedLiteralMatchesBefore on drawn
// literals: the stamp's form with each level drawn apart from the other,
// among words that are levels, nearly or not at all.
func TestStampedLiteralDrawn(t *testing.T) {
	words := []string{"debug", "info", "warn", "error", "inf", "infoo", "Info", "", "json", `info\"`}
	rapid.Check(t, func(t *rapid.T) {
		a, b := rapid.SampledFrom(words).Draw(t, "consoleLevel"), rapid.SampledFrom(words).Draw(t, "level")
		logging := `{"consoleLevel":"` + a + `","consoleStyle":"json","level":"` + b + `"}`
		diagnostics := rapid.SampledFrom(diagnosticsLiterals).Draw(t, "diagnostics")
		checkStampAgrees(t, stampLiteralDocument(t, logging, diagnostics))
	})
}
