package logging

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"
	"testing/slogtest"

	"github.com/google/go-cmp/cmp"
)

// The keys and messages testing/slogtest uses: with them allowed, Filter is
// a transparent, contract-abiding slog.Handler.
var slogtestOptions = FilterOptions{
	Attributes: []string{"a", "c", "e", "k", "G.a", "G.b", "G.c", "G.H.e"},
	Messages:   []string{"message", "msg"},
}

func TestFilterSlogtest(t *testing.T) {
	var buf bytes.Buffer
	newHandler := func(*testing.T) slog.Handler {
		buf.Reset()
		return Filter(slog.NewJSONHandler(&buf, nil), slogtestOptions)
	}
	result := func(t *testing.T) map[string]any {
		var m map[string]any
		if err := json.Unmarshal(buf.Bytes(), &m); err != nil {
			t.Fatalf("%v: %s", err, buf.String())
		}
		return m
	}
	slogtest.Run(t, newHandler, result)
}

func TestFilter(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts FilterOptions
		log  func(*slog.Logger)
		want string
	}{
		{"default allowlist keeps startup and work fields", FilterOptions{}, func(l *slog.Logger) {
			l.Info(EventStartupPhase, "container", "agent", "phase", "model-probe", "provider", "openai", "work.id", "w1", "ms", 5)
		}, `{"msg":"runtime.startup_phase","container":"agent","phase":"model-probe","work.id":"w1","ms":5}`},
		{"other messages are withheld", FilterOptions{}, func(l *slog.Logger) {
			l.Info("login with sk-live-1", "outcome", "ok")
		}, `{"msg":"withheld","outcome":"ok"}`},
		{"illegal startup values dropped", FilterOptions{}, func(l *slog.Logger) {
			l.Info(EventStartupPhase, "container", "pod-a", "phase", "/etc/secret", "outcome", "maybe", "code", "lower", "ms", "5", "sinceStartMs", 1.5)
		}, `{"msg":"runtime.startup_phase"}`},
		{"identity attributes never pass", FilterOptions{Attributes: []string{"service.name", "container.name", "occkit.agent.id", "x"}}, func(l *slog.Logger) {
			l.Info(EventStartupPhase, "service.name", "forged", "container.name", "forged", "occkit.agent.id", "forged", "x", 1)
		}, `{"msg":"runtime.startup_phase","x":1}`},
		{"groups filtered by path", FilterOptions{Attributes: []string{"G.keep", "top"}}, func(l *slog.Logger) {
			l.With("top", 1, "drop", 2).WithGroup("G").Info(EventStartupPhase, "keep", 3, "model", "gpt", slog.Group("H", "keep", 4))
		}, `{"msg":"runtime.startup_phase","top":1,"G":{"keep":3}}`},
		{"inline group members use the enclosing path", FilterOptions{Attributes: []string{"a"}}, func(l *slog.Logger) {
			l.Info(EventStartupPhase, slog.Group("", "a", 1, "b", 2))
		}, `{"msg":"runtime.startup_phase","a":1}`},
		{"LogValuer resolved before filtering", FilterOptions{Attributes: []string{"v"}}, func(l *slog.Logger) {
			l.Info(EventStartupPhase, "v", valuer{slog.StringValue("resolved")}, "w", valuer{slog.StringValue("dropped")})
		}, `{"msg":"runtime.startup_phase","v":"resolved"}`},
		{"a valuer cannot smuggle a group", FilterOptions{Attributes: []string{"v"}}, func(l *slog.Logger) {
			l.Info(EventStartupPhase, "v", valuer{slog.GroupValue(slog.String("secret", "sk-1"))})
		}, `{"msg":"runtime.startup_phase"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			h := Filter(slog.NewJSONHandler(&buf, &slog.HandlerOptions{ReplaceAttr: dropTimeLevel}), tc.opts)
			tc.log(slog.New(h))
			if d := cmp.Diff(tc.want, strings.TrimSpace(buf.String())); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

type valuer struct{ v slog.Value }

func (v valuer) LogValue() slog.Value { return v.v }

func dropTimeLevel(groups []string, a slog.Attr) slog.Attr {
	if len(groups) == 0 && (a.Key == slog.TimeKey || a.Key == slog.LevelKey) {
		return slog.Attr{}
	}
	return a
}

func TestFilterEnabledFollowsNext(t *testing.T) {
	h := Filter(slog.NewJSONHandler(&bytes.Buffer{}, &slog.HandlerOptions{Level: slog.LevelWarn}), FilterOptions{})
	if h.Enabled(context.Background(), slog.LevelInfo) || !h.Enabled(context.Background(), slog.LevelError) {
		t.Error("Enabled does not follow the wrapped handler")
	}
}
