package ssh_test

import (
	"context"
	"fmt"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/admission"
	"github.com/occkit/occkit/drivers/ssh"
)

// Render the systemd unit of a revision admitted for the ssh Compute.
func ExampleRender() {
	adm, err := admission.New(admission.Options{
		Authorizer:      admission.AuthorizerFunc(func(context.Context, admission.AuthorizeRequest) error { return nil }),
		HarnessVersions: map[occkit.Harness]string{occkit.HarnessOpenClaw: "2026.9.6"},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	rev, err := adm.Admit(context.Background(), admission.Request{
		Principal: "operator",
		Agent: admission.Agent{
			ID:              "support",
			ConfigurationID: "support-config",
			HarnessAuth:     occkit.Binding{Method: occkit.MethodRuntime},
		},
		Configuration: admission.StaticConfiguration{
			ID: "support-config", Generation: 3,
			Document: occkit.MustParseDocument(`{"agents":{"defaults":{"model":"anthropic/claude-sonnet-4-5"}}}`),
		},
		Compute: admission.ComputeInfo{Kind: occkit.ComputeSSH, ID: "ssh"},
		Level:   occkit.LevelWarn,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	u, err := ssh.Render(rev, ssh.RenderOptions{
		Port:            18000,
		UnitDir:         "/home/occ/.config/systemd/user",
		StateDir:        "/home/occ/.local/state/occkit",
		BinaryPath:      "/usr/local/bin/openclaw",
		EnvironmentFile: "/etc/occkit/credentials.env",
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(u.Name == ssh.UnitName("support", rev.Digest()))
	fmt.Print(string(u.Content))
	// Output:
	// true
	// # Written by occkit drivers/ssh; do not edit.
	// # occkit-agent: "support"
	// # occkit-revision: f5a3fc6ff6f569ee8affae6b08ceaeca63f94efd7ac571d792030b75bab3bd76
	// # occkit-port: 18000
	// [Unit]
	// Description=OpenClaw gateway a18603086e5b revision f5a3fc6ff6f5
	//
	// [Service]
	// Type=simple
	// WorkingDirectory=/home/occ/.local/state/occkit/agents/a18603086e5b/state
	// Environment="OPENCLAW_STATE_DIR=/home/occ/.local/state/occkit/agents/a18603086e5b/state"
	// Environment="OPENCLAW_CONFIG_PATH=/home/occ/.local/state/occkit/agents/a18603086e5b/revisions/f5a3fc6ff6f569ee8affae6b08ceaeca63f94efd7ac571d792030b75bab3bd76/openclaw.json"
	// Environment="OPENCLAW_GATEWAY_PORT=18000"
	// UnsetEnvironment=OPENCLAW_LOG_LEVEL
	// EnvironmentFile=/etc/occkit/credentials.env
	// EnvironmentFile=-/home/occ/.local/state/occkit/agents/a18603086e5b/env
	// EnvironmentFile=/home/occ/.local/state/occkit/agents/a18603086e5b/gateway-token.env
	// ExecStart=/usr/local/bin/openclaw gateway run --port 18000
	// Restart=always
	// RestartSec=2
	// TimeoutStopSec=30
	// KillSignal=SIGTERM
	// NoNewPrivileges=true
	//
	// [Install]
	// WantedBy=default.target
}
