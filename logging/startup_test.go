package logging

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/occkit/occkit"
)

func ms(n int64) time.Time { return time.UnixMilli(n) }

// LOG-7
func TestStartupPhase(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   StartupEvent
		want string
	}{
		{"ok phase", StartupEvent{Container: occkit.ProcessGateway, Phase: PhasePluginInstall, Outcome: OutcomeOK, Origin: ms(0), StartedAt: ms(5), Now: ms(12)},
			`{"event":"runtime.startup_phase","container":"gateway","phase":"plugin-install","outcome":"ok","ms":7,"sinceStartMs":12}`},
		{"zero outcome is ok", StartupEvent{Container: occkit.ProcessHarness, Phase: PhaseNativeSpawn, Origin: ms(100), StartedAt: ms(100), Now: ms(350)},
			`{"event":"runtime.startup_phase","container":"agent","phase":"native-spawn","outcome":"ok","ms":250,"sinceStartMs":250}`},
		{"failed with a code", StartupEvent{Container: occkit.ProcessHarness, Phase: PhaseModelProbe, Outcome: OutcomeFailed, Code: "MODEL_PROBE_TIMEOUT", Origin: ms(50), StartedAt: ms(100), Now: ms(160)},
			`{"event":"runtime.startup_phase","container":"agent","phase":"model-probe","outcome":"failed","ms":60,"sinceStartMs":110,"code":"MODEL_PROBE_TIMEOUT"}`},
		{"single-letter code", StartupEvent{Container: occkit.ProcessHarness, Phase: PhaseLogin, Outcome: OutcomeFailed, Code: "A", Now: ms(1)},
			`{"event":"runtime.startup_phase","container":"agent","phase":"login","outcome":"failed","ms":1,"sinceStartMs":1,"code":"A"}`},
		{"64-character code kept", StartupEvent{Container: occkit.ProcessGateway, Phase: PhaseStateMigration, Outcome: OutcomeFailed, Code: "A" + strings.Repeat("B", 63)},
			`{"event":"runtime.startup_phase","container":"gateway","phase":"state-migration","outcome":"failed","ms":0,"sinceStartMs":0,"code":"A` + strings.Repeat("B", 63) + `"}`},
		{"65-character code dropped", StartupEvent{Container: occkit.ProcessGateway, Phase: PhaseStateMigration, Outcome: OutcomeFailed, Code: "A" + strings.Repeat("B", 64)},
			`{"event":"runtime.startup_phase","container":"gateway","phase":"state-migration","outcome":"failed","ms":0,"sinceStartMs":0}`},
		{"lower-case code dropped", StartupEvent{Container: occkit.ProcessGateway, Phase: PhasePluginInstall, Outcome: OutcomeFailed, Code: "timeout", Now: ms(2)},
			`{"event":"runtime.startup_phase","container":"gateway","phase":"plugin-install","outcome":"failed","ms":2,"sinceStartMs":2}`},
		{"code with a space dropped", StartupEvent{Container: occkit.ProcessGateway, Phase: PhasePluginInstall, Outcome: OutcomeFailed, Code: "BAD CODE"},
			`{"event":"runtime.startup_phase","container":"gateway","phase":"plugin-install","outcome":"failed","ms":0,"sinceStartMs":0}`},
		{"leading digit dropped", StartupEvent{Container: occkit.ProcessGateway, Phase: PhasePluginInstall, Outcome: OutcomeFailed, Code: "1_FAILED"},
			`{"event":"runtime.startup_phase","container":"gateway","phase":"plugin-install","outcome":"failed","ms":0,"sinceStartMs":0}`},
		{"code on an ok phase dropped", StartupEvent{Container: occkit.ProcessGateway, Phase: PhaseWorkspaceSetup, Outcome: OutcomeOK, Code: "READY", Now: ms(3)},
			`{"event":"runtime.startup_phase","container":"gateway","phase":"workspace-setup","outcome":"ok","ms":3,"sinceStartMs":3}`},
		{"sub-millisecond times truncate", StartupEvent{Container: occkit.ProcessGateway, Phase: PhasePeerStatus, Origin: time.Unix(0, 0), StartedAt: time.Unix(0, 400_000), Now: time.Unix(0, 2_900_000)},
			`{"event":"runtime.startup_phase","container":"gateway","phase":"peer-status","outcome":"ok","ms":2,"sinceStartMs":2}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := tc.in
			for _, p := range []*time.Time{&in.Origin, &in.StartedAt, &in.Now} {
				if p.IsZero() {
					*p = ms(0) // the table leaves the epoch out
				}
			}
			r, err := StartupPhase(in)
			if err != nil {
				t.Fatal(err)
			}
			got, err := json.Marshal(r)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, string(got)); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

func TestStartupPhaseRefuses(t *testing.T) {
	ok := StartupEvent{Container: occkit.ProcessGateway, Phase: PhaseModelProbe, Origin: ms(1), Now: ms(2)}
	if _, err := StartupPhase(ok); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		edit func(*StartupEvent)
		path string
	}{
		{"unknown container", func(e *StartupEvent) { e.Container = "agent" }, "container"}, // a wire name, not a role
		{"zero container", func(e *StartupEvent) { e.Container = "" }, "container"},
		{"unknown phase", func(e *StartupEvent) { e.Phase = "openai/gpt-5" }, "phase"},
		{"zero phase", func(e *StartupEvent) { e.Phase = "" }, "phase"},
		{"unknown outcome", func(e *StartupEvent) { e.Outcome = "error" }, "outcome"},
		{"zero origin", func(e *StartupEvent) { e.Origin = time.Time{} }, ""},
		{"zero now", func(e *StartupEvent) { e.Now = time.Time{} }, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := ok
			tc.edit(&e)
			_, err := StartupPhase(e)
			wantErr(t, err, occkit.CodeInvalidRequest, "LOG-7", tc.path)
		})
	}
}

func TestStartupPhaseZeroStartIsOrigin(t *testing.T) {
	r, err := StartupPhase(StartupEvent{Container: occkit.ProcessHarness, Phase: PhaseModelProbe, Origin: ms(10), Now: ms(25)})
	if err != nil || r.Ms != 15 || r.SinceStartMs != 15 {
		t.Errorf("got %+v, %v", r, err)
	}
}

func TestGatewayRecords(t *testing.T) {
	r, err := PeerStatusChanged(ms(1000), ms(4000))
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(r)
	if want := `{"event":"runtime.startup_phase","container":"gateway","phase":"peer-status-changed","outcome":"ok","ms":3000,"sinceStartMs":3000}`; string(got) != want {
		t.Errorf("peer-status-changed = %s", got)
	}
	if r, err = GatewayRespawn(ms(1000), ms(4000), ms(4500)); err != nil {
		t.Fatal(err)
	}
	got, _ = json.Marshal(r)
	if want := `{"event":"runtime.startup_phase","container":"gateway","phase":"gateway-respawn","outcome":"ok","ms":500,"sinceStartMs":3500}`; string(got) != want {
		t.Errorf("gateway-respawn = %s", got)
	}
	if _, err := GatewayRespawn(time.Time{}, ms(1), ms(2)); err == nil {
		t.Error("zero origin accepted")
	}
}

// A record logged through NewStartupHandler is byte for byte its wire form,
// and WriteTo writes the same line.
func TestStartupRecordThroughSlog(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		r, err := StartupPhase(StartupEvent{
			Container: rapid.SampledFrom(occkit.AllProcesses()).Draw(t, "container"),
			Phase:     rapid.SampledFrom(AllPhases()).Draw(t, "phase"),
			Outcome:   rapid.SampledFrom(AllPhaseOutcomes()).Draw(t, "outcome"),
			Code:      rapid.SampledFrom([]string{"", "A", "LOGIN_FAILED", "bad", "MODEL_PROBE_TIMEOUT"}).Draw(t, "code"),
			Origin:    ms(rapid.Int64Range(1, 1e6).Draw(t, "origin")),
			StartedAt: ms(rapid.Int64Range(1, 1e6).Draw(t, "started")),
			Now:       ms(rapid.Int64Range(0, 2e6).Draw(t, "now")),
		})
		if err != nil {
			t.Fatal(err)
		}
		var viaSlog, viaWrite bytes.Buffer
		r.Log(context.Background(), slog.New(NewStartupHandler(&viaSlog)))
		if _, err := r.WriteTo(&viaWrite); err != nil {
			t.Fatal(err)
		}
		want, _ := r.MarshalJSON()
		want = append(want, '\n')
		if viaSlog.String() != string(want) || viaWrite.String() != string(want) {
			t.Fatalf("slog %q, WriteTo %q, want %q", viaSlog.String(), viaWrite.String(), want)
		}
		var back map[string]any
		if err := json.Unmarshal(want, &back); err != nil {
			t.Fatal(err)
		}
		if _, has := back["code"]; has != (r.Outcome == OutcomeFailed && r.Code != "") {
			t.Fatalf("code presence wrong in %s", want)
		}
	})
}

// planted are values that must never reach a startup record.
var planted = []string{"sk-live-PLANTED0123", "openai/gpt-5-planted", "/home/node/.codex/auth-planted.json", "anthropic-planted", "Bearer planted-token"}

// LOG-7: whatever else a caller logs next to a startup record, no planted
// provider, model, credential or path reaches the line.
func TestStartupHandlerDropsPlantedSecrets(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var buf bytes.Buffer
		l := slog.New(NewStartupHandler(&buf))
		secret := rapid.SampledFrom(planted).Draw(t, "secret")
		key := rapid.SampledFrom([]string{"provider", "model", "apiKey", "path", "cause", "message", "msg", "event", "level", "time", "service.name", "container.name", "", "phase", "code", "container", "outcome", "ms"}).Draw(t, "key")
		if g := rapid.Bool().Draw(t, "grouped"); g {
			l = l.WithGroup(rapid.SampledFrom([]string{"detail", "G"}).Draw(t, "group"))
		}
		if rapid.Bool().Draw(t, "with") {
			l = l.With(key, secret)
		}
		msg := EventStartupPhase
		if rapid.Bool().Draw(t, "secretMessage") {
			msg = secret
		}
		r, _ := StartupPhase(StartupEvent{Container: occkit.ProcessHarness, Phase: PhaseCodexLogin, Outcome: OutcomeFailed, Code: "LOGIN_FAILED", Origin: ms(1), Now: ms(9)})
		attrs := append(r.Attrs(), slog.String(key, secret), slog.Group("cause", slog.String("detail", secret)), slog.Any(key, []string{secret}))
		l.LogAttrs(context.Background(), slog.LevelError, msg, attrs...)
		if strings.Contains(buf.String(), secret) {
			t.Fatalf("planted %q reached the output: %s", secret, buf.String())
		}
		if !json.Valid(buf.Bytes()) {
			t.Fatalf("invalid line %q", buf.String())
		}
	})
}

// TestParseStartupContainer: only LOG-7's two wire names read as roles;
// a role's own name ("harness") is not a wire name.
func TestParseStartupContainer(t *testing.T) {
	for name, want := range map[string]occkit.Process{"gateway": occkit.ProcessGateway, "agent": occkit.ProcessHarness} {
		if got, err := ParseStartupContainer(name); err != nil || got != want {
			t.Errorf("ParseStartupContainer(%q) = %q, %v; want %q", name, got, err, want)
		}
	}
	for _, name := range []string{"harness", "", "Gateway", "agent "} {
		_, err := ParseStartupContainer(name)
		if d := cmp.Diff([]occkit.ErrorMatcher{{Code: occkit.CodeInvalidRequest, Path: "container", Rule: "LOG-7"}}, occkit.MatchersOf(err)); d != "" {
			t.Errorf("ParseStartupContainer(%q) (-want +got):\n%s", name, d)
		}
	}
}
