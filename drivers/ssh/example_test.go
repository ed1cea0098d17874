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
		HarnessVersions: map[occkit.Harness]string{occkit.HarnessOpenClaw: "2026.1.0"},
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
	// # occkit-revision: b008fa55625bfeb71dde229e5a11b5ee0f0d0bdcbe0963111b09a131a3cb7ad2
	// # occkit-port: 18000
	// [Unit]
	// Description=OpenClaw gateway a18603086e5b revision b008fa55625b
	//
	// [Service]
	// Type=simple
	// WorkingDirectory=/home/occ/.local/state/occkit/agents/a18603086e5b/state
	// Environment="OPENCLAW_STATE_DIR=/home/occ/.local/state/occkit/agents/a18603086e5b/state"
	// Environment="OPENCLAW_CONFIG_PATH=/home/occ/.local/state/occkit/agents/a18603086e5b/revisions/b008fa55625bfeb71dde229e5a11b5ee0f0d0bdcbe0963111b09a131a3cb7ad2/openclaw.json"
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
