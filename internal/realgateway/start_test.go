package realgateway

import (
	"context"
	"path/filepath"
	"testing"
	"time"
)

// The harness itself on a document written by hand with everything
// OpenClaw needs to serve (gateway mode, loopback bind, token auth from
// the environment): it must find the gateway live and ready, its console
// JSON at the level, no secret printed, a clean SIGTERM and nothing left
// over. This checks the tier's checks, not occkit's render (the driver
// tiers start what the renders produce).
func TestStart_KnownGoodDocument(t *testing.T) {
	in := Open(t, "openclaw gateway (harness)")
	const (
		token = "occkit-harness-gateway-token-0123456789"
		key   = "sk-occkit-harness-0123456789abcdef"
	)
	root := t.TempDir()
	doc := `{"agents":{"defaults":{"model":"openai/gpt-5","models":{"openai/gpt-5":{"agentRuntime":{"id":"openclaw"}}}}},` +
		`"logging":{"level":"info","consoleLevel":"info","consoleStyle":"json"},"diagnostics":{"otel":{"logs":false}},` +
		`"gateway":{"mode":"local","bind":"loopback","auth":{"mode":"token","token":"${OPENCLAW_GATEWAY_TOKEN}"}}}`
	config := filepath.Join(root, "etc", "openclaw.json")
	home := filepath.Join(root, "home")
	spec := Spec{
		Processes: []Process{{
			Role: "gateway", Argv: []string{in.Bin(), "gateway", "--port", "18789"}, Dir: root, Port: 18789,
			Env: []string{"PATH=" + in.Path(), "HOME=" + home, "TMPDIR=" + root, "OPENCLAW_STATE_DIR=" + filepath.Join(home, "state"),
				"OPENCLAW_CONFIG_PATH=" + config, "OPENCLAW_GATEWAY_TOKEN=" + token, "OPENAI_API_KEY=" + key},
			Files: []File{{Path: config, Data: []byte(doc), Mode: 0o444}, {Path: filepath.Join(home, ".keep"), Mode: 0o600}},
		}},
		LogDir: LogDir(t), ReadyTimeout: 4 * time.Minute, StopTimeout: 30 * time.Second, Settle: time.Second,
	}
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	var rep Report
	if err := pool.Run(ctx, "start", spec, &rep); err != nil {
		t.Fatal(err)
	}
	for _, p := range rep.Processes {
		t.Logf("%s: live after %d ms, ready after %d ms, ended %s, %d ms after SIGTERM; restarts %q", p.Role, p.LiveMs, p.ReadyMs, p.Exit, p.StopMs, p.Restarts)
	}
	for _, problem := range Problems(spec, rep, Expect{Level: "info", Secrets: []string{token, key}}) {
		t.Error(problem)
	}
}
