package realgateway

import (
	"encoding/base64"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestConsole(t *testing.T) {
	tests := []struct {
		name        string
		out         string
		records     []Record
		stray       []string
		belowWarn   int
		belowLevelX int
	}{
		{"empty", "", nil, nil, 0, 0},
		{"records", `{"level":"info","message":"a"}` + "\n\n" + `{"level":"error","subsystem":"s","message":"b"}`,
			[]Record{{Level: "info", Message: "a"}, {Level: "error", Subsystem: "s", Message: "b"}}, nil, 1, 2},
		{"stray text", "│ box │\n" + `{"level":"warn","message":"c"}`, []Record{{Level: "warn", Message: "c"}}, []string{"│ box │"}, 0, 1},
		{"no level", `{"message":"d"}` + "\n" + `["level"]` + "\nnull", nil, []string{`{"message":"d"}`, `["level"]`, "null"}, 0, 0},
		{"unknown level", `{"level":"verbose","message":"e"}`, []Record{{Level: "verbose", Message: "e"}}, nil, 1, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			records, stray := Console([]byte(tt.out))
			if diff := cmp.Diff(tt.records, records); diff != "" {
				t.Errorf("records (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.stray, stray); diff != "" {
				t.Errorf("stray (-want +got):\n%s", diff)
			}
			if got := len(Below(records, "warn")); got != tt.belowWarn {
				t.Errorf("below warn: %d, want %d", got, tt.belowWarn)
			}
			// An unknown admitted level judges every record below it.
			if got := len(Below(records, "x")); got != tt.belowLevelX {
				t.Errorf("below x: %d, want %d", got, tt.belowLevelX)
			}
		})
	}
}

func TestLeaks(t *testing.T) {
	const s = "sk-occkit/secret+1=2\"q"
	for name, out := range map[string]string{
		"raw":         "token " + s,
		"json":        `{"t":"sk-occkit/secret+1=2\"q"}`,
		"url":         "?key=" + url.QueryEscape(s),
		"base64":      base64.StdEncoding.EncodeToString([]byte(s)),
		"base64 url":  base64.RawURLEncoding.EncodeToString([]byte(s)),
		"not present": "",
	} {
		t.Run(name, func(t *testing.T) {
			got := Leaks([]byte(out), []string{s, ""})
			if want := name != "not present"; (len(got) == 1) != want {
				t.Errorf("Leaks(%q) = %q", out, got)
			}
		})
	}
}

func TestProblems(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("gateway.stdout", `{"level":"info","message":"gateway ready"}`+"\n")
	write("gateway.stderr", "")
	write("harness.stdout", `{"level":"debug","message":"token sk-1"}`+"\nplain\n")
	write("harness.stderr", "")
	spec := Spec{LogDir: dir, Processes: []Process{{Role: "gateway", Port: 1}, {Role: "harness"}}}
	good := ProcessReport{Role: "gateway", LiveMs: 1, ReadyMs: 2, Exit: "exit 0", StopMs: 3}
	tests := []struct {
		name string
		rep  Report
		want int
	}{
		{"clean gateway, noisy harness", Report{Processes: []ProcessReport{good,
			{Role: "harness", LiveMs: -1, ReadyMs: -1, Exit: "exit 0", StopMs: 4}}}, 3},
		{"gateway never ready, killed, leftover", Report{Processes: []ProcessReport{
			{Role: "gateway", LiveMs: -1, ReadyMs: -1, Exit: "signal killed", StopMs: -1}},
			Leftover: []string{"7 node worker.js"}}, 3},
		{"ready gateway killed after the stop timeout", Report{Processes: []ProcessReport{
			{Role: "gateway", LiveMs: 1, ReadyMs: 2, Exit: "signal killed", StopMs: -1}}}, 1},
		{"ready gateway died of SIGTERM", Report{Processes: []ProcessReport{
			{Role: "gateway", LiveMs: 1, ReadyMs: 2, Exit: "signal terminated", StopMs: 5}}}, 1},
		{"gateway ended early", Report{Processes: []ProcessReport{
			{Role: "gateway", LiveMs: -1, ReadyMs: -1, ExitedEarly: true, Exit: "exit 78", StopMs: -1}}}, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Problems(spec, tt.rep, Expect{Level: "info", Secrets: []string{"sk-1"}})
			if len(got) != tt.want {
				t.Errorf("%d problems, want %d: %q", len(got), tt.want, got)
			}
		})
	}
}

// TestProblemsStatedExceptions: lines a process writes outside its
// logger are reported apart (and only those), and an end after SIGTERM
// counts as clean only when the process states it.
func TestProblemsStatedExceptions(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "harness.stderr"), []byte("node host gateway closed (1006): \n"+`{"level":"info","message":"up"}`+"\nnode host gateway connect failed\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	rep := Report{Processes: []ProcessReport{{Role: "harness", LiveMs: -1, ReadyMs: -1, Exit: "exit 143", StopMs: 9}}}
	tests := []struct {
		name string
		p    Process
		want []string
	}{
		{"nothing stated", Process{Role: "harness"}, []string{
			`harness: 2 console lines are not JSON records, first "node host gateway closed (1006):"`,
			"harness: did not stop cleanly on SIGTERM (exit 143, 9 ms)"}},
		{"stated", Process{Role: "harness", OutsideLogger: "^node host ", StopExits: []string{"exit 0", "exit 143"}}, []string{
			`harness: 2 console lines written outside its logger, first "node host gateway closed (1006):"`}},
		{"other lines stay refused", Process{Role: "harness", OutsideLogger: "^node host gateway closed", StopExits: []string{"exit 143"}}, []string{
			`harness: 1 console lines are not JSON records, first "node host gateway connect failed"`,
			`harness: 1 console lines written outside its logger, first "node host gateway closed (1006):"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Problems(Spec{LogDir: dir, Processes: []Process{tt.p}}, rep, Expect{Level: "info"})
			if !slices.Equal(got, tt.want) {
				t.Errorf("got %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestSplit(t *testing.T) {
	problems := []string{
		"harness: 3 console lines are not JSON records, first \"x\"",
		"harness: 1 secret values appear in its output",
		"gateway: did not stop cleanly on SIGTERM (signal killed, -1 ms)",
	}
	unexpected, expected := Split(problems, []string{`^harness: \d+ console lines are not JSON records`, `\(signal killed`})
	if diff := cmp.Diff([]string{problems[1]}, unexpected); diff != "" {
		t.Errorf("unexpected (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{problems[0], problems[2]}, expected); diff != "" {
		t.Errorf("expected (-want +got):\n%s", diff)
	}
}
