package logging

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/resolver"
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
		harness   resolver.Harness
		mode      resolver.Mode
		container Container
		level     Level
		want      Rendered
	}{
		{"embedded openclaw gateway", resolver.HarnessOpenClaw, resolver.ModeEmbedded, ContainerGateway, LevelInfo, gatewayRender},
		{"embedded openclaw combined process as harness", resolver.HarnessOpenClaw, resolver.ModeEmbedded, ContainerHarness, LevelDebug, gatewayRender},
		{"openclaw zero mode is embedded", resolver.HarnessOpenClaw, "", ContainerGateway, LevelInfo, gatewayRender},
		{"dedicated openclaw gateway", resolver.HarnessOpenClaw, resolver.ModeDedicated, ContainerGateway, LevelWarn, gatewayRender},
		{"dedicated openclaw native harness", resolver.HarnessOpenClaw, resolver.ModeDedicated, ContainerHarness, LevelWarn, gatewayRender},
		{"dedicated codex gateway", resolver.HarnessCodex, resolver.ModeDedicated, ContainerGateway, LevelError, gatewayRender},
		{"codex app-server info", resolver.HarnessCodex, resolver.ModeDedicated, ContainerHarness, LevelInfo, codexRender("info")},
		{"codex app-server warn stays warn", resolver.HarnessCodex, resolver.ModeDedicated, ContainerHarness, LevelWarn, codexRender("warn")},
		{"codex app-server debug", resolver.HarnessCodex, resolver.ModeDedicated, ContainerHarness, LevelDebug, codexRender("debug")},
		{"codex app-server error", resolver.HarnessCodex, resolver.ModeDedicated, ContainerHarness, LevelError, codexRender("error")},
		{"codex zero mode is dedicated", resolver.HarnessCodex, "", ContainerHarness, LevelInfo, codexRender("info")},
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
		harness    resolver.Harness
		mode       resolver.Mode
		container  Container
		level      Level
		rule, path string
	}{
		{"invalid level", resolver.HarnessCodex, resolver.ModeDedicated, ContainerHarness, "trace", "LOG-1", "level"},
		{"empty level", resolver.HarnessOpenClaw, resolver.ModeEmbedded, ContainerGateway, "", "LOG-1", "level"},
		{"unknown harness", "claude", resolver.ModeDedicated, ContainerHarness, LevelInfo, "LOG-4", "harness"},
		{"zero harness", "", resolver.ModeEmbedded, ContainerGateway, LevelInfo, "LOG-4", "harness"},
		{"unknown mode", resolver.HarnessOpenClaw, "sidecar", ContainerGateway, LevelInfo, "LOG-4", "executionMode"},
		{"embedded codex", resolver.HarnessCodex, resolver.ModeEmbedded, ContainerHarness, LevelInfo, "RES-11", "executionMode"},
		{"unknown container", resolver.HarnessOpenClaw, resolver.ModeEmbedded, "agent", LevelInfo, "LOG-4", "container"},
		{"zero container", resolver.HarnessCodex, resolver.ModeDedicated, "", LevelInfo, "LOG-4", "container"},
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
	for _, h := range []resolver.Harness{resolver.HarnessOpenClaw, resolver.HarnessCodex} {
		for _, m := range []resolver.Mode{resolver.ModeEmbedded, resolver.ModeDedicated} {
			for _, c := range AllContainers() {
				for _, l := range AllLevels() {
					r, err := Render(h, m, c, l)
					if h == resolver.HarnessCodex && m == resolver.ModeEmbedded {
						if err == nil {
							t.Errorf("embedded codex rendered")
						}
						continue
					}
					if err != nil {
						t.Fatalf("%s/%s/%s/%s: %v", h, m, c, l, err)
					}
					codex := h == resolver.HarnessCodex && c == ContainerHarness
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
	a, _ := Render(resolver.HarnessCodex, resolver.ModeDedicated, ContainerHarness, LevelInfo)
	a.Args[1] = "tampered"
	a.Command[0] = "tampered"
	b, _ := Render(resolver.HarnessCodex, resolver.ModeDedicated, ContainerHarness, LevelInfo)
	if d := cmp.Diff(codexRender("info"), b); d != "" {
		t.Errorf("render shares state (-want +got):\n%s", d)
	}
}
