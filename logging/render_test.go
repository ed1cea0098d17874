package logging

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/occkit/occkit"
)

var gatewayRender = Rendered{
	Env:           []occkit.EnvVar{},
	Unset:         []string{"OPENCLAW_LOG_LEVEL"},
	ReadsDocument: true,
}

func codexRender(level string) Rendered {
	return Rendered{
		Env:        []occkit.EnvVar{{Name: "LOG_FORMAT", Value: "json"}, {Name: "RUST_LOG", Value: level + ",codex_otel=off"}},
		Args:       []string{"-c", `otel.exporter="none"`, "-c", "otel.log_user_prompt=false"},
		Command:    []string{"codex", "-c", `otel.exporter="none"`, "-c", "otel.log_user_prompt=false", "app-server"},
		StderrOnly: true,
	}
}

// LOG-4
func TestRender(t *testing.T) {
	for _, tc := range []struct {
		name      string
		harness   occkit.Harness
		mode      occkit.Mode
		container occkit.Process
		level     occkit.LogLevel
		want      Rendered
	}{
		{"embedded openclaw gateway", occkit.HarnessOpenClaw, occkit.ModeEmbedded, occkit.ProcessGateway, occkit.LevelInfo, gatewayRender},
		{"embedded openclaw combined process as harness", occkit.HarnessOpenClaw, occkit.ModeEmbedded, occkit.ProcessHarness, occkit.LevelDebug, gatewayRender},
		{"openclaw zero mode is embedded", occkit.HarnessOpenClaw, "", occkit.ProcessGateway, occkit.LevelInfo, gatewayRender},
		{"dedicated openclaw gateway", occkit.HarnessOpenClaw, occkit.ModeDedicated, occkit.ProcessGateway, occkit.LevelWarn, gatewayRender},
		{"dedicated openclaw native harness", occkit.HarnessOpenClaw, occkit.ModeDedicated, occkit.ProcessHarness, occkit.LevelWarn, gatewayRender},
		{"dedicated codex gateway", occkit.HarnessCodex, occkit.ModeDedicated, occkit.ProcessGateway, occkit.LevelError, gatewayRender},
		{"codex app-server info", occkit.HarnessCodex, occkit.ModeDedicated, occkit.ProcessHarness, occkit.LevelInfo, codexRender("info")},
		{"codex app-server warn stays warn", occkit.HarnessCodex, occkit.ModeDedicated, occkit.ProcessHarness, occkit.LevelWarn, codexRender("warn")},
		{"codex app-server debug", occkit.HarnessCodex, occkit.ModeDedicated, occkit.ProcessHarness, occkit.LevelDebug, codexRender("debug")},
		{"codex app-server error", occkit.HarnessCodex, occkit.ModeDedicated, occkit.ProcessHarness, occkit.LevelError, codexRender("error")},
		{"codex zero mode is dedicated", occkit.HarnessCodex, "", occkit.ProcessHarness, occkit.LevelInfo, codexRender("info")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Render(tc.harness, tc.mode, tc.container, tc.level)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

func TestRenderRefuses(t *testing.T) {
	for _, tc := range []struct {
		name       string
		harness    occkit.Harness
		mode       occkit.Mode
		container  occkit.Process
		level      occkit.LogLevel
		rule, path string
	}{
		{"invalid level", occkit.HarnessCodex, occkit.ModeDedicated, occkit.ProcessHarness, "trace", "LOG-1", "level"},
		{"empty level", occkit.HarnessOpenClaw, occkit.ModeEmbedded, occkit.ProcessGateway, "", "LOG-1", "level"},
		{"unknown harness", "claude", occkit.ModeDedicated, occkit.ProcessHarness, occkit.LevelInfo, "LOG-4", "harness"},
		{"zero harness", "", occkit.ModeEmbedded, occkit.ProcessGateway, occkit.LevelInfo, "LOG-4", "harness"},
		{"unknown mode", occkit.HarnessOpenClaw, "sidecar", occkit.ProcessGateway, occkit.LevelInfo, "LOG-4", "executionMode"},
		{"embedded codex", occkit.HarnessCodex, occkit.ModeEmbedded, occkit.ProcessHarness, occkit.LevelInfo, "RES-11", "executionMode"},
		{"unknown container", occkit.HarnessOpenClaw, occkit.ModeEmbedded, "agent", occkit.LevelInfo, "LOG-4", "container"},
		{"zero container", occkit.HarnessCodex, occkit.ModeDedicated, "", occkit.LevelInfo, "LOG-4", "container"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Render(tc.harness, tc.mode, tc.container, tc.level)
			wantErr(t, err, occkit.CodeInvalidRequest, tc.rule, tc.path)
		})
	}
}

// LOG-4, LOG-5: for every topology and level, the invariants hold: Codex is
// JSON at the level with OTLP off and prompts unlogged, OpenClaw reads the
// read-only admitted document with nothing overriding its level, and no
// argument or variable touches redaction.
func TestRenderInvariants(t *testing.T) {
	for _, h := range []occkit.Harness{occkit.HarnessOpenClaw, occkit.HarnessCodex} {
		for _, m := range []occkit.Mode{occkit.ModeEmbedded, occkit.ModeDedicated} {
			for _, c := range occkit.AllProcesses() {
				for _, l := range occkit.AllLogLevels() {
					r, err := Render(h, m, c, l)
					if h == occkit.HarnessCodex && m == occkit.ModeEmbedded {
						if err == nil {
							t.Errorf("embedded codex rendered")
						}
						continue
					}
					if err != nil {
						t.Fatalf("%s/%s/%s/%s: %v", h, m, c, l, err)
					}
					codex := h == occkit.HarnessCodex && c == occkit.ProcessHarness
					rust, hasRust := r.Lookup("RUST_LOG")
					_, hasCfg := r.Lookup("OPENCLAW_CONFIG_PATH")
					if codex {
						if rust != string(l)+",codex_otel=off" || !r.StderrOnly || hasCfg || r.ReadsDocument {
							t.Errorf("%s/%s/%s/%s: codex render %+v", h, m, c, l, r)
						}
					} else if hasRust || hasCfg || !r.ReadsDocument || r.Args != nil {
						t.Errorf("%s/%s/%s/%s: openclaw render %+v", h, m, c, l, r)
					}
					for _, s := range append(append([]string{}, r.Args...), envStrings(r)...) {
						if strings.Contains(strings.ToLower(s), "redact") {
							t.Errorf("%s/%s/%s/%s: %q touches redaction", h, m, c, l, s)
						}
					}
					for _, u := range r.Unset {
						if _, set := r.Lookup(u); set {
							t.Errorf("%s both set and unset", u)
						}
					}
				}
			}
		}
	}
}

func envStrings(r Rendered) []string {
	var out []string
	for _, e := range r.Env {
		out = append(out, e.Name+"="+e.Value)
	}
	return out
}

// Renders do not share backing arrays: a caller appending to one cannot
// change another.
func TestRenderReturnsFreshSlices(t *testing.T) {
	a, _ := Render(occkit.HarnessCodex, occkit.ModeDedicated, occkit.ProcessHarness, occkit.LevelInfo)
	a.Args[1] = "tampered"
	a.Command[0] = "tampered"
	b, _ := Render(occkit.HarnessCodex, occkit.ModeDedicated, occkit.ProcessHarness, occkit.LevelInfo)
	if d := cmp.Diff(codexRender("info"), b); d != "" {
		t.Errorf("render shares state (-want +got):\n%s", d)
	}
}
