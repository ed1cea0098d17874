package ssh

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/occkit/occkit"
)

func TestSystemdScripts(t *testing.T) {
	const name = "occkit-gw-0123456789ab-abcdefabcdef.service"
	user := "set -e\n[ -n \"${XDG_RUNTIME_DIR:-}\" ] || export XDG_RUNTIME_DIR=/run/user/$(id -u)\nS='systemctl --user'\n"
	system := "set -e\nS='/usr/bin/systemctl'\n"
	tests := []struct {
		name string
		s    Systemd
		op   string
		want string
	}{
		{"user start", Systemd{}, "start", user + "$S daemon-reload\n$S enable " + name + "\n$S restart " + name + "\n"},
		{"user stop", Systemd{Scope: ScopeUser}, "stop", user + "$S daemon-reload\n$S disable --now " + name + "\n"},
		{"user forget", Systemd{}, "forget", user + "$S daemon-reload\n"},
		{"system start", Systemd{Scope: ScopeSystem, Command: "/usr/bin/systemctl"}, "start", system + "$S daemon-reload\n$S enable " + name + "\n$S restart " + name + "\n"},
		{"system stop", Systemd{Scope: ScopeSystem, Command: "/usr/bin/systemctl"}, "stop", system + "$S daemon-reload\n$S disable --now " + name + "\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.s.Script(tt.op, name)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("script (-want +got):\n%s", diff)
			}
		})
	}
	for _, bad := range []struct{ op, name string }{{"start", "x; rm -rf ~"}, {"start", "x.timer"}, {"kill", name}} {
		if _, err := (Systemd{}).Script(bad.op, bad.name); err == nil {
			t.Errorf("Script(%q, %q) accepted", bad.op, bad.name)
		}
	}
}

// recordingSystemctl installs a systemctl on the test host that appends
// its XDG_RUNTIME_DIR and arguments to a log, and exits with the status
// in the file fail (0 when absent).
func recordingSystemctl(t *testing.T) (cmd, log, fail string) {
	s := needSSH(t)
	dir := s.Home + "/t/" + sanitize(t.Name()) + "-systemctl"
	cmd, log, fail = dir+"/systemctl", dir+"/log", dir+"/fail"
	remote(t, "mkdir -p "+dir+" && cat > "+cmd+" <<'EOF'\n#!/bin/sh\nprintf '%s|%s\\n' \"$XDG_RUNTIME_DIR\" \"$*\" >> "+log+"\n[ ! -f "+fail+" ] || exit \"$(cat "+fail+")\"\nEOF\nchmod +x "+cmd)
	t.Cleanup(func() { remote(t, "rm -rf "+dir) })
	return cmd, log, fail
}

func TestSystemdOverSSH(t *testing.T) {
	s := needSSH(t)
	cmd, log, fail := recordingSystemctl(t)
	uid := remote(t, "id -u")
	ctx := ctxT(t)
	c, err := testConn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	sd := Systemd{Command: cmd}
	u := Unit{Name: "occkit-gw-0123456789ab-abcdefabcdef.service"}
	if err := sd.Start(ctx, c, u); err != nil {
		t.Fatal(err)
	}
	if err := sd.Stop(ctx, c, u.Name); err != nil {
		t.Fatal(err)
	}
	if err := sd.Forget(ctx, c); err != nil {
		t.Fatal(err)
	}
	rt := "/run/user/" + uid[:len(uid)-1]
	want := rt + "|--user daemon-reload\n" + rt + "|--user enable " + u.Name + "\n" + rt + "|--user restart " + u.Name + "\n" +
		rt + "|--user daemon-reload\n" + rt + "|--user disable --now " + u.Name + "\n" +
		rt + "|--user daemon-reload\n"
	if diff := cmp.Diff(want, remote(t, "cat "+log)); diff != "" {
		t.Errorf("systemctl calls (-want +got):\n%s", diff)
	}
	// A failing systemctl stops the script at the failing step.
	remote(t, "rm -f "+log+"; echo 4 > "+fail)
	if err := sd.Start(ctx, c, u); err == nil {
		t.Fatal("a failing systemctl was not reported")
	}
	if got := remote(t, "cat "+log); got != rt+"|--user daemon-reload\n" {
		t.Errorf("after a failure: %q", got)
	}

	// Through the driver: Retire of a deployed revision stops, disables
	// and reloads; a failing service manager is a structured 503.
	cfg, _ := testConfig(t, s)
	rev := revision(t, "systemd", 0)
	if err := mustNew(t, cfg).Prepare(ctx, rev); err != nil {
		t.Fatal(err)
	}
	name := UnitName(rev.AgentID(), rev.Digest())
	cfg.Services = Systemd{Command: cmd}
	d := mustNew(t, cfg)
	err = d.Retire(ctx, rev.AgentID(), rev.Digest())
	wantCode(t, err, occkit.CodeDependencyUnavailable, "DRV-6", "hosts[0]")
	remote(t, "rm -f "+log+" "+fail)
	if err := d.Retire(context.Background(), rev.AgentID(), rev.Digest()); err != nil {
		t.Fatal(err)
	}
	want = rt + "|--user daemon-reload\n" + rt + "|--user disable --now " + name + "\n" + rt + "|--user daemon-reload\n"
	if diff := cmp.Diff(want, remote(t, "cat "+log)); diff != "" {
		t.Errorf("Retire's systemctl calls (-want +got):\n%s", diff)
	}
	if got := remote(t, "ls "+cfg.UnitDir); got != "" {
		t.Errorf("unit left after Retire: %q", got)
	}
}
