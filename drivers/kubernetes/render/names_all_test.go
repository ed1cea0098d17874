package render

import (
	"strings"
	"testing"

	"github.com/occkit/occkit"
)

// TestNameAll: the names a render makes in one string are the exported
// functions' names, and they fit in nameBytes in the longest namespace.
func TestNameAll(t *testing.T) {
	for _, ns := range []string{"a", "team-a", strings.Repeat("n", 63)} {
		agentID, digest := "agent "+ns, "sha256:"+strings.Repeat("0f", 32)
		r := renderer{ns: ns, digest: digest}
		r.nameAll(agentID, true)
		total := 2*HashLen + len(r.gatewayTokenName)
		if r.agent != Hash(agentID) || r.revision != Hash(digest) || r.gatewayToken() != GatewayTokenSecretName(agentID) {
			t.Errorf("%s: hashes %q %q, token %q", ns, r.agent, r.revision, r.gatewayToken())
		}
		for _, c := range []occkit.Process{occkit.ProcessGateway, occkit.ProcessHarness} {
			got := r.names(c)
			want := workloadNames{host: WorkloadName(agentID, c) + "." + ns + ".svc", workload: WorkloadName(agentID, c),
				data: DataName(agentID, c), config: ConfigName(agentID, digest, c)}
			if got != want || r.host(c) != want.host {
				t.Errorf("%s %s: names %+v, want %+v", ns, c, got, want)
			}
			total += len(got.host) + len(got.data) + len(got.config)
		}
		if total > nameBytes {
			t.Errorf("%s: %d bytes of names, nameBytes %d", ns, total, nameBytes)
		}
	}
}

// TestNameAllEmbedded: an embedded render names the Harness's host only.
func TestNameAllEmbedded(t *testing.T) {
	r := renderer{ns: "team-a", digest: "d"}
	r.nameAll("main", false)
	want := workloadNames{host: WorkloadName("main", occkit.ProcessHarness) + ".team-a.svc", workload: WorkloadName("main", occkit.ProcessHarness)}
	if got := r.names(occkit.ProcessHarness); got != want {
		t.Errorf("harness names %+v, want %+v", got, want)
	}
	if got := r.names(occkit.ProcessGateway); got.data != DataName("main", occkit.ProcessGateway) || got.config != ConfigName("main", "d", occkit.ProcessGateway) {
		t.Errorf("gateway names %+v", got)
	}
}
