package realgateway

import (
	"context"
	"strings"
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
