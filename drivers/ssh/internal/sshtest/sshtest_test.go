package sshtest

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"golang.org/x/crypto/ssh"
)

func TestServerRunsCommandsAsTestUser(t *testing.T) {
	s, err := Start(context.Background())
	if errors.Is(err, ErrUnavailable) && !Required() {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	defer s.Stop()
	c, err := ssh.Dial("tcp", s.Addr, s.ClientConfig())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	var out, errb bytes.Buffer
	sess.Stdout, sess.Stderr = &out, &errb
	if err := sess.Run("id -un"); err != nil {
		t.Fatalf("%v: %s", err, errb.String())
	}
	if got := strings.TrimSpace(out.String()); got != User {
		t.Fatalf("logged in as %q", got)
	}
	// A client that does not trust the host key is refused.
	cfg := s.ClientConfig()
	cfg.HostKeyCallback = ssh.FixedHostKey(s.Signer.PublicKey())
	if _, err := ssh.Dial("tcp", s.Addr, cfg); err == nil {
		t.Fatal("a wrong host key was accepted")
	}
}
