package logging

import (
	"context"
	"io"
	"log/slog"
	"testing"

	"github.com/occkit/occkit"
)

var benchDoc = occkit.MustParseDocument(`{"agents":{"defaults":{"model":{"primary":"openai/gpt-5","fallbacks":["anthropic/claude"]}},"entries":{"main":{"workspace":"/home/node/workspace"}}},` +
	`"logging":{"level":"debug","redactSensitive":"tools","file":"/tmp/openclaw.log"},"gateway":{"port":8080,"auth":{"mode":"password"}},` +
	`"diagnostics":{"otel":{"endpoint":"http://collector:4318","logs":true}},"plugins":{"entries":{"codex":{"enabled":true}}}}`)

func BenchmarkStamp(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := Stamp(benchDoc, occkit.LevelWarn, occkit.OwnedByPlatform); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkStampStamped(b *testing.B) {
	stamped, _ := Stamp(benchDoc, occkit.LevelWarn, occkit.OwnedByPlatform)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Stamp(stamped, occkit.LevelWarn, occkit.OwnedByPlatform); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCheckStamp(b *testing.B) {
	stamped, _ := Stamp(benchDoc, occkit.LevelWarn, occkit.OwnedByPlatform)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := CheckStamp(stamped); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkStartupHandler(b *testing.B) {
	l := slog.New(NewStartupHandler(io.Discard))
	r := StartupRecord{Container: occkit.ProcessHarness, Phase: PhaseModelProbe, Outcome: OutcomeFailed, Ms: 1500, SinceStartMs: 1540, Code: "MODEL_PROBE_TIMEOUT"}
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r.Log(ctx, l)
	}
}

// The filter's own cost over the JSON handler, with attributes to drop.
func BenchmarkFilterHandler(b *testing.B) {
	l := slog.New(Filter(slog.NewJSONHandler(io.Discard, nil), FilterOptions{}))
	ctx := context.Background()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		l.LogAttrs(ctx, slog.LevelInfo, EventStartupPhase,
			slog.String("container", "gateway"), slog.String("phase", "plugin-install"), slog.String("outcome", "ok"),
			slog.Int64("ms", 12), slog.String("model", "openai/gpt-5"), slog.String("apiKey", "sk-live-1"))
	}
}

func BenchmarkJSONHandlerBaseline(b *testing.B) {
	l := slog.New(slog.NewJSONHandler(io.Discard, nil))
	ctx := context.Background()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		l.LogAttrs(ctx, slog.LevelInfo, EventStartupPhase,
			slog.String("container", "gateway"), slog.String("phase", "plugin-install"), slog.String("outcome", "ok"),
			slog.Int64("ms", 12))
	}
}
