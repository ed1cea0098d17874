// Package kubetest starts a real kube-apiserver backed by a real etcd on
// loopback for integration tests (RECIPES.md). The binaries come from the
// environment: OCCKIT_KUBE_APISERVER (built by .ci/kube-apiserver.sh) and
// OCCKIT_ETCD (Debian's etcd-server). When they are missing the tests skip,
// unless OCCKIT_REQUIRE_INTEGRATION=1 (set by .ci/setup), which makes a
// missing server a failure: CI can never pass by skipping the real tier.
package kubetest

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"k8s.io/client-go/rest"
)

// AdminToken is the static bearer token of the server's admin user
// (group system:masters).
const AdminToken = "occkit-admin-token"

// Server is a running etcd + kube-apiserver pair.
type Server struct {
	Config *rest.Config
	dir    string
	procs  []*exec.Cmd
	logs   []*os.File
}

// ErrUnavailable reports that the binaries are not configured.
var ErrUnavailable = errors.New("kubetest: OCCKIT_KUBE_APISERVER and OCCKIT_ETCD are not set")

// Required reports whether a missing server must fail the run.
func Required() bool { return os.Getenv("OCCKIT_REQUIRE_INTEGRATION") == "1" }

// Start launches etcd and kube-apiserver in a fresh directory and waits
// (up to a minute) until /readyz answers ok.
func Start(ctx context.Context) (*Server, error) {
	kas, etcd := os.Getenv("OCCKIT_KUBE_APISERVER"), os.Getenv("OCCKIT_ETCD")
	if kas == "" || etcd == "" {
		return nil, ErrUnavailable
	}
	dir, err := os.MkdirTemp("", "occkit-kube-")
	if err != nil {
		return nil, err
	}
	s := &Server{dir: dir}
	ok := false
	defer func() {
		if !ok {
			s.Stop()
		}
	}()
	ports, err := freePorts(3)
	if err != nil {
		return nil, err
	}
	client, peer, secure := ports[0], ports[1], ports[2]
	if err := writeKeys(dir); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, "tokens.csv"), []byte(AdminToken+`,admin,uid-admin,"system:masters"`+"\n"), 0o600); err != nil {
		return nil, err
	}
	curl := fmt.Sprintf("http://127.0.0.1:%d", client)
	purl := fmt.Sprintf("http://127.0.0.1:%d", peer)
	if err := s.spawn("etcd", etcd,
		"--name", "t", "--data-dir", filepath.Join(dir, "etcd"),
		"--listen-client-urls", curl, "--advertise-client-urls", curl,
		"--listen-peer-urls", purl, "--initial-advertise-peer-urls", purl,
		"--initial-cluster", "t="+purl, "--unsafe-no-fsync"); err != nil {
		return nil, err
	}
	certs := filepath.Join(dir, "certs")
	if err := s.spawn("kube-apiserver", kas,
		"--etcd-servers", curl, "--bind-address", "127.0.0.1", "--advertise-address", "127.0.0.1",
		"--endpoint-reconciler-type", "none", "--secure-port", strconv.Itoa(secure),
		"--cert-dir", certs,
		"--service-account-issuer", "https://kubernetes.default.svc",
		"--service-account-key-file", filepath.Join(dir, "sa.pub"),
		"--service-account-signing-key-file", filepath.Join(dir, "sa.key"),
		"--service-cluster-ip-range", "10.0.0.0/24",
		"--token-auth-file", filepath.Join(dir, "tokens.csv"),
		"--authorization-mode", "RBAC"); err != nil {
		return nil, err
	}
	host := fmt.Sprintf("https://127.0.0.1:%d", secure)
	if err := s.waitReady(ctx, host, certs); err != nil {
		return nil, err
	}
	s.Config = &rest.Config{
		Host:            host,
		BearerToken:     AdminToken,
		TLSClientConfig: rest.TLSClientConfig{CAFile: filepath.Join(certs, "apiserver.crt")},
		QPS:             200,
		Burst:           400,
	}
	ok = true
	return s, nil
}

func (s *Server) spawn(name, bin string, args ...string) error {
	log, err := os.Create(filepath.Join(s.dir, name+".log"))
	if err != nil {
		return err
	}
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = log, log
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		log.Close()
		return fmt.Errorf("kubetest: start %s: %w", name, err)
	}
	s.procs = append(s.procs, cmd)
	s.logs = append(s.logs, log)
	return nil
}

func (s *Server) waitReady(ctx context.Context, host, certs string) error {
	ctx, cancel := context.WithTimeout(ctx, 90*time.Second)
	defer cancel()
	var last error
	for {
		if _, err := os.Stat(filepath.Join(certs, "apiserver.crt")); err == nil {
			cfg := &rest.Config{Host: host, BearerToken: AdminToken,
				TLSClientConfig: rest.TLSClientConfig{CAFile: filepath.Join(certs, "apiserver.crt")}}
			if rt, err := rest.TransportFor(cfg); err == nil {
				req, _ := http.NewRequestWithContext(ctx, http.MethodGet, host+"/readyz", nil)
				resp, err := (&http.Client{Transport: rt, Timeout: 5 * time.Second}).Do(req)
				if err == nil {
					resp.Body.Close()
					if resp.StatusCode == http.StatusOK {
						return nil
					}
					last = fmt.Errorf("readyz: %s", resp.Status)
				} else {
					last = err
				}
			}
		}
		for _, p := range s.procs {
			if p.ProcessState != nil {
				return fmt.Errorf("kubetest: a server exited early; logs in %s", s.dir)
			}
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("kubetest: kube-apiserver not ready (last: %v); logs in %s", last, s.dir)
		case <-time.After(250 * time.Millisecond):
		}
	}
}

// Stop kills both servers and removes their directory.
func (s *Server) Stop() {
	for i := len(s.procs) - 1; i >= 0; i-- {
		p := s.procs[i]
		_ = syscall.Kill(-p.Process.Pid, syscall.SIGKILL)
		_ = p.Wait()
	}
	for _, l := range s.logs {
		l.Close()
	}
	if s.dir != "" {
		os.RemoveAll(s.dir)
	}
}

// Log returns the named server's log ("etcd" or "kube-apiserver").
func (s *Server) Log(name string) string {
	b, _ := os.ReadFile(filepath.Join(s.dir, name+".log"))
	return string(b)
}

func writeKeys(dir string) error {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return err
	}
	priv := pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)})
	pubDER, err := x509.MarshalPKIXPublicKey(&key.PublicKey)
	if err != nil {
		return err
	}
	pub := pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pubDER})
	if err := os.WriteFile(filepath.Join(dir, "sa.key"), priv, 0o600); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "sa.pub"), pub, 0o600)
}

func freePorts(n int) ([]int, error) {
	var ls []net.Listener
	defer func() {
		for _, l := range ls {
			l.Close()
		}
	}()
	var out []int
	for i := 0; i < n; i++ {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		ls = append(ls, l)
		out = append(out, l.Addr().(*net.TCPAddr).Port)
	}
	return out, nil
}
