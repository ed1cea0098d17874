package probe

import (
	"encoding/json"
	"testing"
)

// PRB-6: the record JSON line.
func TestRecordJSON_PRB6(t *testing.T) {
	tests := []struct {
		rec  Record
		want string
	}{
		{Record{Event: EventCodex, Attempt: 1, ElapsedMs: 30012, ExitCode: -1, Signal: "SIGKILL", Code: ModelProbeTimeout, FailureClass: ClassTimeout},
			`{"event":"codex.model_probe","attempt":1,"elapsedMs":30012,"exitCode":null,"signal":"SIGKILL","code":"MODEL_PROBE_TIMEOUT","failureClass":"timeout"}`},
		{Record{Event: EventCodex, Attempt: 2, ElapsedMs: 2101, ExitCode: 0, Code: Ready},
			`{"event":"codex.model_probe","attempt":2,"elapsedMs":2101,"exitCode":0,"signal":null,"code":"READY"}`},
		{Record{Event: EventCodex, Attempt: 1, ExitCode: 1, Signal: "SIGSEGV", Code: ModelProbeFailed, Cause: cause(CauseProcessExit, "exit-1"), FailureClass: ClassNetwork},
			`{"event":"codex.model_probe","attempt":1,"elapsedMs":0,"exitCode":1,"signal":null,"code":"MODEL_PROBE_FAILED","causeKind":"PROCESS_EXIT","causeDetail":"exit-1","failureClass":"network"}`},
		{Record{Event: EventOpenClaw, ElapsedMs: 65010, CapMs: 65000, CPUWaitMs: 20000, Code: CPUStarved},
			`{"event":"openclaw.model_probe","elapsedMs":65010,"capMs":65000,"cpuWaitMs":20000,"code":"MODEL_PROBE_CPU_STARVED"}`},
		{Record{Event: EventOpenClaw, CapMs: 65000, CPUWaitMs: -1, Code: ModelProbeFailed, Cause: Cause{Kind: CauseProbeStatus, Detail: "sk-live-x"}},
			`{"event":"openclaw.model_probe","elapsedMs":0,"capMs":65000,"cpuWaitMs":null,"code":"MODEL_PROBE_FAILED"}`},
	}
	for _, tt := range tests {
		b, err := json.Marshal(tt.rec)
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != tt.want {
			t.Errorf("got  %s\nwant %s", b, tt.want)
		}
	}
}
