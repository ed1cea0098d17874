package adversarial_test

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/logging"
	"github.com/occkit/occkit/probe"
)

const intact = `{"logging":{"level":"info","consoleLevel":"info","consoleStyle":"json"},"diagnostics":{"otel":{"logs":false}}}`

// TestStampRefuses_LOG1: Stamp refuses a level or owner off the closed
// sets and leaves the document as it was.
func TestStampRefuses_LOG1(t *testing.T) {
	for _, tt := range []struct {
		name  string
		level occkit.LogLevel
		owner occkit.LogOwnership
		want  want
	}{
		{"unknown level", "trace", occkit.OwnedByPlatform, want{400, bad, "level", "LOG-1"}},
		{"level with a bidi override", "in\u202efo", occkit.OwnedByPlatform, want{400, bad, "level", "LOG-1"}},
		{"level with NUL", "info\x00", occkit.OwnedByPlatform, want{400, bad, "level", "LOG-1"}},
		{"unknown owner", occkit.LevelInfo, "nobody", want{400, bad, "runtimeLogging", "LOG-3"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			doc := occkit.MustParseDocument(`{"logging":{"level":"debug","redactSensitive":"off"}}`)
			before := doc.Bytes()
			out, err := logging.Stamp(doc, tt.level, tt.owner)
			refused(t, err, tt.want)
			unchanged(t, "document", before, doc)
			if !out.Equal(occkit.Document{}) {
				t.Errorf("refusal returned a document %s", out)
			}
		})
	}
}

// TestGuardRefuses_LOG2: a stamp that is not intact, however it was
// broken, is a 409 naming the setting.
func TestGuardRefuses_LOG2(t *testing.T) {
	set := func(path, raw string) string {
		p, err := occkit.ParsePath(path)
		if err != nil {
			t.Fatal(err)
		}
		d, err := occkit.MustParseDocument(intact).SetRaw(p, []byte(raw))
		if err != nil {
			t.Fatal(err)
		}
		return d.String()
	}
	conflict := occkit.CodeResourceConflict
	for _, tt := range []struct {
		name, doc string
		want      want
	}{
		{"bidi in a level", set("logging.consoleLevel", "\"info\u202e\""), want{409, conflict, "logging.consoleLevel", "LOG-2"}},
		{"isolate in a level", set("logging.level", "\"\u2066info\""), want{409, conflict, "logging.level", "LOG-2"}},
		{"escaped control in a level", set("logging.level", `"info\u001b"`), want{409, conflict, "logging.level", "LOG-2"}},
		{"number level", set("logging.level", `-0`), want{409, conflict, "logging.level", "LOG-2"}},
		{"null level", set("logging.level", `null`), want{409, conflict, "logging.level", "LOG-2"}},
		{"levels unequal", set("logging.consoleLevel", `"debug"`), want{409, conflict, "logging.consoleLevel", "LOG-2"}},
		{"style not json", set("logging.consoleStyle", `"pretty"`), want{409, conflict, "logging.consoleStyle", "LOG-2"}},
		{"redactSensitive back", set("logging.redactSensitive", `"off"`), want{409, conflict, "logging.redactSensitive", "LOG-2"}},
		{"otel logs as a string", set("diagnostics.otel.logs", `"false"`), want{409, conflict, "diagnostics.otel.logs", "LOG-2"}},
		{"otel logs as 0", set("diagnostics.otel.logs", `0`), want{409, conflict, "diagnostics.otel.logs", "LOG-2"}},
		{"logging as an array", set("logging", `[{"level":"info"}]`), want{409, conflict, "logging.consoleLevel", "LOG-2"}},
		{"__proto__ logging", `{"__proto__":{"logging":{"level":"info"}},"diagnostics":{"otel":{"logs":false}}}`, want{409, conflict, "logging.consoleLevel", "LOG-2"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			doc := occkit.MustParseDocument(tt.doc)
			before := doc.Bytes()
			_, err := logging.CheckStamp(doc)
			refused(t, err, tt.want)
			unchanged(t, "document", before, doc)
		})
	}
	if _, err := logging.CheckStamp(occkit.MustParseDocument(intact)); err != nil {
		t.Fatalf("intact stamp: %v", err)
	}
}

// TestClassifyHostileOutput_PRB1: whatever a probe prints, the outcome is
// a member of the closed code set, never READY, and any cause is in the
// closed vocabulary.
func TestClassifyHostileOutput_PRB1(t *testing.T) {
	ok := []byte(`{"type":"thread.started"}` + "\n" + `{"type":"turn.started"}` + "\n" +
		`{"type":"item.completed","item":{"type":"agent_message","text":"ok"}}` + "\n" + `{"type":"turn.completed"}`)
	if got := probe.ClassifyCodex(probe.CodexRun{Model: "openai/gpt-5", Stdout: ok}).Code; got != probe.Ready {
		t.Fatalf("a good stream classifies as %s", got)
	}
	outputs := map[string][]byte{
		"20 MB run of [":           bytes.Repeat([]byte("["), 20<<20),
		"deep object":              []byte(strings.Repeat(`{"type":`, 100_000)),
		"invalid UTF-8":            []byte("{\"type\":\"turn.completed\xff\"}"),
		"NUL bytes":                []byte("{\"type\":\"turn.started\"}\x00\n{\"type\":\"turn.completed\"}"),
		"duplicate type":           []byte(`{"type":"turn.started","type":"turn.completed"}`),
		"NaN":                      []byte(`{"type":"turn.completed","usage":NaN}`),
		"1e999":                    []byte(`{"type":"turn.completed","usage":1e999}`),
		"bidi event type":          []byte("{\"type\":\"turn.comp\u202eleted\"}"),
		"__proto__":                []byte(`{"__proto__":{"type":"turn.completed"}}`),
		"truncated good stream":    ok[:len(ok)-3],
		"good stream then garbage": append(bytes.Clone(ok), "\n{"...),
		"huge line":                []byte(`{"type":"item.completed","item":{"type":"agent_message","text":"` + strings.Repeat("a", 8<<20) + `"}}`),
	}
	for name, out := range outputs {
		t.Run(name, func(t *testing.T) {
			for _, model := range []string{"openai/gpt-5", "openai/gpt\u202e-5", "codex/\u2066m", "openai/\x1b[2J"} {
				outcomes := []probe.Outcome{
					probe.ClassifyCodex(probe.CodexRun{Model: model, Stdout: out}),
					probe.ClassifyOpenClaw(probe.OpenClawRun{Model: model, Stdout: out}),
				}
				for i, o := range outcomes {
					if !slices.Contains(probe.AllCodes(), o.Code) || o.Code == probe.Ready || !o.Cause.Valid() {
						t.Errorf("classifier %d, model %q: %+v", i, model, o)
					}
				}
			}
		})
	}
}
