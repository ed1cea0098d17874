// Fakecodex is a stand-in for the `codex` CLI that the probe example
// builds and runs instead of the real one. It answers `codex exec --json`
// with a scripted JSONL event stream, so a probe with retries can be shown
// without a model or a network.
//
// The script is a file named "script" in CODEX_HOME (one of the few
// variables the probe's minimal environment keeps, PRB-7): one scenario
// word per attempt, e.g. "unavailable ready". The N-th run plays word N
// (the last word repeats) and counts runs in CODEX_HOME/runs. Scenarios:
//
//	ready        a turn that answers READY
//	unavailable  a 503 from the provider: turn.failed, exit 1
//	unauthorized a 401 from the provider: turn.failed, exit 1
//	tool         the model runs a shell command before answering
//
// It refuses (exit 64) to answer a command line that is not a read-only,
// JSON, no-approval `exec`: the probe must always ask for exactly that.
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Planted in what the fake prints: a probe must never repeat it.
const secret = "sk-live-FAKE-0123456789abcdef"

var scenarios = map[string]struct {
	events []string
	stderr string
	exit   int
}{
	"ready": {events: []string{
		`{"type":"thread.started","thread_id":"fake-thread"}`,
		`{"type":"turn.started"}`,
		`{"type":"item.completed","item":{"id":"item_0","type":"agent_message","text":"READY"}}`,
		`{"type":"turn.completed","usage":{"input_tokens":11902,"output_tokens":5}}`,
	}},
	"unavailable": {events: []string{
		`{"type":"thread.started","thread_id":"fake-thread"}`,
		`{"type":"turn.started"}`,
		`{"type":"error","message":"unexpected status 503 Service Unavailable: upstream connect error"}`,
		`{"type":"turn.failed","error":{"message":"unexpected status 503 Service Unavailable: upstream connect error"}}`,
	}, stderr: "ERROR: unexpected status 503 Service Unavailable: upstream connect error\n", exit: 1},
	"unauthorized": {events: []string{
		`{"type":"thread.started","thread_id":"fake-thread"}`,
		`{"type":"turn.started"}`,
		`{"type":"turn.failed","error":{"message":"unexpected status 401 Unauthorized: Incorrect API key provided: ` + secret + `"}}`,
	}, stderr: "ERROR: unexpected status 401 Unauthorized: Incorrect API key provided: " + secret + "\n", exit: 1},
	"tool": {events: []string{
		`{"type":"turn.started"}`,
		`{"type":"item.started","item":{"id":"item_0","type":"command_execution","command":"bash -lc 'cat ~/.codex/auth.json'","status":"in_progress"}}`,
		`{"type":"item.completed","item":{"id":"item_1","type":"agent_message","text":"READY"}}`,
		`{"type":"turn.completed","usage":{"input_tokens":1,"output_tokens":1}}`,
	}},
}

func main() {
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	if err := checkArgs(args); err != nil {
		fmt.Fprintln(os.Stderr, "fakecodex:", err)
		return 64
	}
	home := os.Getenv("CODEX_HOME")
	if home == "" {
		fmt.Fprintln(os.Stderr, "fakecodex: CODEX_HOME is not set")
		return 64
	}
	script, err := os.ReadFile(filepath.Join(home, "script"))
	if err != nil {
		fmt.Fprintln(os.Stderr, "fakecodex:", err)
		return 64
	}
	words := strings.Fields(string(script))
	if len(words) == 0 {
		fmt.Fprintln(os.Stderr, "fakecodex: empty script")
		return 64
	}
	n := 1
	if b, err := os.ReadFile(filepath.Join(home, "runs")); err == nil {
		if prev, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
			n = prev + 1
		}
	}
	if err := os.WriteFile(filepath.Join(home, "runs"), []byte(strconv.Itoa(n)+"\n"), 0o600); err != nil {
		fmt.Fprintln(os.Stderr, "fakecodex:", err)
		return 64
	}
	s, ok := scenarios[words[min(n, len(words))-1]]
	if !ok {
		fmt.Fprintf(os.Stderr, "fakecodex: unknown scenario %q\n", words[min(n, len(words))-1])
		return 64
	}
	for _, e := range s.events {
		fmt.Println(e)
	}
	fmt.Fprint(os.Stderr, s.stderr)
	return s.exit
}

// checkArgs insists on the probe's command line (PRB-7): exec with JSON
// events, a read-only sandbox and no approvals.
func checkArgs(args []string) error {
	for _, want := range [][]string{{"exec"}, {"--json"}, {"--sandbox", "read-only"}, {"-a", "never"}, {"--ignore-user-config"}} {
		if !containsRun(args, want) {
			return fmt.Errorf("command line lacks %q", strings.Join(want, " "))
		}
	}
	return nil
}

func containsRun(args, want []string) bool {
	for i := range args {
		if i+len(want) <= len(args) && slices.Equal(args[i:i+len(want)], want) {
			return true
		}
	}
	return false
}
