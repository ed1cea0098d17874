package realgateway

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestRestartOnlyOnLeaseTimeout: a served process that ends before it is
// ready is started again once when it failed by OpenClaw's lease startup
// timeout, and never for any other failure.
func TestRestartOnlyOnLeaseTimeout(t *testing.T) {
	tests := []struct {
		name, script string
		restarts     int
	}{
		{"lease timeout", `echo '{"message":"Gateway failed to start: ` + LeaseTimeout + ` (phase=startup)"}' >&2; exit 78`, 1},
		{"other failure", `echo 'Gateway start blocked: missing gateway.mode' >&2; exit 78`, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := startOne(Process{Role: "gateway", Argv: []string{"sh", "-c", tt.script}, Port: closedLoopbackPort}, t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			r.awaitReady(context.Background(), time.Now().Add(20*time.Second))
			<-r.done
			if len(r.rep.Restarts) != tt.restarts {
				t.Fatalf("restarts %q, want %d", r.rep.Restarts, tt.restarts)
			}
			for _, rs := range r.rep.Restarts {
				if !strings.Contains(rs, "exit 78") || !strings.Contains(rs, LeaseTimeout) {
					t.Errorf("restart recorded as %q", rs)
				}
			}
		})
	}
}

// closedLoopbackPort is a port nothing listens on in the test (the
// process under test never serves).
const closedLoopbackPort = 9

// TestUnreadySettles: a /readyz answer matching Process.Unready ends the
// wait at once; a 503 that does not match it keeps the wait going.
func TestUnreadySettles(t *testing.T) {
	for _, tt := range []struct {
		name, unready string
		more          bool
	}{
		{"settled", `"failing":\["telegram"\]`, false},
		{"other failure", `"failing":\["discord"\]`, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var readyz atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path == "/healthz" {
					io.WriteString(w, `{"ok":true,"status":"live"}`)
					return
				}
				readyz.Add(1)
				w.WriteHeader(http.StatusServiceUnavailable)
				io.WriteString(w, `{"ready":false,"failing":["telegram"]}`)
			}))
			defer srv.Close()
			port := srv.Listener.Addr().(*net.TCPAddr).Port
			r, err := startOne(Process{Role: "gateway", Argv: []string{"sleep", "60"}, Port: port, Unready: tt.unready}, t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			defer func() { _ = r.cmd.Process.Kill(); <-r.done }()
			ctx, cancel := context.WithCancel(context.Background())
			if tt.more {
				// Without a settling answer the wait goes on: stop it
				// after a few answers.
				go func() {
					for readyz.Load() < 3 {
						time.Sleep(50 * time.Millisecond)
					}
					cancel()
				}()
			}
			r.awaitReady(ctx, time.Now().Add(time.Hour))
			cancel()
			if n := readyz.Load(); (n > 1) != tt.more || r.rep.ReadyMs >= 0 || !tt.more && !strings.Contains(r.rep.Readyz, "telegram") {
				t.Errorf("%d /readyz answers, ready %d ms, last %q", n, r.rep.ReadyMs, r.rep.Readyz)
			}
		})
	}
}

// TestAwaitConnected: the wait for a connected signal ends when the line
// appears, not before, and records when.
func TestAwaitConnected(t *testing.T) {
	logs := t.TempDir()
	script := `echo 'node host gateway connect failed: refused' >&2; sleep 1; echo 'node host gateway connected: ws://gw:1' >&2; sleep 60`
	r, err := startOne(Process{Role: "harness", Argv: []string{"sh", "-c", script}, Connected: `^node host gateway connected: `}, logs)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = r.cmd.Process.Kill(); <-r.done }()
	r.awaitConnected(context.Background(), time.Now().Add(time.Hour))
	if r.rep.ConnectedMs < 0 || !strings.Contains(string(readLog(logs+"/harness.stderr")), "connected: ws://gw:1") {
		t.Errorf("connected after %d ms; stderr %q", r.rep.ConnectedMs, readLog(logs+"/harness.stderr"))
	}
}
