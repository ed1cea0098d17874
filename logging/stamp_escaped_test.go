package logging

import (
	"strings"
	"testing"

	"github.com/occkit/occkit"
)

// TestStampKeepsEscapedSettings: a setting already right keeps its bytes
// when they spell it with escapes, and under an escaped name, whichever
// other settings the stamp writes (each setting is read under its own
// name, not another's).
func TestStampKeepsEscapedSettings(t *testing.T) {
	settings := []string{`"level":"\u0069nfo"`, `"consoleLevel":"inf\u006f"`, `"consoleStyle":"j\u0073on"`, `"c\u006fnsoleStyle":"json"`}
	for _, kept := range settings {
		for _, others := range []string{"", `,"redactSensitive":"off"`, `,"file":"/tmp/x.log"`} {
			src := `{"logging":{` + kept + others + `},"diagnostics":{"otel":{"logs":false}}}`
			out, err := Stamp(occkit.MustParseDocument(src), occkit.LevelInfo, occkit.OwnedByPlatform)
			if err != nil {
				t.Fatalf("Stamp(%s): %v", src, err)
			}
			if strings.Count(out.String(), kept) != 1 {
				t.Errorf("Stamp(%s) = %s: the setting %s is written again", src, out, kept)
			}
		}
	}
}
