package ssh

import (
	"context"
	"fmt"
	"regexp"
)

// ServiceManager starts and stops units on a host, through the host's
// [Runner]. The bundled implementation is [Systemd]; another (a test
// harness, a host without systemd) must keep the same contract.
type ServiceManager interface {
	// Start loads u (its file is already at u.Path), enables it and
	// (re)starts it.
	Start(ctx context.Context, r Runner, u Unit) error
	// Stop stops and disables the unit named name, whose file is still in
	// place. Stopping a stopped unit succeeds.
	Stop(ctx context.Context, r Runner, name string) error
	// Forget makes the service manager drop unit files that were removed
	// (systemctl daemon-reload).
	Forget(ctx context.Context, r Runner) error
}

// Systemd is the systemd [ServiceManager]: systemctl over SSH.
type Systemd struct {
	// Scope is the instance: "" or [ScopeUser] runs `systemctl --user`
	// (with XDG_RUNTIME_DIR defaulted to /run/user/UID, as a
	// non-interactive SSH session may lack it); [ScopeSystem] plain
	// `systemctl`.
	Scope Scope
	// Command is the systemctl executable; "" means "systemctl".
	Command string
}

var unitNameRE = regexp.MustCompile(`^[A-Za-z0-9_.@-]+\.service$`)

func (s Systemd) prefix() string {
	cmd := s.Command
	if cmd == "" {
		cmd = "systemctl"
	}
	if s.Scope == ScopeSystem {
		return "set -e\nS=" + quote(cmd) + "\n"
	}
	return "set -e\n[ -n \"${XDG_RUNTIME_DIR:-}\" ] || export XDG_RUNTIME_DIR=/run/user/$(id -u)\nS=" + quote(cmd+" --user") + "\n"
}

// Script returns the shell script [Systemd.Start] ("start"),
// [Systemd.Stop] ("stop") or [Systemd.Forget] ("forget") runs for the unit
// named name, so the commands can be reviewed and tested.
func (s Systemd) Script(op, name string) (string, error) {
	if op != "forget" && !unitNameRE.MatchString(name) {
		return "", fmt.Errorf("ssh: invalid unit name")
	}
	p := s.prefix()
	switch op {
	case "start":
		return p + "$S daemon-reload\n$S enable " + name + "\n$S restart " + name + "\n", nil
	case "stop":
		return p + "$S daemon-reload\n$S disable --now " + name + "\n", nil
	case "forget":
		return p + "$S daemon-reload\n", nil
	}
	return "", fmt.Errorf("ssh: unknown service operation %q", op)
}

func (s Systemd) run(ctx context.Context, r Runner, op, name string) error {
	script, err := s.Script(op, name)
	if err != nil {
		return err
	}
	if _, err := r.Run(ctx, script, nil); err != nil {
		return fmt.Errorf("systemctl %s: %w", op, err)
	}
	return nil
}

// Start runs daemon-reload, enable and restart.
func (s Systemd) Start(ctx context.Context, r Runner, u Unit) error {
	return s.run(ctx, r, "start", u.Name)
}

// Stop runs daemon-reload and disable --now.
func (s Systemd) Stop(ctx context.Context, r Runner, name string) error {
	return s.run(ctx, r, "stop", name)
}

// Forget runs daemon-reload.
func (s Systemd) Forget(ctx context.Context, r Runner) error {
	return s.run(ctx, r, "forget", "")
}
