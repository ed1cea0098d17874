package logging

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/occkit/occkit"
)

// stampBefore is Stamp's platform stamp of an object (a valid level) as
// it was before its edits' values were quoted once into bytes: every
// value quoted into a string, then converted.
func stampBefore(doc occkit.Document, level occkit.LogLevel) (occkit.Document, error) {
	logging, diagnostics := stampedMembers(doc)
	edits := make([]occkit.Edit, 0, 5)
	if !logging.IsObject() {
		raw := `{"level":` + quote(string(level)) + `,"consoleLevel":` + quote(string(level)) +
			`,"consoleStyle":` + quote(ConsoleStyle) + `}`
		edits = append(edits, occkit.Edit{Path: pathLogging, Raw: []byte(raw)})
	} else {
		if logging.Key("redactSensitive").Exists() {
			edits = append(edits, occkit.Edit{Path: pathRedactSensitive, Delete: true})
		}
		for _, e := range []struct {
			key   string
			path  occkit.Path
			value string
		}{
			{"level", pathLevel, string(level)},
			{"consoleLevel", pathConsoleLevel, string(level)},
			{"consoleStyle", pathConsoleStyle, ConsoleStyle},
		} {
			if v := logging.Key(e.key); !v.IsString() || v.String() != e.value {
				edits = append(edits, occkit.Edit{Path: e.path, Raw: []byte(quote(e.value))})
			}
		}
	}
	edits = stampDiagnostics(edits, diagnostics)
	if len(edits) == 0 {
		return doc, nil
	}
	return doc.Apply(edits...)
}

// TestStampMatchesBefore: the platform stamp writes the bytes it wrote
// before, on configurations of every shape the stamp distinguishes, at
// every level, whether the root index is built or not.
func TestStampMatchesBefore(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		doc := genConfig(t)
		level := rapid.SampledFrom(occkit.AllLogLevels()).Draw(t, "level")
		if rapid.Bool().Draw(t, "looked up") {
			doc.Get(pathLogging) // the root index built, or not
		}
		got, err := Stamp(doc, level, occkit.OwnedByPlatform)
		want, werr := stampBefore(doc, level)
		if err != nil || werr != nil {
			t.Fatalf("Stamp(%s, %q) = %v, before %v", doc, level, err, werr)
		}
		if got.String() != want.String() {
			t.Fatalf("Stamp(%s, %q)\n got %s\nbefore %s", doc, level, got, want)
		}
		if got.Digest() != want.Digest() || occkit.CanonicalDigest(got) != occkit.CanonicalDigest(want) {
			t.Fatalf("digests differ for %s", got)
		}
	})
}
