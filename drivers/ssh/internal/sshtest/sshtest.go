// Package sshtest starts a real OpenSSH server on loopback for integration
// tests (RECIPES.md): a fresh host key, one authorized client key, and a
// plain test user (root's shell start-up here costs about a second per
// command; a plain user's, milliseconds).
//
// The server binary comes from OCCKIT_SSHD (default /usr/sbin/sshd). When it
// is missing, or the process cannot create the test user, tests skip, unless
// OCCKIT_REQUIRE_INTEGRATION=1, which turns that into a failure.
package sshtest

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/crypto/ssh"
)

// User is the plain account the server logs clients into.
const User = "occtest"

// Server is a running sshd.
type Server struct {
	// Addr is host:port of the server.
	Addr string
	// Signer is the authorized client key.
	Signer ssh.Signer
	// HostKey is the server's public host key.
	HostKey ssh.PublicKey
	// KnownHosts is a known_hosts file trusting exactly this server.
	KnownHosts string
	// Home is the test user's home directory.
	Home string

	dir string
	cmd *exec.Cmd
}

// ErrUnavailable reports that no sshd can be started here.
var ErrUnavailable = errors.New("sshtest: no sshd binary or no permission to create the test user")

// Required reports whether a missing server must fail the run.
func Required() bool { return os.Getenv("OCCKIT_REQUIRE_INTEGRATION") == "1" }

// Start launches sshd on a free loopback port and waits until it accepts
// an authenticated session.
func Start(ctx context.Context) (*Server, error) {
	bin := os.Getenv("OCCKIT_SSHD")
	if bin == "" {
		bin = "/usr/sbin/sshd"
	}
	if _, err := os.Stat(bin); err != nil {
		return nil, ErrUnavailable
	}
	home, err := ensureUser()
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	dir, err := os.MkdirTemp("", "occkit-sshd-")
	if err != nil {
		return nil, err
	}
	// sshd reads authorized_keys as the test user.
	if err := os.Chmod(dir, 0o755); err != nil {
		return nil, err
	}
	s := &Server{dir: dir, Home: home}
	ok := false
	defer func() {
		if !ok {
			s.Stop()
		}
	}()
	_, hostPriv, _ := ed25519.GenerateKey(rand.Reader)
	hostPEM, err := ssh.MarshalPrivateKey(hostPriv, "")
	if err != nil {
		return nil, err
	}
	hostKeyFile := filepath.Join(dir, "hostkey")
	if err := os.WriteFile(hostKeyFile, pem.EncodeToMemory(hostPEM), 0o600); err != nil {
		return nil, err
	}
	hostSigner, err := ssh.NewSignerFromKey(hostPriv)
	if err != nil {
		return nil, err
	}
	s.HostKey = hostSigner.PublicKey()
	_, clientPriv, _ := ed25519.GenerateKey(rand.Reader)
	if s.Signer, err = ssh.NewSignerFromKey(clientPriv); err != nil {
		return nil, err
	}
	auth := filepath.Join(dir, "authorized_keys")
	if err := os.WriteFile(auth, ssh.MarshalAuthorizedKey(s.Signer.PublicKey()), 0o644); err != nil {
		return nil, err
	}
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	s.Addr = net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	conf := fmt.Sprintf(`Port %d
ListenAddress 127.0.0.1
HostKey %s
PidFile %s
AuthorizedKeysFile %s
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin no
AllowUsers %s
UsePAM no
StrictModes no
Subsystem sftp internal-sftp
`, port, hostKeyFile, filepath.Join(dir, "sshd.pid"), auth, User)
	cfgFile := filepath.Join(dir, "sshd_config")
	if err := os.WriteFile(cfgFile, []byte(conf), 0o600); err != nil {
		return nil, err
	}
	if err := os.MkdirAll("/run/sshd", 0o755); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	log, err := os.Create(filepath.Join(dir, "sshd.log"))
	if err != nil {
		return nil, err
	}
	defer log.Close()
	s.cmd = exec.Command(bin, "-D", "-e", "-f", cfgFile)
	s.cmd.Stdout, s.cmd.Stderr = log, log
	s.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := s.cmd.Start(); err != nil {
		return nil, fmt.Errorf("sshtest: start sshd: %w", err)
	}
	line := fmt.Sprintf("[127.0.0.1]:%d %s", port, ssh.MarshalAuthorizedKey(s.HostKey))
	s.KnownHosts = filepath.Join(dir, "known_hosts")
	if err := os.WriteFile(s.KnownHosts, []byte(line), 0o600); err != nil {
		return nil, err
	}
	if err := s.waitReady(ctx); err != nil {
		return nil, err
	}
	ok = true
	return s, nil
}

func (s *Server) waitReady(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	var last error
	for {
		c, err := ssh.Dial("tcp", s.Addr, s.ClientConfig())
		if err == nil {
			c.Close()
			return nil
		}
		last = err
		select {
		case <-ctx.Done():
			return fmt.Errorf("sshtest: sshd not ready: %v; log: %s", last, s.Log())
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// ClientConfig authenticates as [User] with [Server.Signer] and trusts only
// the server's host key.
func (s *Server) ClientConfig() *ssh.ClientConfig {
	return &ssh.ClientConfig{
		User:            User,
		Auth:            []ssh.AuthMethod{ssh.PublicKeys(s.Signer)},
		HostKeyCallback: ssh.FixedHostKey(s.HostKey),
		Timeout:         5 * time.Second,
	}
}

// Log returns what sshd printed.
func (s *Server) Log() string {
	b, _ := os.ReadFile(filepath.Join(s.dir, "sshd.log"))
	return string(b)
}

// Stop kills sshd (and its session children) and removes its files.
func (s *Server) Stop() {
	if s.cmd != nil && s.cmd.Process != nil {
		_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
		_ = s.cmd.Wait()
	}
	os.RemoveAll(s.dir)
}

func ensureUser() (home string, err error) {
	if u, err := user.Lookup(User); err == nil {
		return u.HomeDir, nil
	}
	if os.Geteuid() != 0 {
		return "", errors.New("not root")
	}
	if out, err := exec.Command("useradd", "-m", "-s", "/bin/bash", User).CombinedOutput(); err != nil {
		return "", fmt.Errorf("useradd: %v: %s", err, strings.TrimSpace(string(out)))
	}
	// '*' locks password login while keeping key login possible.
	if out, err := exec.Command("usermod", "-p", "*", User).CombinedOutput(); err != nil {
		return "", fmt.Errorf("usermod: %v: %s", err, strings.TrimSpace(string(out)))
	}
	u, err := user.Lookup(User)
	if err != nil {
		return "", err
	}
	return u.HomeDir, nil
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
