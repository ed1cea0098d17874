package logging

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/deploy"
)

var gatewayRender = Rendered{
	Env:           []EnvVar{},
	Unset:         []string{"OPENCLAW_LOG_LEVEL"},
	ReadsDocument: true,
}

func codexRender(level string) Rendered {
	return Rendered{
		Env:        []EnvVar{{"LOG_FORMAT", "json"}, {"RUST_LOG", level + ",codex_otel=off"}},
		Args:       []string{"-c", `otel.exporter="none"`, "-c", "otel.log_user_prompt=false"},
		Command:    []string{"codex", "-c", `otel.exporter="none"`, "-c", "otel.log_user_prompt=false", "app-server"},
		StderrOnly: true,
	}
}

// LOG-4
func TestRender(t *testing.T) {
	for _, tc := range []struct {
		name      string
		harness   deploy.Harness
		mode      deploy.Mode
		container Container
		level     deploy.LogLevel
		want      Rendered
	}{
		{"embedded openclaw gateway", deploy.HarnessOpenClaw, deploy.ModeEmbedded, ContainerGateway, deploy.LevelInfo, gatewayRender},
		{"embedded openclaw combined process as harness", deploy.HarnessOpenClaw, deploy.ModeEmbedded, ContainerHarness, deploy.LevelDebug, gatewayRender},
		{"openclaw zero mode is embedded", deploy.HarnessOpenClaw, "", ContainerGateway, deploy.LevelInfo, gatewayRender},
		{"dedicated openclaw gateway", deploy.HarnessOpenClaw, deploy.ModeDedicated, ContainerGateway, deploy.LevelWarn, gatewayRender},
		{"dedicated openclaw native harness", deploy.HarnessOpenClaw, deploy.ModeDedicated, ContainerHarness, deploy.LevelWarn, gatewayRender},
		{"dedicated codex gateway", deploy.HarnessCodex, deploy.ModeDedicated, ContainerGateway, deploy.LevelError, gatewayRender},
		{"codex app-server info", deploy.HarnessCodex, deploy.ModeDedicated, ContainerHarness, deploy.LevelInfo, codexRender("info")},
		{"codex app-server warn stays warn", deploy.HarnessCodex, deploy.ModeDedicated, ContainerHarness, deploy.LevelWarn, codexRender("warn")},
		{"codex app-server debug", deploy.HarnessCodex, deploy.ModeDedicated, ContainerHarness, deploy.LevelDebug, codexRender("debug")},
		{"codex app-server error", deploy.HarnessCodex, deploy.ModeDedicated, ContainerHarness, deploy.LevelError, codexRender("error")},
		{"codex zero mode is dedicated", deploy.HarnessCodex, "", ContainerHarness, deploy.LevelInfo, codexRender("info")},
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
		harness    deploy.Harness
		mode       deploy.Mode
		container  Container
		level      deploy.LogLevel
		rule, path string
	}{
		{"invalid level", deploy.HarnessCodex, deploy.ModeDedicated, ContainerHarness, "trace", "LOG-1", "level"},
		{"empty level", deploy.HarnessOpenClaw, deploy.ModeEmbedded, ContainerGateway, "", "LOG-1", "level"},
		{"unknown harness", "claude", deploy.ModeDedicated, ContainerHarness, deploy.LevelInfo, "LOG-4", "harness"},
		{"zero harness", "", deploy.ModeEmbedded, ContainerGateway, deploy.LevelInfo, "LOG-4", "harness"},
		{"unknown mode", deploy.HarnessOpenClaw, "sidecar", ContainerGateway, deploy.LevelInfo, "LOG-4", "executionMode"},
		{"embedded codex", deploy.HarnessCodex, deploy.ModeEmbedded, ContainerHarness, deploy.LevelInfo, "RES-11", "executionMode"},
		{"unknown container", deploy.HarnessOpenClaw, deploy.ModeEmbedded, "agent", deploy.LevelInfo, "LOG-4", "container"},
		{"zero container", deploy.HarnessCodex, deploy.ModeDedicated, "", deploy.LevelInfo, "LOG-4", "container"},
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
	for _, h := range []deploy.Harness{deploy.HarnessOpenClaw, deploy.HarnessCodex} {
		for _, m := range []deploy.Mode{deploy.ModeEmbedded, deploy.ModeDedicated} {
			for _, c := range AllContainers() {
				for _, l := range deploy.AllLogLevels() {
					r, err := Render(h, m, c, l)
					if h == deploy.HarnessCodex && m == deploy.ModeEmbedded {
						if err == nil {
							t.Errorf("embedded codex rendered")
						}
						continue
					}
					if err != nil {
						t.Fatalf("%s/%s/%s/%s: %v", h, m, c, l, err)
					}
					codex := h == deploy.HarnessCodex && c == ContainerHarness
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
	a, _ := Render(deploy.HarnessCodex, deploy.ModeDedicated, ContainerHarness, deploy.LevelInfo)
	a.Args[1] = "tampered"
	a.Command[0] = "tampered"
	b, _ := Render(deploy.HarnessCodex, deploy.ModeDedicated, ContainerHarness, deploy.LevelInfo)
	if d := cmp.Diff(codexRender("info"), b); d != "" {
		t.Errorf("render shares state (-want +got):\n%s", d)
	}
}
